"""Checks the runtime report's counts per call (docs/runtime.md, "The
report"): each call named on the command line substituted at least once,
and the calls' counts summing to the report's totals.

  check-calls.py REPORT.json CALL... [--alike REF CALL...]

With --alike, the calls after REF pass through in the same proportion to
their substitutions as REF: the program made them the same number of times
on every type, bound or not, so a call that counted a pass-through at
other times than its substitutions (a persistent request at its creation
rather than at each start) shows.
"""
import json
import sys

args = sys.argv[2:]
alike = []
if "--alike" in args:
    alike = args[args.index("--alike") + 1:]
    args = args[:args.index("--alike")]
report = json.load(open(sys.argv[1]))
calls = report["calls"]
for name in args + alike:
    if calls.get(name, {}).get("substituted", 0) == 0:
        sys.exit("%s: %s not substituted: %s" % (sys.argv[1], name, calls))
for total in ("substituted", "passed_through"):
    got = sum(c[total] for c in calls.values())
    if got != report[total]:
        sys.exit("%s: the calls' %s sum to %d, the report says %d" %
                 (sys.argv[1], total, got, report[total]))
if alike:
    ref = calls[alike[0]]
    for name in alike[1:]:
        c = calls[name]
        if c["passed_through"] * ref["substituted"] != \
                ref["passed_through"] * c["substituted"]:
            sys.exit("%s: %s passed through %d of %d, %s %d of %d" %
                     (sys.argv[1], name, c["passed_through"],
                      c["substituted"], alike[0], ref["passed_through"],
                      ref["substituted"]))
print("calls ok: %d" % len(calls))
