#!/bin/sh
# MPI-facing forms for sends (docs/mpi-forms.md, "Uses: forms for sends"):
# ping-pong under MPICH of every type as given (`mpi`) and in the form
# ddtc_NAME_build hands MPI (`mpi-normalized`), for types a trace shows sent
# and received point to point only -- the DDTBench corpus, each type given
# the x-uses of a program that sends one instance with MPI_Send and receives
# it with MPI_Recv (as DDTBench's ping-pong does), and the point-to-point
# traces of examples/traces (halo3d, particles; their own x-uses).
# ddtc-bench checks every variant's receive buffers against `mpi`'s first.
# Prints t(given)/t(MPI-facing) per type, marks the rewritten ones, and the
# geometric means (mpi-forms-sends-summary.py); the results stay in
# BUILD_DIR/bench/mpi-forms-sends/, from which the summary runs again.
#
#   sh bench/forms/mpi-forms-sends.sh BUILD_DIR [RUNS]
#
# BUILD_DIR holds tools/ddtc/ddtc and tools/ddtc-bench/ddtc-bench
# (configured with DDTC_ENABLE_MPI).
set -e
build=$(cd "${1:?usage: mpi-forms-sends.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-5}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
out=$build/bench/mpi-forms-sends
mkdir -p "$out"
bench="mpiexec.mpich -n 2 $build/tools/ddtc-bench/ddtc-bench"

python3 - "$src/corpus/ddtbench" "$out" <<'PY'
import glob, json, os, sys
corpus, out = sys.argv[1], sys.argv[2]
for path in sorted(glob.glob(corpus + "/*.json")):
    d = json.load(open(path))
    for t in d["types"]:
        t["x-uses"] = [{"op": op, "count": 1, "calls": 1, "bytes": 0}
                       for op in ("MPI_Send", "MPI_Recv")]
    json.dump(d, open(os.path.join(out, "sends-" + os.path.basename(path)), "w"))
PY
for f in "$out"/sends-*.json "$src/examples/traces/halo3d.json" \
         "$src/examples/traces/particles.json"; do
  name=$(basename "$f" .json)
  $bench "$f" --uses --ops pingpong --variants mpi,mpi-normalized \
    --runs "$runs" --json "$out/result-$name.json" -q
  "$build/tools/ddtc/ddtc" analyze "$f" --format json > "$out/analyze-$name.json"
done

python3 "$src/bench/forms/mpi-forms-sends-summary.py" "$out"
