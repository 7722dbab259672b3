// The benchmark kernels, written once against a "comm shim" (shim_gio.hpp, shim_nvshmem.hpp):
// a struct of static device functions with the same names in both, so gio and NVSHMEM run the
// very same loops. A shim provides: handle (passed by value), wg_storage (__shared__), ctx,
// open_wg, put_thread / put_wave / put_wg, put_nbi_wg, p, fence, quiet, wait_until_eq;
// put_signal_thread / _wave / _wg (signal SET) and signal_wait_ge; atomic_fetch_add,
// atomic_compare_swap, atomic_add, atomic_fetch (uint64); barrier_all_thread / _wave / _wg and
// sync_all_thread / _wave / _wg; and the world-team collectives at workgroup scope reduce_sum_wg
// (int64, double), broadcast_wg, fcollect_wg, alltoall_wg.
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
// Ping-pong message: a flag alone (shmem_p), a put followed by fence + flag, or one put-with-signal
// (the signal word is the flag, set to the sequence number, waited for with signal_wait_until GE).
enum class message { p, put, put_signal };

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

template <class Shim, scope S>
GIO_DEVICE void put_signal_at_scope(const typename Shim::ctx& c, void* dst, const void* src, std::size_t bytes,
                                    std::uint64_t* signal, std::uint64_t value, int pe) {
  if constexpr (S == scope::thread) Shim::put_signal_thread(c, dst, src, bytes, signal, value, pe);
  if constexpr (S == scope::wave) Shim::put_signal_wave(c, dst, src, bytes, signal, value, pe);
  if constexpr (S == scope::wg) Shim::put_signal_wg(c, dst, src, bytes, signal, value, pe);
}

