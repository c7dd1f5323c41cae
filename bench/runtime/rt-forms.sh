#!/bin/sh
# Forms for sends at run time (DDTC_RT_FORMS=sends, docs/runtime.md "Forms
# for sends"): the runtime without any kernel, handing MPICH a faster form of
# each type in point-to-point calls, against the plain program and against
# the runtime with the corpus's kernels (docs/performance.md, "Runtime
# substitution"):
#
#   sh bench/runtime/rt-forms.sh BUILD_DIR [ITERATIONS]
#
# Three ways, ITERATIONS times (default 20), in rotating order
# (rt-ways.sh): plain, runtime with forms only (no DDTC_KERNELS),
# runtime with kernels. Prints which types were sent in a form, then per type
# the median over iterations of each way's round trip and the speedups over
# plain, and their geometric means. The raw outputs stay in
# BUILD_DIR/bench/rt-forms/.
set -e
dir=$(dirname "$0")
sh "$dir/rt-ways.sh" "${1:?usage: rt-forms.sh BUILD_DIR [ITERATIONS]}" \
  rt-forms "${2:-20}" plain forms:DDTC_RT_FORMS=sends,DDTC_KERNELS= kernels
echo "# types sent in a form (runtime report, rank 0):"
"${PYTHON:-/usr/bin/python3}" -c '
import json, sys
for t in json.load(open(sys.argv[1]))["types"]:
    if "form" in t:
        print("#   %s: %s" % (t["name"], t["form"]))' \
  "$(cd "$1" && pwd)/bench/rt-forms/forms-report-0.json"
