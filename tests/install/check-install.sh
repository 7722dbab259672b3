#!/usr/bin/env bash
# Installs the build into a scratch prefix, builds tests/install/consumer against it with
# find_package(gio), and runs it as one PE. Usage: check-install.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1 scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >"$scratch/install.log"
test -f "$scratch/prefix/include/gio/device/api_generated.hpp"
test -f "$scratch/prefix/include/gio/build_config.hpp"
cmake -S "$here/consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" -DCMAKE_BUILD_TYPE=Debug \
  >"$scratch/configure.log"
cmake --build "$scratch/consumer" >"$scratch/build.log"
GIO_BOOTSTRAP=single GIO_SYMMETRIC_SIZE=16M LD_LIBRARY_PATH="$scratch/prefix/lib:${LD_LIBRARY_PATH:-}" \
  "$scratch/consumer/consumer"
