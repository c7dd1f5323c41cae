#!/usr/bin/python3
"""Prints the summary table of docs/mpi-forms.md from the results of
bench/forms/mpi-forms.sh: per group of types, the messages, how many are
rewritten, and the geometric mean and minimum of MPI_Pack's speedup
t(given)/t(form) with the MPI-facing form and with ddtc's normal form, and
the geometric mean of the best of the three measured (what a choice that
always knew the fastest of them would reach); then every message below
0.95x in its MPI-facing form.

Groups, by the file a type came from: seed000.json (the seed-000 layouts as
the paper's Variant 1 builds them), seed000-gl4-A*.json (every description
the paper's GL4 tests 5-11 compare), the traces of examples/traces, the
generated random types, and the DDTBench corpus (everything else).

usage: mpi-forms-summary.py RESULTS.json"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)

TRACES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "examples", "traces")
GROUPS = ["seed-000 layouts (Variant 1)", "seed-000 descriptions (GL4 tests)",
          "DDTBench corpus", "traces", "random types"]


def group(set_name):
    if set_name == "seed000.json":
        return GROUPS[0]
    if set_name.startswith("seed000-gl4-"):
        return GROUPS[1]
    if set_name == "random":
        return GROUPS[4]
    if os.path.exists(os.path.join(TRACES, set_name)):
        return GROUPS[3]
    return GROUPS[2]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        rows = json.load(f)["rows"]
    by_group = {}
    for r in rows:
        by_group.setdefault(group(r["set"]), []).append(r)
    print("| set | messages | rewritten | MPI-facing / given: geometric mean, "
          "min | normal / given: geometric mean, min | best of the three |")
    print("|---|--:|--:|---|---|--:|")
    for g in GROUPS:
        rs = by_group.get(g)
        if not rs:
            continue
        form = [r["form_speedup"] for r in rs]
        normal = [r["normal_speedup"] for r in rs]
        best = [max(1.0, f, n) for f, n in zip(form, normal)]
        rewritten = sum(1 for r in rs if r["form"] != "given")
        print(f"| {g} | {len(rs)} | {rewritten} | {stats.geomean(form):.2f}, "
              f"{min(form):.2f} | {stats.geomean(normal):.2f}, {min(normal):.2f} | "
              f"{stats.geomean(best):.2f} |")
    slow = [r for r in rows if r["form_speedup"] < 0.95]
    print(f"\n{len(slow)} of {len(rows)} messages below 0.95x in their "
          "MPI-facing form" + (":" if slow else ""))
    for r in slow:
        print(f"  {r['set']} {r['type']} count {r['count']}: "
              f"{r['form_speedup']:.2f} ({r['form']})")


if __name__ == "__main__":
    main()
