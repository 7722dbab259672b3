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
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/device/checks.hpp"
#include "gio/device/rma_core.hpp"
#include "gio/ops.hpp"
#include "gio/platform/strong.hpp"

namespace gio::detail {

// The non-fetching read-modify-writes (inc, add, and, or, xor) as reductions: no answer to wait for.
template <class U> GIO_DEVICE void amo_native_noreturn_bits(amo_op op, U* target, U value) {
  using platform::rmw;
  switch (op) {
    case amo_op::and_: platform::atomic_red_sys_bits<rmw::and_>(target, value); break;
    case amo_op::or_: platform::atomic_red_sys_bits<rmw::or_>(target, value); break;
    case amo_op::xor_: platform::atomic_red_sys_bits<rmw::xor_>(target, value); break;
    default: platform::atomic_red_sys_bits<rmw::add>(target, value);  // inc, add
  }
}

template <class U> GIO_DEVICE U amo_native_bits(amo_op op, U* target, U value) {
  using platform::rmw;
  switch (op) {
    case amo_op::fetch_inc:
    case amo_op::inc:
    case amo_op::fetch_add:
    case amo_op::add: return platform::atomic_rmw_sys_bits<rmw::add>(target, value);
    case amo_op::fetch_and:
    case amo_op::and_: return platform::atomic_rmw_sys_bits<rmw::and_>(target, value);
    case amo_op::fetch_or:
    case amo_op::or_: return platform::atomic_rmw_sys_bits<rmw::or_>(target, value);
    case amo_op::fetch_xor:
    case amo_op::xor_: return platform::atomic_rmw_sys_bits<rmw::xor_>(target, value);
    default: return platform::atomic_rmw_sys_bits<rmw::exchange>(target, value);  // swap
  }
}

// Every read-modify-write as a compare-and-swap loop on the word's bits.
template <class T> GIO_DEVICE T amo_cas_loop(amo_op op, T* target, T value, T cond = T{}) {
  using U = platform::bits_t<T>;
  U* word = reinterpret_cast<U*>(target);
  U seen = platform::ld_relaxed_sys(word);
  for (;;) {
    const U desired = platform::bit_cast<U>(amo_new_value(op, platform::bit_cast<T>(seen), value, cond));
    const U old = platform::atomic_cas_sys_bits(word, seen, desired);
    if (old == seen) return platform::bit_cast<T>(old);
    seen = old;
  }
}

// Returns the old value for the fetching operations (T{} for the others).
template <class T>
GIO_DEVICE T amo(const ctx& c, amo_op op, T* dest, T value, T cond, int pe, const char* call, source_location loc) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "gio atomics work on 4- and 8-byte types");
  using U = platform::bits_t<T>;
  check_symmetric(c, dest, sizeof(T), call, loc);
  check_aligned(c, dest, sizeof(T), call, loc);
  const peer_route where = route_team_pe(c, pe, call, loc);
  if (where.gda) return transports::gda::amo(c, where.world, op, dest, value, cond, call, loc);
  T* target = transports::p2p::translate(dest, where.delta);
  switch (op) {
    case amo_op::fetch: return platform::ld_relaxed_sys(target);
    case amo_op::set: platform::st_relaxed_sys(target, value); return T{};
    case amo_op::compare_swap:
      return platform::bit_cast<T>(platform::atomic_cas_sys_bits(reinterpret_cast<U*>(target),
                                                                 platform::bit_cast<U>(cond), platform::bit_cast<U>(value)));
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (where.native_atomics && !amo_fetches(op)) {
      amo_native_noreturn_bits(op, reinterpret_cast<U*>(target), platform::bit_cast<U>(value));
      return T{};
    }
    if (where.native_atomics) return platform::bit_cast<T>(amo_native_bits(op, reinterpret_cast<U*>(target), platform::bit_cast<U>(value)));
  } else {
    if (where.native_atomics && op == amo_op::swap)
      return platform::bit_cast<T>(platform::atomic_rmw_sys_bits<platform::rmw::exchange>(reinterpret_cast<U*>(target),
                                                                                         platform::bit_cast<U>(value)));
  }
  return amo_cas_loop(op, target, value);
}

}  // namespace gio::detail
