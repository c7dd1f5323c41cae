"""Writes a description file of types with long random index lists.

Usage: random-lists.py SEED OUT.json

The shapes normal forms take with index tables: indexed and hindexed lists
of random lengths, indexed_block and hindexed_block lists, in random order
(not sorted), of basic types and of vectors. (Structs of lists are the
corpus's: MPICH 4.0.2's own MPI_Sendrecv_replace truncated some random
ones.) Blocks never overlap, so that the types may be received into. The same
seed gives the same file; rt-shape.test draws a new seed every run.
"""
import json
import random
import sys


def disjoint_slots(rng, n, max_len, gap):
    """n (displacement, length) pairs of disjoint blocks, shuffled."""
    slots, at = [], rng.randrange(0, 4)
    for _ in range(n):
        length = rng.randrange(0, max_len + 1)
        slots.append((at, length))
        at += max(length, 1) + rng.randrange(0, gap + 1)
    rng.shuffle(slots)
    return slots


def main():
    seed, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(seed)
    types = []
    basics = ["MPI_CHAR", "MPI_SHORT", "MPI_INT", "MPI_DOUBLE",
              "MPI_FLOAT", "MPI_LONG_LONG"]
    sizes = {"MPI_CHAR": 1, "MPI_SHORT": 2, "MPI_INT": 4, "MPI_DOUBLE": 8,
             "MPI_FLOAT": 4, "MPI_LONG_LONG": 8}
    for i in range(4):
        old = rng.choice(basics)
        slots = disjoint_slots(rng, rng.randrange(20, 400), 6, 5)
        types.append({"name": "ix%d" % i, "kind": "indexed",
                      "blocklengths": [l for _, l in slots],
                      "displacements": [d for d, _ in slots],
                      "oldtype": old})
    for i in range(3):
        old = rng.choice(basics)
        length = rng.randrange(1, 5)
        slots = disjoint_slots(rng, rng.randrange(20, 600), 0, 4)
        types.append({"name": "ib%d" % i, "kind": "hindexed_block",
                      "blocklength": length,
                      "displacements": [d * length * sizes[old]
                                        for d, _ in slots],
                      "oldtype": old})
    for i in range(2):
        # Lists of a vector: a child that is not dense.
        vec = {"kind": "vector", "count": rng.randrange(2, 5),
               "blocklength": rng.randrange(1, 3), "stride": 4,
               "oldtype": rng.choice(basics)}
        span = vec["count"] * 4
        slots = disjoint_slots(rng, rng.randrange(20, 300), 2, 2)
        types.append({"name": "iv%d" % i, "kind": "indexed",
                      "blocklengths": [l for _, l in slots],
                      "displacements": [d * span for d, _ in slots],
                      "oldtype": {"kind": "resized", "lb": 0,
                                  "extent": span * sizes[vec["oldtype"]],
                                  "oldtype": vec}})
    with open(out, "w") as f:
        json.dump({"ddtc": 1, "types": types}, f)


main()
