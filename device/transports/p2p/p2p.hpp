// The load/store transport: the target PE's heap is mapped into this GPU (another GPU over
// NVLink/xGMI/PCIe, or this same GPU). Data moves by the calling group's own loads and stores;
// ordering comes from the scoped fences of gio/device/order.hpp (docs/memory-model.md).
// `ops` at the end is the transport's side of the one interface every transport provides
// (transports/dispatch.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/device/checks.hpp"
#include "gio/device/coop.hpp"
#include "gio/device/copy.hpp"
#include "gio/device/ctx.hpp"
#include "gio/device/transports/route.hpp"
#include "gio/ops.hpp"
#include "gio/platform/strong.hpp"

namespace gio::transports::p2p {

// `sym` (an address in this PE's heap) as seen through the mapping of a peer's heap that lies
// `delta` bytes from this PE's heap.
template <class T>
GIO_DEVICE T* translate(T* sym, std::ptrdiff_t delta) {
  using byte = std::conditional_t<std::is_const_v<T>, const char, char>;
  return reinterpret_cast<T*>(reinterpret_cast<byte*>(sym) + delta);
}

template <class Coop>
GIO_DEVICE void put(void* remote_dst, const void* local_src, std::size_t bytes) {
  detail::copy_bytes(remote_dst, local_src, bytes, Coop::rank(), Coop::size());
}

template <class Coop>
GIO_DEVICE void get(void* local_dst, const void* remote_src, std::size_t bytes) {
  detail::copy_bytes(local_dst, remote_src, bytes, Coop::rank(), Coop::size());
}

// Single elements go out as one strong (relaxed, system-scope) access, so that a p used as a
// flag after shmem_fence/shmem_quiet completes a release pattern.
template <class T> GIO_DEVICE void p(T* remote_dst, T value) { platform::st_relaxed_sys(remote_dst, value); }
template <class T> GIO_DEVICE T g(const T* remote_src) { return platform::ld_relaxed_sys(remote_src); }

// ---- atomics over the link ---------------------------------------------------------------------

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

// A signal update, after the caller's release fence. ADD is an atomic: native where the link
// executes it, else the CAS loop of every other atomic.
GIO_DEVICE void update_signal(std::uint64_t* remote_sig, std::uint64_t signal, int sig_op, bool native_atomics) {
  if (sig_op != SHMEM_SIGNAL_ADD)
    platform::st_relaxed_sys(remote_sig, signal);
  else if (native_atomics)
    platform::atomic_red_sys_bits<platform::rmw::add>(remote_sig, signal);
  else
    amo_cas_loop(amo_op::add, remote_sig, signal);
}

// Up to this many bytes put_signal's leader writes the payload alone, which saves the group
// barrier in front of the fence (measured on 2xH200: at 128 B and more one thread's loads and
// stores cost more than the barrier).
inline constexpr std::size_t leader_writes_bytes = 64;

// An atomic on `target`, this GPU's address of a peer's word; `native_atomics`: the link executes
// read-modify-writes natively (else every one is a CAS loop).
template <class T>
GIO_DEVICE T amo_at(amo_op op, T* target, T value, T cond, bool native_atomics) {
  using U = platform::bits_t<T>;
  U* word = reinterpret_cast<U*>(target);
  switch (op) {
    case amo_op::fetch: return platform::ld_relaxed_sys(target);
    case amo_op::set: platform::st_relaxed_sys(target, value); return T{};
    case amo_op::compare_swap:
      return platform::bit_cast<T>(
          platform::atomic_cas_sys_bits(word, platform::bit_cast<U>(cond), platform::bit_cast<U>(value)));
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (native_atomics && !amo_fetches(op)) {
      amo_native_noreturn_bits(op, word, platform::bit_cast<U>(value));
      return T{};
    }
    if (native_atomics) return platform::bit_cast<T>(amo_native_bits(op, word, platform::bit_cast<U>(value)));
  } else {
    if (native_atomics && op == amo_op::swap)
      return platform::bit_cast<T>(
          platform::atomic_rmw_sys_bits<platform::rmw::exchange>(word, platform::bit_cast<U>(value)));
  }
  return amo_cas_loop(op, target, value);
}

// ---- the transport interface (transports/dispatch.hpp lists the members and their contracts) ----

struct ops {
  template <class Coop>
  GIO_DEVICE static void push(const ctx&, const detail::peer_route& where, void* dest, const void* source,
                              std::size_t bytes, const char*, source_location) {
    p2p::put<Coop>(translate(dest, where.delta), source, bytes);
  }
  template <class Coop>
  GIO_DEVICE static void pull(const ctx&, const detail::peer_route& where, void* dest, const void* source,
                              std::size_t bytes, const char*, source_location) {
    p2p::get<Coop>(dest, translate(source, where.delta), bytes);
  }
  // The RMA forms: a push or pull, then the group synchronised; complete as issued, so `wait`
  // changes nothing here.
  template <class Coop>
  GIO_DEVICE static void put(const ctx& c, const detail::peer_route& where, void* dest, const void* source,
                             std::size_t bytes, bool, const char* call, source_location loc) {
    push<Coop>(c, where, dest, source, bytes, call, loc);
    Coop::sync();
  }
  template <class Coop>
  GIO_DEVICE static void get(const ctx& c, const detail::peer_route& where, void* dest, const void* source,
                             std::size_t bytes, bool, const char* call, source_location loc) {
    pull<Coop>(c, where, dest, source, bytes, call, loc);
    Coop::sync();
  }
  // The symmetric side seen through the peer's mapping, once: then plain copies, element by element.
  template <class Coop>
  GIO_DEVICE static void strided(const ctx&, const detail::peer_route& where, bool is_put, void* dest,
                                 const void* source, std::size_t dest_pitch, std::size_t source_pitch,
                                 std::size_t nelems, std::size_t elem_size, const char*, source_location) {
    char* to = static_cast<char*>(is_put ? translate(dest, where.delta) : dest);
    const char* from = static_cast<const char*>(is_put ? source : translate(source, where.delta));
    for (std::size_t i = Coop::rank(); i < nelems; i += Coop::size())
      detail::copy_bytes(to + i * dest_pitch, from + i * source_pitch, elem_size, 0, 1);
  }
  template <class T>
  GIO_DEVICE static void p(const ctx&, const detail::peer_route& where, T* dest, T value, const char*,
                           source_location) {
    p2p::p(translate(dest, where.delta), value);
  }
  template <class T>
  GIO_DEVICE static T g(const ctx&, const detail::peer_route& where, const T* source, const char*, source_location) {
    return p2p::g(translate(source, where.delta));
  }
  template <class T>
  GIO_DEVICE static T amo(const ctx&, const detail::peer_route& where, amo_op op, T* dest, T value, T cond,
                          const char*, source_location) {
    return amo_at(op, translate(dest, where.delta), value, cond, where.native_atomics);
  }
  // The group's stores, a group barrier, then the leader's release fence at system scope
  // (cumulative over the group's stores) and the signal; small payloads are the leader's alone.
  template <class Coop>
  GIO_DEVICE static void put_signal(const ctx&, const detail::peer_route& where, void* dest, const void* source,
                                    std::size_t bytes, std::uint64_t* sig_addr, std::uint64_t signal, int sig_op,
                                    bool, const char*, source_location) {
    const std::ptrdiff_t delta = where.delta;
    void* remote = translate(dest, delta);
    const bool leader = Coop::rank() == 0;
    if (bytes <= leader_writes_bytes) {
      if (leader) p2p::put<coop::thread>(remote, source, bytes);
    } else {
      p2p::put<Coop>(remote, source, bytes);
      Coop::sync();
    }
    if (leader) {
      platform::fence_acq_rel_system();
      update_signal(translate(sig_addr, delta), signal, sig_op, where.native_atomics);
    }
    Coop::sync();
  }
  // After the caller's release fence.
  GIO_DEVICE static void signal_op(const ctx&, const detail::peer_route& where, std::uint64_t* sig_addr,
                                   std::uint64_t signal, int sig_op, const char*, source_location) {
    update_signal(translate(sig_addr, where.delta), signal, sig_op, where.native_atomics);
  }
  // Nothing is ever left in flight: stores and atomics are ordered by the caller's fences.
  GIO_DEVICE static bool in_use(const ctx&) { return false; }
  GIO_DEVICE static void quiet(const ctx&, const char*, source_location) {}
  GIO_DEVICE static void quiet_all(const ctx&, const char*, source_location) {}
};

}  // namespace gio::transports::p2p
