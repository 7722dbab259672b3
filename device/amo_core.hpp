// The one implementation of every remote atomic (OpenSHMEM 1.5 §9.7). The generated bindings
// (api_generated.hpp) name the call and forward here.
//
// Atomicity: every gio atomic is a system-scope read-modify-write on the target word (or, for
// fetch and set, a system-scope strong load/store, which is atomic for an aligned word), so
// atomics from any PE and any workgroup on one location are atomic with respect to each other.
// Where the link to a peer cannot execute an operation natively (the peer capability
// peer_native_atomics, probed at init; GIO_ATOMICS=cas clears it everywhere), every
// read-modify-write becomes a compare-and-swap loop, which only needs CAS from the link
// (MGWS thesis: PCIe lacks OR and friends). Atomics order nothing by themselves: fence/quiet do.
// On the heap's atomics area every PE's atomics go through the NIC (transports::atomic_route).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/device/checks.hpp"
#include "gio/device/rma_core.hpp"
#include "gio/ops.hpp"
#include "gio/platform/strong.hpp"

namespace gio::detail {

// Whether this GPU's own native atomics are the ones that update team PE `pe`'s word `dest`
// (symmetric): `pe` is a load/store peer of the context's window whose link executes atomics
// natively, and `dest` lies outside the network's atomics area; `delta` then leads to the peer's
// copy (transports::p2p::translate). Every word the test needs is read in one round of
// shared-memory loads (route_team_pe says why). False in every other case, which the general
// route tells apart.
GIO_DEVICE bool own_atomics_reach(const ctx& c, const void* dest, int pe, std::ptrdiff_t& delta) {
  const window_entry w = window_entry_of(c, pe);
  const bool network_word = transports::network_atomic_word(c, dest);
  delta = w.delta;
  return w.reachable && w.native_atomics && !network_word;
}

// Returns the old value for the fetching operations (T{} for the others).
//
// The common case is decided by one test before any other (own_atomics_reach); the general route
// that follows it for the other cases would cost a second round of loads and a branch per
// decision on every call (docs/bench.md, "Atomics: the call's own cost").
template <class T>
GIO_DEVICE T amo(const ctx& c, amo_op op, T* dest, T value, T cond, int pe, const char* call, source_location loc) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "gio atomics work on 4- and 8-byte types");
  check_symmetric(c, dest, sizeof(T), call, loc);
  check_aligned(c, dest, sizeof(T), call, loc);
  check_pe(c, pe, call, loc);
  std::ptrdiff_t delta;
  if (__builtin_expect(own_atomics_reach(c, dest, pe, delta), 1))
    return transports::p2p::amo_at(op, transports::p2p::translate(dest, delta), value, cond, true);
  const peer_route where = transports::atomic_route(c, route_team_pe(c, pe, call, loc), dest);
  return transports::over(where, [&](auto t) {
    return decltype(t)::amo(c, where, op, dest, value, cond, call, loc);
  });
}

}  // namespace gio::detail
