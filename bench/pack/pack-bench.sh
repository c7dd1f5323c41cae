#!/bin/sh
# The pack/unpack benchmark (docs/performance.md, "Pack and unpack"): emits
# code for every file of the DDTBench corpus, the seed-000 (docs/design.md#references) layouts (one unit
# type per layout, blocksizes A = 2, 10, 100, 1000) and the transposes,
# compiles each into a shared object with `g++ -O2` (portable: no -march),
# runs ddtc-pack-bench on them with MPICH -- and with Open MPI, if a second
# build of the benchmark is given -- and prints the tables of
# bench/pack/pack-report.py (bench/pack/pack-plot.py draws them).
#
#   sh bench/pack/pack-bench.sh BUILD_DIR [ddtc-pack-bench options...]
#
# BUILD_DIR holds tools/ddtc/ddtc and bench/ddtc-pack-bench (configured with
# DDTC_ENABLE_MPI, e.g. cmake -S . -B build-bench -G Ninja
# -DCMAKE_BUILD_TYPE=Release && ninja -C build-bench ddtc ddtc-pack-bench).
# Environment:
#   PACK_BENCH_OMPI=DIR   a build of ddtc-pack-bench with Open MPI:
#                         cmake -S . -B DIR -G Ninja -DCMAKE_BUILD_TYPE=Release
#                           -DMPI_C_COMPILER=/usr/bin/mpicc.openmpi
#                           -DMPI_CXX_COMPILER=/usr/bin/mpicxx.openmpi
#                         ninja -C DIR ddtc-pack-bench
#   PACK_BENCH_RUNS=N     runs per library, alternating MPICH and Open MPI
#                         (default 1); the report takes the median over runs
#   PACK_BENCH_ONLY=PAT   only the inputs whose base name matches the shell
#                         pattern, e.g. 'transpose'
#   PACK_BENCH_REPORT=... options of pack-report.py (e.g. --per-call)
# The generated files and the JSON results go to BUILD_DIR/bench/pack-bench/.
set -e
build=$(cd "${1:?usage: pack-bench.sh BUILD_DIR [options]}" && pwd)
shift
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
corpus=$src/corpus/ddtbench
out=$build/bench/pack-bench
ddtc=$build/tools/ddtc/ddtc
bench=$build/bench/ddtc-pack-bench
ompi=${PACK_BENCH_OMPI:+$(cd "$PACK_BENCH_OMPI" && pwd)/bench/ddtc-pack-bench}
mkdir -p "$out"

# The seed-000 layouts as unit types (test/Passes/Inputs/seed000.py writes
# each layout as a message of 64 units in several spellings; the unit is
# the oldtype of the `contiguous` spelling, and RowCol, which has no unit,
# is its fully indexed spelling), named GROUP_A<n> for the hand loops.
for a in 2 10 100 1000; do
  python3 "$src/test/Passes/Inputs/seed000.py" $a
done | python3 -c '
import json, sys
units = {"tiled": "tiled__contiguous_subtype",
         "block": "block__contiguous_subtype",
         "alternating": "alternating__contiguous_subtype",
         "altrep": "altrep__repeated"}
types = []
text, pos, dec = sys.stdin.read(), 0, json.JSONDecoder()
while text[pos:].strip():
    doc, pos = dec.raw_decode(text, len(text) - len(text[pos:].lstrip()))
    a = int(doc["x-source"].split("A=")[1].split(",")[0])
    byname = {t["name"]: t for t in doc["types"]}
    for group, name in units.items():
        t = dict(byname[name]["oldtype"])
        t["name"] = "%s_A%d" % (group, a)
        types.append(t)
    t = dict(byname["rowcol__fully_indexed"])
    t["name"] = "rowcol_A%d" % a
    types.append(t)
json.dump({"ddtc": 1,
           "x-source": "seed 000 unit types (bench/pack/pack-bench.sh)",
           "types": types}, sys.stdout, indent=1)
' > "$out/seed000.json"

# One library per input and MPI: ddtc_NAME_build (NAME_mpi.c) calls the MPI
# library the benchmark runs with.
mpich_args=
ompi_args=
for f in "$corpus"/*.json "$out/seed000.json" "$src/bench/pack/transpose.json"; do
  name=$(basename "$f" .json)
  # shellcheck disable=SC2254
  case $name in ${PACK_BENCH_ONLY:-*}) ;; *) continue ;; esac
  "$ddtc" emit "$f" -o "$out/$name"
  g++ -O2 -fPIC -c "$out/$name.cpp" -o "$out/$name.o"
  mpicc.mpich -O2 -fPIC -c "$out/${name}_mpi.c" -o "$out/${name}_mpi.o"
  g++ -shared "$out/$name.o" "$out/${name}_mpi.o" -o "$out/$name.so"
  mpich_args="$mpich_args $f $out/$name.so"
  if [ -n "$ompi" ]; then
    mpicc.openmpi -O2 -fPIC -c "$out/${name}_mpi.c" -o "$out/${name}_ompi.o"
    g++ -shared "$out/$name.o" "$out/${name}_ompi.o" -o "$out/$name.ompi.so"
    ompi_args="$ompi_args $f $out/$name.ompi.so"
  fi
done

echo "# $(bench_machine); load: $(cut -d' ' -f1-3 /proc/loadavg)"
results=
run=1
while [ "$run" -le "${PACK_BENCH_RUNS:-1}" ]; do
  echo "run $run: MPICH" >&2
  # shellcheck disable=SC2086
  mpiexec.mpich -n 1 "$bench" "$@" $mpich_args > "$out/mpich-$run.json"
  results="$results $out/mpich-$run.json"
  if [ -n "$ompi" ]; then
    echo "run $run: Open MPI" >&2
    # shellcheck disable=SC2086
    mpiexec.openmpi --allow-run-as-root --oversubscribe -n 1 "$ompi" "$@" \
      $ompi_args > "$out/openmpi-$run.json"
    results="$results $out/openmpi-$run.json"
  fi
  run=$((run + 1))
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
python3 "$src/bench/pack/pack-report.py" ${PACK_BENCH_REPORT:-} $results
