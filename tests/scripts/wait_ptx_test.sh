#!/usr/bin/env bash
# The instructions gio's waits compile to on NVIDIA GPUs, as docs/memory-model.md states them (the
# shmem_wait_until row), read from nvcc's PTX of a kernel with a wait_until and a
# signal_wait_until: for sm_90 (PTX ISA 8.6 has fence.acquire) relaxed polls and one
# fence.acquire.sys per wait, no acquire load; for sm_80 acquire loads and no fence.acquire.
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
KERNEL
failures=0
# count ARCH PATTERN: occurrences of PATTERN in the kernel's own body (not the network entries'
# out-of-line functions, which have waits of their own on the NIC's completions).
count() {
  awk '/\.entry .*wait_kernel/{f=1} f{print} f&&/^}/{exit}' "$work/wait_$1.ptx" | grep -c -- "$2"
}
expect() {  # expect ARCH PATTERN OP N
  local n; n=$(count "$1" "$2")
  if [ "$n" "$3" "$4" ]; then echo "sm_$1: $2 x$n (expected $3 $4)"; else echo "FAIL sm_$1: $2 x$n, expected $3 $4"; failures=$((failures + 1)); fi
}
for arch in 90 80; do
  "$nvcc" -std=c++17 -O3 -DNDEBUG -I"$repo/include" -I"$config" -arch=compute_$arch -ptx -o "$work/wait_$arch.ptx" \
    "$work/wait.cu" || { echo "FAIL: nvcc could not compile the wait kernel for sm_$arch"; exit 1; }
done
expect 90 'ld.relaxed.sys' -eq 2
expect 90 'fence.acquire.sys' -eq 2
expect 90 'ld.acquire' -eq 0
expect 80 'ld.acquire.sys' -ge 2
expect 80 'fence.acquire' -eq 0
[ "$failures" = 0 ] && echo "waits compile as documented" || exit 1
