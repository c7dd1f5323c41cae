#!/usr/bin/env python3
"""Writes the basic layouts of seed paper 000 (Carpen-Amarie, Hunold, Traeff,
section 2.2, Variant 1 of Table 2) as a description file for ddtc-bench, the
way the paper builds them: a unit type of k MPI_INT elements, described with
MPI_Type_contiguous / _create_indexed_block / _indexed and resized to its
extent, repeated c times with MPI_Type_contiguous so that one instance is a
message of about N elements.

  tiled_AA        A elements every B = A + 2                 (k = A)
  block_AA        two units of A at strides B1 = A+1, B2 = A+3  (k = 2A)
  bucket_AA       units of A-1 and A+1 at stride B = A + 2    (k = 2A)
  alternating_AA  units of A-1 and A+1 at strides A+1, A+3    (k = 2A)

Tests build from it (test/MPI/emit-members.test); so do the MPI-facing-form
benchmark (bench/forms/mpi-forms.sh) and examples/seed000-layouts.json
(A = 2, 10, 100, 1000), which ddtc-bench's communication benchmark sends.

usage: seed000-layouts.py [-n N] A...   (default N = 4096 elements)"""
import argparse
import json

INT, INT_BYTES = "MPI_INT", 4


def resized(extent_elems, t):
    return {"kind": "resized", "lb": 0, "extent": INT_BYTES * extent_elems,
            "oldtype": t}


def units(a):
    """(name, unit type, k) for blocksize a."""
    b, b1, b2 = a + 2, a + 1, a + 3
    yield "tiled", resized(b, {"kind": "contiguous", "count": a,
                               "oldtype": INT}), a
    yield "block", resized(b1 + b2, {"kind": "indexed_block", "blocklength": a,
                                     "displacements": [0, b1],
                                     "oldtype": INT}), 2 * a
    yield "bucket", resized(2 * b, {"kind": "indexed",
                                    "blocklengths": [a - 1, a + 1],
                                    "displacements": [0, b],
                                    "oldtype": INT}), 2 * a
    yield "alternating", resized(b1 + b2, {"kind": "indexed",
                                           "blocklengths": [a - 1, a + 1],
                                           "displacements": [0, b1],
                                           "oldtype": INT}), 2 * a


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("-n", type=int, default=4096, help="elements per message")
    p.add_argument("A", type=int, nargs="+", help="unit sizes (A >= 2)")
    args = p.parse_args()
    types = []
    for a in args.A:
        if a < 2:
            p.error("A must be at least 2")
        for name, unit, k in units(a):
            types.append({"name": "%s_A%d" % (name, a), "kind": "contiguous",
                          "count": max(1, round(args.n / k)), "oldtype": unit})
    json.dump({"ddtc": 1,
               "x-source": "seed 000 basic layouts, Variant 1, about %d MPI_INT "
                           "per message (test/MPI/Inputs/seed000-layouts.py)"
                           % args.n,
               "types": types}, __import__("sys").stdout, indent=1)
    print()


main()
