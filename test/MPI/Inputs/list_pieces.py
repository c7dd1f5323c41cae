"""Trace-like descriptions of long index lists (LAMMPS_full's shape: lists of
a few doubles at scattered places) with x-uses, for emit-list-pieces.test.

sends_*: used point to point only (MPI_Send, MPI_Irecv): the MPI-facing form
         cuts the lists into struct members of a few dozen entries.
packed:  the same lists also packed with MPI_Pack: kept as given.
"""
import json
import random

rng = random.Random(11)


def scattered(n, spread):
    return [rng.randrange(spread) for _ in range(n)]


def uses(*ops):
    return [{"op": op, "count": 1, "calls": 10, "bytes": 0} for op in ops]


p2p = uses("MPI_Send", "MPI_Irecv", "MPI_Pack_size")
lists = {
    "kind": "struct",
    "blocklengths": [1, 1, 1],
    "displacements": [0, 80000, 160000],
    "types": [
        {"kind": "indexed_block", "blocklength": 3,
         "displacements": [3 * d for d in scattered(1500, 3000)],
         "oldtype": "MPI_DOUBLE"},
        {"kind": "hindexed", "blocklengths": [rng.randrange(4) for _ in range(900)],
         "displacements": [8 * d for d in scattered(900, 9000)],
         "oldtype": "MPI_DOUBLE"},
        {"kind": "hindexed_block", "blocklength": 2,
         "displacements": [4 * d for d in scattered(700, 15000)],
         "oldtype": "MPI_FLOAT"},
    ],
}
one_list = {"kind": "indexed", "blocklengths": [rng.randrange(1, 5) for _ in range(3000)],
            "displacements": scattered(3000, 40000), "oldtype": "MPI_INT"}
types = [
    {"name": "sends_struct", "x-uses": p2p, **lists},
    {"name": "sends_list", "x-uses": p2p,
     "kind": "resized", "lb": -64, "extent": 200000, "oldtype": one_list},
    {"name": "packed", "x-uses": uses("MPI_Send", "MPI_Pack"), **lists},
]
print(json.dumps({"ddtc": 1, "types": types}))
