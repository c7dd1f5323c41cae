#!/bin/sh
# expect-exit.sh STATUS COMMAND...: runs COMMAND and fails unless it exits
# with exactly STATUS (lit's `not` only knows "non-zero").
want=$1
shift
"$@"
got=$?
if [ "$got" != "$want" ]; then
  echo "expect-exit: expected exit status $want, got $got" >&2
  exit 1
fi
