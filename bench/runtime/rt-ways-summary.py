"""Summary of the runtime benchmarks that run the corpus ping-pong several
ways in rotating order (rt-settings.sh, rt-forms.sh).

  python3 bench/runtime/rt-ways-summary.py OUT_DIR WAY... (the first is plain)

Reads OUT_DIR/WAY-I.csv (RtPingPong.cpp's output), prints per type the
median over iterations of each way's round trip and the speedups over the
first way, then their geometric means.

Then the same by the launch's mode. This VM runs a whole launch in a fast or
a slow mode (docs/performance.md, "Forms for sends"): 1.5-3x on every
message, plain or not. Rotation spreads the modes over the ways, but with
few iterations one way can get more slow launches than another, and its
medians then compare modes, not ways. Each launch's mode is read from its
contiguous references (the MPI_BYTE message of each type's size, which every
way sends the same): the geometric mean over types of its reference time
over that type's median reference. A launch is slow if that index exceeds
1.4 times the lower quartile of all launches' indices. Per mode with at
least 3 launches of every way, the geometric means of the speedups are
printed again; the first table's are trustworthy only where those agree.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)

out, ways = sys.argv[1], sys.argv[2:]
# launches[w]: one {type: (type_median, ref_median)} per launch of way w.
launches = {w: [] for w in ways}
for w in ways:
    for f in stats.launch_files(out, w, "csv").values():
        launches[w].append({row["name"]: (float(row["type_median"]), float(row["ref_median"]))
                            for row in csv.DictReader(open(f))})
base, others = ways[0], ways[1:]
types = sorted(launches[base][0])


def medians(w, keep=lambda i: True):
    """Per type, the median round trip of way w over its launches i kept."""
    return {t: stats.median(l[t][0] for i, l in enumerate(launches[w]) if keep(i) and t in l)
            for t in types}


print("\n| type | " + " | ".join(f"{w} us" for w in ways) + " | " +
      " | ".join(f"speedup, {w}" for w in others) + " |")
print("|---|" + "--:|" * (len(ways) + len(others)))
med = {w: medians(w) for w in ways}
for t in types:
    print(f"| {t} | " + " | ".join(f"{med[w][t]:.2f}" for w in ways) + " | " +
          " | ".join(f"{med[base][t] / med[w][t]:.2f}" for w in others) + " |")
for w in others:
    print(f"\ngeometric mean of the speedups, {w}: "
          f"{stats.geomean([med[base][t] / med[w][t] for t in types]):.2f} ({len(types)} types)")


# The mode of each launch, from its references (see the docstring).
all_launches = [l for w in ways for l in launches[w]]
ref_median = {t: stats.median(l[t][1] for l in all_launches if t in l)
              for t in types}


def mode_index(launch):
    return stats.geomean([launch[t][1] / ref_median[t] for t in launch if ref_median.get(t, 0) > 0])


indices = sorted(mode_index(l) for l in all_launches)
threshold = 1.4 * indices[len(indices) // 4]
modes = {w: ["slow" if mode_index(l) > threshold else "fast" for l in launches[w]] for w in ways}
print("\nlaunches in the slow mode: " +
      ", ".join(f"{w} {modes[w].count('slow')} of {len(modes[w])}" for w in ways))
for mode in ("fast", "slow"):
    if any(modes[w].count(mode) < 3 for w in ways):
        print(f"{mode} mode: fewer than 3 launches of some way, no comparison")
        continue
    med = {w: medians(w, lambda i, w=w: modes[w][i] == mode) for w in ways}
    print(f"{mode} mode: geometric mean of the speedups, " +
          ", ".join(f"{w} {stats.geomean([med[base][t] / med[w][t] for t in types]):.2f}"
                    for w in others) +
          " (" + ", ".join(f"{w} {modes[w].count(mode)}" for w in ways) + " launches)")
    # "No slower anywhere" is a per-type question: the three lowest types.
    for w in others:
        low = sorted(types, key=lambda t: med[base][t] / med[w][t])[:3]
        print(f"  lowest, {w}: " +
              ", ".join(f"{t} {med[base][t] / med[w][t]:.2f}" for t in low))
