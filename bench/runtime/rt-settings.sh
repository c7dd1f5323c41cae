#!/bin/sh
# What a settings file (DDTC_RT_CONFIG, e.g. from ddtc-rt-calibrate) does for
# the runtime's ping-pong of the DDTBench corpus (docs/performance.md,
# "Runtime substitution"):
#
#   sh bench/runtime/rt-settings.sh BUILD_DIR CONFIG [ITERATIONS]
#
# Three ways, ITERATIONS times (default 30), in rotating order
# (rt-ways.sh): plain, under the runtime with its defaults, under the
# runtime with CONFIG. Prints per type the median over iterations of each
# way's round trip and the speedups over plain, then their geometric means.
# The raw outputs stay in BUILD_DIR/bench/rt-settings/.
set -e
config=$(cd "$(dirname "${2:?usage: rt-settings.sh BUILD_DIR CONFIG [ITERATIONS]}")" && pwd)/$(basename "$2")
grep '^DDTC_RT_' "$config" | sed 's/^/# /'
exec sh "$(dirname "$0")/rt-ways.sh" "$1" rt-settings "${3:-30}" \
  plain defaults "config:DDTC_RT_CONFIG=$config"
