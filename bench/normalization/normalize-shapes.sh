#!/bin/sh
# normalize-shapes.sh BUILD_DIR [SIZES]: time and peak memory of `ddtc
# normalize` and `ddtc analyze` on an indexed_block of N displacements
# (blocklength 2, MPI_DOUBLE) for every shape of index list that
# applications write (the target: each under 1 s at 10^6):
#
#   unsorted   random displacements
#   sorted     the same, sorted (particle lists, boundary cells)
#   clustered  groups of 8-64 blocks a few elements apart, groups far apart
#   lattice    the points of a 3-D box in a larger grid (a hidden lattice)
#   runs       runs of 10-200 blocks at a constant gap, gaps between runs
#
# SIZES defaults to "10000 100000 1000000". Prints one line per shape and
# size: seconds and peak resident megabytes of each command (the whole
# command: reading, normalizing or analyzing, writing).
set -eu
build=$(cd "${1:-build}" && pwd)
sizes=${2:-"10000 100000 1000000"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %9s %12s %10s %12s %10s\n' shape blocks normalize_s MB analyze_s MB
for n in $sizes; do
  for shape in unsorted sorted clustered lattice runs; do
    python3 - "$shape" "$n" "$tmp/in.json" <<'PY'
import random, sys
shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
random.seed(1)
if shape in ("unsorted", "sorted"):
    d = random.sample(range(50 * n), n)
    if shape == "sorted":
        d.sort()
elif shape == "clustered":
    d, at = [], 0
    while len(d) < n:
        for _ in range(random.randint(8, 64)):
            d.append(at)
            at += random.randint(2, 4)
        at += random.randint(1000, 100000)
    d = d[:n]
elif shape == "lattice":
    side = max(2, round(n ** (1 / 3)))
    d = [x + 1000 * y + 1000000 * z for z in range(side) for y in range(side)
         for x in range(0, 4 * side, 4)][:n]
else:  # runs
    d, at = [], 0
    while len(d) < n:
        gap = random.randint(2, 50)
        for _ in range(random.randint(10, 200)):
            d.append(at)
            at += gap
        at += random.randint(100, 10000)
    d = d[:n]
with open(path, "w") as f:
    f.write('{"ddtc": 1, "types": [{"name": "t", "kind": "indexed_block", '
            '"blocklength": 2, "displacements": [%s], "oldtype": "MPI_DOUBLE"}]}'
            % ",".join(map(str, d)))
PY
    norm=$( { /usr/bin/time -f "%e %M" "$build/tools/ddtc/ddtc" normalize "$tmp/in.json" -o "$tmp/out.json"; } 2>&1 | tail -n 1)
    ana=$( { /usr/bin/time -f "%e %M" "$build/tools/ddtc/ddtc" analyze "$tmp/in.json" > /dev/null; } 2>&1 | tail -n 1)
    printf '%-10s %9s %12s %10s %12s %10s\n' "$shape" "$n" "${norm% *}" "$(( ${norm#* } / 1024 ))" \
      "${ana% *}" "$(( ${ana#* } / 1024 ))"
  done
done
