#!/usr/bin/env python3
"""comm-merge.py OUT.json LAUNCH.json...: one ddtc-bench results file from
the same file measured in several launches (comm-bench.sh).

Why: on a shared VM a whole mpiexec launch can run fast or slow (every
message alike), so one launch's medians say which mode it drew as much as
which variant is faster (docs/performance.md, "The modes, counted"). Seed 000
(§2.3) times r separate mpiruns for the same reason. Each case's time here is
the median over the launches of the launch's median; mean_us, min_us and
max_us are over the launch medians (so a figure's error bars show the spread
between launches), run_medians_us holds every run of every launch, and
kernel_us is the median of the launches' kernel times. The schema is
ddtc-bench's (ddtc plot reads it unchanged) plus "launches" and, per case,
launch_medians_us and launch_kernel_us in launch order: a ratio of two
variants is best taken launch by launch, both from the same mode, and
comm-summary.py does so when they are there.

With more than one launch, prints per operation the geometric mean of
mpi/ddtc in each launch: the spread that the merged medians smooth out."""
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)


def key(r):
    return (r["type"], r["count"], r["op"], r["variant"])


def merge(docs):
    records = defaultdict(list)
    order = []
    for doc in docs:
        for r in doc["results"]:
            if key(r) not in records:
                order.append(key(r))
            records[key(r)].append(r)
    results = []
    for k in order:
        rs = records[k]
        medians = [r["median_us"] for r in rs]
        m = dict(rs[0])
        med, mean, low, high = stats.spread(medians)
        m.update(median_us=med, mean_us=mean, min_us=low, max_us=high, launches=len(rs),
                 run_medians_us=[x for r in rs for x in r["run_medians_us"]],
                 launch_medians_us=medians)
        kernels = [r["kernel_us"] for r in rs if "kernel_us" in r]
        if len(kernels) == len(rs):
            m.update(kernel_us=stats.median(kernels), launch_kernel_us=kernels)
        results.append(m)
    out = dict(docs[0])
    out["launches"] = len(docs)
    out["results"] = results
    return out


def spread(doc):
    """Per operation: mpi/ddtc's geometric mean over this launch's cases."""
    cases = defaultdict(dict)
    for r in doc["results"]:
        cases[(r["type"], r["count"], r["op"])][r["variant"]] = r["median_us"]
    per_op = defaultdict(list)
    for (_, _, op), v in cases.items():
        if "mpi" in v and "ddtc" in v:
            per_op[op].append(v["mpi"] / v["ddtc"])
    return {op: stats.geomean(sp) for op, sp in per_op.items()}


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: comm-merge.py OUT.json LAUNCH.json...")
    docs = [json.load(open(p)) for p in sys.argv[2:]]
    merged = merge(docs)
    json.dump(merged, open(sys.argv[1], "w"), indent=1)
    if len(docs) == 1:
        return
    spreads = [spread(d) for d in docs]
    whole = spread(merged)
    for op in spreads[0]:
        per = [s[op] for s in spreads if op in s]
        print("%s %s: mpi/ddtc per launch %s; merged %.2f" % (
            merged["file"].split("/")[-1], op, " ".join("%.2f" % x for x in per),
            whole[op]))


main()
