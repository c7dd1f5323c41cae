"""Summary of ddtbench-ways.sh: DDTBench's patterns run several ways.

  python3 bench/runtime/ddtbench-summary.py OUT WAY... (the first is the baseline)

Reads OUT/WAY-L.txt (pattern, bytes, microseconds per line; a line per
timed iteration). A pattern's time in a launch is, as DDTBench's own
analysis takes it, the sum over its sizes of the median over the
iterations of that size (the first iteration of each outer loop pays for
what a type costs at its first use: its send form, where one is chosen;
`--sum` sums every iteration instead, to count it).

This VM runs a whole launch in a fast or a slow mode (docs/performance.md),
its contiguous messages up to 4x apart, and the modes change from one
launch to the next; a ratio of two launches then measures the modes. Each
launch also times DDTBench's `reference` (the same bytes, contiguous),
which the runtime passes through: a pattern's time is taken relative to
its reference in the same launch (`--raw`: the times themselves). That
does not cancel the mode: a pattern's time relative to the reference
differs between the modes too (NAS_MG_y plain: 0.5-0.8 in the fast one,
1.0-1.7 in the slow one). So each launch of a way is compared with the
baseline's launches in the same mode: a launch is in the slow mode for a
pattern where its reference took more than twice the fastest reference
of that pattern in the run. Per pattern and way: the median over the
way's launches of the baseline's median (relative) time in that launch's
mode over the way's (all the baseline's launches where it has none in
that mode; `--paired`: the baseline's launch of the same number instead,
whatever its mode); then the geometric mean over patterns and the lowest.
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
summed, raw, paired = "--sum" in args, "--raw" in args, "--paired" in args
args = [a for a in args if a not in ("--sum", "--raw", "--paired")]
out, ways = args[0], args[1:]


def launch(path):
    """({pattern: time, relative to the reference unless --raw},
    {pattern: the reference's time})."""
    times = read(path, summed)
    ref = read(path[:-4] + ".ref.txt", False)
    return (times if raw else {p: t / ref[p] for p, t in times.items()}), ref


loaded = {w: {l: launch(p) for l, p in stats.launch_files(out, w, "txt").items()} for w in ways}
runs = {w: {l: v[0] for l, v in ls.items()} for w, ls in loaded.items()}
base = ways[0]
launches = sorted(set.intersection(*(set(runs[w]) for w in ways)))
patterns = list(runs[base][launches[0]])


def slow(pattern):
    """{(way, launch): whether that launch ran the pattern in the slow mode}."""
    refs = {(w, l): loaded[w][l][1][pattern] for w in ways for l in launches}
    fastest = min(refs.values())
    return {k: r > 2 * fastest for k, r in refs.items()}


def speedup(pattern, way):
    base_times = [runs[base][l][pattern] for l in launches]
    way_times = [runs[way][l][pattern] for l in launches]
    if paired:
        return stats.paired_ratio(base_times, way_times)
    mode = slow(pattern)
    ratios = []
    for l, t in zip(launches, way_times):
        same = [b for b, bl in zip(base_times, launches)
                if mode[(base, bl)] == mode[(way, l)]]
        ratios.append(stats.median(same or base_times) / t)
    return stats.median(ratios)


how = ("the baseline's launch of the same number" if paired
       else "the baseline's launches in the same mode")
print(f"# {len(launches)} launches; speedup = {base} time / way time, "
      f"median over the way's launches, against {how}")
for w in ways:
    counts = [sum(slow(p)[(w, l)] for l in launches) for p in patterns]
    print(f"# {w}: launches in the slow mode, by pattern: {min(counts)}-{max(counts)} of {len(launches)}")
print(f"{'pattern':<16}{base + (' us' if raw else ' /ref'):>12}" + "".join(f"{w:>12}" for w in ways[1:]))
speedups = {w: [] for w in ways[1:]}
for p in patterns:
    row = f"{p:<16}{stats.median(runs[base][l][p] for l in launches):>12.2f}"
    for w in ways[1:]:
        s = speedup(p, w)
        speedups[w].append((s, p))
        row += f"{s:>12.2f}"
    print(row)
print(f"{'geomean':<28}" + "".join(f"{stats.geomean(s for s, _ in speedups[w]):>12.2f}" for w in ways[1:]))
print(f"{'lowest':<28}" + "".join(f"{min(speedups[w])[0]:>12.2f}" for w in ways[1:]))
