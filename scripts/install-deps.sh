#!/bin/sh
# Installs, from Debian 12's repositories, what ddtc needs to build and to
# run its tests. Safe to run again: apt-get skips what is installed.
set -eu
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: run as root (it calls apt-get)" >&2
  exit 1
fi
packages="cmake ninja-build g++ python3 time
  nlohmann-json3-dev libcli11-dev libgtest-dev libbenchmark-dev
  llvm-14-dev llvm-14-tools libclang-14-dev clang-14 clang-tools-14 libclang-rt-14-dev
  mpich libmpich-dev openmpi-bin libopenmpi-dev gfortran python3-matplotlib"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
fi
