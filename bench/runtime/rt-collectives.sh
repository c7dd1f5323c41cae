#!/bin/sh
# Collectives and persistent requests under the runtime (docs/performance.md,
# "Collectives and persistent requests"): every operation of
# ddtc-rt-pingpong (RtPingPong.cpp, a plain MPI program; --op) on one
# instance per peer of every corpus type, plain and under the runtime,
# MPICH, 2 ranks.
#
#   sh bench/runtime/rt-collectives.sh BUILD_DIR [RUNS]
#
# 1. Per operation, the way a user gets kernels: the program runs once
#    under libddtc_trace.so (a short run: the kernels depend on the types
#    and their uses, not on how often they are used); `ddtc emit` writes
#    the kernels of rank 0's trace and `g++ -O2 -shared -fPIC` compiles
#    them.
# 2. RUNS rounds; in each, every operation once plain and once under the
#    runtime, one launch each. The operations' order rotates round by
#    round and plain and runtime alternate which goes first (bench/lib.sh),
#    so that the two launches compared are adjacent in time. The runtime
#    runs with the settings it chooses itself (docs/runtime.md,
#    "Settings").
# 3. rt-collectives-summary.py: per operation and type the median over the
#    launches of each launch's median time, the speedup (plain / runtime
#    within each round, the median over the rounds), the bound (plain over
#    the same bytes as MPI_BYTE through the same operation), and per
#    operation the geometric mean and the lowest speedup and the targets;
#    writes FIGURE.csv, .png and .svg (default
#    docs/figures/rt-collectives; RT_COLLECTIVES_OUT=PREFIX elsewhere).
#    Raw outputs stay in BUILD_DIR/bench/rt-collectives/.
#    RT_COLLECTIVES_OPS="OP..." runs those operations only.
#
# BUILD_DIR holds tools/ddtc/ddtc, bench/ddtc-rt-pingpong and
# lib/Runtime/libddtc_{trace,rt}.so (cmake --build build --target ddtc
# ddtc_trace ddtc_rt ddtc-rt-pingpong).
set -e
build=$(cd "${1:?usage: rt-collectives.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-5}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
corpus=$src/corpus/ddtbench
out=$build/bench/rt-collectives
ddtc=$build/tools/ddtc/ddtc
program=$build/bench/ddtc-rt-pingpong
fig=${RT_COLLECTIVES_OUT:-$src/docs/figures/rt-collectives}
ops=${RT_COLLECTIVES_OPS:-"pingpong pingpong-persistent alltoall alltoallw gather scatter neighbor-alltoallw"}
rm -rf "$out"
mkdir -p "$out" "$(dirname "$fig")"

mpich=$(mpichversion | sed -n 's/^MPICH Version:[[:space:]]*//p' | tr -d '\t')
echo "# $(bench_machine); MPICH $mpich; runs: $runs"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"

for op in $ops; do
  mpiexec.mpich -n 2 env LD_PRELOAD="$build/lib/Runtime/libddtc_trace.so" \
    DDTC_TRACE="$out/trace-$op-%r.json" \
    "$program" --op "$op" --runs 1 --nrep 2 "$corpus"/*.json > /dev/null \
    2> "$out/trace-$op.err"
  "$ddtc" emit "$out/trace-$op-0.json" -o "$out/kernels-$op"
  g++ -O2 -shared -fPIC "$out/kernels-$op.cpp" -o "$out/kernels-$op.so"
done

# The types an operation leaves out, once (every launch says it again, in
# OUTPUT.err).
cat "$out"/trace-*.err | sort -u

# One launch of OP, MODE plain or rt, into OUTPUT (its notes OUTPUT.err).
launch() {
  op=$1 mode=$2 output=$3
  if [ "$mode" = plain ]; then
    mpiexec.mpich -n 2 "$program" --op "$op" --runs 1 "$corpus"/*.json \
      > "$output" 2> "$output.err"
  else
    mpiexec.mpich -n 2 env LD_PRELOAD="$build/lib/Runtime/libddtc_rt.so" \
      DDTC_KERNELS="$out/kernels-$op.so" \
      DDTC_RT_REPORT="$output.report-%r.json" \
      "$program" --op "$op" --runs 1 "$corpus"/*.json > "$output" \
      2> "$output.err"
  fi
}
for i in $(seq "$runs"); do
  # shellcheck disable=SC2086 # the operations are words
  for op in $(bench_rotate "$i" $ops); do
    for mode in $(bench_rotate "$i" plain rt); do
      launch "$op" "$mode" "$out/$mode.$op-$i.csv"
    done
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# shellcheck disable=SC2086
"${PYTHON:-/usr/bin/python3}" "$src/bench/runtime/rt-collectives-summary.py" \
  "$out" "$fig" "MPICH $mpich" $ops
