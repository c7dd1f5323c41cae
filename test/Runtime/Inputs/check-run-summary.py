"""Checks the summary `ddtc run` prints against the reports it summarizes
(docs/cli.md, "ddtc run"): the calls table holds, per call, the sums over
the reports of its substituted and passed-through calls, and its `all` row
their totals; the types line counts the reports' types once each, told
apart by name and layout key, or size and extent where there is no key;
the kernels line counts them by kind.

  check-run-summary.py SUMMARY REPORT...
"""
import json
import re
import sys

summary = open(sys.argv[1]).read().splitlines()
reports = [json.load(open(path)) for path in sys.argv[2:]]


def fail(message):
    sys.exit("%s: %s" % (sys.argv[1], message))


calls = {}
for report in reports:
    for name, counts in report["calls"].items():
        sums = calls.setdefault(name, [0, 0])
        sums[0] += counts["substituted"]
        sums[1] += counts["passed_through"]
expected = {name: tuple(sums) for name, sums in calls.items()}
if len(calls) > 1:
    expected["all"] = (sum(s[0] for s in calls.values()),
                       sum(s[1] for s in calls.values()))

rows = {}
in_calls = False
for line in summary:
    if line.startswith("  calls "):
        in_calls = True
        continue
    if in_calls:
        row = re.fullmatch(r" {13}(\S+) +(\d+) +(\d+)", line)
        if not row:
            break
        rows[row.group(1)] = (int(row.group(2)), int(row.group(3)))
if rows != expected:
    fail("calls %s, the reports say %s" % (rows, expected))

types = {}
for report in reports:
    for t in report["types"]:
        layout = t["key"] if "key" in t else (t.get("size"), t.get("extent"))
        types.setdefault((t["name"], str(layout), t.get("reason", "")), t)
kinds = {}
for t in types.values():
    if "kind" in t:
        kinds[t["kind"]] = kinds.get(t["kind"], 0) + 1


def line(label):
    for l in summary:
        if l.startswith("  %-10s " % label):
            return l[13:]
    fail("no %s line" % label)


if not line("types").startswith("%d " % len(types)):
    fail("types: %r, the reports have %d" % (line("types"), len(types)))
got = dict((kind, int(n)) for n, kind in
           (part.split(" ", 1) for part in line("kernels").split(", ")))
if got != kinds:
    fail("kernels: %r, the reports say %s" % (line("kernels"), kinds))
