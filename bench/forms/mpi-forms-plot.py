#!/usr/bin/python3
"""Draws the figure of docs/mpi-forms.md from the results of
bench/forms/mpi-forms.sh: for every type and message size, MPI_Pack's speedup
t(given)/t(form) under MPICH with ddtc's normal form and with the MPI-facing
form, sorted by the normal form's.

usage: mpi-forms-plot.py RESULTS.json OUT.svg|OUT.png"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        rows = json.load(f)["rows"]
    rows.sort(key=lambda r: r["normal_speedup"])
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(0.95, color="grey", linewidth=0.6, linestyle=":")
    ax.scatter(x, [r["normal_speedup"] for r in rows], s=12, marker="o",
               color="tab:red", label="normal form (ddtc_NAME_build before)")
    ax.scatter(x, [r["form_speedup"] for r in rows], s=12, marker="x",
               color="tab:blue", label="MPI-facing form (now)")
    ax.set_yscale("log")
    ax.set_xlabel("type and message size, sorted by the normal form's speedup")
    ax.set_ylabel("MPI_Pack t(given) / t(form), MPICH 4.0.2")
    ax.set_title(f"{len(rows)} messages: corpus, seed-000 layouts, traces, "
                 "random types")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(sys.argv[2])


if __name__ == "__main__":
    main()
