#!/bin/sh
# The pack/unpack benchmark of issue 4 (docs/performance.md): emits code for
# every file of the DDTBench corpus and for the seed-000 layouts (one unit
# type per layout, blocksizes A = 2, 10, 100, 1000), compiles each into a
# shared object with `g++ -O2` (portable: no -march), and runs
# ddtc-pack-bench on them with MPICH, which prints the results table.
#
#   sh bench/pack-bench.sh BUILD_DIR [ddtc-pack-bench options...]
#
# The inputs are the corpus, the seed-000 unit types and bench/transpose.json
# (transposes, for the cache-blocked kernels). PACK_BENCH_ONLY=PATTERN runs
# only the inputs whose base name matches the shell pattern, e.g.
# PACK_BENCH_ONLY='transpose' for the transposes alone.
#
# BUILD_DIR holds tools/ddtc/ddtc and bench/ddtc-pack-bench (configured with
# DDTC_ENABLE_MPI, e.g. cmake -S . -B build-bench -G Ninja
# -DCMAKE_BUILD_TYPE=Release && ninja -C build-bench ddtc ddtc-pack-bench).
# The generated files go to BUILD_DIR/bench/pack-bench/.
set -e
build=$(cd "${1:?usage: pack-bench.sh BUILD_DIR [options]}" && pwd)
shift
src=$(cd "$(dirname "$0")/.." && pwd)
corpus=$src/../shared/corpus/ddtbench
out=$build/bench/pack-bench
ddtc=$build/tools/ddtc/ddtc
bench=$build/bench/ddtc-pack-bench
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
json.dump({"ddtc": 1, "x-source": "seed 000 unit types (bench/pack-bench.sh)",
           "types": types}, sys.stdout, indent=1)
' > "$out/seed000.json"

args=
for f in "$corpus"/*.json "$out/seed000.json" "$src/bench/transpose.json"; do
  name=$(basename "$f" .json)
  # shellcheck disable=SC2254
  case $name in ${PACK_BENCH_ONLY:-*}) ;; *) continue ;; esac
  "$ddtc" emit "$f" -o "$out/$name"
  g++ -O2 -fPIC -c "$out/$name.cpp" -o "$out/$name.o"
  mpicc.mpich -O2 -fPIC -c "$out/${name}_mpi.c" -o "$out/${name}_mpi.o"
  g++ -shared "$out/$name.o" "$out/${name}_mpi.o" -o "$out/$name.so"
  args="$args $f $out/$name.so"
done

echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
mpiexec.mpich -n 1 "$bench" "$@" $args
