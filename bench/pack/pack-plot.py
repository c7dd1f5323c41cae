#!/usr/bin/python3
"""Figure of the pack benchmark (docs/performance.md) from ddtc-pack-bench JSON.

    python3 bench/pack/pack-plot.py RUN.json... -o FIGURE.png|.svg [--title T]

The same inputs as bench/pack/pack-report.py (one file per run; the runs of each
MPI library combined by the median, the first library the reference), drawn
as two panels over the types, one row each:

  left   the fraction of the refined bound (the larger of the roofline and
         the line walk, pack-report.py) that pack + unpack reach, for ddtc,
         each MPI library and the hand loop; a line at 0.8, the
         target. Types whose instances overlap are marked: their bound
         does not hold.
  right  ddtc's speedup over the reference library, pack and unpack, on a
         log scale; lines at 1 and 3.

Every figure is taken within its library's own run, as in the report.
"""
import argparse
import importlib.util
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def report_module():
    """bench/pack/pack-report.py, whose name is not an importable identifier."""
    spec = importlib.util.spec_from_file_location("pack_report", os.path.join(HERE, "pack-report.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", help="ddtc-pack-bench JSON files")
    parser.add_argument("-o", dest="output", required=True, help="figure file (.png or .svg)")
    parser.add_argument("--title", default=None)
    args = parser.parse_args(argv)
    if os.path.splitext(args.output)[1] not in (".png", ".svg"):
        sys.exit("pack-plot.py: %s: the figure must be .png or .svg" % args.output)

    pr = report_module()
    try:
        runs = pr.combine([pr.load(p) for p in args.runs])
    except (OSError, ValueError) as e:
        sys.exit("pack-plot.py: %s" % e)
    except KeyError as e:
        sys.exit("pack-plot.py: a run lacks the field %s: not a whole ddtc-pack-bench result" % e)
    ref = runs[0]
    names = [pr.short_name(r["mpi"]) for r in runs]
    others = [{t["name"]: t for t in r["types"]} for r in runs[1:]]
    if any(pr.walk_seconds(t) is None for t in ref["types"]):
        sys.exit("pack-plot.py: the runs have no line walk (no walk_read, walk_write times)")

    types = ref["types"]
    labels = [t["name"] + (" (overlapping)" if t["overlap_bytes"] > 0 else "") for t in types]
    series = [("ddtc", "#1f77b4", [pr.refined_fraction(t, "ddtc_pack", "ddtc_unpack") for t in types]),
              (names[0], "#d62728", [pr.refined_fraction(t, "mpi_pack", "mpi_unpack") for t in types])]
    colors = ["#ff7f0e", "#9467bd", "#8c564b"]
    for n, o, c in zip(names[1:], others, colors):
        series.append((n, c, [pr.refined_fraction(o[t["name"]], "mpi_pack", "mpi_unpack")
                              if t["name"] in o else 0 for t in types]))
    series.append(("hand loop", "#7f7f7f", [pr.refined_fraction(t, "hand_pack", "hand_unpack") for t in types]))

    def speedup(t, direction):
        s = t["seconds"]
        return s["mpi_" + direction] / s["ddtc_" + direction]

    rows = len(types)
    fig, (left, right) = plt.subplots(1, 2, sharey=True, figsize=(12, 0.3 * rows + 1.6),
                                      gridspec_kw={"width_ratios": [3, 2]})
    y = list(range(rows))
    height = 0.8 / len(series)
    for i, (name, color, values) in enumerate(series):
        left.barh([v + (i - (len(series) - 1) / 2) * height for v in y], values, height=height,
                  color=color, label=name)
    left.axvline(0.8, color="black", linestyle="--", linewidth=0.8)
    left.set_xlabel("fraction of the refined bound reached by pack + unpack (1 = at the bound)")
    left.set_yticks(y)
    left.set_yticklabels(labels, fontsize=8)
    left.invert_yaxis()
    left.set_xlim(0, max(1.6, max(max(v) for _, _, v in series) * 1.05))
    left.legend(loc="lower right", fontsize=8)
    left.grid(axis="x", alpha=0.3)

    for i, (direction, color) in enumerate([("pack", "#1f77b4"), ("unpack", "#aec7e8")]):
        right.barh([v + (i - 0.5) * 0.4 for v in y], [speedup(t, direction) for t in types],
                   height=0.4, color=color, label="ddtc/%s %s" % (names[0], direction))
    right.set_xscale("log")
    for x in (1, 3):
        right.axvline(x, color="black", linestyle="--" if x == 3 else "-", linewidth=0.8)
    right.set_xlabel("speedup over %s (log scale; 3x: the target)" % names[0])
    right.legend(loc="lower right", fontsize=8)
    right.grid(axis="x", alpha=0.3, which="both")

    title = args.title or ("Pack + unpack, %d types, %s: median of %d run(s) of %d repetitions, %s caches"
                           % (rows, ", ".join(names), ref["runs"], ref["reps"], ref["cache"]))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
