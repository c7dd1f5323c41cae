"""Types with long index tables, for emit-tables.test: emitted as coded
tables (docs/emit.md, "Index tables"), whose decoding the test checks
against MPICH.

scattered:  30,000 random int displacements (some negative): a table long
            enough for several chunks of code
varying:    hindexed, random block lengths (0 to 4) and byte displacements:
            displacements, copies per element and packed starts all coded
runs:       indexed_block whose displacements are arithmetic runs of
            varying lengths and steps, broken by random jumps
members:    a struct of 300 members of one type at irregular places
nested:     a vector of a resized table type (a coded table under a loop)
edge:       the longest table still listed (64 entries) and the shortest
            coded one (65), in one struct
"""
import json
import random
import sys

rng = random.Random(47)


def runs(n):
    out, x = [], 0
    while len(out) < n:
        step = rng.choice([1, 2, 3, 7, -5, 40])
        for _ in range(rng.randrange(1, 60)):
            out.append(x)
            x += step
        x += rng.randrange(50, 500)
    return out[:n]


types = [
    {"name": "scattered", "kind": "indexed_block", "blocklength": 1,
     "displacements": [rng.randrange(-2000, 120000) for _ in range(30000)],
     "oldtype": "MPI_INT"},
    {"name": "varying", "kind": "hindexed",
     "blocklengths": [rng.randrange(5) for _ in range(2000)],
     "displacements": [8 * rng.randrange(40000) for _ in range(2000)],
     "oldtype": "MPI_DOUBLE"},
    {"name": "runs", "kind": "indexed_block", "blocklength": 2,
     "displacements": runs(5000), "oldtype": "MPI_FLOAT"},
    {"name": "members", "kind": "struct",
     "blocklengths": [rng.randrange(1, 4) for _ in range(300)],
     "displacements": sorted(rng.sample(range(0, 90000, 8), 300)),
     "types": ["MPI_DOUBLE"] * 300},
    {"name": "nested", "kind": "vector", "count": 3, "blocklength": 1,
     "stride": 2,
     "oldtype": {"kind": "resized", "lb": 0, "extent": 16000,
                 "oldtype": {"kind": "indexed", "blocklengths":
                             [rng.randrange(1, 3) for _ in range(400)],
                             "displacements": rng.sample(range(3000), 400),
                             "oldtype": "MPI_INT"}}},
    {"name": "edge", "kind": "struct", "blocklengths": [1, 1],
     "displacements": [0, 4096],
     "types": [{"kind": "indexed_block", "blocklength": 1,
                "displacements": rng.sample(range(500), 64),
                "oldtype": "MPI_INT"},
               {"kind": "indexed_block", "blocklength": 1,
                "displacements": rng.sample(range(500), 65),
                "oldtype": "MPI_INT"}]},
]
json.dump({"ddtc": 1, "x-source": "test/MPI/Inputs/long_tables.py",
           "types": types}, sys.stdout)
