#!/bin/sh
# corpus-kernels.sh DDTC CORPUS_DIR OUT_DIR: emits the kernels of every
# description file of CORPUS_DIR (`ddtc emit`, one `g++ -O2 -shared -fPIC`
# library per file, into OUT_DIR) and prints the libraries as DDTC_KERNELS
# takes them, separated by colons. For the runtime's benchmarks
# (rt-pingpong.sh, rt-settings.sh).
set -e
ddtc=$1 corpus=$2 out=$3
kernels=
for f in "$corpus"/*.json; do
  name=$(basename "$f" .json)
  "$ddtc" emit "$f" -o "$out/$name"
  g++ -O2 -shared -fPIC "$out/$name.cpp" -o "$out/$name.so"
  kernels="$kernels${kernels:+:}$out/$name.so"
done
echo "$kernels"
