#!/usr/bin/python3
"""Tables and figure of the runtime's ping-pong benchmark (rt-pingpong.sh)
from its raw outputs:

  rt-pingpong-summary.py OUT_DIR RUNS FIGURE_PREFIX

OUT_DIR holds TAG-MODE-I.csv (RtPingPong.cpp's output) for I = 1..RUNS, MODE
plain or rt, TAG pingpong, commit and overhead, and the runtime's reports
beside the first run of each (TAG-rt-1.csv.report-0.json). Per type, over
the runs (seed 000's method): the median, mean, min and max of the runs'
medians; speedup = plain median / runtime median, and the geometric mean of
the speedups. Prints the tables as Markdown and writes FIGURE_PREFIX.csv,
.png and .svg (matplotlib)."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)

if len(sys.argv) != 4:
    sys.exit(__doc__)
out, runs, fig = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def load(tag, mode):
    """{name: {column: [value per run]}} over the RUNS runs of tag/mode."""
    rows = {}
    for i in range(1, runs + 1):
        with open("%s/%s-%s-%d.csv" % (out, tag, mode, i)) as f:
            for r in csv.DictReader(f):
                d = rows.setdefault(r["name"], {"bytes": int(r["bytes"])})
                for k, v in r.items():
                    if k not in ("name", "bytes", "op"):
                        d.setdefault(k, []).append(float(v))
    return rows


def report(tag, mode):
    with open("%s/%s-%s-1.csv.report-0.json" % (out, tag, mode)) as f:
        return {t["name"]: t for t in json.load(f)["types"]}


# Ping-pong.
plain, rt = load("pingpong", "plain"), load("pingpong", "rt")
subst = report("pingpong", "rt")
rows = []
for name, p in plain.items():
    r = rt[name]
    t = subst.get(name, {})
    if t.get("kernel") and t.get("substituted"):
        how = "yes"
    elif t.get("typed_large_blocks"):
        how = "no: left to MPI by DDTC_RT_TYPED_BLOCKS"
    else:
        how = "no: " + t.get("reason", "not in the report")
    ps, rs = stats.spread(p["type_median"]), stats.spread(r["type_median"])
    pr, rr = stats.spread(p["ref_median"]), stats.spread(r["ref_median"])
    rows.append((name, p["bytes"], how, ps, rs, pr, rr, ps[0] / rs[0]))
geo = stats.geomean(x[-1] for x in rows)

print("\n## Ping-pong of one instance (round trip, us; median of %d runs' "
      "medians, [min-max])\n" % runs)
print("| type | bytes | plain us | runtime us | speedup | contiguous us (plain, runtime) | substituted |")
print("|---|--:|--:|--:|--:|--:|---|")


def rng(s):
    return "%.2f [%.2f-%.2f]" % (s[0], s[2], s[3])


for name, b, how, ps, rs, pr, rr, sp in rows:
    print("| %s | %d | %s | %s | %.2f | %.2f, %.2f | %s |" %
          (name, b, rng(ps), rng(rs), sp, pr[0], rr[0], how))
print("\ngeometric mean of the speedups: %.2f (%d types)" % (geo, len(rows)))

with open(fig + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    cols = ["median", "mean", "min", "max"]
    w.writerow(["name", "bytes", "substituted"] +
               ["%s_%s_us" % (what, c)
                for what in ("plain", "runtime", "plain_contig", "runtime_contig")
                for c in cols] + ["speedup"])
    for name, b, how, ps, rs, pr, rr, sp in rows:
        w.writerow([name, b, how] + ["%.3f" % x for x in ps + rs + pr + rr] +
                   ["%.3f" % sp])

# Commit.
cp, cr = load("commit", "plain"), load("commit", "rt")
print("\n## MPI_Type_commit (us; first commit of the type in the process: "
      "median [min-max] of %d runs; later commits: median of the runs' "
      "medians of 5)\n" % runs)
print("| type | plain first | runtime first | plain later | runtime later |")
print("|---|--:|--:|--:|--:|")
for name, p in cp.items():
    r = cr[name]
    print("| %s | %s | %s | %.2f | %.2f |" %
          (name, rng(stats.spread(p["first"])), rng(stats.spread(r["first"])),
           stats.spread(p["commit_median"])[0], stats.spread(r["commit_median"])[0]))

# Overhead on a type without a kernel.
op, orr = load("overhead", "plain"), load("overhead", "rt")
t = report("overhead", "rt").get("vector2_double", {})
if t.get("kernel") or not t.get("passed_through"):
    sys.exit("error: vector2_double was not passed through: %s" % t)
print("\n## A type without a kernel (vector of 2 doubles, 10,000 ping-pongs "
      "per run; round trip, us; median of %d runs' medians [min-max])\n" % runs)
print("| message | plain us | runtime us | difference ns |")
print("|---|--:|--:|--:|")
for col, what in (("type_median", "vector2_double (passed through)"),
                  ("ref_median", "16 MPI_BYTE (predefined)")):
    a = stats.spread(op["vector2_double"][col])
    b = stats.spread(orr["vector2_double"][col])
    print("| %s | %s | %s | %.0f |" % (what, rng(a), rng(b), (b[0] - a[0]) * 1000))
print("\nreason in the report: %s; passed through: %d calls on rank 0" %
      (t.get("reason"), t.get("passed_through")))

# Figure: times with the runs' min-max as error bars, and speedups.
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
names = [x[0] for x in rows]
xs = range(len(rows))
fig_, (ax, ax2) = plt.subplots(2, 1, figsize=(11, 7.5), sharex=True,
                               gridspec_kw={"height_ratios": [3, 2]})
wd = 0.27
for k, (label, idx, color) in enumerate((("MPICH (plain)", 3, "#888888"),
                                         ("libddtc_rt.so", 4, "#1f77b4"),
                                         ("contiguous, same bytes (plain)", 5, "#dddddd"))):
    med = [x[idx][0] for x in rows]
    err = [[x[idx][0] - x[idx][2] for x in rows], [x[idx][3] - x[idx][0] for x in rows]]
    # A runtime bar is hatched where the runtime passed the type through.
    hatch = ["//" if idx == 4 and not x[2].startswith("yes") else None
             for x in rows]
    ax.bar([i + (k - 1) * wd for i in xs], med, wd, yerr=err, capsize=2,
           label=label, color=color, edgecolor="black", linewidth=0.4,
           hatch=hatch)
ax.set_yscale("log")
ax.set_ylabel("ping-pong round trip (us)")
ax.set_title("Ping-pong of one instance, 2 ranks, MPICH 4.0.2: median of %d runs "
             "(bars: min-max; hatched: passed through)" % runs)
ax.legend(fontsize=8)
ax.grid(axis="y", which="both", alpha=0.3)
sp = [x[-1] for x in rows]
ax2.bar(xs, [s - 1 for s in sp], 0.6, bottom=1, color=["#1f77b4" if s >= 1 else "#d62728" for s in sp],
        edgecolor="black", linewidth=0.4)
for i, s in zip(xs, sp):
    ax2.text(i, max(s, 1) * 1.06, "%.2f" % s, ha="center", fontsize=7)
ax2.axhline(1, color="black", linewidth=0.8)
ax2.axhline(geo, color="#2ca02c", linestyle="--", linewidth=1,
            label="geometric mean %.2fx" % geo)
ax2.set_yscale("log")
ax2.set_yticks([0.5, 1, 2, 3, 5, 10, 20])
ax2.set_yticklabels(["0.5", "1", "2", "3", "5", "10", "20"])
ax2.set_ylim(min(0.4, min(sp) * 0.9), max(20, max(sp) * 1.1))
ax2.set_ylabel("speedup (plain / runtime)")
ax2.legend(fontsize=8)
ax2.grid(axis="y", alpha=0.3)
ax2.set_xticks(list(xs))
ax2.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
fig_.tight_layout()
fig_.savefig(fig + ".png", dpi=110)
fig_.savefig(fig + ".svg")
print("\nwrote %s.csv, %s.png, %s.svg" % (fig, fig, fig))
