#!/usr/bin/env bash
# The instructions gio's waits compile to on NVIDIA GPUs, as docs/memory-model.md states them (the
# shmem_wait_until row), read from nvcc's PTX of a kernel with a wait_until and a
# signal_wait_until, and of one with every test and the _any/_some waits: for sm_90 (PTX ISA 8.6
# has fence.acquire) relaxed reads and a fence.acquire.sys per call, no acquire load; for sm_80
# acquire loads and no fence.acquire.
#   wait_ptx_test.sh NVCC REPO CONFIG_INCLUDE   (CONFIG_INCLUDE holds a CUDA gio/build_config.hpp)
set -u
nvcc=$1 repo=$2 config=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/gio-wait-ptx.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/wait.cu" <<'KERNEL'
#include "gio/device.hpp"
__global__ void wait_kernel(gio::device_handle h, std::uint64_t* flag, std::uint64_t* sig) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  gio::shmem_uint64_wait_until(c, flag, gio::SHMEM_CMP_GE, 1);
  gio::shmem_signal_wait_until(c, sig, gio::SHMEM_CMP_GE, 1);
}
__global__ void check_kernel(gio::device_handle h, std::uint64_t* flags, std::size_t* indices, std::size_t* out) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  out[0] = gio::shmem_uint64_test(c, flags, gio::SHMEM_CMP_GE, 1);
  out[1] = gio::shmem_uint64_test_all(c, flags, 4, nullptr, gio::SHMEM_CMP_GE, 1);
  out[2] = gio::shmem_uint64_test_some(c, flags, 4, indices, nullptr, gio::SHMEM_CMP_GE, 1);
  out[3] = gio::shmem_uint64_test_any(c, flags, 4, nullptr, gio::SHMEM_CMP_GE, 1);
  out[4] = gio::shmem_uint64_wait_until_any(c, flags, 4, nullptr, gio::SHMEM_CMP_GE, 2);
  out[5] = gio::shmem_uint64_wait_until_some(c, flags, 4, indices, nullptr, gio::SHMEM_CMP_GE, 3);
}
KERNEL
failures=0
# count KERNEL ARCH PATTERN: occurrences of PATTERN in KERNEL's own body (not the network entries'
# out-of-line functions, which have waits of their own on the NIC's completions).
count() {
  awk "/\\.entry .*$1/{f=1} f{print} f&&/^}/{exit}" "$work/wait_$2.ptx" | grep -c -- "$3"
}
expect() {  # expect KERNEL ARCH PATTERN OP N
  local n; n=$(count "$1" "$2" "$3")
  if [ "$n" "$4" "$5" ]; then echo "$1 sm_$2: $3 x$n (expected $4 $5)"; else echo "FAIL $1 sm_$2: $3 x$n, expected $4 $5"; failures=$((failures + 1)); fi
}
for arch in 90 80; do
  "$nvcc" -std=c++17 -O3 -DNDEBUG -I"$repo/include" -I"$config" -arch=compute_$arch -ptx -o "$work/wait_$arch.ptx" \
    "$work/wait.cu" || { echo "FAIL: nvcc could not compile the wait kernel for sm_$arch"; exit 1; }
done
expect wait_kernel 90 'ld.relaxed.sys' -eq 2
expect wait_kernel 90 'fence.acquire.sys' -eq 2
expect wait_kernel 90 'ld.acquire' -eq 0
expect wait_kernel 80 'ld.acquire.sys' -ge 2
expect wait_kernel 80 'fence.acquire' -eq 0
# Six calls, each with a fence on the path that reports a satisfied element.
expect check_kernel 90 'fence.acquire.sys' -ge 6
expect check_kernel 90 'ld.acquire' -eq 0
expect check_kernel 80 'ld.acquire.sys' -ge 6
expect check_kernel 80 'fence.acquire' -eq 0
[ "$failures" = 0 ] && echo "waits compile as documented" || exit 1
