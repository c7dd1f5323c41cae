#!/usr/bin/python3
"""The table of docs/mpi-forms.md, "Uses: forms for sends", from the results
mpi-forms-sends.sh leaves in OUT_DIR:

  mpi-forms-sends-summary.py OUT_DIR

Reads OUT_DIR/result-NAME.json (ddtc-bench's ping-pong of the `mpi` and
`mpi-normalized` variants, measured in one launch) and
OUT_DIR/analyze-NAME.json (`ddtc analyze --format json`: the MPI-facing form
each type gets). Prints per type the round trips, t(given)/t(MPI-facing),
and the geometric means over all messages and over the rewritten ones."""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import stats  # noqa: E402  (bench/stats.py)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    rows = []
    for path in sorted(glob.glob(out + "/result-*.json")):
        name = path[len(out) + len("/result-"):-len(".json")]
        with open(out + "/analyze-" + name + ".json") as f:
            forms = {t["name"]: t["mpi_form"]["origin"] for t in json.load(f)["types"]}
        med = {}
        with open(path) as f:
            for r in json.load(f)["results"]:
                med[(r["type"], r["count"], r["variant"])] = r["median_us"]
        for (t, c, v), us in sorted(med.items()):
            if v == "mpi":
                rows.append((name, t, c, forms.get(t, "?"), us, med[(t, c, "mpi-normalized")]))
    print("| file | type | count | MPI-facing form | mpi µs | MPI-facing µs | given/MPI-facing |")
    print("|---|---|--:|---|--:|--:|--:|")
    for name, t, c, form, g, f in rows:
        print("| %s | %s | %d | %s | %.2f | %.2f | %.2f |" % (name, t, c, form, g, f, g / f))
    ratios = [g / f for _, _, _, _, g, f in rows]
    rewritten = [g / f for _, _, _, form, g, f in rows if form != "given"]
    print()
    print("- all %d messages: geometric mean %.2f, min %.2f"
          % (len(ratios), stats.geomean(ratios), min(ratios)))
    print("- %d rewritten: geometric mean %.2f" % (len(rewritten), stats.geomean(rewritten)))


if __name__ == "__main__":
    main()
