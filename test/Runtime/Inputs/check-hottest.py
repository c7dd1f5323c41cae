"""Checks that a run compiling after the program asked for the kernels of
the types that moved the most bytes: every entry of the kernel cache
(argv[1]) is the kernel of a type among the N (argv[2]) that moved the
most through their shape kernels on some rank (reports argv[3:]), and the
hottest type of every rank has one. Entries are named KEY.SIZE.EXTENT.so,
so a type is known by its size and extent."""
import glob
import json
import os
import sys

cache, n, reports = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
entries = {tuple(os.path.basename(p).split(".")[1:3])
           for p in glob.glob(os.path.join(cache, "kernels", "*", "native.*", "*.so"))}
allowed = set()
for path in reports:
    with open(path) as f:
        types = [t for t in json.load(f)["types"] if t.get("kind") == "shape"]
    types.sort(key=lambda t: -t["bytes"])
    if len(types) <= n:
        sys.exit(f"{path}: {len(types)} shape kernels, no choice among them")
    # Types that moved as many bytes as the Nth are as hot as it.
    floor = types[n - 1]["bytes"]
    allowed.update((str(t["size"]), str(t["extent"]))
                   for t in types if t["bytes"] >= floor)
    top = {(str(t["size"]), str(t["extent"]))
           for t in types if t["bytes"] == types[0]["bytes"]}
    if not top & entries:
        sys.exit(f"{path}: the hottest type has no entry")
if not entries <= allowed:
    sys.exit(f"entries of types that are not the hottest: {sorted(entries - allowed)}")
print(f"{len(entries)} entries, of the hottest types")
