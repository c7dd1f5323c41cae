#!/bin/sh
# The large campaign against MPICH (docs/testing.md): random types from many
# seeds through the oracle (size, bounds, true bounds, typemap and packed
# bytes of ddtc against MPICH's) and through the emitted-code checker
# (normalized, emitted, compiled, packed and unpacked against MPI_Pack and
# MPI_Unpack). Not part of `check`: 10^5 types take about an hour here.
#
#   test/MPI/campaign.sh BUILD_DIR OUT_DIR [TYPES] [JOBS]
#
# TYPES (default 100000) are split into batches of 1000 (the oracle, depth 4
# and 6 alternately) and 500 (emitted code), one seed each, run JOBS at a
# time (default: the number of cores). Each batch leaves OUT_DIR/NAME.log
# and, once it has passed or failed, OUT_DIR/NAME.done: a second run skips
# finished batches (resumable after an interruption). The summary counts
# types, mismatches and MPICH crashes skipped; exit status 1 on a mismatch.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

# One batch (run by xargs, below): kind seed count depth.
if [ "${1:-}" = --batch ]; then
  kind=$2 seed=$3 count=$4 depth=$5
  name="$kind-$seed"
  [ -e "$CAMPAIGN_OUT/$name.done" ] && exit 0
  log="$CAMPAIGN_OUT/$name.log"
  if [ "$kind" = oracle ]; then
    mpiexec.mpich -n 1 "$CAMPAIGN_BUILD/test/MPI/ddtc-oracle" --random "$count" \
      --seed "$seed" --max-depth "$depth" > "$log" 2>&1 || true
  else
    dir="$CAMPAIGN_OUT/$name.work"
    check="$CAMPAIGN_BUILD/test/MPI/ddtc-emit-check"
    mkdir -p "$dir"
    { "$CAMPAIGN_BUILD/test/MPI/ddtc-random-corpus" "$count" --seed "$seed" \
        "$dir/t.json" &&
      "$CAMPAIGN_BUILD/tools/ddtc/ddtc" emit "$dir/t.json" -o "$dir/t" &&
      sh "$here/emit-build.sh" "$dir/t" &&
      mpiexec.mpich -n 1 "$check" --quiet "$dir/t.json" "$dir/t.so"; } \
      > "$log" 2>&1 || true
    rm -rf "$dir"
  fi
  touch "$CAMPAIGN_OUT/$name.done"
  echo "$name: $(tail -n 1 "$log")" >&2
  exit 0
fi

[ $# -ge 2 ] || { echo "usage: campaign.sh BUILD_DIR OUT_DIR [TYPES] [JOBS]" >&2; exit 2; }
CAMPAIGN_BUILD=$(cd "$1" && pwd)
mkdir -p "$2"
CAMPAIGN_OUT=$(cd "$2" && pwd)
export CAMPAIGN_BUILD CAMPAIGN_OUT
types=${3:-100000}
jobs=${4:-$(nproc)}
for tool in test/MPI/ddtc-oracle test/MPI/ddtc-emit-check \
    test/MPI/ddtc-random-corpus tools/ddtc/ddtc; do
  [ -x "$CAMPAIGN_BUILD/$tool" ] || {
    echo "campaign.sh: $CAMPAIGN_BUILD/$tool: not built" >&2
    exit 2
  }
done

# Oracle batches of 1000 (depth 4 and 6 alternately) and emitted-code
# batches of 500, one seed each.
batches="$CAMPAIGN_OUT/batches"
: > "$batches"
n=0
seed=1000
while [ "$n" -lt "$types" ]; do
  seed=$((seed + 1))
  echo "oracle $seed 1000 $((4 + 2 * (seed % 2)))" >> "$batches"
  echo "emit $seed 500 4" >> "$batches"
  n=$((n + 1500))
done
xargs -P "$jobs" -L 1 "$0" --batch < "$batches"

# Summary: the last line of every log is the tool's count line; MPICH
# crashes are its SKIP lines.
skips=$(cat "$CAMPAIGN_OUT"/*.log | grep -c "^SKIP" || true)
awk -v s="$skips" '
  /^(oracle|emit-check): [0-9]+ types/ { t += $2; m += $4 }
  END { printf "campaign: %d types, %d mismatches, %d skipped (MPICH crashed)\n", t, m, s }
' "$CAMPAIGN_OUT"/*.log | tee "$CAMPAIGN_OUT/summary"
bad=$(grep -l "MISMATCH" "$CAMPAIGN_OUT"/*.log 2>/dev/null || true)
incomplete=$(for f in "$CAMPAIGN_OUT"/*.log; do tail -n 1 "$f" | grep -Eq "^(oracle|emit-check): [0-9]+ types" || echo "$f"; done)
if [ -n "$bad" ] || [ -n "$incomplete" ]; then
  echo "campaign: batches with mismatches or without a count line:" $bad $incomplete >&2
  exit 1
fi
