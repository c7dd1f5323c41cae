#!/bin/sh
# normalize-lattice.sh BUILD_DIR: time and peak memory of `ddtc normalize`
# (reading, canonicalizing, reconstructing, verifying, writing) on an
# indexed_block of 10^6 displacements that form a hidden 1000 x 1000
# lattice; prints the normal form found.
set -eu
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/lattice.json" <<'PY'
import sys
disps = ", ".join(str(r * 5003 + c * 5) for r in range(1000) for c in range(1000))
open(sys.argv[1], "w").write('{"ddtc": 1, "types": [{"name": "lattice", "kind": "indexed_block", '
                             '"blocklength": 2, "displacements": [%s], "oldtype": "MPI_DOUBLE"}]}' % disps)
PY
for i in 1 2 3; do
  /usr/bin/time -f "wall %e s, peak RSS %M KB" "$build/tools/ddtc/ddtc" normalize "$tmp/lattice.json" -o "$tmp/out.ddt" --format=text
done
cat "$tmp/out.ddt"
