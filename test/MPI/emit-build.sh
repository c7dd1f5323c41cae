#!/bin/sh
# Compiles the code `ddtc emit ... -o PREFIX` wrote into PREFIX.so, which
# ddtc-emit-check loads: PREFIX.cpp with g++ and PREFIX_mpi.c with MPICH's C
# compiler, both with -Wall -Wextra -Werror (generated code must compile
# warning-free). Extra arguments go to every compiler and the link (e.g.
# the sanitizer flags).
#
#   sh emit-build.sh PREFIX [FLAGS...]
set -e
prefix=$1
shift
g++ -O2 -Wall -Wextra -Werror -fPIC "$@" -c "$prefix.cpp" -o "$prefix.o"
mpicc.mpich -O2 -Wall -Wextra -Werror -fPIC "$@" -c "${prefix}_mpi.c" -o "${prefix}_mpi.o"
# MPI symbols stay undefined: the checker that loads the library has them.
g++ -shared "$@" "$prefix.o" "${prefix}_mpi.o" -o "$prefix.so"
