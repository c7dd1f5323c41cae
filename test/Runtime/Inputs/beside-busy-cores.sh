#!/bin/sh
# Runs a command with a process spinning on every CPU beside it, for the
# tests of a node whose cores other work shares; the exit status is the
# command's. The spinners write nowhere (a pipe they held open would keep
# the test waiting) and end with the command, or with this script.
n=$(getconf _NPROCESSORS_ONLN)
pids=
trap 'kill $pids 2> /dev/null' EXIT INT TERM
i=0
while [ "$i" -lt "$n" ]; do
  sh -c 'while :; do :; done' < /dev/null > /dev/null 2>&1 &
  pids="$pids $!"
  i=$((i + 1))
done
"$@"
status=$?
exit $status
