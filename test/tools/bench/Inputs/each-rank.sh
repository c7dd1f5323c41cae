#!/bin/sh
# each-rank.sh COMMAND...: runs COMMAND and prints this rank's exit status
# ("rank R: exit S"), so that a test sees how every rank of an MPI run
# ended, not only the status mpiexec sums up. Hydra sets PMI_RANK.
"$@"
echo "rank ${PMI_RANK:-?}: exit $?"
