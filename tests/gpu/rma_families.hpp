// Templates of the RMA binding tests (rma_tests.cpp), shared by the shard files that instantiate
// them for ranges of gio::types::rma_types rows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "api_types_generated.hpp"
#include "device_forms.hpp"
#include "gio/device.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {


constexpr unsigned wg_threads = 128;

// The byte forms under the member names of gio::types::rma_<name> and generic_rma.
struct mem_rma {
  using B = unsigned char;
  static GIO_DEVICE void put(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_putmem(c, d, s, n, pe); }
  static GIO_DEVICE void put_wave(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_putmem_wave(c, d, s, n, pe); }
  static GIO_DEVICE void put_wg(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_putmem_wg(c, d, s, n, pe); }
  static GIO_DEVICE void put_nbi(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_putmem_nbi(c, d, s, n, pe); }
  static GIO_DEVICE void put_nbi_wave(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_putmem_nbi_wave(c, d, s, n, pe); }
  static GIO_DEVICE void put_nbi_wg(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_putmem_nbi_wg(c, d, s, n, pe); }
  static GIO_DEVICE void get(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_getmem(c, d, s, n, pe); }
  static GIO_DEVICE void get_wave(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_getmem_wave(c, d, s, n, pe); }
  static GIO_DEVICE void get_wg(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_getmem_wg(c, d, s, n, pe); }
  static GIO_DEVICE void get_nbi(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_getmem_nbi(c, d, s, n, pe); }
  static GIO_DEVICE void get_nbi_wave(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_getmem_nbi_wave(c, d, s, n, pe); }
  static GIO_DEVICE void get_nbi_wg(const gio::ctx& c, B* d, const B* s, std::size_t n, int pe) { gio::shmem_ctx_getmem_nbi_wg(c, d, s, n, pe); }
};

// ---- Block RMA ---------------------------------------------------------------------------------
// Group k (a thread, a wave or a workgroup, by Coop) runs case k: a put from `local` into the
// peer's `sym`, or a get from the peer's `sym` into `local`. All cases of a call run at once.
template <class Ops, bool Get, bool Nbi, class Coop, class T>
__global__ void block_rma_kernel(gio::device_handle h, const transfer_case* cases, unsigned n_cases,
                                 unsigned char* local, unsigned char* sym, int peer) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  const unsigned group = gio::platform::wg_id() * groups_per_wg<Coop>(wg_threads) + gio::platform::thread_in_wg() / Coop::size();
  if (group >= n_cases) return;  // whole groups leave together
  const transfer_case k = cases[group];
  unsigned char* dst = (Get ? local : sym) + k.dst;
  const unsigned char* src = (Get ? sym : local) + k.src;
  call<Ops, Get, Nbi, Coop>(c, reinterpret_cast<T*>(dst), reinterpret_cast<const T*>(src), k.bytes / sizeof(T), peer);
  if constexpr (Nbi) gio::shmem_quiet(c);  // an _nbi get's data is there only after quiet
}

// Size classes in bytes (rounded up to whole elements), and (source, destination) offsets in
// elements: aligned, equally misaligned, and misaligned relative to each other.
constexpr std::size_t size_classes[] = {1, 7, 8, 63, 4096, (std::size_t(1) << 20) + 3};
// One thread moving 1 MiB with remote loads one byte at a time takes ~0.3 s; for thread-scope
// calls the largest class is 64 KiB + 3, which still crosses every path of the copy.
constexpr std::size_t largest_one_thread = (std::size_t(64) << 10) + 3;
constexpr std::size_t offset_pairs[][2] = {{0, 0}, {1, 1}, {1, 4}, {4, 8}, {8, 1}};
constexpr std::size_t guard = 64;  // poisoned bytes on each side of every case

inline std::vector<transfer_case> block_cases(std::size_t elem, bool one_thread, std::size_t& extent) {
  std::vector<transfer_case> cases;
  extent = 0;
  for (std::size_t size : size_classes) {
    if (one_thread && size > largest_one_thread) size = largest_one_thread;
    const std::size_t bytes = (size + elem - 1) / elem * elem;
    for (const auto& off : offset_pairs) {
      const std::size_t region = extent + guard;
      cases.push_back({region + off[0] * elem, region + off[1] * elem, bytes});
      extent = (region + 8 * elem + bytes + guard + 255) / 256 * 256;
    }
  }
  return cases;
}

template <class Ops, class T, bool Get, bool Nbi, class Coop>
void run_block_rma(const std::string& family, form<Get, Nbi, Coop>) {
  std::size_t extent = 0;
  const std::vector<transfer_case> cases = block_cases(sizeof(T), std::is_same_v<Coop, thread>, extent);
  ASSERT_LE(extent, staging_bytes);
  device_buffer table(cases.size() * sizeof(transfer_case));
  gpu::to_device(table.get(), cases.data(), cases.size() * sizeof(transfer_case));
  unsigned char* local = staging_local().get();
  unsigned char* sym = staging_sym().get();
  const unsigned n = static_cast<unsigned>(cases.size());
  const unsigned wgs = (n + groups_per_wg<Coop>(wg_threads) - 1) / groups_per_wg<Coop>(wg_threads);
  const std::string what = family + " " + form<Get, Nbi, Coop>::name();
  exchange_and_verify(what, Get ? sym : local, Get ? local : sym, extent, cases, [&] {
    block_rma_kernel<Ops, Get, Nbi, Coop, T><<<wgs, wg_threads>>>(run().handle, table.get<transfer_case>(), n, local, sym, run().peer);
    gpu::finish_launch(what.c_str());
  });
}

