# shellcheck shell=sh
# What the benchmark drivers share; POSIX sh, sourced by a driver in a family
# folder (bench/FAMILY/NAME.sh) before it changes directory:
#
#   . "$(dirname "$0")/../lib.sh"
#
# It sets src, the top of the source tree, and defines the functions below.
#
# A driver that compares ways of running the same program (plain and under
# the runtime, or under several settings) launches each way in turn and
# rotates their order: on a shared machine a whole launch can run fast or
# slow, and rotation spreads those spells over all ways alike. A summary
# then pairs the ways launch by launch (bench/stats.py).

# shellcheck disable=SC2034 # for the driver that sources this
src=$(cd "$(dirname "$0")/../.." && pwd)

# bench_machine: the CPU model and core count, for the first line of a
# driver's output.
bench_machine() {
  echo "$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
}

# bench_rotate I WAY...: the ways in the order launch I (from 1) runs them,
# one a line: launch 1 in the order given, each next one starting one way
# later, so that every way takes every place equally often. A way is a word
# (no white space).
bench_rotate() {
  _i=$1
  shift
  _k=0
  while [ "$_k" -lt $# ]; do
    _j=$(((_i - 1 + _k) % $# + 1))
    eval echo "\"\${$_j}\""
    _k=$((_k + 1))
  done
}

# bench_way_name WAY, bench_way_settings WAY: a way NAME[:VAR=VALUE,...]
# is named NAME and adds the settings VAR=VALUE ... (printed as words, for
# env) to the environment of its launches.
bench_way_name() {
  echo "${1%%:*}"
}
bench_way_settings() {
  case $1 in *:*) echo "${1#*:}" | tr ',' ' ' ;; esac
}
