"""Checks that a rank left collective calls to MPI that another rank
packed: for each call named, the first report counts more of them passed
through, and fewer substituted, than the second (the two ranks made the
same calls on the same types).

  check-left.py LEFT.json PACKED.json CALL...
"""
import json
import sys

left = json.load(open(sys.argv[1]))["calls"]
packed = json.load(open(sys.argv[2]))["calls"]
for name in sys.argv[3:]:
    l, p = left.get(name, {}), packed.get(name, {})
    if not (l.get("passed_through", 0) > p.get("passed_through", 0) and
            l.get("substituted", 0) < p.get("substituted", 0)):
        sys.exit("%s: %s not left more often than in %s: %s against %s" %
                 (sys.argv[1], name, sys.argv[2], l, p))
