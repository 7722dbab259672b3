// Device-side helpers shared by the GPU tests: the generic block-RMA templates behind the member
// names that gio::types::rma_<name> (generated) gives the typed names, and one dispatcher from
// (direction, blocking, scope) to the call.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>

#include "gio/device.hpp"

namespace gio_test {

using gio::coop::thread;
using gio::coop::wave;
using gio::coop::wg;

// The generic templates under the member names of gio::types::rma_<name>.
template <class T> struct generic_rma {
  static GIO_DEVICE void put(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_put(c, d, s, n, pe); }
  static GIO_DEVICE void put_wave(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_put_wave(c, d, s, n, pe); }
  static GIO_DEVICE void put_wg(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_put_wg(c, d, s, n, pe); }
  static GIO_DEVICE void put_nbi(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_put_nbi(c, d, s, n, pe); }
  static GIO_DEVICE void put_nbi_wave(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_put_nbi_wave(c, d, s, n, pe); }
  static GIO_DEVICE void put_nbi_wg(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_put_nbi_wg(c, d, s, n, pe); }
  static GIO_DEVICE void get(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_get(c, d, s, n, pe); }
  static GIO_DEVICE void get_wave(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_get_wave(c, d, s, n, pe); }
  static GIO_DEVICE void get_wg(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_get_wg(c, d, s, n, pe); }
  static GIO_DEVICE void get_nbi(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_get_nbi(c, d, s, n, pe); }
  static GIO_DEVICE void get_nbi_wave(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_get_nbi_wave(c, d, s, n, pe); }
  static GIO_DEVICE void get_nbi_wg(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) { gio::shmem_get_nbi_wg(c, d, s, n, pe); }
  static GIO_DEVICE void p(const gio::ctx& c, T* d, T v, int pe) { gio::shmem_p(c, d, v, pe); }
  static GIO_DEVICE T g(const gio::ctx& c, const T* s, int pe) { return gio::shmem_g(c, s, pe); }
};

// One of the twelve block-RMA calls: direction, blocking or not, cooperation scope.
template <bool Get, bool Nbi, class Coop> struct form {
  static std::string name() { return std::string(Get ? "get" : "put") + (Nbi ? "_nbi" : "") + Coop::suffix; }
};

template <class Ops, bool Get, bool Nbi, class Coop, class T>
GIO_DEVICE void call(const gio::ctx& c, T* d, const T* s, std::size_t n, int pe) {
  constexpr bool t = std::is_same_v<Coop, thread>, w = std::is_same_v<Coop, wave>;
  if constexpr (!Get && !Nbi) { if constexpr (t) Ops::put(c, d, s, n, pe); else if constexpr (w) Ops::put_wave(c, d, s, n, pe); else Ops::put_wg(c, d, s, n, pe); }
  if constexpr (!Get && Nbi) { if constexpr (t) Ops::put_nbi(c, d, s, n, pe); else if constexpr (w) Ops::put_nbi_wave(c, d, s, n, pe); else Ops::put_nbi_wg(c, d, s, n, pe); }
  if constexpr (Get && !Nbi) { if constexpr (t) Ops::get(c, d, s, n, pe); else if constexpr (w) Ops::get_wave(c, d, s, n, pe); else Ops::get_wg(c, d, s, n, pe); }
  if constexpr (Get && Nbi) { if constexpr (t) Ops::get_nbi(c, d, s, n, pe); else if constexpr (w) Ops::get_nbi_wave(c, d, s, n, pe); else Ops::get_nbi_wg(c, d, s, n, pe); }
}

template <class F> void for_each_form(F&& f) {
  auto scopes = [&](auto get, auto nbi) {
    f(form<decltype(get)::value, decltype(nbi)::value, thread>{});
    f(form<decltype(get)::value, decltype(nbi)::value, wave>{});
    f(form<decltype(get)::value, decltype(nbi)::value, wg>{});
  };
  scopes(std::false_type{}, std::false_type{});
  scopes(std::false_type{}, std::true_type{});
  scopes(std::true_type{}, std::false_type{});
  scopes(std::true_type{}, std::true_type{});
}

// How many groups of Coop a workgroup of `wg_threads` threads holds.
template <class Coop> GIO_HOST_DEVICE constexpr unsigned groups_per_wg(unsigned wg_threads) {
  if constexpr (std::is_same_v<Coop, thread>) return wg_threads;
  else if constexpr (std::is_same_v<Coop, wave>) return wg_threads / gio::platform::wave_size;
  else return 1;
}

}  // namespace gio_test
