#!/bin/sh
# The MPI-facing-form benchmark (docs/mpi-forms.md, "Benchmark"): MPI_Pack
# under MPICH of every type as given, in ddtc's normal form and in its
# MPI-facing form, for the seed-000 (docs/design.md#references) layouts (A = 2, 10, 100, 1000)
# as the paper's Variant 1 builds them and in every description its GL4
# tests 5-11 compare (test/Passes/Inputs/seed000.py, 64 units), the
# DDTBench corpus, the traces of examples/traces and random types; prints
# the table and its summary (bench/forms/mpi-forms-summary.py) and writes
# BUILD_DIR/bench/mpi-forms/results.json, from which
# bench/forms/mpi-forms-plot.py draws the figure.
#
#   sh bench/forms/mpi-forms.sh BUILD_DIR [ddtc-mpiform-bench options...]
#
# BUILD_DIR holds bench/ddtc-mpiform-bench (a Release build with
# DDTC_ENABLE_MPI). Default options: --runs 5 --random 60.
set -e
build=$(cd "${1:?usage: mpi-forms.sh BUILD_DIR [options]}" && pwd)
shift
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
out=$build/bench/mpi-forms
mkdir -p "$out"
python3 "$src/test/MPI/Inputs/seed000-layouts.py" 2 10 100 1000 >"$out/seed000.json"
for a in 2 10 100 1000; do
  python3 "$src/test/Passes/Inputs/seed000.py" $a >"$out/seed000-gl4-A$a.json"
done
[ $# -gt 0 ] || set -- --runs 5 --random 60
"$build/bench/ddtc-mpiform-bench" "$out/seed000.json" "$out"/seed000-gl4-A*.json \
  "$src"/corpus/ddtbench/*.json "$src"/examples/traces/*.json \
  --json "$out/results.json" "$@"
echo
python3 "$src/bench/forms/mpi-forms-summary.py" "$out/results.json"
