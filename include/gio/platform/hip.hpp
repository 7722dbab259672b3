// AMD platform layer (hipcc): thread geometry, scoped fences, strong loads/stores, clock.
// Scopes map to the AMDGPU memory model: "workgroup", "agent" (device) and "" (system: peer GPUs
// over xGMI/PCIe and the host). System-scope coherence with peers also needs the heap to be
// fine-grained memory (host/gpu allocates it so; docs/memory-model.md explains why).
#pragma once
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>

#include "gio/platform/bits.hpp"

#define GIO_DEVICE __device__ __forceinline__
#define GIO_HOST_DEVICE __host__ __device__ __forceinline__

namespace gio::platform {

// gfx90a and gfx942 (the targets gio builds for) run 64-wide wavefronts.
inline constexpr unsigned wave_size = 64;
inline constexpr const char* vendor = "hip";

GIO_DEVICE unsigned thread_in_wg() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
GIO_DEVICE unsigned wg_size() { return blockDim.x * blockDim.y * blockDim.z; }
GIO_DEVICE unsigned wg_id() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
GIO_DEVICE unsigned num_wgs() { return gridDim.x * gridDim.y * gridDim.z; }
GIO_DEVICE unsigned lane() { return thread_in_wg() % wave_size; }
// Threads in this thread's wavefront: wave_size, or fewer in a workgroup's last, partial one.
GIO_DEVICE unsigned wave_lanes() {
  const unsigned left = wg_size() - thread_in_wg() / wave_size * wave_size;
  return left < wave_size ? left : wave_size;
}
GIO_DEVICE void wg_barrier() { __syncthreads(); }
GIO_DEVICE void wave_barrier() {
  __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "wavefront");
  __builtin_amdgcn_wave_barrier();
}
// Runs f() on each lane that calls this, one lane after another: stores that would otherwise be
// one instruction of several lanes (merged into one where they hit the same address) stay apart.
template <class F> GIO_DEVICE void one_lane_at_a_time(F&& f) {
  for (unsigned long long rest = __ballot(1); rest != 0; rest &= rest - 1) {
    if (lane() == static_cast<unsigned>(__ffsll(rest) - 1)) f();
  }
}

GIO_DEVICE void fence_acq_rel_wg() { __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "workgroup"); }
GIO_DEVICE void fence_acq_rel_device() { __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "agent"); }
GIO_DEVICE void fence_acq_rel_system() { __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, ""); }
GIO_DEVICE void fence_release_device() { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent"); }
GIO_DEVICE void fence_sc_system() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, ""); }
// Acquire only, system scope (cuda.hpp says what for). Waits keep acquire loads on AMD: the
// relaxed-poll form has not been measured there.
inline constexpr bool light_acquire_fence = false;
GIO_DEVICE void fence_acquire_system() { __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, ""); }

template <class U> GIO_DEVICE U ld_relaxed_sys_bits(const U* p) {
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
template <class U> GIO_DEVICE U ld_acquire_sys_bits(const U* p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}
template <class U> GIO_DEVICE void st_relaxed_sys_bits(U* p, U v) {
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
template <class U> GIO_DEVICE void st_release_sys_bits(U* p, U v) {
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}

// Strong device-scope ("agent") accesses, for state only this GPU's threads share (see cuda.hpp).
template <class U> GIO_DEVICE U ld_acquire_gpu_bits(const U* p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
}
template <class U> GIO_DEVICE void st_relaxed_gpu_bits(U* p, U v) {
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
template <class U> GIO_DEVICE void st_release_gpu_bits(U* p, U v) {
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}
template <class U> GIO_DEVICE U atomic_add_gpu_bits(U* p, U v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
template <class U> GIO_DEVICE U atomic_cas_gpu_bits(U* p, U expected, U desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_AGENT);
  return expected;
}

// Atomic read-modify-writes at system scope on 4- and 8-byte words, relaxed (see cuda.hpp).
template <rmw Op, class U> GIO_DEVICE U atomic_rmw_sys_bits(U* p, U v) {
  if constexpr (Op == rmw::add) return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  if constexpr (Op == rmw::and_) return __hip_atomic_fetch_and(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  if constexpr (Op == rmw::or_) return __hip_atomic_fetch_or(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  if constexpr (Op == rmw::xor_) return __hip_atomic_fetch_xor(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
  if constexpr (Op == rmw::exchange) return __hip_atomic_exchange(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
// A system-scope fetch-add that acquires (see cuda.hpp).
template <class U> GIO_DEVICE U fetch_add_acquire_sys_bits(U* p, U v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}
// The same without the old value (the compiler emits the no-return atomic for an unused result).
template <rmw Op, class U> GIO_DEVICE void atomic_red_sys_bits(U* p, U v) {
  static_assert(Op != rmw::exchange, "an exchange without its result is a store");
  (void)atomic_rmw_sys_bits<Op>(p, v);
}
template <class U> GIO_DEVICE U atomic_cas_sys_bits(U* p, U expected, U desired) {
  __hip_atomic_compare_exchange_strong(p, &expected, desired, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_SYSTEM);
  return expected;  // the old value: unchanged on success, the value seen on failure
}

// s_memrealtime counts a constant 100 MHz clock on gfx90a/gfx942.
GIO_DEVICE std::uint64_t timer_ns() { return __builtin_amdgcn_s_memrealtime() * 10ull; }

// Sleeps the calling wavefront for about `ns` nanoseconds (a polling loop's back-off; not a timer):
// s_sleep takes a constant and sleeps 64 clocks per unit, about 32 ns at 2 GHz.
GIO_DEVICE void sleep_ns(unsigned ns) {
  for (unsigned slept = 0; slept < ns; slept += 32) __builtin_amdgcn_s_sleep(1);
}

// `s_trap 2` is what llvm.trap lowers to on AMDHSA. Written as asm so that the compiler does not
// see a noreturn call: an unreachable block inside a divergent loop (a checked wait's timeout)
// crashes the AMDGPU backend of LLVM 15 ("failed to annotate CFG").
GIO_DEVICE void trap() { asm volatile("s_trap 2" ::: "memory"); }

}  // namespace gio::platform
