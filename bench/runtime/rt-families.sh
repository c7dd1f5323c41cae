#!/bin/sh
# The runtime under each MPI family (docs/performance.md, "The runtime under
# MPICH and Open MPI"): the ping-pong of one instance of every corpus type
# (RtPingPong.cpp, a plain MPI program), plain and under the runtime, with
# MPICH and with Open MPI, in one run of the benchmark, 2 ranks.
#
#   sh bench/runtime/rt-families.sh BUILD_DIR [RUNS]
#
# 1. Per family, the way a user gets kernels: the program runs once under
#    that family's trace library; `ddtc emit` writes the kernels of rank 0's
#    trace and `g++ -O2 -shared -fPIC` compiles them.
# 2. RUNS launches of each of the four ways (MPICH plain and runtime, Open
#    MPI plain and runtime), rotating their order launch by launch
#    (bench/lib.sh). The runtime runs with the settings it chooses itself
#    (measured at the first launch on this machine if none are stored, as
#    a new user gets them: docs/runtime.md, "Settings").
# 3. rt-families-summary.py: per type and family the median over the
#    launches of each launch's median round trip, speedup = plain /
#    runtime, the bound and the floor (step 4), and per family the
#    geometric mean and the lowest speedup;
#    writes FIGURE.csv, .png and .svg (default docs/figures/rt-families;
#    RT_FAMILIES_OUT=PREFIX elsewhere). Raw outputs stay in
#    BUILD_DIR/bench/rt-families/.
#
# BUILD_DIR holds tools/ddtc/ddtc, bench/ddtc-rt-pingpong(-openmpi) and
# lib/Runtime/libddtc_{trace,rt}{,_openmpi}.so (cmake --build build
# --target ddtc ddtc_trace ddtc_rt ddtc_trace_openmpi ddtc_rt_openmpi
# ddtc-rt-pingpong ddtc-rt-pingpong-openmpi). As root, Open MPI's launcher
# needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
set -e
build=$(cd "${1:?usage: rt-families.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-10}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
corpus=$src/corpus/ddtbench
out=$build/bench/rt-families
ddtc=$build/tools/ddtc/ddtc
fig=${RT_FAMILIES_OUT:-$src/docs/figures/rt-families}
rm -rf "$out"
mkdir -p "$out" "$(dirname "$fig")"

# FAMILY's launcher, program and library suffix.
launcher() { [ "$1" = mpich ] && echo "mpiexec.mpich" || echo "mpiexec.openmpi --oversubscribe"; }
program() { [ "$1" = mpich ] && echo "$build/bench/ddtc-rt-pingpong" || echo "$build/bench/ddtc-rt-pingpong-openmpi"; }
suffix() { [ "$1" = mpich ] && echo "" || echo "_openmpi"; }

mpich=$(mpichversion | sed -n 's/^MPICH Version:[[:space:]]*//p' | tr -d '\t')
ompi=$(ompi_info --version 2>/dev/null | sed -n 's/^Open MPI v//p')
echo "# $(bench_machine); MPICH $mpich, Open MPI $ompi; runs: $runs"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"

for family in mpich openmpi; do
  # shellcheck disable=SC2046 # the launcher's words
  $(launcher $family) -n 2 env \
    LD_PRELOAD="$build/lib/Runtime/libddtc_trace$(suffix $family).so" \
    DDTC_TRACE="$out/trace-$family-%r.json" \
    "$(program $family)" --runs 1 "$corpus"/*.json > /dev/null
  "$ddtc" emit "$out/trace-$family-0.json" -o "$out/kernels-$family"
  g++ -O2 -shared -fPIC "$out/kernels-$family.cpp" -o "$out/kernels-$family.so"
done

# One launch of WAY (FAMILY-plain or FAMILY-rt) into OUTPUT.
launch() {
  family=${1%-*} mode=${1#*-} output=$2
  if [ "$mode" = plain ]; then
    # shellcheck disable=SC2046
    $(launcher "$family") -n 2 "$(program "$family")" --runs 1 \
      "$corpus"/*.json > "$output"
  else
    # shellcheck disable=SC2046
    $(launcher "$family") -n 2 env \
      LD_PRELOAD="$build/lib/Runtime/libddtc_rt$(suffix "$family").so" \
      DDTC_KERNELS="$out/kernels-$family.so" \
      DDTC_RT_REPORT="$output.report-%r.json" \
      "$(program "$family")" --runs 1 "$corpus"/*.json > "$output"
  fi
}
for i in $(seq "$runs"); do
  for way in $(bench_rotate "$i" mpich-plain mpich-rt openmpi-plain openmpi-rt); do
    launch "$way" "$out/$way-$i.csv"
  done
done
# 4. The floor of packing schemes per family: RUNS runs of the ping-pong in
#    one piece (--pieces 1G), the type through MPI beside its bytes copied
#    with one memcpy from and to contiguous buffers (packing at memcpy
#    speed: no kernel is faster), with a memcpy per contiguous run of its
#    layout, and (--split, the window the runtime's first launch reported)
#    copied and sent in two blocks as the runtime sends a packed message
#    (RtPingPong.cpp, "Floor"). Three launches per family, alternating.
window() {
  "${PYTHON:-/usr/bin/python3}" -c 'import json, sys
print(json.load(open(sys.argv[1]))["settings"]["split_send"])' \
    "$out/$1-rt-1.csv.report-0.json"
}
for i in 1 2 3; do
  for family in $(bench_rotate "$i" mpich openmpi); do
    split=$(window "$family")
    [ "$split" = off ] && split_opt="" || split_opt="--split $split"
    # shellcheck disable=SC2046,SC2086 # the launcher's words, the option
    $(launcher "$family") -n 2 "$(program "$family")" --pieces 1073741824 \
      $split_opt --runs "$runs" "$corpus"/*.json > "$out/$family-floor-$i.csv"
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"

"${PYTHON:-/usr/bin/python3}" "$src/bench/runtime/rt-families-summary.py" \
  "$out" "$runs" "$fig" "MPICH $mpich" "Open MPI $ompi"
