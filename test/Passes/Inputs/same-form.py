#!/usr/bin/env python3
"""Reads a module in textual IR (ddtc normalize --format=text) whose types
are named GROUP__VARIANT and checks that all variants of a group have the
same normal form. Prints one line per group, `GROUP: FORM`, for FileCheck;
exits 1 naming the first group whose variants differ."""
import sys

groups = {}
for line in open(sys.argv[1]):
    if not line.startswith("type "):
        continue
    name, form = line[len("type "):].rstrip("\n").split(" = ", 1)
    group = name.split("__")[0]
    groups.setdefault(group, []).append((name, form))

status = 0
for group, members in groups.items():
    forms = {form for _, form in members}
    if len(forms) != 1:
        print("error: %s has %d normal forms:" % (group, len(forms)))
        for name, form in members:
            print("  %s = %s" % (name, form))
        status = 1
        continue
    print("%s: %s" % (group, forms.pop()))
sys.exit(status)
