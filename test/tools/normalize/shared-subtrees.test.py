# Writes the input of shared-subtrees.test: t0 = two ints, and each t(i) a
# struct of two copies of t(i-1), 8 bytes apart.
import json

types = [{"name": "t0", "kind": "contiguous", "count": 2, "oldtype": "MPI_INT"}]
for i in range(1, 50):
    prev = "t%d" % (i - 1)
    types.append({"name": "t%d" % i, "kind": "struct", "blocklengths": [1, 1],
                  "displacements": [0, 8], "types": [prev, prev]})
print(json.dumps({"ddtc": 1, "types": types}))
