#!/usr/bin/python3
"""Tables and figure of the operations under the runtime (rt-collectives.sh):

  rt-collectives-summary.py OUT_DIR FIGURE_PREFIX MPI_NAME OP...

OUT_DIR holds MODE.OP-I.csv (RtPingPong.cpp's output with --op OP) for MODE
plain and rt, round I = 1, 2, ..., and the runtime's reports beside them
(rt.OP-I.csv.report-0.json). Per operation and type: the median over the
launches of each launch's median time, plain and under the runtime; the
speedup, the median over rounds of plain / runtime within the round (the
two launches of a round are adjacent in time, so both see the same spell
of a shared machine; the ratio of the medians, also printed, moves more
from one run to the next); the reference, the same bytes as MPI_BYTE
through the same operation in the plain launches, and the bound, plain
over the reference (no scheme that packs into the same messages gains
more; plain and reference from the same launches). Per operation: the geometric mean of the speedups, the lowest, what
the runtime adds to the reference's calls (its wrappers' cost on calls it
does not pack), and the targets the benchmark answers. Prints Markdown and
writes FIGURE_PREFIX.csv, .png and .svg (matplotlib)."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)

if len(sys.argv) < 5:
    sys.exit(__doc__)
out, fig, mpi, ops = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]


def load(way):
    """{name: (bytes, [type median per launch], [reference median per
    launch])}, launches in order."""
    rows = {}
    for path in stats.launch_files(out, way, "csv").values():
        with open(path) as f:
            for r in csv.DictReader(f):
                row = rows.setdefault(r["name"], (int(r["bytes"]), [], []))
                row[1].append(float(r["type_median"]))
                row[2].append(float(r["ref_median"]))
    return rows


def report(op):
    """The first runtime launch's report of rank 0."""
    with open("%s/rt.%s-1.csv.report-0.json" % (out, op)) as f:
        return json.load(f)


def substituted(rep):
    """{name: "yes" or why not}."""
    how = {}
    for t in rep["types"]:
        if t.get("kernel") and t.get("substituted"):
            how[t["name"]] = "yes"
        elif t.get("typed_large_blocks"):
            how[t["name"]] = "no: large blocks left to MPI (settings)"
        elif t.get("mpi_as_fast"):
            how[t["name"]] = "no: MPI packs it as fast (timed at commit)"
        else:
            how[t["name"]] = "no: " + t.get("reason", "passed through")
    return how


# results[op][name] = (bytes, plain, runtime, speedup (paired by round), the
#                      ratio of the medians, bound, how,
#                      reference in the plain launches, the runtime's
#                      reference over it)
results, calls = {}, {}
for op in ops:
    plain, rt = load("plain." + op), load("rt." + op)
    rep = report(op)
    how = substituted(rep)
    calls[op] = rep.get("calls", {})
    results[op] = {}
    for name, (b, p, ref) in plain.items():
        if name not in rt:
            continue
        pm, rm = stats.median(p), stats.median(rt[name][1])
        results[op][name] = (b, pm, rm, stats.paired_ratio(p, rt[name][1]), pm / rm,
                             stats.paired_ratio(p, ref), how.get(name, "not in the report"),
                             stats.median(ref), stats.paired_ratio(rt[name][2], ref))
names = sorted({n for op in ops for n in results[op]})
launches = len(stats.launch_files(out, "plain." + ops[0], "csv"))

for op in ops:
    print("\n## %s, one instance per peer, 2 ranks (us: median over %d launches; "
          "speedup: median over the rounds)\n" % (op, launches))
    print("| type | bytes | plain | runtime | speedup | contiguous | bound | substituted |")
    print("|---|--:|--:|--:|--:|--:|--:|---|")
    for name in names:
        if name in results[op]:
            b, p, r, s, _, bound, how, ref, _ = results[op][name]
            print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %s |" %
                  (name, b, p, r, s, ref, bound, how))
    print("\ncalls (rank 0, first runtime launch): " + ", ".join(
        "%s %d substituted, %d passed through" % (c, v["substituted"], v["passed_through"])
        for c, v in sorted(calls[op].items())))

