#!/bin/sh
# Forms for sends at run time (DDTC_RT_FORMS=sends, docs/runtime.md "Forms
# for sends"): the runtime without any kernel, handing MPICH a faster form of
# each type in point-to-point calls, against the plain program and against
# the runtime with the corpus's kernels (docs/performance.md, "Runtime
# substitution"):
#
#   sh bench/rt-forms.sh BUILD_DIR [ITERATIONS]
#
# The program of bench/rt-pingpong.sh (bench/RtPingPong.cpp, one instance of
# every corpus type, 2 ranks, MPICH) run three ways -- plain, runtime with
# forms only (no DDTC_KERNELS), runtime with kernels -- ITERATIONS times
# (default 20), in rotating order. Prints per type the median over
# iterations of each way's round trip and the speedups over plain, and
# their geometric means (bench/rt-ways-summary.py).
#
# BUILD_DIR holds tools/ddtc/ddtc, bench/ddtc-rt-pingpong and
# lib/Runtime/libddtc_rt.so. The raw outputs stay in BUILD_DIR/bench/rt-forms/.
set -e
build=$(cd "${1:?usage: rt-forms.sh BUILD_DIR [ITERATIONS]}" && pwd)
iterations=${2:-20}
src=$(cd "$(dirname "$0")/.." && pwd)
corpus=$src/../shared/corpus/ddtbench
out=$build/bench/rt-forms
bench=$build/bench/ddtc-rt-pingpong
rt=$build/lib/Runtime/libddtc_rt.so
rm -rf "$out"
mkdir -p "$out"

kernels=$(sh "$src/bench/corpus-kernels.sh" "$build/tools/ddtc/ddtc" "$corpus" "$out")

echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; iterations: $iterations"
for i in $(seq "$iterations"); do
  case $((i % 3)) in
    0) order="plain forms kernels" ;;
    1) order="forms kernels plain" ;;
    *) order="kernels plain forms" ;;
  esac
  for way in $order; do
    case $way in
      plain) mpiexec.mpich -n 2 "$bench" --runs 1 "$corpus"/*.json ;;
      forms) mpiexec.mpich -n 2 env LD_PRELOAD="$rt" DDTC_RT_FORMS=sends \
        DDTC_RT_REPORT="$out/forms-report-%r.json" "$bench" --runs 1 "$corpus"/*.json ;;
      kernels) mpiexec.mpich -n 2 env LD_PRELOAD="$rt" DDTC_KERNELS="$kernels" \
        "$bench" --runs 1 "$corpus"/*.json ;;
    esac > "$out/$way-$i.csv"
  done
done
echo "# types sent in a form (runtime report, rank 0):"
"${PYTHON:-/usr/bin/python3}" -c '
import json, sys
for t in json.load(open(sys.argv[1]))["types"]:
    if "form" in t:
        print("#   %s: %s" % (t["name"], t["form"]))' "$out/forms-report-0.json"
"${PYTHON:-/usr/bin/python3}" "$src/bench/rt-ways-summary.py" "$out" plain forms kernels
