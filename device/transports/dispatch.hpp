// The one place device code chooses a transport. A route (route.hpp) names the transport that
// reaches a PE; `over(where, f)` calls f with that transport's `ops`, so the API's cores
// (rma_core, amo_core, signal_core, collectives) are written once against this interface and
// never name a transport. Adding a transport: its folder under device/transports/ with an `ops`
// struct holding the members below, a value of `device_transport` (route.hpp) and of
// gio::transport (the peer table's), its arm in `over` and its line in `each`
// (docs/architecture.md, "Where to add a transport").
//
// The members of a transport's `ops` (all static; `where` leads to the target PE; symmetric
// addresses are this PE's, translated by the transport):
//   put<Coop> / get<Coop>(c, where, dest, source, bytes, wait, call, loc)
//       the RMA calls: the group's transfer, the group synchronised on return; with `wait`
//       complete on return (a transport whose transfers complete as they are issued ignores it)
//   push<Coop>(c, where, dest, source, bytes, call, loc)
//       a data collective's transfer: not waited for, not synchronised (the sync after it completes it)
//   pull<Coop>(c, where, dest, source, bytes, call, loc)
//       a collective's read: complete on return, not synchronised
//   strided<Coop>(c, where, is_put, dest, source, dest_pitch, source_pitch, nelems, elem_size, call, loc)
//       element i of the group's share; the caller synchronises
//   p<T> / g<T>, amo<T>(c, where, op, dest, value, cond, call, loc), put_signal<Coop>(...)
//   signal_op(c, where, sig_addr, signal, sig_op, call, loc)   after the caller's release fence
//   in_use(c), quiet(c, call, loc), quiet_all(c, call, loc)
//       whether the transport can hold operations in flight on this PE, and their completion for
//       this workgroup's context / every context (what fence, quiet and syncs add to their fences)
#pragma once

#include "gio/device/transports/gda/gda.hpp"
#include "gio/device/transports/p2p/p2p.hpp"
#include "gio/device/transports/route.hpp"

namespace gio::transports {

// Whether this translation unit's kernels hold the code of transport `via` (GIO_DEVICE_GDA=0
// leaves the network out: routes then never choose it).
GIO_DEVICE constexpr bool compiled_in(transport via) { return via != transport::gda || gda::compiled_in; }

// f(the ops of the transport `where` leads through). Transports compiled out are never tried.
// f is called directly, not through std::forward: a call left between the caller and the
// transport hides the arguments that are the same at every call site of an out-of-line network
// entry (the context, `wait`, the signal operation), which the compiler otherwise folds into it.
template <class F> GIO_DEVICE decltype(auto) over(const detail::peer_route& where, F&& f) {
  if (where.via != detail::device_transport::p2p && gda::compiled_in) return f(gda::ops{});
  return f(p2p::ops{});
}

// The route of an atomic on symmetric `dest`: a word of the heap's atomics area
// (device_handle::atomics_area_*: shmem_malloc_with_hints(SHMEM_MALLOC_ATOMICS_REMOTE) while a
// network transport is on) takes the network whatever else reaches its PE, this PE included (a
// loopback QP), since a NIC's atomics are not atomic with a GPU's (docs/memory-model.md).
GIO_DEVICE bool network_atomic_word(const ctx& c, const void* dest) {
  if constexpr (gda::compiled_in) {
    const auto offset = static_cast<std::uint64_t>(static_cast<const char*>(dest) - c.h.heap_base);
    return offset - c.h.atomics_area_offset < c.h.atomics_area_bytes;
  } else {
    return false;
  }
}
GIO_DEVICE detail::peer_route atomic_route(const ctx& c, detail::peer_route where, const void* dest) {
  if (network_atomic_word(c, dest)) where.via = detail::device_transport::gda;
  return where;
}

// f(ops) for every transport compiled in, in a fixed order.
template <class F> GIO_DEVICE void each(F&& f) {
  f(p2p::ops{});
  if constexpr (gda::compiled_in) f(gda::ops{});
}

// Whether any transport holds operations of this PE in flight that fences must complete.
GIO_DEVICE bool any_in_flight(const ctx& c) {
  bool any = false;
  each([&](auto t) { any = any || decltype(t)::in_use(c); });
  return any;
}
// The completion half of shmem_fence/quiet: this workgroup's context, on every transport in use.
GIO_DEVICE void complete(const ctx& c, const char* call, source_location loc) {
  each([&](auto t) {
    if (decltype(t)::in_use(c)) decltype(t)::quiet(c, call, loc);
  });
}
// The same for every context of this PE (a team sync: the group's accesses may follow other
// workgroups' by a grid sync).
GIO_DEVICE void complete_all(const ctx& c, const char* call, source_location loc) {
  each([&](auto t) {
    if (decltype(t)::in_use(c)) decltype(t)::quiet_all(c, call, loc);
  });
}

// The staging area of the network transport (its bounce buffer), for collectives that read
// members' data into one place over it (collectives.hpp, reduce_staged); held under its lock.
GIO_DEVICE char* staging_data(const ctx& c) { return gda::bounce_of(c); }
GIO_DEVICE std::size_t staging_bytes(const ctx& c) { return gda::table(c).bounce_bytes; }
GIO_DEVICE void lock_staging(const ctx& c) { gda::lock_bounce(c); }
GIO_DEVICE void unlock_staging(const ctx& c) { gda::unlock_bounce(c); }

}  // namespace gio::transports
