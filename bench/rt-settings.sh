#!/bin/sh
# What a settings file (DDTC_RT_CONFIG, e.g. from ddtc-rt-calibrate) does for
# the runtime's ping-pong of the DDTBench corpus (docs/performance.md,
# "Runtime substitution"):
#
#   sh bench/rt-settings.sh BUILD_DIR CONFIG [ITERATIONS]
#
# The program of bench/rt-pingpong.sh (bench/RtPingPong.cpp, one instance of
# every corpus type, 2 ranks, MPICH) run three ways -- plain, under the
# runtime with its defaults, under the runtime with CONFIG -- ITERATIONS
# times (default 30), the three in rotating order within each iteration,
# so that the VM's slow and fast spells (docs/performance.md) fall on all
# three alike. Prints per type the median over iterations of each way's
# round trip and the speedups over plain, then their geometric means.
#
# BUILD_DIR holds tools/ddtc/ddtc, bench/ddtc-rt-pingpong and
# lib/Runtime/libddtc_rt.so. The raw outputs stay in
# BUILD_DIR/bench/rt-settings/.
set -e
build=$(cd "${1:?usage: rt-settings.sh BUILD_DIR CONFIG [ITERATIONS]}" && pwd)
config=$(cd "$(dirname "${2:?usage: rt-settings.sh BUILD_DIR CONFIG [ITERATIONS]}")" && pwd)/$(basename "$2")
iterations=${3:-30}
src=$(cd "$(dirname "$0")/.." && pwd)
corpus=$src/../shared/corpus/ddtbench
out=$build/bench/rt-settings
bench=$build/bench/ddtc-rt-pingpong
rt=$build/lib/Runtime/libddtc_rt.so
rm -rf "$out"
mkdir -p "$out"

kernels=$(sh "$src/bench/corpus-kernels.sh" "$build/tools/ddtc/ddtc" "$corpus" "$out")

echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; iterations: $iterations; config: $config"
grep '^DDTC_RT_' "$config" | sed 's/^/# /'
for i in $(seq "$iterations"); do
  case $((i % 3)) in
    0) order="plain defaults config" ;;
    1) order="defaults config plain" ;;
    *) order="config plain defaults" ;;
  esac
  for way in $order; do
    case $way in
      plain) mpiexec.mpich -n 2 "$bench" --runs 1 "$corpus"/*.json ;;
      defaults) mpiexec.mpich -n 2 env LD_PRELOAD="$rt" DDTC_KERNELS="$kernels" \
        "$bench" --runs 1 "$corpus"/*.json ;;
      config) mpiexec.mpich -n 2 env LD_PRELOAD="$rt" DDTC_KERNELS="$kernels" \
        DDTC_RT_CONFIG="$config" "$bench" --runs 1 "$corpus"/*.json ;;
    esac > "$out/$way-$i.csv"
  done
done

"${PYTHON:-/usr/bin/python3}" "$src/bench/rt-ways-summary.py" "$out" plain defaults config
