#!/usr/bin/env python3
"""Writes the probe of docs/mpi-forms.md, "Element classes": for each basic
type T and block length B, the tiled layout contiguous(n, resized(
contiguous(B, T), 2 B)) -- blocks of B elements every 2 B, about 32 KiB of
data -- whose normal form is resized(vector(n, B, 2 B, T)). MPICH packs the
first with a contiguous type's loop (its step read at run time), the second
with a vector's block loop (its step sizeof(T)); ddtc-mpiform-bench times
both in one process.

  python3 bench/forms/element-classes.py > ec.json
  build/bench/ddtc-mpiform-bench ec.json --runs 5"""
import json
import sys

TYPES = [("MPI_CHAR", 1), ("MPI_SHORT", 2), ("MPI_INT", 4), ("MPI_FLOAT", 4),
         ("MPI_LONG", 8), ("MPI_DOUBLE", 8)]

types = []
for name, size in TYPES:
    for b in (8, 32, 100):
        n = max(2, 32768 // (b * size))
        types.append({
            "name": "%s_b%d" % (name[4:].lower(), b),
            "kind": "contiguous", "count": n,
            "oldtype": {"kind": "resized", "lb": 0, "extent": 2 * b * size,
                        "oldtype": {"kind": "contiguous", "count": b,
                                    "oldtype": name}}})
json.dump({"ddtc": 1, "x-source": "bench/forms/element-classes.py",
           "types": types}, sys.stdout, indent=1)
print()
