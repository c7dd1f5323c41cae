#!/bin/sh
# The fuzz campaign (docs/testing.md): every fuzz target of a -DDDTC_FUZZ=ON
# build run for SECONDS (default 1200) one after the other, from the seed
# corpus of test/Fuzz/corpus into OUT_DIR/corpus/TARGET (kept between runs:
# a second campaign goes on from the first). Crashes, leaks and timeouts are
# written to OUT_DIR/TARGET-* by libFuzzer; the summary gives executions,
# executions per second, the coverage (edges) each target reached, its
# failures and its slow inputs (over 10 s, kept to look at).
#
#   test/Fuzz/campaign.sh FUZZ_BUILD_DIR OUT_DIR [SECONDS]
set -eu
[ $# -ge 2 ] || { echo "usage: campaign.sh FUZZ_BUILD_DIR OUT_DIR [SECONDS]" >&2; exit 2; }
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
seconds=${3:-1200}
here=$(cd "$(dirname "$0")" && pwd)
# fuzz-type-decoder is built when MPI is enabled (-DDDTC_ENABLE_MPI=ON).
targets="fuzz-format-reader fuzz-text-parser fuzz-normalize fuzz-pack-plan"
[ -x "$build/test/Fuzz/fuzz-type-decoder" ] && targets="$targets fuzz-type-decoder"
for target in $targets; do
  bin="$build/test/Fuzz/$target"
  [ -x "$bin" ] || { echo "campaign.sh: $bin: not built" >&2; exit 2; }
  mkdir -p "$out/corpus/$target"
  log="$out/$target.log"
  # An input of the type targets may be normalized at its budget (2^17
  # flattened blocks: 2.4 s in a release build, 25 s instrumented); a
  # timeout there is a hang, not a slow type.
  case $target in
    fuzz-normalize|fuzz-pack-plan) timeout=60 ;;
    *) timeout=25 ;;
  esac
  "$bin" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/$target-" \
    "$out/corpus/$target" "$here/corpus/$target" > "$log" 2>&1 || true
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  # Failures: crashes, leaks, timeouts, out-of-memory; slow units (over
  # 10 s) are only reported.
  found=$(ls "$out/$target"-crash-* "$out/$target"-leak-* \
    "$out/$target"-timeout-* "$out/$target"-oom-* 2>/dev/null | wc -l)
  slow=$(ls "$out/$target"-slow-unit-* 2>/dev/null | wc -l)
  # The time it ran: all of it, or until the first crash.
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1 s/p' "$log")
  echo "$target: ${took:-stopped by a crash}, ${runs:-0} executions, ${rate:-0}/s, ${cov:-0} edges, $found crashes/timeouts, $slow slow units"
done | tee "$out/summary"
# Every target ran to its time limit with nothing found.
[ "$(grep -c ' 0 crashes/timeouts' "$out/summary")" -eq "$(echo $targets | wc -w)" ]
