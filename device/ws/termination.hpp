// The termination detection's decisions (docs/worksteal.md, "Termination detection"), written once
// for host and device: the worker applies them to its counts, the CPU tests to a model of them.
//   counter: one count of idle workers (on PE 0); everyone stops when it reaches W x P.
//   tree:    each PE counts its idle workers; the worker whose increment completes its PE adds 1
//            to PE 0's count of complete PEs, the worker whose decrement breaks a complete PE
//            subtracts it; everyone stops when its PE is complete and all P PEs are.
#pragma once
#include <cstdint>

#include "gio/platform/host_device.hpp"

namespace gio::ws {

// Tree mode: after an increment that found `old` idle workers on this PE, does the PE become
// complete (so the root count goes up)?
GIO_HOST_DEVICE_INLINE bool pe_becomes_complete(std::uint64_t old, std::uint32_t workers_per_pe) {
  return old + 1 == workers_per_pe;
}
// Tree mode: after a decrement that found `old`, was the PE complete (so the root count goes down)?
GIO_HOST_DEVICE_INLINE bool pe_was_complete(std::uint64_t old, std::uint32_t workers_per_pe) {
  return old == workers_per_pe;
}
GIO_HOST_DEVICE_INLINE bool counter_says_done(std::uint64_t idle_workers, std::uint32_t total_workers) {
  return idle_workers == total_workers;
}
GIO_HOST_DEVICE_INLINE bool tree_says_done(std::uint64_t my_pe_idle, std::uint32_t workers_per_pe,
                                           std::uint64_t complete_pes, std::uint32_t pes) {
  return my_pe_idle == workers_per_pe && complete_pes == pes;
}

}  // namespace gio::ws
