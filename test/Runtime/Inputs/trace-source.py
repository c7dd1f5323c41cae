# trace-source.py TRACE PROGRAM SOURCE: checks the x-source of a trace.
#
# Every constructor call of SOURCE marked `/* SOURCE: NAME */` (in Fortran,
# `! SOURCE: NAME`) must be where the x-source of the traced type NAME
# points: its object is PROGRAM's base name and `addr2line -e PROGRAM
# OFFSET` gives the marked line. Prints `source NAME ok` or `source NAME:
# ...` with the difference, per marker.
import json
import os
import re
import subprocess
import sys

trace_path, program, source = sys.argv[1:4]
with open(trace_path) as f:
    types = {t["name"]: t for t in json.load(f)["types"]}
with open(source) as f:
    markers = [(m.group(1), number)
               for number, line in enumerate(f, start=1)
               for m in [re.search(r"(?:/\*|!) SOURCE: (\w+)", line)] if m]

for name, line in markers:
    where = types.get(name, {}).get("x-source")
    m = re.match(r"([^+ ]+)\+(0x[0-9a-f]+)", where or "")
    if not m:
        print("source %s: no x-source (%r)" % (name, where))
        continue
    if m.group(1) != os.path.basename(program):
        print("source %s: object %s, not %s" % (name, m.group(1), program))
        continue
    out = subprocess.run(["addr2line", "-e", program, m.group(2)],
                         capture_output=True, text=True).stdout.strip()
    got = re.match(r".*:(\d+)", out)
    if got and int(got.group(1)) == line:
        print("source %s ok" % name)
    else:
        print("source %s: addr2line says %s, the call is at line %d" % (name, out, line))
