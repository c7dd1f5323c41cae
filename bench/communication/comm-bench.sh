#!/bin/sh
# The communication benchmarks of docs/performance.md ("Communication:
# ddtc-bench"): ddtc-bench with 2 ranks (MPICH) on
#   1. the basic layouts of seed 000 (docs/design.md#references) (examples/seed000-layouts.json:
#      Variant 1 for A = 2, 10, 100, 1000, about 4096 MPI_INT per message);
#   2. the DDTBench corpus (corpus/ddtbench, every file);
#   3. the traces of the example applications (examples/traces, --uses);
# every operation and variant, RUNS runs (default 5) in each of LAUNCHES
# mpiexec launches of the whole set (default 1). With several launches a
# case's time is the median over launches of each launch's median
# (comm-merge.py): this VM runs a whole launch fast or slow, so one launch
# is one draw. Writes each launch's results to
# BUILD_DIR/bench/comm/launch-K/, the merged ones to BUILD_DIR/bench/comm/
# and the figures to docs/figures/comm-*.{png,svg} (COMM_BENCH_OUT=DIR
# elsewhere), and prints the summary (comm-summary.py).
# COMM_BENCH_TAG=T names them comm-T-* instead, for runs under other
# settings (mpiexec passes the environment on, e.g. UCX_RNDV_THRESH=inf).
#
#   sh bench/communication/comm-bench.sh BUILD_DIR [RUNS [LAUNCHES]]
#
# BUILD_DIR holds tools/ddtc/ddtc, tools/ddtc-bench/ddtc-bench and
# tools/ddtc-plot/ddtc-plot (configured with DDTC_ENABLE_MPI).
set -e
build=$(cd "${1:?usage: comm-bench.sh BUILD_DIR [RUNS [LAUNCHES]]}" && pwd)
runs=${2:-5}
launches=${3:-1}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
corpus=$src/corpus/ddtbench
tag=${COMM_BENCH_TAG:+$COMM_BENCH_TAG-}
out=$build/bench/comm${COMM_BENCH_TAG:+-$COMM_BENCH_TAG}
fig=${COMM_BENCH_OUT:-$src/docs/figures}
ddtc=$build/tools/ddtc/ddtc
bench="mpiexec.mpich -n 2 $build/tools/ddtc-bench/ddtc-bench"
mkdir -p "$out" "$fig"

# One launch: every file, each ddtc-bench call its own mpiexec, into DIR.
launch() {
  dir=$1
  mkdir -p "$dir"
  $bench "$src/examples/seed000-layouts.json" --runs "$runs" --json "$dir/seed000.json" -q
  for f in "$corpus"/*.json; do
    $bench "$f" --runs "$runs" --json "$dir/corpus-$(basename "$f")" -q
  done
  python3 - "$dir" <<'PY'
import glob, json, sys
out = sys.argv[1]
parts = [json.load(open(p)) for p in sorted(glob.glob(out + "/corpus-*.json"))]
merged = dict(parts[0])
merged["file"] = "DDTBench corpus"
merged["results"] = [r for p in parts for r in p["results"]]
merged["skipped"] = [s for p in parts for s in p["skipped"]]
json.dump(merged, open(out + "/corpus.json", "w"), indent=1)
PY
  for app in halo3d particles transpose; do
    $bench "$src/examples/traces/$app.json" --uses --runs "$runs" --json "$dir/$app.json" -q
  done
  python3 - "$dir" <<'PY'
import json, sys
out = sys.argv[1]
parts = [json.load(open("%s/%s.json" % (out, a))) for a in ("halo3d", "particles", "transpose")]
merged = dict(parts[0])
merged["file"] = "examples/traces (halo3d, particles, transpose)"
merged["results"] = [dict(r, type="%s:%s" % (a, r["type"])) for a, p in
                     zip(("halo3d", "particles", "transpose"), parts) for r in p["results"]]
json.dump(merged, open(out + "/apps.json", "w"), indent=1)
PY
}

rm -rf "$out"/launch-*
k=1
while [ "$k" -le "$launches" ]; do
  [ "$launches" -gt 1 ] && echo "comm-bench.sh: launch $k of $launches" >&2
  launch "$out/launch-$k"
  k=$((k + 1))
done
for f in seed000 corpus halo3d particles transpose apps; do
  python3 "$src/bench/communication/comm-merge.py" "$out/$f.json" "$out"/launch-*/"$f.json"
done

"$ddtc" plot "$out/seed000.json" -o "$fig/comm-${tag}seed000.png" --title "seed 000 layouts (Variant 1), ~16 KiB, 2 ranks, MPICH 4.0.2"
"$ddtc" plot "$out/seed000.json" -o "$fig/comm-${tag}seed000.svg" --title "seed 000 layouts (Variant 1), ~16 KiB, 2 ranks, MPICH 4.0.2"
"$ddtc" plot "$out/corpus.json" -o "$fig/comm-${tag}corpus.png" --title "DDTBench corpus, count 1, 2 ranks, MPICH 4.0.2"
"$ddtc" plot "$out/corpus.json" -o "$fig/comm-${tag}corpus.svg" --title "DDTBench corpus, count 1, 2 ranks, MPICH 4.0.2"
"$ddtc" plot "$out/apps.json" -o "$fig/comm-${tag}apps-speedup.png" --title "example applications, traced and replayed: speedup of ddtc over mpi, 2 ranks"
"$ddtc" plot "$out/apps.json" -o "$fig/comm-${tag}apps-speedup.svg" --title "example applications, traced and replayed: speedup of ddtc over mpi, 2 ranks"
"$ddtc" plot "$out/halo3d.json" --kind bars --types x_send_low,x_recv_low,y_send_low,z_send_low -o "$fig/comm-${tag}halo3d.png"

python3 "$src/bench/communication/comm-summary.py" "$out/seed000.json" "$out/corpus.json" \
  "$out/halo3d.json" "$out/particles.json" "$out/transpose.json"