print("\n## Per operation (%s, %d rounds; bound: plain over the same bytes as MPI_BYTE)\n"
      % (mpi, launches))
print("| operation | geometric mean | of the ratios of medians | of the bounds | "
      "types below 1 at 1 | reference, runtime / plain | lowest | types |")
print("|---|--:|--:|--:|--:|--:|---|--:|")
summary = {}
for op in ops:
    v = results[op]
    geo = stats.geomean(x[3] for x in v.values())
    low = min(v.items(), key=lambda kv: kv[1][3])
    summary[op] = (geo, low)
    print("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %s %.2f | %d |" % (
        op, geo, stats.geomean(x[4] for x in v.values()),
        stats.geomean(x[5] for x in v.values()),
        stats.geomean(max(x[3], 1) for x in v.values()),
        stats.geomean(x[8] for x in v.values()), low[0], low[1][3], len(v)))
print("\n(types below 1 at 1: the geometric mean if every type that loses were "
      "left to MPI at no cost; reference, runtime / plain: what the runtime's "
      "wrappers add to calls on MPI_BYTE alone)")

print("\n## Targets\n")
for op in ("alltoall", "alltoallw", "neighbor-alltoallw"):
    if op in summary:
        print("- %s geometric mean >= 1.5: %.2f, %s" % (
            op, summary[op][0], "met" if summary[op][0] >= 1.5 else "NOT met"))
if "pingpong" in summary and "pingpong-persistent" in summary:
    a, b = summary["pingpong-persistent"][0], summary["pingpong"][0]
    print("- persistent ping-pong no lower than ping-pong: %.2f against %.2f, %s"
          % (a, b, "met" if a >= b else "NOT met"))
below = ["%s %s %.2f" % (op, n, x[3]) for op in ops
         for n, x in sorted(results[op].items()) if x[3] < 0.95]
print("- no type below 0.95: %s" % ("met" if not below else
                                   "NOT met (" + ", ".join(below) + ")"))

with open(fig + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["op", "name", "bytes", "plain_us", "runtime_us", "speedup",
                "ratio_of_medians", "contiguous_us", "bound", "substituted"])
    for op in ops:
        for name in names:
            if name in results[op]:
                b, p, r, s, ps, bound, how, ref, _ = results[op][name]
                w.writerow([op, name, b, "%.3f" % p, "%.3f" % r, "%.3f" % s,
                            "%.3f" % ps, "%.3f" % ref, "%.3f" % bound, how])

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
fig_, ax = plt.subplots(figsize=(13, 5))
wd = 0.8 / len(ops)
colors = plt.get_cmap("tab10").colors
for k, op in enumerate(ops):
    xs = [i + (k - (len(ops) - 1) / 2) * wd for i, n in enumerate(names) if n in results[op]]
    sp = [results[op][n][3] for n in names if n in results[op]]
    # Hatched where the runtime passed the type through.
    hatch = [None if results[op][n][6] == "yes" else "//" for n in names if n in results[op]]
    ax.bar(xs, [s - 1 for s in sp], wd, bottom=1, color=colors[k % len(colors)],
           edgecolor="black", linewidth=0.3, hatch=hatch,
           label="%s (geometric mean %.2fx)" % (op, summary[op][0]))
ax.axhline(1, color="black", linewidth=0.8)
ax.set_yscale("log")
ax.set_ylim(0.4, 4 * max(x[3] for op in ops for x in results[op].values()))
ax.set_yticks([0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20, 40])
ax.set_yticklabels(["0.5", "0.75", "1", "1.5", "2", "3", "5", "10", "20", "40"])
ax.set_ylabel("speedup (plain / runtime)")
ax.set_title("One corpus instance per peer under libddtc_rt, %s, 2 ranks, median over "
             "%d rounds of plain / runtime (hatched: passed through)" % (mpi, launches))
ax.set_xticks(list(range(len(names))))
ax.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
ax.legend(fontsize=7, ncol=2, loc="upper center")
ax.grid(axis="y", which="both", alpha=0.3)
fig_.tight_layout()
fig_.savefig(fig + ".png", dpi=110)
fig_.savefig(fig + ".svg")
print("\nwrote %s.csv, %s.png, %s.svg" % (fig, fig, fig))
