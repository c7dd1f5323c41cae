#!/bin/sh
# DDTBench (fetched and built by the user; not part of ddtc) run several ways
# in rotating order, to compare the runtime with the plain program on
# application patterns (docs/performance.md, "DDTBench under the runtime"):
#
#   sh bench/runtime/ddtbench-ways.sh BUILD_DIR DDTBENCH OUT LAUNCHES WAY... \
#     [-- ARGS]
#
# DDTBENCH is a built ddtbench binary (C or Fortran version); ARGS its outer
# and inner loop counts (default 2 10). Each of LAUNCHES launches runs every
# WAY once, the ways in rotating order so that the VM's slow and fast
# spells fall on all alike. A WAY is `plain` (no runtime) or
# NAME[:VAR=VALUE,...]: `mpiexec.mpich -n 2` with libddtc_rt.so preloaded,
# the settings added to the environment (DDTC_KERNELS among them for
# kernels; `%l` in a value stands for the launch number, so that
# DDTC_CACHE=DIR-%l starts every launch from an empty cache), the report
# written to OUT/NAME-report-L-%r.json. Every launch
# runs in a directory of its own (DDTBench refuses to overwrite its
# ddtbench.out); OUT/NAME-L.txt keeps each pattern's mpi_ddt communication
# times, OUT/NAME-L.ref.txt its `reference` ones (the same bytes sent
# contiguously, which the runtime passes through: the yardstick of the
# launch's speed). A `plain` way's launches also keep DDTBench's own
# hand-written packing, its `manual` method (pack loops, the packed bytes
# sent as MPI_DOUBLE, unpack loops: pack, communication and unpack epochs
# summed per iteration), as a way of its own, OUT/manual-L.txt: what the
# best scheme of the runtime's kind reaches, one copy loop per side around
# a contiguous message. ddtbench-summary.py prints the comparison.
set -e
usage="usage: ddtbench-ways.sh BUILD_DIR DDTBENCH OUT LAUNCHES WAY... [-- ARGS]"
build=$(cd "${1:?$usage}" && pwd)
ddtbench=$(cd "$(dirname "${2:?$usage}")" && pwd)/$(basename "$2")
out=${3:?$usage}
launches=${4:?$usage}
shift 4
ways=
while [ $# -gt 0 ] && [ "$1" != -- ]; do ways="$ways $1"; shift; done
[ "${1:-}" = -- ] && shift
args=${*:-2 10}
[ -n "$ways" ] || { echo "$usage" >&2; exit 2; }
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
rt=$build/lib/Runtime/libddtc_rt.so
mkdir -p "$out"
out=$(cd "$out" && pwd)
echo "# $(bench_machine); $ddtbench $args; launches: $launches" >&2
for l in $(seq "$launches"); do
  # shellcheck disable=SC2086 # the ways are words
  for way in $(bench_rotate "$l" $ways); do
    name=$(bench_way_name "$way")
    dir=$out/run-$name-$l
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "${name#plain}" != "$name" ]; then
      (cd "$dir" && mpiexec.mpich -n 2 "$ddtbench" $args > stdout.txt 2> stderr.txt)
    else
      settings=$(bench_way_settings "$way" | sed "s/%l/$l/g")
      # shellcheck disable=SC2086 # the settings are words on purpose
      (cd "$dir" && mpiexec.mpich -n 2 env LD_PRELOAD="$rt" \
        DDTC_RT_REPORT="$out/$name-report-$l-%r.json" $settings \
        "$ddtbench" $args > stdout.txt 2> stderr.txt)
    fi
    # Pattern, bytes, time: DDTBench's mpi_ddt and reference communication rows.
    awk '$2 == "mpi_ddt" && $4 == "communication" { print $1, $3, $5 }' \
      "$dir/ddtbench.out" > "$out/$name-$l.txt"
    awk '$2 == "reference" && $4 == "communication" { print $1, $3, $5 }' \
      "$dir/ddtbench.out" > "$out/$name-$l.ref.txt"
    if [ "$name" = plain ]; then
      awk '$2 == "manual" && $4 == "pack" { t = $5 }
           $2 == "manual" && $4 == "communication" { t += $5 }
           $2 == "manual" && $4 == "unpack" { print $1, $3, t + $5 }' \
        "$dir/ddtbench.out" > "$out/manual-$l.txt"
      cp "$out/$name-$l.ref.txt" "$out/manual-$l.ref.txt"
    fi
    [ -s "$dir/stderr.txt" ] && { echo "# $name $l: stderr:"; sed 's/^/#   /' "$dir/stderr.txt"; }
    rm -f "$dir/ddtbench.out"
    # Kernels the runtime compiles once its ranks have ended (a node with no
    # core to spare) must not run beside the next launch.
    while pgrep -f "ddtc cache serve" > /dev/null; do sleep 0.5; done
  done
  printf '\rlaunch %s of %s' "$l" "$launches" >&2
done
echo >&2
