"""check-results.py RESULTS.json RUNS GRID...: the schema of ddtc-bench's
JSON output (docs/cli.md), and that its results are exactly the products
of the GRIDs, each written TYPE=SIZE,.../OP,.../VARIANT,.../COUNT,...
(one result per type, operation, variant and count, of count x size bytes).
Prints "ok" or what is wrong."""
import json
import sys

path, runs = sys.argv[1], int(sys.argv[2])
cases = []
for grid in sys.argv[3:]:
    types, ops, variants, counts = grid.split("/")
    for t in types.split(","):
        name, size = t.split("=")
        for op in ops.split(","):
            for v in variants.split(","):
                for n in counts.split(","):
                    cases.append("%s:%s:%s:%s:%d" % (name, op, v, n, int(n) * int(size)))
doc = json.load(open(path))
errors = []


def need(cond, what):
    if not cond:
        errors.append(what)


for key, kind in [("ddtc_bench", int), ("file", str), ("source", str),
                  ("ranks", int), ("runs", int), ("chunk", int),
                  ("mpi_library", str),
                  ("ddtc_version", str), ("date", str), ("results", list),
                  ("skipped", list)]:
    need(isinstance(doc.get(key), kind), "top level: %s is not a %s" % (key, kind.__name__))
need(doc.get("ddtc_bench") == 1, "schema version is not 1")
need(doc.get("runs") == runs, "runs is not %d" % runs)
need(doc.get("mpi_library", "").startswith(("MPICH", "Open MPI")),
     "mpi_library names neither MPICH nor Open MPI")
seen = set()
for r in doc.get("results", []):
    key = "%s:%s:%s:%d:%d" % (r["type"], r["op"], r["variant"], r["count"], r["bytes"])
    need(key not in seen, "twice: " + key)
    seen.add(key)
    need(len(r["run_medians_us"]) == runs, key + ": not one median per run")
    need(0 < r["min_us"] <= r["median_us"] <= r["max_us"], key + ": min <= median <= max fails")
    need(r["min_us"] <= r["mean_us"] <= r["max_us"], key + ": mean out of [min, max]")
    need(r["nrep"] > 0, key + ": nrep")
    need(("kernel_us" in r) == (r["variant"] == "ddtc"), key + ": kernel_us only for ddtc")
for s in doc.get("skipped", []):
    need(isinstance(s.get("type"), str) and isinstance(s.get("reason"), str),
         "skipped entry without type and reason")
for c in cases:
    need(c in seen, "missing: " + c)
for s in sorted(seen - set(cases)):
    errors.append("unexpected: " + s)
print("\n".join(errors) if errors else "ok")
sys.exit(1 if errors else 0)
