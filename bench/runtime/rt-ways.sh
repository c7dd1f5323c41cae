#!/bin/sh
# The runtime's corpus ping-pong run several ways in rotating order, for the
# benchmarks that compare settings (rt-settings.sh, rt-forms.sh):
#
#   sh bench/runtime/rt-ways.sh BUILD_DIR OUT ITERATIONS WAY...
#
# The program of rt-pingpong.sh (RtPingPong.cpp, one instance of
# every corpus type, 2 ranks, MPICH), once per WAY in each of ITERATIONS
# iterations, the ways in rotating order so that the VM's slow and fast
# spells (docs/performance.md) fall on all alike. A WAY is `plain` (no
# runtime) or NAME[:VAR=VALUE,...]: under libddtc_rt.so with the corpus's
# kernels in DDTC_KERNELS (`DDTC_KERNELS=` among the settings: none), the
# settings added to the environment and the report written to
# OUT/NAME-report-%r.json. Prints per type the median over iterations of
# each way's round trip and the speedups over the first way, and their
# geometric means (rt-ways-summary.py). The raw outputs stay in
# BUILD_DIR/bench/OUT/.
#
# BUILD_DIR holds tools/ddtc/ddtc, bench/ddtc-rt-pingpong and
# lib/Runtime/libddtc_rt.so.
set -e
usage="usage: rt-ways.sh BUILD_DIR OUT ITERATIONS WAY..."
build=$(cd "${1:?$usage}" && pwd)
out=$build/bench/${2:?$usage}
iterations=${3:?$usage}
shift 3
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
corpus=$src/corpus/ddtbench
bench=$build/bench/ddtc-rt-pingpong
rt=$build/lib/Runtime/libddtc_rt.so
rm -rf "$out"
mkdir -p "$out"

kernels=$(sh "$src/bench/runtime/corpus-kernels.sh" "$build/tools/ddtc/ddtc" \
  "$corpus" "$out")

echo "# $(bench_machine); iterations: $iterations"
for way in "$@"; do echo "# way: $way"; done
names=
for way in "$@"; do names="$names $(bench_way_name "$way")"; done
for i in $(seq "$iterations"); do
  for way in $(bench_rotate "$i" "$@"); do
    name=$(bench_way_name "$way")
    if [ "$name" = plain ]; then
      mpiexec.mpich -n 2 "$bench" --runs 1 "$corpus"/*.json > "$out/$name-$i.csv"
    else
      settings=$(bench_way_settings "$way")
      # shellcheck disable=SC2086 # the settings are words on purpose
      mpiexec.mpich -n 2 env LD_PRELOAD="$rt" DDTC_KERNELS="$kernels" \
        DDTC_RT_REPORT="$out/$name-report-%r.json" $settings \
        "$bench" --runs 1 "$corpus"/*.json > "$out/$name-$i.csv"
    fi
  done
done
# shellcheck disable=SC2086
"${PYTHON:-/usr/bin/python3}" "$src/bench/runtime/rt-ways-summary.py" "$out" $names
