#!/usr/bin/env python3
"""comm-summary.py RESULTS.json...: the figures docs/performance.md quotes
from ddtc-bench results (comm-bench.sh), per file and operation:

  - geometric means of speedups, median time over median time:
    mpi / ddtc, mpi / mpi-normalized (what normalization alone buys MPI),
    mpi-pack / ddtc;
  - for messages above 4 KiB: the cases where ddtc is slower than mpi,
    mpi-normalized or mpi-pack by more than the noise (5%), named;
  - how far the ddtc variant is from reference + kernel_us (its kernels'
    time: rank 0's alone, every rank's at once for MPI_Allgather,
    MPI_Alltoall(w) and MPI_Neighbor_alltoallw, as the
    operation runs them): the cases beyond 10%, named.

On results merged from several launches (comm-merge.py), every ratio
is the median over launches of that launch's ratio: on a VM that runs whole
launches fast or slow, both sides of a ratio then come from the same mode.

Prints Markdown."""
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)

NOISE = 1.05
# ddtc-bench's operations, in the order it reports them (docs/cli.md).
OPS = ("pingpong", "pingpong-persistent", "bcast", "allgather", "alltoall",
       "alltoallw", "gather", "scatter", "neighbor-alltoallw")


def per_launch(r):
    """A case's times, one a launch (a single one for one launch's results)."""
    return r.get("launch_medians_us", [r["median_us"]])


def ratio(a, b):
    """a / b: the median over launches of each launch's ratio."""
    return stats.paired_ratio(per_launch(a), per_launch(b))


def to_bound(d, ref):
    """ddtc's time over reference + kernel_us, launch by launch."""
    kernels = d.get("launch_kernel_us", [d["kernel_us"]])
    return stats.paired_ratio(per_launch(d), [y + k for y, k in zip(per_launch(ref), kernels)])


def main():
    total = defaultdict(list)  # op -> mpi/ddtc over every file
    print("| results | op | cases | mpi/ddtc | mpi/mpi-normalized | mpi-pack/ddtc "
          "| ddtc slower (> 4 KiB) | ddtc > 1.1 (reference + kernels) |")
    print("|---|---|---:|---:|---:|---:|---|---|")
    for path in sys.argv[1:]:
        doc = json.load(open(path))
        cases = defaultdict(dict)
        for r in doc["results"]:
            cases[(r["type"], r["count"], r["op"])][r["variant"]] = r
        for op in OPS:
            rows = {k: v for k, v in cases.items() if k[2] == op and "ddtc" in v and "mpi" in v}
            if not rows:
                continue
            sp = [ratio(v["mpi"], v["ddtc"]) for v in rows.values()]
            total[op] += sp
            norm = [ratio(v["mpi"], v["mpi-normalized"])
                    for v in rows.values() if "mpi-normalized" in v]
            pack = [ratio(v["mpi-pack"], v["ddtc"]) for v in rows.values() if "mpi-pack" in v]
            slower, model = [], []
            for (t, n, _), v in sorted(rows.items()):
                d = v["ddtc"]
                if d["bytes"] > 4096:
                    worse = [b for b in ("mpi", "mpi-normalized", "mpi-pack")
                             if b in v and ratio(d, v[b]) > NOISE]
                    if worse:
                        slower.append("%s (%s)" % (t if n == 1 else "%s×%d" % (t, n),
                                                   ", ".join(worse)))
                if "reference" in v and "kernel_us" in d:
                    over = to_bound(d, v["reference"])
                    if over > 1.1:
                        model.append("%s %.2f" % (t, over))
            name = doc["file"].split("/")[-1]
            print("| %s | %s | %d | %.2f | %s | %s | %s | %s |" % (
                name, op, len(rows), stats.geomean(sp),
                "%.2f" % stats.geomean(norm) if norm else "-",
                "%.2f" % stats.geomean(pack) if pack else "-",
                "; ".join(slower) or "none", "; ".join(model) or "none"))
    print()
    for op, sp in total.items():
        print("- %s: geometric mean of mpi/ddtc over all %d cases: %.2f (min %.2f, max %.2f)"
              % (op, len(sp), stats.geomean(sp), min(sp), max(sp)))


main()
