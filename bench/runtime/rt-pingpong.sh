#!/bin/sh
# The benchmark of libddtc_rt.so (docs/performance.md, "Runtime
# substitution"): the same MPI program (RtPingPong.cpp, which knows
# nothing of ddtc's kernels) run plain and with the runtime preloaded, on
# 2 ranks with MPICH.
#
#   sh bench/runtime/rt-pingpong.sh BUILD_DIR [RUNS]
#
# 1. Emits the kernels of every file of the DDTBench corpus (`ddtc emit`,
#    one `g++ -O2 -shared -fPIC` library per file, all given to
#    DDTC_KERNELS).
# 2. Ping-pong of one instance of every corpus type: RUNS (default 10)
#    pairs of mpiexec calls, plain and under the runtime one after the
#    other (which goes first alternates), each a run of seed 000's (docs/design.md#references) method
#    (--runs 1: the median of nrep ping-pongs). Over the RUNS runs: the
#    median, mean, min and max of those medians; speedup = plain median /
#    runtime median; the geometric mean of the speedups. The table says
#    per type whether the runtime's report shows it substituted, or why not
#    (the runtime's settings, e.g. DDTC_RT_TYPED_BLOCKS, pass through mpiexec).
# 3. Commit: MPI_Type_commit of every corpus type, plain and under the
#    runtime, on 1 rank, RUNS pairs of runs: the first commit of each type
#    in the process (under the runtime: decode, normalize, look up), then 5
#    more (which may find the layout key cached).
# 4. Per-call overhead on a type without a kernel: a vector of 2 doubles,
#    10,000 ping-pongs per run, plain and under the runtime with the kernel
#    library of another file (NAS_LU_x); the report must show the type
#    passed through.
#
# Prints the tables (rt-pingpong-summary.py); writes
# docs/figures/rt-pingpong.csv and draws
# docs/figures/rt-pingpong.png and .svg (PYTHON, default /usr/bin/python3,
# with matplotlib: apt-get install python3-matplotlib); RT_PINGPONG_OUT=PREFIX
# writes PREFIX.csv, .png, .svg instead (for experiments, e.g. with
# UCX_RNDV_THRESH set: mpiexec passes the environment on). The raw
# outputs of every run stay in BUILD_DIR/bench/rt-pingpong/.
#
# BUILD_DIR holds tools/ddtc/ddtc, bench/ddtc-rt-pingpong and
# lib/Runtime/libddtc_rt.so (configured with DDTC_ENABLE_MPI; e.g.
# cmake --build build --target ddtc ddtc_rt ddtc-rt-pingpong).
set -e
build=$(cd "${1:?usage: rt-pingpong.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-10}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
corpus=$src/corpus/ddtbench
out=$build/bench/rt-pingpong
ddtc=$build/tools/ddtc/ddtc
bench=$build/bench/ddtc-rt-pingpong
rt=$build/lib/Runtime/libddtc_rt.so
fig=${RT_PINGPONG_OUT:-$src/docs/figures/rt-pingpong}
rm -rf "$out"
mkdir -p "$out" "$(dirname "$fig")"

kernels=$(sh "$src/bench/runtime/corpus-kernels.sh" "$ddtc" "$corpus" "$out")
cat > "$out/small.json" <<'EOF'
{"ddtc": 1, "types": [{"name": "vector2_double", "kind": "vector", "count": 2,
  "blocklength": 1, "stride": 2, "oldtype": "MPI_DOUBLE"}]}
EOF

mpich=$(mpichversion | sed -n 's/^MPICH \(Version\|Device\):[[:space:]]*//p' | tr -d '\t' | tr '\n' ' ')
echo "# $(bench_machine); MPICH ${mpich}; runs: $runs"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# One run of MODE (plain or rt) with KERNELS, ranks NP, output OUT.
run() {
  mode=$1 libs=$2 np=$3 output=$4
  shift 4
  if [ "$mode" = plain ]; then
    mpiexec.mpich -n "$np" "$bench" "$@" > "$output"
  else
    mpiexec.mpich -n "$np" env LD_PRELOAD="$rt" DDTC_KERNELS="$libs" \
      DDTC_RT_REPORT="$output.report-%r.json" "$bench" "$@" > "$output"
  fi
}
# RUNS pairs of runs, plain and runtime, alternating which goes first.
pairs() {
  tag=$1 libs=$2 np=$3
  shift 3
  for i in $(seq "$runs"); do
    for mode in $(bench_rotate "$i" plain rt); do
      run "$mode" "$libs" "$np" "$out/$tag-$mode-$i.csv" "$@"
    done
  done
}

pairs pingpong "$kernels" 2 --runs 1 "$corpus"/*.json
pairs commit "$kernels" 1 --commit --runs 1 --commit-reps 5 "$corpus"/*.json
pairs overhead "$out/NAS_LU_x.so" 2 --runs 1 --nrep 10000 "$out/small.json"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"

"${PYTHON:-/usr/bin/python3}" "$src/bench/runtime/rt-pingpong-summary.py" "$out" "$runs" "$fig"