// ---- shmem_p / shmem_g: one element per thread, every element of the array -------------------
template <class Ops, class T>
__global__ void p_kernel(gio::device_handle h, T* sym_dst, const T* local_src, std::size_t n, int peer) {
  const gio::ctx c = gio::ctx_default(h);
  for (std::size_t i = gio::platform::wg_id() * wg_threads + gio::platform::thread_in_wg(); i < n; i += std::size_t(gio::platform::num_wgs()) * wg_threads)
    Ops::p(c, sym_dst + i, local_src[i], peer);
}

template <class Ops, class T>
__global__ void g_kernel(gio::device_handle h, T* local_dst, const T* sym_src, std::size_t n, int peer) {
  const gio::ctx c = gio::ctx_default(h);
  for (std::size_t i = gio::platform::wg_id() * wg_threads + gio::platform::thread_in_wg(); i < n; i += std::size_t(gio::platform::num_wgs()) * wg_threads)
    local_dst[i] = Ops::g(c, sym_src + i, peer);
}

template <class Ops, class T> void run_p_g(const std::string& family) {
  constexpr std::size_t n = 4099;  // not a multiple of the grid: the tail threads idle
  const std::vector<transfer_case> one{{0, 0, n * sizeof(T)}};
  unsigned char* local = staging_local().get();
  unsigned char* sym = staging_sym().get();
  exchange_and_verify(family + " p", local, sym, n * sizeof(T), one, [&] {
    p_kernel<Ops, T><<<8, wg_threads>>>(run().handle, reinterpret_cast<T*>(sym), reinterpret_cast<const T*>(local), n, run().peer);
    gpu::finish_launch("p_kernel");
  });
  exchange_and_verify(family + " g", sym, local, n * sizeof(T), one, [&] {
    g_kernel<Ops, T><<<8, wg_threads>>>(run().handle, reinterpret_cast<T*>(local), reinterpret_cast<const T*>(sym), n, run().peer);
    gpu::finish_launch("g_kernel");
  });
}

// ---- One parameterised test per binding family ------------------------------------------------
struct family {
  std::string name;  // "typed_int", "generic_double", "mem"
  void (*run)(const std::string& name);
};

template <class Ops, class T> void run_family_block(const std::string& name) {
  for_each_form([&](auto f) { run_block_rma<Ops, T>(name, f); });
}
template <class Ops, class T> void run_family_block_and_p_g(const std::string& name) {
  run_family_block<Ops, T>(name);
  run_p_g<Ops, T>(name);
}

// Is `entry` the first row of rma_types with its element size? The generic templates differ
// between types only by sizeof(T), so they get the full matrix once per size (each extra kernel
// of the matrix costs compile time); every typed name and generic p/g get it for every type.
template <std::size_t I> using rma_type_at = typename std::tuple_element_t<I, std::decay_t<decltype(gio::types::rma_types)>>::type;
template <std::size_t I, std::size_t... Earlier> constexpr bool first_of_its_size(std::index_sequence<Earlier...>) {
  return ((sizeof(rma_type_at<Earlier>) != sizeof(rma_type_at<I>)) && ...);
}

template <std::size_t First, std::size_t... I> void add_typed_and_generic(std::vector<family>& out, std::index_sequence<I...>) {
  auto add = [&](auto index) {
    constexpr std::size_t i = First + decltype(index)::value;
    const auto& entry = std::get<i>(gio::types::rma_types);
    using E = std::decay_t<decltype(entry)>;
    using T = typename E::type;
    out.push_back({std::string("typed_") + entry.name, &run_family_block_and_p_g<typename E::typed, T>});
    if constexpr (first_of_its_size<i>(std::make_index_sequence<i>{}))
      out.push_back({std::string("generic_") + entry.name, &run_family_block_and_p_g<generic_rma<T>, T>});
    else
      out.push_back({std::string("generic_") + entry.name, &run_p_g<generic_rma<T>, T>});
  };
  (add(std::integral_constant<std::size_t, I>{}), ...);
}

// The families of rows [First, Last) of gio::types::rma_types. Each rma_shard_*.cpp instantiates
// one range, so that the many kernels compile in parallel.
template <std::size_t First, std::size_t Last> std::vector<family> families_of_rows() {
  std::vector<family> out;
  add_typed_and_generic<First>(out, std::make_index_sequence<Last - First>{});
  return out;
}

inline constexpr std::size_t rma_rows = std::tuple_size_v<std::decay_t<decltype(gio::types::rma_types)>>;
std::vector<family> rma_shard_0();
std::vector<family> rma_shard_1();
std::vector<family> rma_shard_2();
std::vector<family> rma_shard_3();


}  // namespace gio_test
