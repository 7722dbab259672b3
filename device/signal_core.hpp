// put-with-signal (OpenSHMEM 1.5 §9.8.1, dCUDA's notified put): the data, then a 64-bit signal
// update at the target that becomes visible only after the data; and the signal update alone.
//
// Ordering on the load/store transport (docs/memory-model.md, "put_signal"): the group's data
// stores, a group barrier, then the leader's release fence at system scope (cumulative over the
// group's stores, which happen-before it through the barrier), then the signal as a relaxed
// system-scope store (SET) or atomic add (ADD). A reader that acquires the signal value (wait,
// test, signal_fetch) therefore sees the whole payload. Small payloads are written by the leader
// itself, which saves the barrier in front of the fence (latency-bound sizes).
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/device/amo_core.hpp"
#include "gio/device/checks.hpp"
#include "gio/device/coop.hpp"
#include "gio/device/rma_core.hpp"
#include "gio/device/wait_core.hpp"
#include "gio/ops.hpp"

namespace gio::detail {

GIO_DEVICE void check_signal(const ctx& c, const std::uint64_t* sig_addr, int sig_op, const char* call,
                             source_location loc) {
  check_symmetric(c, sig_addr, sizeof(std::uint64_t), call, loc);
  check_aligned(c, sig_addr, sizeof(std::uint64_t), call, loc);
  if constexpr (checks_enabled) {
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
      fail(c, call, loc, "unknown signal operation [sig_op, max]", sig_op, SHMEM_SIGNAL_ADD);
  }
}

// Blocking and _nbi forms differ only over gda, as for put (rma_core.hpp, `completion`).
template <class Coop>
GIO_DEVICE void put_signal(const ctx& c, void* dest, const void* source, std::size_t nelems, std::size_t elem_size,
                           std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe, completion when,
                           const char* call, source_location loc) {
  check_size(c, nelems, elem_size, call, loc);
  const std::size_t bytes = nelems * elem_size;
  check_symmetric(c, dest, bytes, call, loc);
  check_signal(c, sig_addr, sig_op, call, loc);
  const peer_route where = route_team_pe(c, pe, call, loc);
  transports::over(where, [&](auto t) {
    decltype(t)::template put_signal<Coop>(c, where, dest, source, bytes, sig_addr, signal, sig_op,
                                           when == completion::on_return, call, loc);
  });
}

// A signal update without a payload (shmem_signal_set / _add, NVSHMEM's signal_op): ordered after
// this thread's earlier puts, stores and atomics to `pe` as put_signal's signal is after its
// payload (a release fence; over gda the context's quiet), so a PE that acquires the new value
// sees them.
GIO_DEVICE void signal_op(const ctx& c, std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe,
                          const char* call, source_location loc) {
  check_signal(c, sig_addr, sig_op, call, loc);
  const peer_route where = route_team_pe(c, pe, call, loc);
  platform::fence_acq_rel_system();
  transports::over(where, [&](auto t) {
    decltype(t)::signal_op(c, where, sig_addr, signal, sig_op, call, loc);
  });
}

// The signal word's value, acquired: what its writer ordered before the update is visible.
GIO_DEVICE std::uint64_t signal_fetch(const ctx& c, const std::uint64_t* sig_addr, const char* call,
                                      source_location loc) {
  check_symmetric(c, sig_addr, sizeof(std::uint64_t), call, loc);
  check_aligned(c, sig_addr, sizeof(std::uint64_t), call, loc);
  return platform::ld_acquire_sys(sig_addr);
}

GIO_DEVICE std::uint64_t signal_wait_until(const ctx& c, std::uint64_t* sig_addr, int cmp, std::uint64_t value,
                                           const char* call, source_location loc) {
  check_ivars(c, sig_addr, 1, cmp, call, loc);
  check_aligned(c, sig_addr, sizeof(std::uint64_t), call, loc);
  wait_budget budget(c);
  return wait_one(c, sig_addr, cmp, value, budget, call, loc);
}

}  // namespace gio::detail
