"""Checks the runtime report's counts per call (docs/runtime.md, "The
report"): each call named on the command line substituted at least once,
and the calls' counts summing to the report's totals.

  check-calls.py REPORT.json CALL...
"""
import json
import sys

report = json.load(open(sys.argv[1]))
calls = report["calls"]
for name in sys.argv[2:]:
    if calls.get(name, {}).get("substituted", 0) == 0:
        sys.exit("%s: %s not substituted: %s" % (sys.argv[1], name, calls))
for total in ("substituted", "passed_through"):
    got = sum(c[total] for c in calls.values())
    if got != report[total]:
        sys.exit("%s: the calls' %s sum to %d, the report says %d" %
                 (sys.argv[1], total, got, report[total]))
print("calls ok: %d" % len(calls))
