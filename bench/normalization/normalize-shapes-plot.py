#!/usr/bin/python3
"""Draws the figure of docs/performance.md from the tables that
normalize-shapes.sh prints (one or more runs, concatenated): the
seconds of `ddtc normalize` and `ddtc analyze` per shape against the
number of blocks, on log-log axes with the 1 s target, and a line of
slope 1 for linear growth.

usage: normalize-shapes-plot.py TABLE.txt [TABLE.txt ...] OUT.svg|OUT.png"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(paths):
    rows = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                cols = line.split()
                if len(cols) != 6 or cols[0] == "shape":
                    continue
                shape, n = cols[0], int(cols[1])
                rows[(shape, n)] = (float(cols[2]), float(cols[4]))
    return rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = read(sys.argv[1:-1])
    shapes = sorted({s for s, _ in rows}, key=lambda s: [
        "unsorted", "sorted", "clustered", "lattice", "runs"].index(s)
        if s in ("unsorted", "sorted", "clustered", "lattice", "runs") else 9)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for shape in shapes:
        ns = sorted(n for s, n in rows if s == shape)
        line, = ax.plot(ns, [rows[(shape, n)][0] for n in ns], marker="o",
                        label=f"{shape}: normalize")
        ax.plot(ns, [rows[(shape, n)][1] for n in ns], marker="x",
                linestyle="--", color=line.get_color(),
                label=f"{shape}: analyze")
    all_n = sorted({n for _, n in rows})
    if all_n:
        lo, hi = all_n[0], all_n[-1]
        ax.plot([lo, hi], [1.2e-6 * lo, 1.2e-6 * hi], color="grey",
                linewidth=0.8, linestyle=":", label="1.2 µs per block")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("blocks in the index list (indexed_block, blocklength 2)")
    ax.set_ylabel("seconds, whole command")
    ax.set_title("ddtc normalize and analyze by shape of the list")
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    fig.tight_layout()
    fig.savefig(sys.argv[-1])


if __name__ == "__main__":
    main()
