#!/bin/sh
# The cost of libddtc_trace.so per MPI call (docs/runtime.md, "Tracing"):
# runs trace-overhead.cpp with MPICH on one rank, plain and with the
# trace library preloaded, alternately RUNS times, and prints per case the
# best time per iteration of each and their difference (the best of several
# runs, because a shared machine only ever adds time).
#
#   sh bench/runtime/trace-overhead.sh BUILD_DIR [ITERATIONS [RUNS]]
#
# BUILD_DIR holds bench/ddtc-trace-overhead and lib/Runtime/libddtc_trace.so
# (configured with DDTC_ENABLE_MPI).
set -e
build=$(cd "${1:?usage: trace-overhead.sh BUILD_DIR [ITERATIONS [RUNS]]}" && pwd)
iterations=${2:-1000000}
runs=${3:-5}
bench=$build/bench/ddtc-trace-overhead
lib=$build/lib/Runtime/libddtc_trace.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for run in $(seq "$runs"); do
  mpiexec.mpich -n 1 "$bench" "$iterations" >> "$tmp/plain"
  mpiexec.mpich -n 1 env LD_PRELOAD="$lib" DDTC_TRACE="$tmp/trace.json" \
    "$bench" "$iterations" >> "$tmp/traced"
done
best() {
  awk '!($1 in m) || $2 < m[$1] { m[$1] = $2 } END { for (c in m) print c, m[c] }' "$1" | sort
}
best "$tmp/plain" > "$tmp/plain.best"
best "$tmp/traced" > "$tmp/traced.best"
printf '%-16s %10s %10s %10s\n' case plain-ns traced-ns overhead-ns
join "$tmp/plain.best" "$tmp/traced.best" |
  awk '{ printf "%-16s %10.1f %10.1f %10.1f\n", $1, $2, $3, $3 - $2 }'
