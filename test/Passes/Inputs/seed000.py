#!/usr/bin/env python3
"""Writes the layouts of seed paper 000 (Carpen-Amarie, Hunold, Traeff) for
blocksize A as a description file. Each layout is described several ways,
named GROUP__VARIANT; every description of a group has the same typemap, lb
and extent (the whole message, sent with count 1), so all must normalize to
one tree. MPI_INT elements; c units of the basic layout."""
import json
import sys

A = int(sys.argv[1])
c = int(sys.argv[2]) if len(sys.argv) > 2 else 64  # units per message
INT = "MPI_INT"
types = []


def add(name, t):
    t = dict(t)
    t["name"] = name
    types.append(t)


def resized(extent, t):
    return {"kind": "resized", "lb": 0, "extent": extent, "oldtype": t}


def contig(n, t):
    return {"kind": "contiguous", "count": n, "oldtype": t}


# Tiled (AB): A elements every B = A + 2 (tests 4-7).
B = A + 2
tiled = resized(4 * B, contig(A, INT))
add("tiled__contiguous_subtype", contig(c, tiled))
S1 = 2
add("tiled__struct", {"kind": "struct", "blocklengths": [1, 1],
                      "displacements": [0, 4 * B * S1],
                      "types": [contig(S1, tiled), contig(c - S1, tiled)]})
add("tiled__vector", resized(4 * B * c, {"kind": "vector", "count": c,
                                         "blocklength": A, "stride": B,
                                         "oldtype": INT}))
S = 4
add("tiled__vector_tiled", resized(4 * B * c, {
    "kind": "hvector", "count": c // S, "blocklength": 1, "stride": 4 * S * B,
    "oldtype": {"kind": "vector", "count": S, "blocklength": A, "stride": B,
                "oldtype": INT}}))

# Block (AB-bar): two units of A at alternating strides B1, B2 (test 8).
B1, B2 = A + 1, A + 3
block = resized(4 * (B1 + B2), {"kind": "indexed_block", "blocklength": A,
                                 "displacements": [0, B1], "oldtype": INT})
add("block__contiguous_subtype", contig(c, block))
add("block__indexed", resized(4 * (B1 + B2) * c, {
    "kind": "indexed_block", "blocklength": A,
    "displacements": [k * (B1 + B2) + d for k in range(c) for d in (0, B1)],
    "oldtype": INT}))

# Alternating (A-bar B-bar): units of A1, A2 at strides B1, B2 (test 9).
A1, A2 = A - 1, A + 1
alt = resized(4 * (B1 + B2), {"kind": "indexed", "blocklengths": [A1, A2],
                               "displacements": [0, B1], "oldtype": INT})
add("alternating__contiguous_subtype", contig(c, alt))
add("alternating__indexed", resized(4 * (B1 + B2) * c, {
    "kind": "indexed", "blocklengths": [A1, A2] * c,
    "displacements": [k * (B1 + B2) + d for k in range(c) for d in (0, B1)],
    "oldtype": INT}))

# Alternating-repeated vs Alternating-struct: B2 = A2, so the A2 unit
# touches the next A1 unit (test 10).
R1, R2 = A + 1, A2
unit = resized(4 * (R1 + R2), {"kind": "indexed", "blocklengths": [A1, A2],
                                "displacements": [0, R1], "oldtype": INT})
add("altrep__repeated", contig(c, unit))
add("altrep__struct", {
    "kind": "struct", "blocklengths": [A1, 1, A2],
    "displacements": [0, 4 * R1, 4 * ((c - 1) * (R1 + R2) + R1)],
    "types": [INT, {"kind": "vector", "count": c - 1, "blocklength": A2 + A1,
                    "stride": R1 + R2, "oldtype": INT}, INT]})

# RowCol: first row (A elements) and the rest of the first column of an
# (n+1-A) x A matrix, n elements in all (test 11).
n = max(4 * A, 100)
rows = n - A
add("rowcol__fully_indexed", {
    "kind": "indexed_block", "blocklength": 1,
    "displacements": list(range(A)) + [A * i for i in range(1, rows + 1)],
    "oldtype": INT})
add("rowcol__contiguous_and_indexed", {
    "kind": "indexed", "blocklengths": [A] + [1] * rows,
    "displacements": [0] + [A * i for i in range(1, rows + 1)], "oldtype": INT})
add("rowcol__struct", {
    "kind": "struct", "blocklengths": [1, 1], "displacements": [0, 4 * A],
    "types": [contig(A, INT), {"kind": "vector", "count": rows,
                               "blocklength": 1, "stride": A, "oldtype": INT}]})

json.dump({"ddtc": 1, "x-source": "seed 000, A=%d, %d units" % (A, c),
           "types": types}, sys.stdout, indent=1)
