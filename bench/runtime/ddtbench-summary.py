"""Summary of ddtbench-ways.sh: DDTBench's patterns run several ways.

  python3 bench/runtime/ddtbench-summary.py OUT WAY... (the first is the baseline)

Reads OUT/WAY-L.txt (pattern, bytes, microseconds per line; a line per
timed iteration). A pattern's time in a launch is, as DDTBench's own
analysis takes it, the sum over its sizes of the median over the
iterations of that size (the first iteration of each outer loop pays for
what a type costs at its first use: its send form, where one is chosen;
`--sum` sums every iteration instead, to count it).

This VM runs a whole launch in a fast or a slow mode (docs/performance.md),
up to 3x apart, and the modes change from one launch to the next; a ratio
of two launches then measures the modes. Each launch also times
DDTBench's `reference` (the same bytes, contiguous), which the runtime
passes through: a pattern's time is taken relative to its reference in the
same launch, and the speedup is the ratio of those (`--raw`: the times
themselves). Per pattern and way: the
median over launches of the launch's speedup (the baseline's time in that
launch over the way's), so that both sides of a ratio come from launches
next to each other; then the geometric mean over patterns and the lowest.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)


def read(path, summed):
    samples = {}
    with open(path) as f:
        for line in f:
            pattern, size, us = line.split()
            samples.setdefault(pattern, {}).setdefault(size, []).append(float(us))
    combine = sum if summed else stats.median
    return {p: sum(combine(v) for v in sizes.values()) for p, sizes in samples.items()}


args = sys.argv[1:]
summed, raw = "--sum" in args, "--raw" in args
args = [a for a in args if a not in ("--sum", "--raw")]
out, ways = args[0], args[1:]


def launch(path):
    times = read(path, summed)
    if raw:
        return times
    ref = read(path[:-4] + ".ref.txt", False)
    return {p: t / ref[p] for p, t in times.items()}


runs = {w: {l: launch(p) for l, p in stats.launch_files(out, w, "txt").items()} for w in ways}
base = ways[0]
launches = sorted(set.intersection(*(set(runs[w]) for w in ways)))
patterns = list(runs[base][launches[0]])
print(f"# {len(launches)} launches; speedup = {base} time / way time, median over launches")
print(f"{'pattern':<16}{base + (' us' if raw else ' /ref'):>12}" + "".join(f"{w:>12}" for w in ways[1:]))
speedups = {w: [] for w in ways[1:]}
for p in patterns:
    row = f"{p:<16}{stats.median(runs[base][l][p] for l in launches):>12.2f}"
    for w in ways[1:]:
        s = stats.paired_ratio([runs[base][l][p] for l in launches],
                               [runs[w][l][p] for l in launches])
        speedups[w].append((s, p))
        row += f"{s:>12.2f}"
    print(row)
print(f"{'geomean':<28}" + "".join(f"{stats.geomean(s for s, _ in speedups[w]):>12.2f}" for w in ways[1:]))
print(f"{'lowest':<28}" + "".join(f"{min(speedups[w])[0]:>12.2f}" for w in ways[1:]))
