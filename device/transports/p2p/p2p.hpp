// The load/store transport: the target PE's heap is mapped into this GPU (another GPU over
// NVLink/xGMI/PCIe, or this same GPU). Data moves by the calling group's own loads and stores;
// ordering comes from the scoped fences of gio/device/order.hpp (docs/memory-model.md).
#pragma once
#include <cstddef>
#include <type_traits>

#include "gio/device/copy.hpp"
#include "gio/device/ctx.hpp"
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

}  // namespace gio::transports::p2p
