// Templates of the put-with-signal binding tests (signal_bindings.cpp), shared by the shard
// files that instantiate them for ranges of gio::types::rma_types rows.
//
// Every put-with-signal binding: the byte forms (shmem_ctx_putmem_signal...), the generic
// templates (shmem_put_signal...) and every typed name of gio::types::rma_types (members
// put_signal, put_signal_wave, ..., put_signal_nbi_wg), each at its scope. A kernel per form
// puts into its own region of the peer with its own signal word: SET for the blocking forms, two
// ADDs for the _nbi forms (the signal must be their sum). A last kernel waits for the six
// signals the peer sent and records what shmem_signal_wait_until and shmem_signal_fetch returned; the host checks the values and, right after the kernel and
// without a barrier, every byte of the six regions (payload where written, poison elsewhere):
// a signal observed means the payload is there.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
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

template <class T> struct generic_signal {
  using C = gio::ctx;
  using U = std::uint64_t;
  static GIO_DEVICE void put_signal(const C& c, T* d, const T* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_put_signal(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_wave(const C& c, T* d, const T* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_put_signal_wave(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_wg(const C& c, T* d, const T* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_put_signal_wg(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_nbi(const C& c, T* d, const T* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_put_signal_nbi(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_nbi_wave(const C& c, T* d, const T* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_put_signal_nbi_wave(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_nbi_wg(const C& c, T* d, const T* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_put_signal_nbi_wg(c, d, s, n, sig, v, op, pe); }
};

struct mem_signal {
  using C = gio::ctx;
  using U = std::uint64_t;
  using B = unsigned char;
  static GIO_DEVICE void put_signal(const C& c, B* d, const B* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_ctx_putmem_signal(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_wave(const C& c, B* d, const B* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_ctx_putmem_signal_wave(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_wg(const C& c, B* d, const B* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_ctx_putmem_signal_wg(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_nbi(const C& c, B* d, const B* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_ctx_putmem_signal_nbi(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_nbi_wave(const C& c, B* d, const B* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_ctx_putmem_signal_nbi_wave(c, d, s, n, sig, v, op, pe); }
  static GIO_DEVICE void put_signal_nbi_wg(const C& c, B* d, const B* s, std::size_t n, U* sig, U v, int op, int pe) { gio::shmem_ctx_putmem_signal_nbi_wg(c, d, s, n, sig, v, op, pe); }
};

constexpr unsigned forms = 6;  // put_signal, _wave, _wg, _nbi, _nbi_wave, _nbi_wg
constexpr unsigned form_threads = 128;
inline const char* form_name(unsigned f) {
  static const char* names[forms] = {"put_signal", "put_signal_wave", "put_signal_wg", "put_signal_nbi",
                                     "put_signal_nbi_wave", "put_signal_nbi_wg"};
  return names[f];
}
// Bytes per form (rounded down to whole elements, at least one): the leader-only small path,
// unaligned sizes and the group paths.
constexpr std::size_t form_bytes[forms] = {8, 1000, (std::size_t(64) << 10) + 3, 33, 4099, 100003};
GIO_HOST_DEVICE std::uint64_t signal_value(unsigned f, unsigned part) {
  return (std::uint64_t(f + 1) << 40) + 0x5A5A0000ull * (part + 1) + f;  // high bits: a 64-bit signal
}
GIO_HOST_DEVICE std::uint64_t expected_signal(unsigned f) {
  return f < 3 ? signal_value(f, 0) : signal_value(f, 0) + signal_value(f, 1);
}

struct form_layout {
  std::size_t offset[forms];  // bytes, in both the source and the destination buffer
  std::size_t elems[forms];
};

// Form F of the family: its group puts into region F of the peer and updates signal F.
template <class Ops, class T, unsigned F>
__global__ void __launch_bounds__(form_threads) put_signal_form_kernel(gio::device_handle h, form_layout lay, unsigned char* sym_dest,
                                                                       const unsigned char* local_src, std::uint64_t* sigs,
                                                                       int peer) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  const unsigned t = gio::platform::thread_in_wg();
  T* d = reinterpret_cast<T*>(sym_dest + lay.offset[F]);
  const T* s = reinterpret_cast<const T*>(local_src + lay.offset[F]);
  const std::size_t n = lay.elems[F];
  std::uint64_t* sig = sigs + F;
  constexpr bool nbi = F >= 3;
  constexpr unsigned scope = F % 3;  // thread, wave, workgroup
  if (scope == 0 ? t != 0 : scope == 1 ? t >= gio::platform::wave_size : false) return;
  for (unsigned part = 0; part < (nbi ? 2u : 1u); ++part) {  // _nbi: the same payload twice, two ADDs
    const int op = nbi ? gio::SHMEM_SIGNAL_ADD : gio::SHMEM_SIGNAL_SET;
    const std::uint64_t v = signal_value(F, part);
    if constexpr (F == 0) Ops::put_signal(c, d, s, n, sig, v, op, peer);
    else if constexpr (F == 1) Ops::put_signal_wave(c, d, s, n, sig, v, op, peer);
    else if constexpr (F == 2) Ops::put_signal_wg(c, d, s, n, sig, v, op, peer);
    else if constexpr (F == 3) Ops::put_signal_nbi(c, d, s, n, sig, v, op, peer);
    else if constexpr (F == 4) Ops::put_signal_nbi_wave(c, d, s, n, sig, v, op, peer);
    else Ops::put_signal_nbi_wg(c, d, s, n, sig, v, op, peer);
  }
  if (nbi && t == 0) gio::shmem_quiet(c);
}

// Waits for the six signals the peer sent and records what the waits and fetches returned.
static __global__ void receive_signals_kernel(gio::device_handle h, std::uint64_t* sigs, std::uint64_t* seen) {
  const gio::ctx c = gio::ctx_default(h);
  for (unsigned f = 0; f < forms; ++f) {
    seen[f] = gio::shmem_signal_wait_until(c, sigs + f, gio::SHMEM_CMP_EQ, expected_signal(f));
    seen[forms + f] = gio::shmem_signal_fetch(c, sigs + f);
  }
}

template <class Ops, class T, unsigned... F>
void launch_forms(form_layout lay, unsigned char* sym, const unsigned char* local, std::uint64_t* sigs,
                  std::integer_sequence<unsigned, F...>) {
  ((put_signal_form_kernel<Ops, T, F><<<1, form_threads>>>(run().handle, lay, sym, local, sigs, run().peer),
    gpu::finish_launch(form_name(F))), ...);
}

template <class Ops, class T> void run_signal_forms(const std::string& name) {
  form_layout lay{};
  std::vector<transfer_case> cases;
  std::size_t extent = 0;
  for (unsigned f = 0; f < forms; ++f) {
    lay.elems[f] = std::max<std::size_t>(1, form_bytes[f] / sizeof(T));
    lay.offset[f] = extent + 64;  // 64 poisoned bytes before each region
    cases.push_back({lay.offset[f], lay.offset[f], lay.elems[f] * sizeof(T)});
    extent = (lay.offset[f] + lay.elems[f] * sizeof(T) + 64 + 255) / 256 * 256;
  }
  ASSERT_LE(extent, staging_bytes);
  sym_buffer sigs(forms * sizeof(std::uint64_t));
  device_buffer seen(2 * forms * sizeof(std::uint64_t));
  gpu::fill(seen.get(), 0, seen.size());
  unsigned char* local = staging_local().get();
  unsigned char* sym = staging_sym().get();
  exchange_and_verify(name + " put_signal forms", local, sym, extent, cases, [&] {
    launch_forms<Ops, T>(lay, sym, local, sigs.get<std::uint64_t>(), std::make_integer_sequence<unsigned, forms>{});
    receive_signals_kernel<<<1, 1>>>(run().handle, sigs.get<std::uint64_t>(), seen.get<std::uint64_t>());
    gpu::finish_launch((name + " receive_signals_kernel").c_str());
  }, /*then_barrier=*/false);
  gio::shmem_barrier_all();  // the next family reuses the staging buffers
  std::uint64_t got[2 * forms];
  gpu::to_host(got, seen.get(), sizeof got);
  for (unsigned f = 0; f < forms; ++f) {
    EXPECT_EQ(got[f], expected_signal(f)) << name << " " << form_name(f) << ": shmem_signal_wait_until returned";
    EXPECT_EQ(got[forms + f], expected_signal(f)) << name << " " << form_name(f) << ": shmem_signal_fetch returned";
  }
}

struct signal_family {
  std::string name;
  void (*run)(const std::string& name);
};
inline void PrintTo(const signal_family& f, std::ostream* os) { *os << f.name; }  // gtest names a failing case by it

// The generic templates differ between types only by sizeof(T): once per element size.
template <std::size_t I> using rma_type_at = typename std::tuple_element_t<I, std::decay_t<decltype(gio::types::rma_types)>>::type;
template <std::size_t I, std::size_t... Earlier> constexpr bool first_of_its_size(std::index_sequence<Earlier...>) {
  return ((sizeof(rma_type_at<Earlier>) != sizeof(rma_type_at<I>)) && ...);
}

template <std::size_t First, std::size_t... I> void add_signal_families(std::vector<signal_family>& out, std::index_sequence<I...>) {
  auto add = [&](auto index) {
    constexpr std::size_t i = First + decltype(index)::value;
    const auto& entry = std::get<i>(gio::types::rma_types);
    using E = std::decay_t<decltype(entry)>;
    using T = typename E::type;
    out.push_back({std::string("typed_") + entry.name, &run_signal_forms<typename E::typed, T>});
    if constexpr (first_of_its_size<i>(std::make_index_sequence<i>{}))
      out.push_back({std::string("generic_") + entry.name, &run_signal_forms<generic_signal<T>, T>});
  };
  (add(std::integral_constant<std::size_t, I>{}), ...);
}

// The families of rows [First, Last) of gio::types::rma_types; each signal_shard_*.cpp
// instantiates one range, so that the many kernels compile in parallel.
template <std::size_t First, std::size_t Last> std::vector<signal_family> signal_families_of_rows() {
  std::vector<signal_family> out;
  add_signal_families<First>(out, std::make_index_sequence<Last - First>{});
  return out;
}

inline constexpr std::size_t signal_rows = std::tuple_size_v<std::decay_t<decltype(gio::types::rma_types)>>;
std::vector<signal_family> signal_shard_0();
std::vector<signal_family> signal_shard_1();
std::vector<signal_family> signal_shard_2();
std::vector<signal_family> signal_mem_family();

}  // namespace gio_test
