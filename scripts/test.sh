#!/usr/bin/env bash
# Builds and tests gio on a machine without a GPU (what CI runs):
#   1. GIO_GPU=none, Debug (checked): the host runtime over a shared-memory heap; unit + mp tests.
#   2. GIO_GPU=cuda (if nvcc exists) and GIO_GPU=hip (if hipcc exists): compile only, so the device
#      library, the header checks, the checked bad-input kernels and the NIC model build for both
#      vendors; for CUDA also the whole of tests/gpu (to PTX only: GIO_GPU_TESTS_PTX_ONLY), bench/
#      and apps/, and examples/ against the CUDA build installed (find_package(gio), as a user
#      builds them); for HIP a sample of tests/gpu (with the rest it covers every device-library
#      path; hipcc takes far longer than nvcc for the type-table shards). scripts/gpu-check.sh
#      builds tests/gpu whole, to SASS, and runs it on the GPU machines.
# The ctest summary is printed last. Build trees: build/test-<vendor>-<type> (GIO_TEST_BUILD_ROOT).
#   scripts/test.sh [--host-only]    --host-only: skip the vendor compile builds
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${GIO_TEST_BUILD_ROOT:-$repo/build}
jobs=${GIO_TEST_JOBS:-2}
host_only=false
for arg in "$@"; do
  case "$arg" in
    --host-only) host_only=true ;;
    *) echo "test.sh: unknown option '$arg' (expected --host-only)" >&2; exit 2 ;;
  esac
done

# build <dir> <cmake options...>: configure (once) and build with ninja.
build() {
  local dir=$1
  shift
  echo "== test.sh: building $dir ($*)"
  cmake -S "$repo" -B "$dir" -G Ninja "$@"
  cmake --build "$dir" -- -j"$jobs"
}

host_dir=$build_root/test-none-debug
build "$host_dir" -DGIO_GPU=none -DCMAKE_BUILD_TYPE=Debug -DGIO_CHECKS=ON

if ! $host_only; then
  nvcc=$(command -v nvcc || true)
  [[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
  if [[ -n $nvcc ]]; then
    # Release is what the GPU machines run; tests/gpu compiles its bad-input kernels with the
    # device-side checks on, so the checked device code is compiled here too. tests/gpu whole, to
    # PTX: ptxas takes over half of a type-table shard's time (tests/gpu/CMakeLists.txt).
    build "$build_root/test-cuda-release" -DGIO_GPU=cuda -DCMAKE_CUDA_COMPILER="$nvcc" \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DGIO_BUILD_TESTS=ON -DGIO_GPU_TESTS_PTX_ONLY=ON
    # examples/ as a user builds them: this build installed, then found with find_package(gio).
    echo "== test.sh: building examples/ against the installed CUDA build"
    rm -rf "$build_root/examples-prefix" "$build_root/examples-cuda"
    cmake --install "$build_root/test-cuda-release" --prefix "$build_root/examples-prefix" >/dev/null
    cmake -S "$repo/examples" -B "$build_root/examples-cuda" -G Ninja -DCMAKE_PREFIX_PATH="$build_root/examples-prefix" \
      -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release
    cmake --build "$build_root/examples-cuda" -- -j"$jobs"
  else
    echo "== test.sh: nvcc not found; CUDA compile skipped"
  fi
  if command -v hipcc >/dev/null; then
    # hipcc is slow: one optimised build. Not -g (AMDGPU debug info makes it several times
    # slower), not GIO_CHECKS for every target (hipcc spent over 25 minutes on the checked
    # sync tests: tests/gpu/bad_input.cpp compiles the checked device code on its own), and a
    # sample of tests/gpu instead of its type-table shards (tests/gpu/CMakeLists.txt says why).
    # Since the gda transport joined every device path, hipcc needs ~2.5x longer for the kernels
    # that instantiate the whole API (gio-bench, the apps' GPU mains): with them CI ran past 30
    # minutes, so the HIP build stops at the library (every collective and atomic kernel), the
    # checked bad-input kernels, the tests/gpu sample, the NIC model and the header checks. The
    # CUDA build above still compiles bench/ and apps/.
    build "$build_root/test-hip-release" -DGIO_GPU=hip -DCMAKE_CXX_COMPILER=hipcc -DCMAKE_BUILD_TYPE=Release \
      -DGIO_BUILD_TESTS=ON -DGIO_GPU_TEST_SAMPLE=ON -DGIO_BUILD_BENCH=OFF -DGIO_BUILD_APPS=OFF
  else
    echo "== test.sh: hipcc not found; HIP compile skipped"
  fi
fi

echo "== test.sh: running unit and mp tests in $host_dir"
cd "$host_dir"
# The host build is checked, so the tests that need the library's checks run too.
GIO_TEST_CHECKED=1 ctest --output-on-failure -L 'unit|mp'
