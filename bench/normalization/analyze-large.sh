#!/bin/sh
# analyze-large.sh BUILD_DIR: time and peak memory of `ddtc analyze` on an
# indexed_block with 10^6 displacements (the whole command: reading,
# checking, measuring, printing).
set -eu
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/big.json" <<'PY'
import random, sys
random.seed(1)
disps = ", ".join(str(random.randrange(100000000)) for _ in range(1000000))
open(sys.argv[1], "w").write('{"ddtc": 1, "types": [{"name": "big", "kind": "indexed_block", '
                             '"blocklength": 2, "displacements": [%s], "oldtype": "MPI_DOUBLE"}]}' % disps)
PY
ls -l "$tmp/big.json" | awk '{print "input bytes:", $5}'
for i in 1 2 3; do
  /usr/bin/time -f "wall %e s, peak RSS %M KB" "$build/tools/ddtc/ddtc" analyze "$tmp/big.json" > /dev/null
done
