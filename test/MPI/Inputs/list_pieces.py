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
# Random lists of every kind, over basic and pair types, alone, resized or
# among other struct members, with empty blocks and repeated entries: every
# one sent point to point, so that the form MPICH is handed is checked for
# as many shapes as the candidate cuts.
kinds = ["indexed", "hindexed", "indexed_block", "hindexed_block"]
olds = ["MPI_INT", "MPI_DOUBLE", "MPI_SHORT_INT", "MPI_CHAR"]
for i in range(24):
    n = rng.randrange(70, 1300)
    kind = kinds[i % 4]
    old = olds[(i // 4) % 4]
    displs = [rng.randrange(-300, 6000) for _ in range(n)]
    if kind.startswith("h"):
        displs = [4 * d for d in displs]
    lst = {"kind": kind, "displacements": displs, "oldtype": old}
    if kind.endswith("_block"):
        lst["blocklength"] = rng.randrange(1, 4)
    else:
        lst["blocklengths"] = [rng.randrange(4) for _ in range(n)]
    shape = i % 3
    if shape == 1:
        lst = {"kind": "resized", "lb": -rng.randrange(1, 999),
               "extent": 90000, "oldtype": lst}
    elif shape == 2:
        lst = {"kind": "struct", "blocklengths": [1, 3, 1],
               "displacements": [8, 0, 200000], "types": [lst, "MPI_INT", lst]}
    types.append({"name": "random%d" % i, "x-uses": p2p, **lst})
print(json.dumps({"ddtc": 1, "types": types}))