// One round trip seen from one side. The initiator sends then waits for the reply; the
// responder waits then replies. Flags live in the receiver's own heap: a remote store, a local poll.
template <class Shim, scope S, message M>
GIO_DEVICE void pingpong_step(const typename Shim::ctx& c, const pingpong_args& a, char* send, char* recv,
                              std::uint64_t* ping, std::uint64_t* pong, std::uint64_t sequence) {
  const bool leader = is_leader<S>();
  auto send_to_peer = [&](std::uint64_t* flag) {
    if constexpr (M == message::put_signal) {
      put_signal_at_scope<Shim, S>(c, recv, send, a.bytes, flag, sequence, a.peer);
    } else {
      if constexpr (M == message::put) {
        put_at_scope<Shim, S>(c, recv, send, a.bytes, a.peer);
        if (leader) Shim::fence(c);
      }
      if (leader) Shim::p(c, flag, sequence, a.peer);
    }
  };
  auto wait_for_peer = [&](std::uint64_t* flag) {
    if (!leader) return;
    if constexpr (M == message::put_signal) Shim::signal_wait_ge(c, flag, sequence);
    else Shim::wait_until_eq(c, flag, sequence);
  };
  if (a.initiator) {
    send_to_peer(ping);
    wait_for_peer(pong);
    group_sync<S>();  // nobody starts the next message before the reply arrived
  } else {
    wait_for_peer(ping);
    if constexpr (M != message::p) group_sync<S>();  // the whole group replies
    send_to_peer(pong);
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

// ---- Timed loops of one call: barriers, collectives, atomic latency ----

struct loop_args {
  unsigned warmup_iterations;
  unsigned timed_iterations;
  timing_slot* timing;  // one slot: this PE's leader's timer around the timed iterations
};

template <scope S, class Step> GIO_DEVICE void timed_loop(const loop_args& a, Step step) {
  for (unsigned i = 0; i < a.warmup_iterations; ++i) step();
  const std::uint64_t start = platform::timer_ns();
  for (unsigned i = 0; i < a.timed_iterations; ++i) step();
  const std::uint64_t end = platform::timer_ns();
  if (is_leader<S>()) *a.timing = {start, end};
}

// barrier_all: sync_all plus completion of the caller's earlier puts and AMOs (OpenSHMEM 1.5).
enum class sync_kind { barrier_all, sync_all };

// One workgroup per PE; the group of scope S (one thread, the first wave, the workgroup) calls.
template <class Shim, scope S>
__global__ void __launch_bounds__(launch_bound(S)) sync_kernel(typename Shim::handle h, sync_kind kind, loop_args a) {
  __shared__ typename Shim::wg_storage storage;
  const typename Shim::ctx& c = Shim::open_wg(h, storage);
  timed_loop<S>(a, [&] {
    if (kind == sync_kind::barrier_all) {
      if constexpr (S == scope::thread) Shim::barrier_all_thread(c);
      if constexpr (S == scope::wave) Shim::barrier_all_wave(c);
      if constexpr (S == scope::wg) Shim::barrier_all_wg(c);
    } else {
      if constexpr (S == scope::thread) Shim::sync_all_thread(c);
      if constexpr (S == scope::wave) Shim::sync_all_wave(c);
      if constexpr (S == scope::wg) Shim::sync_all_wg(c);
    }
  });
}

enum class collective { reduce_int64_sum, reduce_double_sum, broadcast, fcollect, alltoall };
inline constexpr collective all_collectives[] = {collective::reduce_int64_sum, collective::reduce_double_sum,
                                                 collective::broadcast, collective::fcollect, collective::alltoall};

struct collective_args {
  collective kind;
  char* dest;               // symmetric: two result buffers, dest and dest + dest_stride
  std::size_t dest_stride;
  const char* source;       // symmetric
  std::size_t bytes;        // reductions and broadcast: the whole array; fcollect, alltoall: per PE
  int root;                 // broadcast
};

// World-team collectives at workgroup scope, one workgroup per PE, back to back. Calls alternate
// between the two result buffers: a call's dest is not one the previous call may still be using
// on another PE (OpenSHMEM's rule, and gio's contract, for collectives without a sync between).
template <class Shim>
__global__ void __launch_bounds__(max_wg_threads) collective_kernel(typename Shim::handle h, collective_args x, loop_args a) {
  __shared__ typename Shim::wg_storage storage;
  const typename Shim::ctx& c = Shim::open_wg(h, storage);
  unsigned call = 0;
  timed_loop<scope::wg>(a, [&] {
    char* dest = x.dest + (call++ % 2) * x.dest_stride;
    switch (x.kind) {
      case collective::reduce_int64_sum:
        Shim::reduce_sum_wg(c, reinterpret_cast<std::int64_t*>(dest), reinterpret_cast<const std::int64_t*>(x.source),
                            x.bytes / sizeof(std::int64_t));
        break;
      case collective::reduce_double_sum:
        Shim::reduce_sum_wg(c, reinterpret_cast<double*>(dest), reinterpret_cast<const double*>(x.source),
                            x.bytes / sizeof(double));
        break;
      case collective::broadcast: Shim::broadcast_wg(c, dest, x.source, x.bytes, x.root); break;
      case collective::fcollect: Shim::fcollect_wg(c, dest, x.source, x.bytes); break;
      case collective::alltoall: Shim::alltoall_wg(c, dest, x.source, x.bytes); break;
    }
  });
}

enum class amo_kind { fetch_add, compare_swap, fetch };

struct amo_latency_args {
  std::uint64_t* counter;  // symmetric, two words; the peer's is updated
  int peer;
  std::uint64_t* last;     // device memory: the chain's last value, for the host's check
};

// 0, computed from `value`: makes the next call's arguments depend on this call's result, so that
// the calls form a chain of round trips (values here stay below 2^63).
GIO_DEVICE std::uint64_t zero_from(std::uint64_t value) { return value >> 63; }

// One thread, back-to-back dependent remote AMOs. The chain's value ends at the number of calls
// (fetch_add, compare_swap: each adds 1) or at the counter's contents (fetch). One kernel per
// operation, for both libraries: with a runtime switch over the three in the timed loop, gio's
// fetch_add took 1056 ns against 952 ns for the same call in a kernel of its own (the order
// probe, session 12), a layout cost of the benchmark's, not of either library's call.
template <class Shim, amo_kind Kind>
__global__ void __launch_bounds__(launch_bound(scope::thread)) amo_latency_kernel(typename Shim::handle h, amo_latency_args x, loop_args a) {
  __shared__ typename Shim::wg_storage storage;
  const typename Shim::ctx& c = Shim::open_wg(h, storage);
  std::uint64_t value = 0;  // the counter's value as this thread last saw it
  timed_loop<scope::thread>(a, [&] {
    if constexpr (Kind == amo_kind::fetch_add) value = Shim::atomic_fetch_add(c, x.counter, 1 + zero_from(value), x.peer) + 1;
    else if constexpr (Kind == amo_kind::compare_swap) value = Shim::atomic_compare_swap(c, x.counter, value, value + 1, x.peer) + 1;
    else value = Shim::atomic_fetch(c, x.counter + zero_from(value), x.peer);
  });
  *x.last = value;
}

struct amo_rate_args {
  std::uint64_t* counters;  // symmetric; the peer's are updated
  bool per_thread;          // false: every thread updates counters[0]; true: its own, 128 B apart
  unsigned ops_per_thread;
  int peer;
  timing_slot* timings;     // one slot per workgroup
};

// Every thread of the grid issues `ops_per_thread` remote atomic adds of 1 (fetching or not);
// throughput over the first start and last end of the workgroups. Non-fetching adds are completed
// by quiet. One kernel per operation, for both libraries, as amo_latency_kernel and for its reason.
template <class Shim, bool Fetching>
__global__ void __launch_bounds__(max_wg_threads) amo_rate_kernel(typename Shim::handle h, amo_rate_args a) {
  __shared__ typename Shim::wg_storage storage;
  const typename Shim::ctx& c = Shim::open_wg(h, storage);
  const std::size_t thread = std::size_t(platform::wg_id()) * platform::wg_size() + platform::thread_in_wg();
  std::uint64_t* counter = a.counters + (a.per_thread ? thread * flag_stride : 0);
  platform::wg_barrier();
  const std::uint64_t start = platform::timer_ns();
  std::uint64_t fetched = 0;
  for (unsigned i = 0; i < a.ops_per_thread; ++i) {
    if constexpr (Fetching) fetched += Shim::atomic_fetch_add(c, counter, 1, a.peer);
    else Shim::atomic_add(c, counter, 1, a.peer);
  }
  if constexpr (!Fetching) Shim::quiet(c);
  platform::wg_barrier();
  const std::uint64_t end = platform::timer_ns();
  if (is_leader<scope::wg>()) a.timings[platform::wg_id()] = {start, end};
  // Keeps the fetched values live (a fetch whose result is unused may become a reduction).
  if (fetched == ~std::uint64_t{0}) a.timings[0].start_ns = 0;
}

// The Inter-K-Empty baseline's kernel boundary: launch and completion, no work.
static __global__ void empty_kernel() {}

}  // namespace bench
