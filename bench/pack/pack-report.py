#!/usr/bin/python3
"""Tables of the pack benchmark (docs/performance.md) from ddtc-pack-bench JSON.

    python3 bench/pack/pack-report.py RUN.json... [--per-call]

Each file is one run of ddtc-pack-bench; the runs of one MPI library (the
"mpi" field) are combined by taking, per type and method, the median over
runs of the runs' figures. The library of the first file is the reference
(MPICH); another one is the same benchmark built with another MPI library
(Open MPI), over the same types. Each run measures ddtc,
its MPI, the hand loop and memcpy side by side in one process, so a ratio
against an MPI library is taken within that library's run: ddtc/Open MPI
from the Open MPI run's own ddtc figures, never across processes.

Input schema (ddtc-pack-bench): {"schema": 1, "mpi": library version line,
"reps", "statistic", "cache" ("warm", or "cold": one call from memory per
repetition; absent in older files, meaning warm), "types": [{"name", "count", "packed" (bytes), "footprint"
(typed bytes spanned), "runs" (contiguous runs of the message), "hand"
("element loops" or "blocks"), "lines" (distinct 64-byte lines touched),
"full_lines" (of them, covered end to end), "instance_lines" (sum over
instances), "overlap_bytes", "bound_bytes" (Roofline.h), "seconds": {method:
seconds per call}}]}.

Roofline: memcpy_L copies memcpy_L_bytes = (64 * lines + packed) / 2 bytes
(pack's footprint in its two buffers), moving twice that (read and write),
so the machine's bandwidth at that footprint is
2 * memcpy_L_bytes / seconds["memcpy_L"]; the bound of pack + unpack is
bound_bytes at that bandwidth, and a method's fraction is the bound over its
pack + unpack time.

Line walk (where a run has walk_* methods; it is left out otherwise): the
time of touching the message's lines alone, walk_read (one byte loaded per
line, in address order) + walk_write (one byte stored per line) + memcpy
(the packed stream, written by pack and read by unpack). Where the lines are
far apart, misses and page walks one after another take longer than the
roofline's bandwidth says; the refined bound is the larger of the two, and
a method's refined fraction is that over its pack + unpack time.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("schema") != 1:
        sys.exit("pack-report.py: %s: not a ddtc-pack-bench result (schema 1)" % path)
    return doc


def combine(docs):
    """One document per MPI library, in order of first appearance."""
    by_mpi = {}
    for d in docs:
        by_mpi.setdefault(d["mpi"], []).append(d)
    out = []
    for mpi, group in by_mpi.items():
        first = group[0]
        if len({g.get("cache", "warm") for g in group}) > 1:
            sys.exit("pack-report.py: %s: warm and cold runs mixed; report them apart" % mpi)
        types = []
        for t in first["types"]:
            same = [next(x for x in g["types"] if x["name"] == t["name"]) for g in group]
            c = dict(t)
            c["seconds"] = {m: stats.median(x["seconds"][m] for x in same) for m in t["seconds"]}
            types.append(c)
        out.append({"mpi": mpi, "reps": first["reps"], "runs": len(group),
                    "statistic": first["statistic"],
                    "cache": first.get("cache", "warm"), "types": types})
    return out


def short_name(mpi):
    if mpi.startswith("MPICH"):
        return "MPICH"
    if mpi.startswith("Open MPI"):
        return "Open MPI"
    return mpi.split()[0] if mpi else "MPI"


def gbs(t, s, method):
    return t["packed"] / s[method] * 1e-9


def bound_seconds(t):
    s = t["seconds"]
    bandwidth = 2 * t["memcpy_L_bytes"] / s["memcpy_L"]
    return t["bound_bytes"] / bandwidth


def fraction(t, pack, unpack):
    s = t["seconds"]
    return bound_seconds(t) / (s[pack] + s[unpack])


def walk_seconds(t):
    """Touching the lines alone (module docstring), or None in older files."""
    s = t["seconds"]
    if "walk_read" not in s:
        return None
    return s["walk_read"] + s["walk_write"] + s["memcpy"]


def refined_fraction(t, pack, unpack):
    s = t["seconds"]
    return max(bound_seconds(t), walk_seconds(t)) / (s[pack] + s[unpack])


def row(cells):
    return "| " + " | ".join(cells) + " |"


def main(argv):
    per_call = "--per-call" in argv
    paths = [a for a in argv if a != "--per-call"]
    if not paths:
        sys.exit(__doc__)
    runs = combine([load(p) for p in paths])
    ref = runs[0]
    names = [short_name(r["mpi"]) for r in runs]
    others = [{t["name"]: t for t in r["types"]} for r in runs[1:]]
    print("Runs: " + "; ".join("%s (%s): %d run(s) of %d repetitions, %s per run, median over runs, %s caches"
                               % (n, r["mpi"], r["runs"], r["reps"], r["statistic"], r["cache"])
                               for n, r in zip(names, runs)))
    print()

    # Throughput (or time per call).
    head = ["type", "count", "packed B" if per_call else "packed MB", "typed MB", "mean block B"]
    head += ["ddtc pack", names[0] + " pack", names[0] + "-n pack"]
    head += [n + " pack" for n in names[1:]] + ["hand pack", "memcpy"]
    head += ["ddtc unpack", names[0] + " unpack"] + [n + " unpack" for n in names[1:]] + ["hand unpack"]
    unit = "ns per call" if per_call else "GB/s"
    print("Throughput (%s):" % unit)
    print()
    print(row(head))
    print(row(["---"] + ["--:"] * (len(head) - 1)))

    def fig(t, method):
        s = t["seconds"]
        return "%.0f" % (s[method] * 1e9) if per_call else "%.2f" % gbs(t, s, method)

    for t in ref["types"]:
        o = [x.get(t["name"]) for x in others]
        cells = [t["name"], str(t["count"]),
                 str(t["packed"]) if per_call else "%.2f" % (t["packed"] / 1e6),
                 "%.1f" % (t["footprint"] / 1e6), "%.0f" % (t["packed"] / t["runs"])]
        cells += [fig(t, "ddtc_pack"), fig(t, "mpi_pack"), fig(t, "mpi_n_pack")]
        cells += [fig(x, "mpi_pack") if x else "–" for x in o]
        cells += [fig(t, "hand_pack"), fig(t, "memcpy"), fig(t, "ddtc_unpack"), fig(t, "mpi_unpack")]
        cells += [fig(x, "mpi_unpack") if x else "–" for x in o]
        cells += [fig(t, "hand_unpack")]
        print(row(cells))
    print()

    # Ratios, each within one run.
    head = ["type", "ddtc/%s p, u" % names[0]] + ["ddtc/%s p, u" % n for n in names[1:]]
    head += ["ddtc/hand p, u"]
    print("Speedups (ratios of times within one run):")
    print()
    print(row(head))
    print(row(["---"] + ["--:"] * (len(head) - 1)))

    def ratio(t, other):
        s = t["seconds"]
        return (s["%s_pack" % other] / s["ddtc_pack"], s["%s_unpack" % other] / s["ddtc_unpack"])

    speedups = {n: ([], []) for n in names + ["hand"]}
    slower = []
    for t in ref["types"]:
        o = [x.get(t["name"]) for x in others]
        cells = [t["name"]]
        for n, x in zip(names, [t] + o):
            if not x:
                cells.append("–")
                continue
            p, u = ratio(x, "mpi")
            speedups[n][0].append(p)
            speedups[n][1].append(u)
            cells.append("%.2f, %.2f" % (p, u))
            if p < 1 or u < 1:
                slower.append("%s: %s (pack %.2fx, unpack %.2fx)" % (n, t["name"], p, u))
        p, u = ratio(t, "hand")
        speedups["hand"][0].append(p)
        speedups["hand"][1].append(u)
        cells.append("%.2f, %.2f" % (p, u))
        if p < 1 or u < 1:
            slower.append("hand: %s (pack %.2fx, unpack %.2fx)" % (t["name"], p, u))
        print(row(cells))
    print()

    # Roofline.
    walked = all(walk_seconds(t) is not None for t in ref["types"])
    head = ["type", "lines MB", "full lines", "shared lines", "memcpy GB/s at footprint", "bound µs",
            "ddtc", names[0]] + names[1:] + ["hand"]
    if walked:
        head += ["line walk µs", "ddtc, refined"]
    print("Roofline: fraction of the bound reached by pack + unpack (1 = at the bound):")
    print()
    print(row(head))
    print(row(["---"] + ["--:"] * (len(head) - 1)))
    fractions = []
    below = []
    refined_below = []
    for t in ref["types"]:
        o = [x.get(t["name"]) for x in others]
        s = t["seconds"]
        overlapping = t["overlap_bytes"] > 0
        shared = t["instance_lines"] - t["lines"]
        f = fraction(t, "ddtc_pack", "ddtc_unpack")
        if not overlapping:
            fractions.append(f)
            if f < 0.8:
                below.append("%s %.2f" % (t["name"], f))
        cells = [t["name"] + (" (overlapping)" if overlapping else ""),
                 "%.2f" % (64 * t["lines"] / 1e6),
                 "%.0f %%" % (100 * t["full_lines"] / t["lines"]),
                 "%.0f %%" % (100 * shared / t["instance_lines"]),
                 "%.1f" % (2 * t["memcpy_L_bytes"] / s["memcpy_L"] * 1e-9),
                 "%.1f" % (bound_seconds(t) * 1e6), "%.2f" % f,
                 "%.2f" % fraction(t, "mpi_pack", "mpi_unpack")]
        cells += ["%.2f" % fraction(x, "mpi_pack", "mpi_unpack") if x else "–" for x in o]
        cells += ["%.2f" % fraction(t, "hand_pack", "hand_unpack")]
        if walked:
            r = refined_fraction(t, "ddtc_pack", "ddtc_unpack")
            cells += ["%.1f" % (walk_seconds(t) * 1e6), "%.2f" % r]
            if not overlapping and r < 0.8:
                refined_below.append("%s %.2f" % (t["name"], r))
        print(row(cells))
    print()

    print("types: %d" % len(ref["types"]))
    for n in names + ["hand"]:
        p, u = speedups[n]
        print("geometric mean ddtc/%s: pack %.2fx, unpack %.2fx (%d types)" % (n, stats.geomean(p), stats.geomean(u), len(p)))
    print("ddtc at >= 0.8 of the roofline: %d of %d types whose instances do not overlap%s"
          % (len(fractions) - len(below), len(fractions),
             "; below: " + ", ".join(below) if below else ""))
    if walked:
        print("ddtc at >= 0.8 of the refined bound (the larger of the roofline and the line walk): "
              "%d of %d%s" % (len(fractions) - len(refined_below), len(fractions),
                             "; below: " + ", ".join(refined_below) if refined_below else ""))
    print("slower than a peer (pack or unpack): %d" % len(slower))
    for line in slower:
        print("  " + line)


if __name__ == "__main__":
    main(sys.argv[1:])
