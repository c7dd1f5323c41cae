"""Summary of the runtime benchmarks that run the corpus ping-pong several
ways in rotating order (bench/rt-settings.sh, bench/rt-forms.sh).

  python3 bench/rt-ways-summary.py OUT_DIR WAY... (the first is plain)

Reads OUT_DIR/WAY-I.csv (bench/RtPingPong.cpp's output), prints per type the
median over iterations of each way's round trip and the speedups over the
first way, then their geometric means.
"""
import csv
import glob
import math
import statistics
import sys

out, ways = sys.argv[1], sys.argv[2:]
times = {w: {} for w in ways}
for w in ways:
    for f in glob.glob(f"{out}/{w}-*.csv"):
        for row in csv.DictReader(open(f)):
            times[w].setdefault(row["name"], []).append(float(row["type_median"]))
base, others = ways[0], ways[1:]
print("\n| type | " + " | ".join(f"{w} us" for w in ways) + " | " +
      " | ".join(f"speedup, {w}" for w in others) + " |")
print("|---|" + "--:|" * (len(ways) + len(others)))
logs = {w: [] for w in others}
for t in sorted(times[base]):
    med = {w: statistics.median(times[w][t]) for w in ways}
    for w in others:
        logs[w].append(math.log(med[base] / med[w]))
    print(f"| {t} | " + " | ".join(f"{med[w]:.2f}" for w in ways) + " | " +
          " | ".join(f"{med[base] / med[w]:.2f}" for w in others) + " |")
for w in others:
    print(f"\ngeometric mean of the speedups, {w}: "
          f"{math.exp(sum(logs[w]) / len(logs[w])):.2f} ({len(logs[w])} types)")
