#!/usr/bin/env python3
"""Writes index lists that hide regular layouts (multi-level affine
recovery): a 50 x 60 lattice of 2-int blocks plus a partial row of 7, and a
20 x 30 x 40 box of doubles listed one by one (24,000 displacements)."""
import json
import sys

rows = [r * 1000 + c * 3 for r in range(50) for c in range(60)]
partial = [50 * 1000 + c * 3 for c in range(7)]
box = [z * 100000 + y * 1000 + x * 2
       for z in range(20) for y in range(30) for x in range(40)]
json.dump({"ddtc": 1, "types": [
    {"name": "rows_plus_partial", "kind": "indexed_block", "blocklength": 2,
     "displacements": rows + partial, "oldtype": "MPI_INT"},
    {"name": "box", "kind": "indexed_block", "blocklength": 1,
     "displacements": box, "oldtype": "MPI_DOUBLE"}]}, sys.stdout)
