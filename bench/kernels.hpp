// The benchmark kernels, written once against a "comm shim" (shim_gio.hpp, shim_nvshmem.hpp):
// a struct of static device functions with the same names in both, so gio and NVSHMEM run the
// very same loops. A shim provides: handle (passed by value), wg_storage (__shared__), ctx,
// open_wg, put_thread / put_wave / put_wg, put_nbi_wg, p, fence, quiet, wait_until_eq.
//
// Timing is device-side: the initiator's leader thread reads the global timer around the timed
// iterations (after warm-up ones) and stores it in `timings`, one slot per workgroup.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/platform/platform.hpp"

namespace bench {

namespace platform = gio::platform;

// Who issues a put together: one thread, one wave (warp/wavefront), or the whole workgroup.
// Each kernel is launched with exactly one such group per workgroup.
enum class scope { thread, wave, wg };
// Ping-pong message: a flag alone (shmem_p), or a put followed by fence + flag.
enum class message { p, put };

// Flags of different workgroups sit in different 128-byte lines, so that workgroups do not
// share cache lines (the multi-workgroup sweep measures independent ping-pongs).
inline constexpr std::size_t flag_stride = 128 / sizeof(std::uint64_t);

// Largest workgroup the kernels are compiled for: the bound keeps their register use within
// what a 1024-thread workgroup can get. Thread- and wave-scope kernels run one wave.
inline constexpr unsigned max_wg_threads = 1024;
constexpr unsigned launch_bound(scope s) { return s == scope::wg ? max_wg_threads : platform::wave_size; }

struct timing_slot {
  std::uint64_t start_ns;
  std::uint64_t end_ns;
};

struct pingpong_args {
  char* send;                  // symmetric: this PE's outgoing data, `bytes` per workgroup
  char* recv;                  // symmetric: where the peer's data lands
  std::uint64_t* ping_flags;   // symmetric: written by the initiator, polled by the responder
  std::uint64_t* pong_flags;   // symmetric: written by the responder, polled by the initiator
  std::size_t bytes;           // message size per workgroup
  int peer;
  bool initiator;
  // Flags carry sequence numbers that grow across launches, so they never need a reset.
  std::uint64_t first_sequence;
  unsigned warmup_iterations;
  unsigned timed_iterations;
  timing_slot* timings;        // device memory, one slot per workgroup
};

struct bandwidth_args {
  char* send;            // symmetric source
  char* recv;            // symmetric destination on the peer
  std::size_t bytes;     // total bytes per iteration, split into one slice per workgroup
  std::size_t slice;     // bytes per workgroup (a multiple of 256)
  int peer;
  unsigned iterations;
  timing_slot* timings;  // one slot per workgroup
};

template <scope S> GIO_DEVICE bool is_leader() { return platform::thread_in_wg() == 0; }

template <scope S> GIO_DEVICE void group_sync() {
  if constexpr (S == scope::wave) platform::wave_barrier();
  if constexpr (S == scope::wg) platform::wg_barrier();
}

template <class Shim, scope S>
GIO_DEVICE void put_at_scope(const typename Shim::ctx& c, void* dst, const void* src, std::size_t bytes, int pe) {
  if constexpr (S == scope::thread) Shim::put_thread(c, dst, src, bytes, pe);
  if constexpr (S == scope::wave) Shim::put_wave(c, dst, src, bytes, pe);
  if constexpr (S == scope::wg) Shim::put_wg(c, dst, src, bytes, pe);
}

// One round trip seen from one side. The initiator sends then waits for the reply; the
// responder waits then replies. Flags live in the receiver's own heap: a remote store, a local poll.
template <class Shim, scope S, message M>
GIO_DEVICE void pingpong_step(const typename Shim::ctx& c, const pingpong_args& a, char* send, char* recv,
                              std::uint64_t* ping, std::uint64_t* pong, std::uint64_t sequence) {
  const bool leader = is_leader<S>();
  if (a.initiator) {
    if constexpr (M == message::put) {
      put_at_scope<Shim, S>(c, recv, send, a.bytes, a.peer);
      if (leader) Shim::fence(c);
    }
    if (leader) {
      Shim::p(c, ping, sequence, a.peer);
      Shim::wait_until_eq(c, pong, sequence);
    }
    group_sync<S>();  // nobody starts the next message before the reply arrived
  } else {
    if (leader) Shim::wait_until_eq(c, ping, sequence);
    if constexpr (M == message::put) {
      group_sync<S>();
      put_at_scope<Shim, S>(c, recv, send, a.bytes, a.peer);
      if (leader) Shim::fence(c);
    }
    if (leader) Shim::p(c, pong, sequence, a.peer);
  }
}

// Every workgroup ping-pongs with the same workgroup of the peer, on its own flags and buffers.
template <class Shim, scope S, message M>
__global__ void __launch_bounds__(launch_bound(S)) pingpong_kernel(typename Shim::handle h, pingpong_args a) {
  __shared__ typename Shim::wg_storage storage;
  const typename Shim::ctx& c = Shim::open_wg(h, storage);
  const unsigned wg = platform::wg_id();
  char* send = a.send + wg * a.bytes;
  char* recv = a.recv + wg * a.bytes;
  std::uint64_t* ping = a.ping_flags + wg * flag_stride;
  std::uint64_t* pong = a.pong_flags + wg * flag_stride;

  std::uint64_t sequence = a.first_sequence;
  for (unsigned i = 0; i < a.warmup_iterations; ++i)
    pingpong_step<Shim, S, M>(c, a, send, recv, ping, pong, sequence++);
  const std::uint64_t start = platform::timer_ns();
  for (unsigned i = 0; i < a.timed_iterations; ++i)
    pingpong_step<Shim, S, M>(c, a, send, recv, ping, pong, sequence++);
  const std::uint64_t end = platform::timer_ns();
  if (is_leader<S>()) a.timings[wg] = {start, end};
}

// Each workgroup streams its slice to the peer with non-blocking puts, then completes them.
template <class Shim>
__global__ void __launch_bounds__(launch_bound(scope::wg)) put_bandwidth_kernel(typename Shim::handle h, bandwidth_args a) {
  __shared__ typename Shim::wg_storage storage;
  const typename Shim::ctx& c = Shim::open_wg(h, storage);
  const unsigned wg = platform::wg_id();
  const std::size_t offset = wg * a.slice;
  const std::size_t length = offset < a.bytes ? (a.bytes - offset < a.slice ? a.bytes - offset : a.slice) : 0;

  const std::uint64_t start = platform::timer_ns();
  if (length > 0) {  // uniform across the workgroup, as the _wg call requires
    for (unsigned i = 0; i < a.iterations; ++i) Shim::put_nbi_wg(c, a.recv + offset, a.send + offset, length, a.peer);
  }
  if (is_leader<scope::wg>()) Shim::quiet(c);
  const std::uint64_t end = platform::timer_ns();
  if (is_leader<scope::wg>()) a.timings[wg] = {start, end};
}

// The Inter-K-Empty baseline's kernel boundary: launch and completion, no work.
static __global__ void empty_kernel() {}

}  // namespace bench
