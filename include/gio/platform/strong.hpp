// Typed strong accesses on top of the platform's bit-level ones: any 1/2/4/8-byte trivially
// copyable T. Names say the semantics (DeepEP style): ld_acquire_sys, st_release_sys, ...
#pragma once
#include "gio/platform/platform.hpp"

namespace gio::platform {

template <class T> GIO_DEVICE T ld_relaxed_sys(const T* p) {
  using U = bits_t<T>;
  return bit_cast<T>(ld_relaxed_sys_bits(reinterpret_cast<const U*>(p)));
}
template <class T> GIO_DEVICE void st_relaxed_sys(T* p, T v) {
  using U = bits_t<T>;
  st_relaxed_sys_bits(reinterpret_cast<U*>(p), bit_cast<U>(v));
}
template <class T> GIO_DEVICE T ld_acquire_sys(const T* p) {
  using U = bits_t<T>;
  return bit_cast<T>(ld_acquire_sys_bits(reinterpret_cast<const U*>(p)));
}
template <class T> GIO_DEVICE void st_release_sys(T* p, T v) {
  static_assert(sizeof(T) >= 4, "release stores are 4 or 8 bytes");
  using U = bits_t<T>;
  st_release_sys_bits(reinterpret_cast<U*>(p), bit_cast<U>(v));
}

}  // namespace gio::platform
