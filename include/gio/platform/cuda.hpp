// NVIDIA platform layer (nvcc): thread geometry, scoped fences, strong loads/stores, clock.
// Scopes follow the PTX memory model: .cta = workgroup, .gpu = device, .sys = system (peer GPUs
// over NVLink/PCIe and the host). Every strong access here is "morally strong" at .sys scope so
// that it can take part in the release/acquire patterns of docs/memory-model.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "gio/platform/bits.hpp"

#define GIO_DEVICE __device__ __forceinline__
#define GIO_HOST_DEVICE __host__ __device__ __forceinline__

namespace gio::platform {

inline constexpr unsigned wave_size = 32;
inline constexpr const char* vendor = "cuda";

GIO_DEVICE unsigned thread_in_wg() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
GIO_DEVICE unsigned wg_size() { return blockDim.x * blockDim.y * blockDim.z; }
GIO_DEVICE unsigned wg_id() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
GIO_DEVICE unsigned num_wgs() { return gridDim.x * gridDim.y * gridDim.z; }
GIO_DEVICE unsigned lane() { return thread_in_wg() % wave_size; }
// Threads in this thread's warp: wave_size, or fewer in a workgroup's last, partial warp.
GIO_DEVICE unsigned wave_lanes() {
  const unsigned left = wg_size() - thread_in_wg() / wave_size * wave_size;
  return left < wave_size ? left : wave_size;
}
GIO_DEVICE void wg_barrier() { __syncthreads(); }
GIO_DEVICE void wave_barrier() {
  const unsigned lanes = wave_lanes();
  __syncwarp(lanes == wave_size ? 0xffffffffu : (1u << lanes) - 1u);
}
// Runs f() on each lane that calls this, one lane after another: stores that would otherwise be
// one instruction of several lanes (merged into one where they hit the same address) stay apart.
template <class F> GIO_DEVICE void one_lane_at_a_time(F&& f) {
  const unsigned active = __activemask();
  for (unsigned rest = active; rest != 0; rest &= rest - 1) {
    if (lane() == static_cast<unsigned>(__ffs(static_cast<int>(rest)) - 1)) f();
    __syncwarp(active);
  }
}

// Fences. acq_rel orders earlier loads/stores before later ones (not store->load); sc also
// orders store->load, which shmem_quiet needs (a put followed by a get must not be reordered).
GIO_DEVICE void fence_acq_rel_wg() { asm volatile("fence.acq_rel.cta;" ::: "memory"); }
GIO_DEVICE void fence_acq_rel_device() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
GIO_DEVICE void fence_acq_rel_system() { asm volatile("fence.acq_rel.sys;" ::: "memory"); }
// Release only, device scope: orders this thread's earlier accesses before its later strong
// writes without the acquire half (fence.release needs PTX ISA 8.6 and sm_90; acq_rel elsewhere).
GIO_DEVICE void fence_release_device() {
#if __CUDA_ARCH__ >= 900 && (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
  asm volatile("fence.release.gpu;" ::: "memory");
#else
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
#endif
}
GIO_DEVICE void fence_sc_system() { asm volatile("fence.sc.sys;" ::: "memory"); }
// Acquire only, system scope: after a strong read, makes that read an acquire (PTX's acquire
// pattern) without ordering this thread's earlier writes. Where fence.acquire is missing (before
// PTX ISA 8.6 or sm_90) the only fence that does it is acq_rel, which waits for every earlier
// write: waits keep acquire loads there (light_acquire_fence).
#if __CUDA_ARCH__ >= 900 && (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
inline constexpr bool light_acquire_fence = true;
GIO_DEVICE void fence_acquire_system() { asm volatile("fence.acquire.sys;" ::: "memory"); }
#else
inline constexpr bool light_acquire_fence = false;
GIO_DEVICE void fence_acquire_system() { asm volatile("fence.acq_rel.sys;" ::: "memory"); }
#endif

// Strong system-scope accesses on raw bits (1, 2, 4 or 8 bytes).
GIO_DEVICE std::uint8_t ld_relaxed_sys_bits(const std::uint8_t* p) {
  std::uint16_t v;
  asm volatile("ld.relaxed.sys.b8 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
  return static_cast<std::uint8_t>(v);
}
GIO_DEVICE std::uint16_t ld_relaxed_sys_bits(const std::uint16_t* p) {
  std::uint16_t v;
  asm volatile("ld.relaxed.sys.b16 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE std::uint32_t ld_relaxed_sys_bits(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.relaxed.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE std::uint64_t ld_relaxed_sys_bits(const std::uint64_t* p) {
  std::uint64_t v;
  asm volatile("ld.relaxed.sys.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE std::uint8_t ld_acquire_sys_bits(const std::uint8_t* p) {
  std::uint16_t v;
  asm volatile("ld.acquire.sys.b8 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
  return static_cast<std::uint8_t>(v);
}
GIO_DEVICE std::uint16_t ld_acquire_sys_bits(const std::uint16_t* p) {
  std::uint16_t v;
  asm volatile("ld.acquire.sys.b16 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE std::uint32_t ld_acquire_sys_bits(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.acquire.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE std::uint64_t ld_acquire_sys_bits(const std::uint64_t* p) {
  std::uint64_t v;
  asm volatile("ld.acquire.sys.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE void st_relaxed_sys_bits(std::uint8_t* p, std::uint8_t v) {
  asm volatile("st.relaxed.sys.b8 [%0], %1;" ::"l"(p), "h"(static_cast<std::uint16_t>(v)) : "memory");
}
GIO_DEVICE void st_relaxed_sys_bits(std::uint16_t* p, std::uint16_t v) {
  asm volatile("st.relaxed.sys.b16 [%0], %1;" ::"l"(p), "h"(v) : "memory");
}
GIO_DEVICE void st_relaxed_sys_bits(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.relaxed.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GIO_DEVICE void st_relaxed_sys_bits(std::uint64_t* p, std::uint64_t v) {
  asm volatile("st.relaxed.sys.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GIO_DEVICE void st_release_sys_bits(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.release.sys.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GIO_DEVICE void st_release_sys_bits(std::uint64_t* p, std::uint64_t v) {
  asm volatile("st.release.sys.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// Strong device-scope (.gpu) accesses on 4- and 8-byte words, for state that only this GPU's
// threads share (the gda rings' counters): a .sys access would pay for coherence with peers and
// the host that nobody there needs.
GIO_DEVICE std::uint32_t ld_acquire_gpu_bits(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE std::uint64_t ld_acquire_gpu_bits(const std::uint64_t* p) {
  std::uint64_t v;
  asm volatile("ld.acquire.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GIO_DEVICE void st_relaxed_gpu_bits(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.relaxed.gpu.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GIO_DEVICE void st_relaxed_gpu_bits(std::uint64_t* p, std::uint64_t v) {
  asm volatile("st.relaxed.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GIO_DEVICE void st_release_gpu_bits(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.release.gpu.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
GIO_DEVICE void st_release_gpu_bits(std::uint64_t* p, std::uint64_t v) {
  asm volatile("st.release.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GIO_DEVICE std::uint64_t atomic_add_gpu_bits(std::uint64_t* p, std::uint64_t v) {
  std::uint64_t old;
  asm volatile("atom.relaxed.gpu.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}
GIO_DEVICE std::uint32_t atomic_cas_gpu_bits(std::uint32_t* p, std::uint32_t expected, std::uint32_t desired) {
  std::uint32_t old;
  asm volatile("atom.relaxed.gpu.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(p), "r"(expected), "r"(desired) : "memory");
  return old;
}

// Atomic read-modify-writes at system scope on 4- and 8-byte words, relaxed: gio's atomics order
// nothing by themselves (OpenSHMEM), shmem_fence/quiet do. Return the old value. The address is
// global memory (the symmetric heap, its peer mappings, device or mapped host memory), so the
// instruction names the global space: a generic atom/red compiles to a test of the space with a
// path each for shared and local memory (24 SASS instructions for a loop of one global red, 46
// for the generic one).
GIO_DEVICE std::size_t global_address(const void* p) { return __cvta_generic_to_global(p); }
template <rmw Op> GIO_DEVICE std::uint32_t atomic_rmw_sys_bits(std::uint32_t* p, std::uint32_t v) {
  std::uint32_t old;
  if constexpr (Op == rmw::add) asm volatile("atom.relaxed.sys.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(global_address(p)), "r"(v) : "memory");
  if constexpr (Op == rmw::and_) asm volatile("atom.relaxed.sys.global.and.b32 %0, [%1], %2;" : "=r"(old) : "l"(global_address(p)), "r"(v) : "memory");
  if constexpr (Op == rmw::or_) asm volatile("atom.relaxed.sys.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(global_address(p)), "r"(v) : "memory");
  if constexpr (Op == rmw::xor_) asm volatile("atom.relaxed.sys.global.xor.b32 %0, [%1], %2;" : "=r"(old) : "l"(global_address(p)), "r"(v) : "memory");
  if constexpr (Op == rmw::exchange) asm volatile("atom.relaxed.sys.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(global_address(p)), "r"(v) : "memory");
  return old;
}
template <rmw Op> GIO_DEVICE std::uint64_t atomic_rmw_sys_bits(std::uint64_t* p, std::uint64_t v) {
  std::uint64_t old;
  if constexpr (Op == rmw::add) asm volatile("atom.relaxed.sys.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(global_address(p)), "l"(v) : "memory");
  if constexpr (Op == rmw::and_) asm volatile("atom.relaxed.sys.global.and.b64 %0, [%1], %2;" : "=l"(old) : "l"(global_address(p)), "l"(v) : "memory");
  if constexpr (Op == rmw::or_) asm volatile("atom.relaxed.sys.global.or.b64 %0, [%1], %2;" : "=l"(old) : "l"(global_address(p)), "l"(v) : "memory");
  if constexpr (Op == rmw::xor_) asm volatile("atom.relaxed.sys.global.xor.b64 %0, [%1], %2;" : "=l"(old) : "l"(global_address(p)), "l"(v) : "memory");
  if constexpr (Op == rmw::exchange) asm volatile("atom.relaxed.sys.global.exch.b64 %0, [%1], %2;" : "=l"(old) : "l"(global_address(p)), "l"(v) : "memory");
  return old;
}
// A system-scope fetch-add that acquires: what the releasing writer of the value it reads did
// before is visible after it (one instruction where the relaxed atomic and a fence are two).
GIO_DEVICE std::uint64_t fetch_add_acquire_sys_bits(std::uint64_t* p, std::uint64_t v) {
  std::uint64_t old;
  asm volatile("atom.acquire.sys.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(global_address(p)), "l"(v) : "memory");
  return old;
}
// The same without returning the old value (PTX `red`): nothing waits for the target's answer.
template <rmw Op> GIO_DEVICE void atomic_red_sys_bits(std::uint32_t* p, std::uint32_t v) {
  if constexpr (Op == rmw::add) asm volatile("red.relaxed.sys.global.add.u32 [%0], %1;" ::"l"(global_address(p)), "r"(v) : "memory");
  if constexpr (Op == rmw::and_) asm volatile("red.relaxed.sys.global.and.b32 [%0], %1;" ::"l"(global_address(p)), "r"(v) : "memory");
  if constexpr (Op == rmw::or_) asm volatile("red.relaxed.sys.global.or.b32 [%0], %1;" ::"l"(global_address(p)), "r"(v) : "memory");
  if constexpr (Op == rmw::xor_) asm volatile("red.relaxed.sys.global.xor.b32 [%0], %1;" ::"l"(global_address(p)), "r"(v) : "memory");
  static_assert(Op != rmw::exchange, "an exchange without its result is a store");
}
template <rmw Op> GIO_DEVICE void atomic_red_sys_bits(std::uint64_t* p, std::uint64_t v) {
  if constexpr (Op == rmw::add) asm volatile("red.relaxed.sys.global.add.u64 [%0], %1;" ::"l"(global_address(p)), "l"(v) : "memory");
  if constexpr (Op == rmw::and_) asm volatile("red.relaxed.sys.global.and.b64 [%0], %1;" ::"l"(global_address(p)), "l"(v) : "memory");
  if constexpr (Op == rmw::or_) asm volatile("red.relaxed.sys.global.or.b64 [%0], %1;" ::"l"(global_address(p)), "l"(v) : "memory");
  if constexpr (Op == rmw::xor_) asm volatile("red.relaxed.sys.global.xor.b64 [%0], %1;" ::"l"(global_address(p)), "l"(v) : "memory");
  static_assert(Op != rmw::exchange, "an exchange without its result is a store");
}
GIO_DEVICE std::uint32_t atomic_cas_sys_bits(std::uint32_t* p, std::uint32_t expected, std::uint32_t desired) {
  std::uint32_t old;
  asm volatile("atom.relaxed.sys.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(global_address(p)), "r"(expected), "r"(desired) : "memory");
  return old;
}
GIO_DEVICE std::uint64_t atomic_cas_sys_bits(std::uint64_t* p, std::uint64_t expected, std::uint64_t desired) {
  std::uint64_t old;
  asm volatile("atom.relaxed.sys.global.cas.b64 %0, [%1], %2, %3;" : "=l"(old) : "l"(global_address(p)), "l"(expected), "l"(desired) : "memory");
  return old;
}

// Nanoseconds from the global timer (same clock on every SM; ticks about every 32 ns on H100/H200).
GIO_DEVICE std::uint64_t timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Sleeps the calling thread for about `ns` nanoseconds (a polling loop's back-off; not a timer).
GIO_DEVICE void sleep_ns(unsigned ns) { __nanosleep(ns); }

// Ends the kernel with an error. Callers must not rely on it not returning (the HIP one does
// not tell the compiler), so code after a failed check stays well-formed.
GIO_DEVICE void trap() { __trap(); }

}  // namespace gio::platform
