// The one implementation of every RMA binding. The generated bindings (api_generated.hpp) are
// one-liners that name the call and forward here; the transport that carries a call is chosen in
// one place, transports/dispatch.hpp.
#pragma once
#include <cstddef>

#include "gio/device/checks.hpp"
#include "gio/device/coop.hpp"
#include "gio/device/transports/dispatch.hpp"

namespace gio::detail {

// World PE `pe`: from the handle's inline window when `pe` is in it (one shared-memory or
// register read), else from the peer table. A PE with no device-reachable transport is an error
// in every build: dropping data would be worse than a trap.
GIO_DEVICE peer_route route_world(const ctx& c, int pe, const char* call, source_location loc) {
  const unsigned window_index = static_cast<unsigned>(pe - c.h.inline_first_pe);
  if (window_index < static_cast<unsigned>(c.h.inline_count) && ((c.h.inline_reachable >> window_index) & 1u))
    return {c.h.inline_delta[window_index], ((c.h.inline_native_atomics >> window_index) & 1u) != 0,
            device_transport::p2p, pe};
  const peer_info& peer = c.h.peers[pe];
  if (peer.transport == static_cast<std::uint32_t>(transport::gda)) {
    if constexpr (!transports::compiled_in(transport::gda))
      fail(c, call, loc, "PE reached over gda, which this kernel was compiled without (GIO_DEVICE_GDA=0) [pe, transport]",
           pe, peer.transport);
    return {0, true, device_transport::gda, pe};
  }
  if (peer.heap_base == nullptr)
    fail(c, call, loc, "PE not reachable from this GPU (no transport) [pe, transport]", pe, peer.transport);
  return {peer.heap_base - c.h.heap_base, (peer.caps & peer_native_atomics) != 0, device_transport::p2p, pe};
}

// The world PE of PE `pe` of the context's team.
GIO_DEVICE int world_pe(const ctx& c, int pe) { return c.team.start + pe * c.team.stride; }

// Team PE `pe` in the context's window (ctx::team_delta and its bits), read without a branch.
struct window_entry {
  std::ptrdiff_t delta;
  bool reachable;  // valid only when this is set
  bool native_atomics;
};
GIO_DEVICE window_entry window_entry_of(const ctx& c, int pe) {
  const unsigned slot = static_cast<unsigned>(pe) % handle_inline_peers;  // == pe inside the window
  return {c.team_delta[slot], static_cast<unsigned>(pe) < handle_inline_peers && ((c.team_reachable >> slot) & 1u),
          ((c.team_native_atomics >> slot) & 1u) != 0};
}

// `pe` as the API user gives it: a PE of the context's team. The context's own window first.
// The window's words are read before anything is decided, with no branch between them and the
// caller's code: a GPU issues in order, so a load placed after the first use of a previous
// call's result (a chain of fetch_adds, a counter just waited on) would wait for that result and
// add its latency to every call; read up front, the loads overlap the previous call's round trip.
GIO_DEVICE peer_route route_team_pe(const ctx& c, int pe, const char* call, source_location loc) {
  check_pe(c, pe, call, loc);
  const window_entry w = window_entry_of(c, pe);
  // The window's answer is the value coming in from this block (no block of its own for the
  // loads to sink into); only a PE outside the window branches away.
  peer_route where{w.delta, w.native_atomics, device_transport::p2p, world_pe(c, pe)};
  if (!w.reachable) where = route_world(c, world_pe(c, pe), call, loc);
  return where;
}

// shmem_ptr (OpenSHMEM 1.5 §9.2.4): `dest` (symmetric) on PE `pe` of the context's team as an
// address this thread can load from and store to, or nullptr when `pe` is reached only through
// the NIC (or not at all). Its own PE gives `dest` back.
GIO_DEVICE void* peer_pointer(const ctx& c, const void* dest, int pe, const char* call, source_location loc) {
  check_pe(c, pe, call, loc);
  check_symmetric(c, dest, 1, call, loc);
  const peer_info& peer = c.h.peers[world_pe(c, pe)];
  if (peer.heap_base == nullptr) return nullptr;
  return transports::p2p::translate(const_cast<void*>(dest), peer.heap_base - c.h.heap_base);
}

// When a put or get may return (OpenSHMEM's blocking and _nbi forms). On the load/store transport
// a put completes locally when its stores are issued and a get when its loads return, which
// satisfies both. Over gda, `on_return` waits for the NIC's completion and `by_quiet` only posts
// (large puts and gets between registered buffers: the next quiet, fence or sync completes them;
// small puts go inline, and staged ones complete as they go through the bounce buffer).
enum class completion { on_return, by_quiet };

// The group synchronises at the end so that one thread's quiet/fence afterwards covers every
// member's accesses (docs/memory-model.md, "group calls").
template <class Coop>
GIO_DEVICE void put(const ctx& c, void* dest, const void* source, std::size_t nelems, std::size_t elem_size,
                    int pe, completion when, const char* call, source_location loc) {
  check_size(c, nelems, elem_size, call, loc);
  const std::size_t bytes = nelems * elem_size;
  check_symmetric(c, dest, bytes, call, loc);
  const peer_route where = route_team_pe(c, pe, call, loc);
  transports::over(where, [&](auto t) {
    decltype(t)::template put<Coop>(c, where, dest, source, bytes, when == completion::on_return, call, loc);
  });
}

template <class Coop>
GIO_DEVICE void get(const ctx& c, void* dest, const void* source, std::size_t nelems, std::size_t elem_size,
                    int pe, completion when, const char* call, source_location loc) {
  check_size(c, nelems, elem_size, call, loc);
  const std::size_t bytes = nelems * elem_size;
  check_symmetric(c, source, bytes, call, loc);
  const peer_route where = route_team_pe(c, pe, call, loc);
  transports::over(where, [&](auto t) {
    decltype(t)::template get<Coop>(c, where, dest, source, bytes, when == completion::on_return, call, loc);
  });
}

// Strided RMA (OpenSHMEM 1.5 §9.5.3): element i of `source` (i * sst elements in) to element i
// of `dest` (i * dst elements in); the symmetric side is dest for a put, source for a get. The
// group's members take every size-th element; over gda each element is a transfer of its own
// (completed on return), so a strided call over the NIC costs one round of the queue per element.

// Checks the strides and that the symmetric side's span lies in the heap (checked builds).
GIO_DEVICE void check_strided(const ctx& c, bool is_put, const void* dest, const void* source, std::ptrdiff_t dst,
                              std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size, const char* call,
                              source_location loc) {
  const std::ptrdiff_t symmetric_stride = is_put ? dst : sst;
  if constexpr (checks_enabled) {
    if (dst < 1 || sst < 1) fail(c, call, loc, "strides must be at least 1 element [dst, sst]", dst, sst);
    if (nelems > 1 && (nelems - 1) > (SIZE_MAX / elem_size - 1) / static_cast<std::size_t>(symmetric_stride))
      fail(c, call, loc, "strided span overflows size_t [nelems, stride]", static_cast<long long>(nelems),
           symmetric_stride);
  }
  const std::size_t span =
      nelems == 0 ? 0 : ((nelems - 1) * static_cast<std::size_t>(symmetric_stride) + 1) * elem_size;
  check_symmetric(c, is_put ? dest : source, span, call, loc);
}

// The transfer of a checked strided call to the PE `where` leads to (also shmem_alltoalls's).
template <class Coop>
GIO_DEVICE void strided_over(const ctx& c, const peer_route& where, bool is_put, void* dest, const void* source,
                             std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size,
                             const char* call, source_location loc) {
  const std::size_t dest_pitch = static_cast<std::size_t>(dst) * elem_size;
  const std::size_t source_pitch = static_cast<std::size_t>(sst) * elem_size;
  transports::over(where, [&](auto t) {
    decltype(t)::template strided<Coop>(c, where, is_put, dest, source, dest_pitch, source_pitch, nelems, elem_size,
                                        call, loc);
  });
  Coop::sync();
}

template <class Coop>
GIO_DEVICE void strided(const ctx& c, bool is_put, void* dest, const void* source, std::ptrdiff_t dst,
                        std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size, int pe, const char* call,
                        source_location loc) {
  check_strided(c, is_put, dest, source, dst, sst, nelems, elem_size, call, loc);
  strided_over<Coop>(c, route_team_pe(c, pe, call, loc), is_put, dest, source, dst, sst, nelems, elem_size, call,
                     loc);
}

template <class T>
GIO_DEVICE void p(const ctx& c, T* dest, T value, int pe, const char* call, source_location loc) {
  static_assert(sizeof(T) <= 8, "shmem_p moves one element of at most 8 bytes");
  check_symmetric(c, dest, sizeof(T), call, loc);
  const peer_route where = route_team_pe(c, pe, call, loc);
  transports::over(where, [&](auto t) { decltype(t)::p(c, where, dest, value, call, loc); });
}

template <class T>
GIO_DEVICE T g(const ctx& c, const T* source, int pe, const char* call, source_location loc) {
  static_assert(sizeof(T) <= 8, "shmem_g moves one element of at most 8 bytes");
  check_symmetric(c, source, sizeof(T), call, loc);
  const peer_route where = route_team_pe(c, pe, call, loc);
  return transports::over(where, [&](auto t) { return decltype(t)::g(c, where, source, call, loc); });
}

}  // namespace gio::detail
