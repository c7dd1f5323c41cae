#!/usr/bin/python3
"""Table and figure of the runtime under each MPI family (rt-families.sh):

  rt-families-summary.py OUT_DIR RUNS FIGURE_PREFIX MPICH_NAME OPENMPI_NAME

OUT_DIR holds FAMILY-MODE-I.csv (RtPingPong.cpp's output) for FAMILY mpich
and openmpi, MODE plain and rt, I = 1..RUNS, and the runtime's reports
beside them (FAMILY-rt-I.csv.report-0.json). Per type and family: the
median over the launches of each launch's median round trip, the speedup
plain / runtime of those medians, and per family the geometric mean and
the lowest speedup. Prints the table as Markdown and writes
FIGURE_PREFIX.csv, .png and .svg (matplotlib)."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)

if len(sys.argv) != 6:
    sys.exit(__doc__)
out, runs, fig = sys.argv[1], int(sys.argv[2]), sys.argv[3]
families = (("mpich", sys.argv[4]), ("openmpi", sys.argv[5]))


def load(way):
    """{name: (bytes, [the type's median round trip per launch],
    [the same bytes' contiguous round trip per launch])}."""
    rows = {}
    for i in range(1, runs + 1):
        with open("%s/%s-%d.csv" % (out, way, i)) as f:
            for r in csv.DictReader(f):
                row = rows.setdefault(r["name"], (int(r["bytes"]), [], []))
                row[1].append(float(r["type_median"]))
                row[2].append(float(r["ref_median"]))
    return rows


def floor(family):
    """{name: (plain over one memcpy-packed message, plain over a message
    packed with a memcpy per run, plain over the memcpy-packed bytes sent as
    the runtime sends them (None where the launch had no split window))},
    from FAMILY-floor-I.csv (--pieces 1G, one piece), each ratio within its
    launch, the median over the launches; {} where it was not measured."""
    ratios = {}
    for i in range(1, 4):
        path = "%s/%s-floor-%d.csv" % (out, family, i)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for r in csv.DictReader(f):
                typed = float(r["type_median"])
                got = ratios.setdefault(r["name"], ([], [], []))
                got[0].append(typed / float(r["copied_median"]))
                got[1].append(typed / float(r["layout_median"]))
                if r.get("split_copied_median"):
                    got[2].append(typed / float(r["split_copied_median"]))
    return {name: (stats.median(c), stats.median(l),
                   stats.median(sp) if sp else None)
            for name, (c, l, sp) in ratios.items()}


def best_scheme(ratios):
    """What the best scheme reaches on one type, packing at memcpy speed:
    the faster of MPI's own path (1), the packed bytes in one message and,
    in the split window, in two blocks."""
    return max(1.0, ratios[0], ratios[2] or 0.0)


def substituted(family):
    """{name: "yes" or why not}, from the first runtime launch's report."""
    with open("%s/%s-rt-1.csv.report-0.json" % (out, family)) as f:
        types = json.load(f)["types"]
    how = {}
    for t in types:
        if t.get("kernel") and t.get("substituted"):
            how[t["name"]] = "yes"
        elif t.get("typed_large_blocks"):
            how[t["name"]] = "no: large blocks left to MPI (settings)"
        elif t.get("mpi_as_fast"):
            how[t["name"]] = "no: MPI packs it as fast (timed at commit)"
        else:
            how[t["name"]] = "no: " + t.get("reason", "not substituted")
    return how


# Per type and family: bytes, plain, runtime, speedup, how, and the bound:
# no packing scheme beats the same bytes sent contiguous, so plain over
# contiguous is the most a runtime could gain.
results = {}
floors = {family: floor(family) for family, _ in families}
for family, _ in families:
    plain, rt = load(family + "-plain"), load(family + "-rt")
    subst = substituted(family)
    results[family] = {}
    for name, (b, p, ref) in plain.items():
        pm, rm = stats.median(p), stats.median(rt[name][1])
        results[family][name] = (b, pm, rm, pm / rm,
                                 subst.get(name, "not in the report"),
                                 pm / stats.median(ref))
names = list(results["mpich"])

print("\n## Ping-pong of one instance, 2 ranks, with the kernels of the "
      "program's own trace (round trip, us; median over %d launches)\n" % runs)
head = "| type | bytes |"
rule = "|---|--:|"
for family, label in families:
    head += " %s plain | runtime | speedup | bound |" % label
    rule += "--:|--:|--:|--:|"
    if floors[family]:
        head += " memcpy | split | per run | best |"
        rule += "--:|--:|--:|--:|"
print(head + " substituted (MPICH, Open MPI) |")
print(rule + "---|")
for name in names:
    line = "| %s | %d |" % (name, results["mpich"][name][0])
    for family, _ in families:
        b, p, r, s, _, bound = results[family][name]
        line += " %.2f | %.2f | %.2f | %.2f |" % (p, r, s, bound)
        if floors[family]:
            f = floors[family].get(name, (0, 0, None))
            line += " %.2f | %s | %.2f | %.2f |" % (
                f[0], "%.2f" % f[2] if f[2] else "-", f[1], best_scheme(f))
    line += " %s, %s |" % (results["mpich"][name][4], results["openmpi"][name][4])
    print(line)
print("\n(bound: plain over the same bytes sent contiguous, the most any "
      "one-message packing scheme could gain; memcpy: plain over those bytes "
      "copied into a staging buffer with one memcpy and out of one, the "
      "floor of such a scheme; split: those copies sent in two blocks as the "
      "runtime sends a packed message in its split window; per run: copied "
      "with a memcpy per contiguous run of the layout; best: the fastest of "
      "MPI's own path, memcpy and split, the floor of the runtime's "
      "pipeline)\n")
for family, label in families:
    sp = [v[3] for v in results[family].values()]
    low = min(results[family].items(), key=lambda kv: kv[1][3])
    print("%s: geometric mean of the speedups %.2f (of the bounds %.2f), "
          "lowest %.2f (%s), %d types" %
          (label, stats.geomean(sp),
           stats.geomean(v[5] for v in results[family].values()),
           low[1][3], low[0], len(sp)))
    if floors[family]:
        fl = floors[family].values()
        print("%s: floor at memcpy speed, geometric mean %.2f in one message, "
              "%.2f the best of MPI, one message and the split window; with "
              "a memcpy per run %.2f" %
              (label, stats.geomean(v[0] for v in fl),
               stats.geomean(best_scheme(v) for v in fl),
               stats.geomean(v[1] for v in fl)))

with open(fig + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["name", "bytes"] + ["%s_%s" % (fam, c) for fam, _ in families
                                    for c in ("plain_us", "runtime_us", "speedup", "bound",
                                              "floor_best", "substituted")])
    for name in names:
        row = [name, results["mpich"][name][0]]
        for family, _ in families:
            b, p, r, s, how, bound = results[family][name]
            f = floors[family].get(name)
            row += ["%.3f" % p, "%.3f" % r, "%.3f" % s, "%.3f" % bound,
                    "%.3f" % best_scheme(f) if f else "", how]
        w.writerow(row)

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
xs = range(len(names))
fig_, ax = plt.subplots(figsize=(11, 4.5))
wd = 0.38
for k, ((family, label), color) in enumerate(zip(families, ("#1f77b4", "#ff7f0e"))):
    sp = [results[family][n][3] for n in names]
    geo = stats.geomean(sp)
    # Hatched where the runtime left the type to MPI.
    hatch = [None if results[family][n][4] == "yes" else "//" for n in names]
    ax.bar([i + (k - 0.5) * wd for i in xs], [s - 1 for s in sp], wd, bottom=1,
           color=color, edgecolor="black", linewidth=0.4, hatch=hatch,
           label="%s (geometric mean %.2fx)" % (label, geo))
ax.axhline(1, color="black", linewidth=0.8)
ax.set_yscale("log")
ax.set_yticks([0.5, 1, 2, 3, 5, 10, 20])
ax.set_yticklabels(["0.5", "1", "2", "3", "5", "10", "20"])
ax.set_ylabel("speedup (plain / runtime)")
ax.set_title("Ping-pong of one corpus instance under libddtc_rt, 2 ranks, median of "
             "%d launches (hatched: left to MPI)" % runs)
ax.set_xticks(list(xs))
ax.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
ax.legend(fontsize=8)
ax.grid(axis="y", which="both", alpha=0.3)
fig_.tight_layout()
fig_.savefig(fig + ".png", dpi=110)
fig_.savefig(fig + ".svg")
print("\nwrote %s.csv, %s.png, %s.svg" % (fig, fig, fig))
