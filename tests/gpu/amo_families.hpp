// Templates of the atomic binding tests (amo_tests.cpp), shared by the shard files that
// instantiate them for ranges of gio::types::amo_types rows.
//
// One kernel per binding family (the typed names of a type, or the generic templates for it):
// every thread runs its own short script of atomic calls (op codes and operands made on the
// host) on a location chosen by the host, and records what each fetching call returned. Half of
// the threads target this PE, half the peer, at the same time. The host then checks the
// returned values and the final memory against a reference:
//   * random scripts on a location per thread (adjacent words): every fetched value and every
//     final value exactly (a sequential reference per thread);
//   * scenarios where every lane of a wave, or every thread of a workgroup, hammers one word:
//     increments (native and CAS-loop ones mixed: the fetched values are exactly init..init+n-1),
//     adds with atomic reads (final sum exact, each thread's reads never go back), swaps (what
//     was swapped out plus the final value is what was swapped in plus the initial value), sets
//     with reads, and OR/AND/XOR of per-thread bits.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "api_types_generated.hpp"
#include "gio/device.hpp"
#include "gio/platform/strong.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {

// Op codes: one per binding; cas_inc is an increment written as a compare_swap loop by the test.
enum amo_code : int {
  c_fetch, c_fetch_nbi, c_set, c_swap, c_swap_nbi,                                          // every type
  c_cswap, c_cswap_nbi, c_finc, c_finc_nbi, c_inc, c_fadd, c_fadd_nbi, c_add, c_cas_inc,   // standard
  c_fand, c_fand_nbi, c_and, c_for, c_for_nbi, c_or, c_fxor, c_fxor_nbi, c_xor,            // bitwise
  n_amo_codes
};
inline const char* amo_code_name(int code) {
  static const char* names[] = {"fetch", "fetch_nbi", "set", "swap", "swap_nbi", "compare_swap", "compare_swap_nbi",
                                "fetch_inc", "fetch_inc_nbi", "inc", "fetch_add", "fetch_add_nbi", "add",
                                "compare_swap loop increment", "fetch_and", "fetch_and_nbi", "and", "fetch_or",
                                "fetch_or_nbi", "or", "fetch_xor", "fetch_xor_nbi", "xor"};
  return code >= 0 && code < n_amo_codes ? names[code] : "?";
}
inline bool amo_code_fetches(int code) {
  return !(code == c_set || code == c_inc || code == c_add || code == c_and || code == c_or || code == c_xor);
}

// The generic templates under the member names of gio::types::amo_<name>, with its flags.
template <class T, class Typed> struct generic_amo {
  static constexpr bool standard = Typed::standard, bitwise = Typed::bitwise;
  using C = gio::ctx;
  static GIO_DEVICE T fetch(const C& c, const T* s, int pe) { return gio::shmem_atomic_fetch(c, s, pe); }
  static GIO_DEVICE void fetch_nbi(const C& c, T* f, const T* s, int pe) { gio::shmem_atomic_fetch_nbi(c, f, s, pe); }
  static GIO_DEVICE void set(const C& c, T* d, T v, int pe) { gio::shmem_atomic_set(c, d, v, pe); }
  static GIO_DEVICE T swap(const C& c, T* d, T v, int pe) { return gio::shmem_atomic_swap(c, d, v, pe); }
  static GIO_DEVICE void swap_nbi(const C& c, T* f, T* d, T v, int pe) { gio::shmem_atomic_swap_nbi(c, f, d, v, pe); }
  static GIO_DEVICE T compare_swap(const C& c, T* d, T cond, T v, int pe) { return gio::shmem_atomic_compare_swap(c, d, cond, v, pe); }
  static GIO_DEVICE void compare_swap_nbi(const C& c, T* f, T* d, T cond, T v, int pe) { gio::shmem_atomic_compare_swap_nbi(c, f, d, cond, v, pe); }
  static GIO_DEVICE T fetch_inc(const C& c, T* d, int pe) { return gio::shmem_atomic_fetch_inc(c, d, pe); }
  static GIO_DEVICE void fetch_inc_nbi(const C& c, T* f, T* d, int pe) { gio::shmem_atomic_fetch_inc_nbi(c, f, d, pe); }
  static GIO_DEVICE void inc(const C& c, T* d, int pe) { gio::shmem_atomic_inc(c, d, pe); }
  static GIO_DEVICE T fetch_add(const C& c, T* d, T v, int pe) { return gio::shmem_atomic_fetch_add(c, d, v, pe); }
  static GIO_DEVICE void fetch_add_nbi(const C& c, T* f, T* d, T v, int pe) { gio::shmem_atomic_fetch_add_nbi(c, f, d, v, pe); }
  static GIO_DEVICE void add(const C& c, T* d, T v, int pe) { gio::shmem_atomic_add(c, d, v, pe); }
  static GIO_DEVICE T fetch_and(const C& c, T* d, T v, int pe) { return gio::shmem_atomic_fetch_and(c, d, v, pe); }
  static GIO_DEVICE void fetch_and_nbi(const C& c, T* f, T* d, T v, int pe) { gio::shmem_atomic_fetch_and_nbi(c, f, d, v, pe); }
  static GIO_DEVICE void and_(const C& c, T* d, T v, int pe) { gio::shmem_atomic_and(c, d, v, pe); }
  static GIO_DEVICE T fetch_or(const C& c, T* d, T v, int pe) { return gio::shmem_atomic_fetch_or(c, d, v, pe); }
  static GIO_DEVICE void fetch_or_nbi(const C& c, T* f, T* d, T v, int pe) { gio::shmem_atomic_fetch_or_nbi(c, f, d, v, pe); }
  static GIO_DEVICE void or_(const C& c, T* d, T v, int pe) { gio::shmem_atomic_or(c, d, v, pe); }
  static GIO_DEVICE T fetch_xor(const C& c, T* d, T v, int pe) { return gio::shmem_atomic_fetch_xor(c, d, v, pe); }
  static GIO_DEVICE void fetch_xor_nbi(const C& c, T* f, T* d, T v, int pe) { gio::shmem_atomic_fetch_xor_nbi(c, f, d, v, pe); }
  static GIO_DEVICE void xor_(const C& c, T* d, T v, int pe) { gio::shmem_atomic_xor(c, d, v, pe); }
};

// An increment by compare_swap: retries while other threads win. Every failure means another
// increment succeeded, so `limit` failures (more than every increment of the test) is an error.
template <class Ops, class T>
GIO_DEVICE bool cas_increment(const gio::ctx& c, T* dest, int pe, T* out, unsigned limit) {
  T expected = Ops::fetch(c, dest, pe);
  for (unsigned failures = 0; failures <= limit; ++failures) {
    const T seen = Ops::compare_swap(c, dest, expected, static_cast<T>(expected + T(1)), pe);
    if (seen == expected) {
      *out = expected;
      return true;
    }
    expected = seen;
  }
  return false;
}

// One scripted call. Fetching calls store the old value at *out (the _nbi forms through their
// `fetch` argument, complete at the kernel's quiet).
template <class Ops, class T>
GIO_DEVICE bool amo_step(const gio::ctx& c, int code, T* dest, T a, T b, int pe, T* out, unsigned cas_limit) {
  switch (code) {
    case c_fetch: *out = Ops::fetch(c, dest, pe); return true;
    case c_fetch_nbi: Ops::fetch_nbi(c, out, dest, pe); return true;
    case c_set: Ops::set(c, dest, a, pe); return true;
    case c_swap: *out = Ops::swap(c, dest, a, pe); return true;
    case c_swap_nbi: Ops::swap_nbi(c, out, dest, a, pe); return true;
    default: break;
  }
  if constexpr (Ops::standard) {
    switch (code) {
      case c_cswap: *out = Ops::compare_swap(c, dest, b, a, pe); return true;
      case c_cswap_nbi: Ops::compare_swap_nbi(c, out, dest, b, a, pe); return true;
      case c_finc: *out = Ops::fetch_inc(c, dest, pe); return true;
      case c_finc_nbi: Ops::fetch_inc_nbi(c, out, dest, pe); return true;
      case c_inc: Ops::inc(c, dest, pe); return true;
      case c_fadd: *out = Ops::fetch_add(c, dest, a, pe); return true;
      case c_fadd_nbi: Ops::fetch_add_nbi(c, out, dest, a, pe); return true;
      case c_add: Ops::add(c, dest, a, pe); return true;
      case c_cas_inc: return cas_increment<Ops>(c, dest, pe, out, cas_limit);
      default: break;
    }
  }
  if constexpr (Ops::bitwise) {
    switch (code) {
      case c_fand: *out = Ops::fetch_and(c, dest, a, pe); return true;
      case c_fand_nbi: Ops::fetch_and_nbi(c, out, dest, a, pe); return true;
      case c_and: Ops::and_(c, dest, a, pe); return true;
      case c_for: *out = Ops::fetch_or(c, dest, a, pe); return true;
      case c_for_nbi: Ops::fetch_or_nbi(c, out, dest, a, pe); return true;
      case c_or: Ops::or_(c, dest, a, pe); return true;
      case c_fxor: *out = Ops::fetch_xor(c, dest, a, pe); return true;
      case c_fxor_nbi: Ops::fetch_xor_nbi(c, out, dest, a, pe); return true;
      case c_xor: Ops::xor_(c, dest, a, pe); return true;
      default: break;
    }
  }
  return false;  // a code this type does not have: counted as an error
}

constexpr unsigned amo_threads = 256;     // per workgroup
constexpr unsigned amo_half_wgs = 4;      // workgroups per target (this PE, the peer)
constexpr unsigned amo_half_threads = amo_threads * amo_half_wgs;
constexpr unsigned amo_locations = amo_half_threads;  // words per (source PE, target) region
constexpr unsigned amo_max_steps = 16;

// Thread t of half h (h = 0: this PE, 1: the peer) runs steps [t * steps, (t + 1) * steps) of its
// half's arrays on word loc[t] of region (my_pe, h), which lies at the same offset on every PE.
template <class Ops, class T>
__global__ void __launch_bounds__(amo_threads) amo_threads_kernel(gio::device_handle h, T* sym, int peer, unsigned steps,
                                                                  const int* codes, const T* a, const T* b,
                                                                  const unsigned* loc, T* out, std::uint32_t* errors,
                                                                  unsigned cas_limit) {
  const gio::ctx c = gio::ctx_default(h);
  const unsigned wg = gio::platform::wg_id();
  const unsigned half = wg / amo_half_wgs;
  const unsigned t = (wg % amo_half_wgs) * amo_threads + gio::platform::thread_in_wg();
  const unsigned g = half * amo_half_threads + t;  // index into the per-thread arrays
  const int me = gio::shmem_my_pe(c);
  const int pe = half == 0 ? me : peer;
  T* dest = sym + (std::size_t(me) * 2 + half) * amo_locations + loc[g];
  std::uint32_t bad = 0;
  for (unsigned k = 0; k < steps; ++k) {
    const std::size_t i = std::size_t(g) * steps + k;
    if (!amo_step<Ops>(c, codes[i], dest, a[i], b[i], pe, out + i, cas_limit)) ++bad;
  }
  gio::shmem_quiet(c);  // completes the _nbi calls' fetches
  errors[g] = bad;
}

// ---- Host side: values, scenarios, the reference ----------------------------------------------
template <class T> using amo_bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
template <class T> amo_bits_t<T> bits_of(T v) {
  amo_bits_t<T> u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}
template <class T> T from_bits(amo_bits_t<T> u) {
  T v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}
template <class T> bool same_bits(T x, T y) { return bits_of(x) == bits_of(y); }
template <class T> std::string show(T v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<T>) s << v << " (bits 0x" << std::hex << bits_of(v) << ")";
  else s << +v;
  return s.str();
}

// Wrapping arithmetic without signed overflow on the host.
template <class T> T wrap_add(T x, T y) {
  using U = amo_bits_t<T>;
  return from_bits<T>(static_cast<U>(bits_of(x) + bits_of(y)));
}

// The reference: applies `code` to `mem`, returns the old value.
template <class T> T reference_step(int code, T& mem, T a, T b) {
  const T old = mem;
  switch (code) {
    case c_set: case c_swap: case c_swap_nbi: mem = a; break;
    case c_cswap: case c_cswap_nbi: if (same_bits(mem, b)) mem = a; break;
    case c_finc: case c_finc_nbi: case c_inc: case c_cas_inc: mem = wrap_add(mem, T(1)); break;
    case c_fadd: case c_fadd_nbi: case c_add: mem = wrap_add(mem, a); break;
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (code) {
      case c_fand: case c_fand_nbi: case c_and: mem = static_cast<T>(mem & a); break;
      case c_for: case c_for_nbi: case c_or: mem = static_cast<T>(mem | a); break;
      case c_fxor: case c_fxor_nbi: case c_xor: mem = static_cast<T>(mem ^ a); break;
      default: break;
    }
  }
  return old;
}

// Operands. Signed types stay far from overflow (OpenSHMEM leaves signed overflow undefined);
// unsigned ones use the full range (wrapping is defined). Floating point: every bit pattern,
// special values (signed zeros, infinities, NaNs with payloads, denormals) included, since
// fetch/set/swap must move bits exactly.
template <class T> T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = amo_bits_t<T>;
    const T specials[] = {T(0), -T(0), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                          std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::denorm_min(),
                          std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), T(1) / T(3)};
    const std::uint64_t r = rng();
    if (r % 4 == 0) return specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
    if (r % 4 == 1) return from_bits<T>(static_cast<U>(~U(0) ^ U(r >> 16)));  // NaNs with payloads, -NaN
    return from_bits<T>(static_cast<U>(rng()));
  } else if constexpr (std::is_signed_v<T>) {
    const std::int64_t span = std::int64_t(1) << (8 * sizeof(T) - 9);
    return static_cast<T>(static_cast<std::int64_t>(rng() % std::uint64_t(2 * span + 1)) - span);
  } else {
    return static_cast<T>(rng());
  }
}
template <class T> T random_bits_operand(std::mt19937_64& rng) {
  if constexpr (std::is_signed_v<T>) return static_cast<T>(rng() % (std::uint64_t(1) << (8 * sizeof(T) - 9)));
  else return static_cast<T>(rng());
}

template <class Flags> std::vector<int> codes_of() {
  std::vector<int> out{c_fetch, c_fetch_nbi, c_set, c_swap, c_swap_nbi};
  if constexpr (Flags::standard)
    for (int k : {c_cswap, c_cswap_nbi, c_finc, c_finc_nbi, c_inc, c_fadd, c_fadd_nbi, c_add, c_cas_inc}) out.push_back(k);
  if constexpr (Flags::bitwise)
    for (int k : {c_fand, c_fand_nbi, c_and, c_for, c_for_nbi, c_or, c_fxor, c_fxor_nbi, c_xor}) out.push_back(k);
  return out;
}

enum class amo_scenario { random_scripts, increments, adds_and_reads, swaps, sets_and_reads, or_bits, and_bits, xor_bits };
inline const char* scenario_name(amo_scenario s) {
  switch (s) {
    case amo_scenario::random_scripts: return "random scripts, a word per thread";
    case amo_scenario::increments: return "increments of one word";
    case amo_scenario::adds_and_reads: return "adds and atomic reads of one word";
    case amo_scenario::swaps: return "swaps on one word";
    case amo_scenario::sets_and_reads: return "sets and atomic reads of one word";
    case amo_scenario::or_bits: return "OR of per-thread bits into one word";
    case amo_scenario::and_bits: return "AND clearing per-thread bits of one word";
    default: return "XOR of per-thread bits into one word";
  }
}

// The work of one half (one target) in one launch.
template <class T> struct amo_half_plan {
  std::vector<int> codes;
  std::vector<T> a, b;
  std::vector<unsigned> loc;  // per thread
  std::vector<T> init;        // per location: the word's value before the launch
};

// Builds the plan of one half: `group` threads share each word (1: a word per thread).
template <class T, class Flags>
amo_half_plan<T> make_amo_plan(amo_scenario s, unsigned group, unsigned steps, std::uint64_t key) {
  std::mt19937_64 rng(key);
  amo_half_plan<T> p;
  const std::size_t n = std::size_t(amo_half_threads) * steps;
  p.codes.resize(n);
  p.a.assign(n, T{});
  p.b.assign(n, T{});
  p.loc.resize(amo_half_threads);
  p.init.resize(amo_locations);
  for (auto& v : p.init) v = random_value<T>(rng);
  for (unsigned t = 0; t < amo_half_threads; ++t) p.loc[t] = t / group;
  constexpr unsigned nbits = 8 * sizeof(T);
  const std::vector<int> all = codes_of<Flags>();
  auto pick = [&](std::initializer_list<int> from, std::size_t i) { return *(from.begin() + (i % from.size())); };
  for (unsigned t = 0; t < amo_half_threads; ++t) {
    T sim = p.init[p.loc[t]];  // random scripts: each thread owns its word
    const unsigned in_group = t % group;
    for (unsigned k = 0; k < steps; ++k) {
      const std::size_t i = std::size_t(t) * steps + k;
      int& code = p.codes[i];
      T& a = p.a[i];
      T& b = p.b[i];
      switch (s) {
        case amo_scenario::random_scripts:
          code = all[rng() % all.size()];
          if (code >= c_fand) a = random_bits_operand<T>(rng);
          else a = random_value<T>(rng);
          b = rng() % 2 ? sim : random_value<T>(rng);  // compare_swap hits about half the time
          reference_step(code, sim, a, b);
          break;
        case amo_scenario::increments:
          code = pick({c_fadd, c_finc, c_cas_inc, c_fadd_nbi, c_finc_nbi}, t + k);
          a = T(1);
          break;
        case amo_scenario::adds_and_reads:
          code = pick({c_add, c_fetch, c_inc, c_fetch_nbi}, t + k);
          a = static_cast<T>(1 + rng() % 1000);
          break;
        case amo_scenario::swaps:
          code = pick({c_swap, c_swap_nbi}, t + k);
          break;  // values below: distinct
        case amo_scenario::sets_and_reads:
          code = pick({c_set, c_fetch, c_fetch_nbi}, t + k);
          break;
        case amo_scenario::or_bits:
        case amo_scenario::and_bits:
        case amo_scenario::xor_bits: {
          if constexpr (std::is_integral_v<T>) {
            const int base = s == amo_scenario::or_bits ? c_for : s == amo_scenario::and_bits ? c_fand : c_fxor;
            code = base + static_cast<int>((t + k) % 3);  // fetch_<op>, fetch_<op>_nbi, <op>
            const T bit = static_cast<T>(T(1) << ((in_group * steps + k) % nbits));
            a = s == amo_scenario::and_bits ? static_cast<T>(~bit) : bit;
          }
          break;
        }
      }
    }
  }
  if (s == amo_scenario::swaps || s == amo_scenario::sets_and_reads) {
    // Distinct values, all different from every initial value (so where a value came from is known).
    using U = amo_bits_t<T>;
    const U base = static_cast<U>(rng()) & ~U(0xFFFFF);
    for (std::size_t i = 0; i < n; ++i) p.a[i] = from_bits<T>(static_cast<U>(base + 1 + i));
    for (std::size_t w = 0; w < p.init.size(); ++w) p.init[w] = from_bits<T>(static_cast<U>(base + 0x100000 + w));
  }
  if (s == amo_scenario::increments || s == amo_scenario::adds_and_reads) {
    if constexpr (std::is_integral_v<T>)
      for (auto& v : p.init) v = static_cast<T>(rng() % 1000);  // far from overflow
  }
  if constexpr (std::is_integral_v<T>) {
    const bool unique_bits = std::size_t(group) * steps <= nbits;
    if (unique_bits && (s == amo_scenario::or_bits || s == amo_scenario::and_bits)) {
      // Each thread's bits start cleared (OR) or set (AND), so its fetched value shows whether
      // its own update was already there.
      T used = 0;
      for (unsigned j = 0; j < group * steps; ++j) used = static_cast<T>(used | (T(1) << j));
      for (auto& v : p.init) v = s == amo_scenario::or_bits ? static_cast<T>(v & ~used) : static_cast<T>(v | used);
    }
  }
  return p;
}

// Checks one half after the launch: `out` the fetched values, `mem` the region's words.
template <class T>
void check_amo_half(const std::string& what, amo_scenario s, unsigned group, unsigned steps, const amo_half_plan<T>& p,
                    const T* out, const T* mem, const std::uint32_t* errors) {
  std::ostringstream fail;
  int failures = 0;
  auto report = [&](const std::string& msg) {
    if (++failures <= 10) fail << "\n  " << msg;
  };
  for (unsigned t = 0; t < amo_half_threads; ++t)
    if (errors[t] != 0) report("thread " + std::to_string(t) + ": " + std::to_string(errors[t]) +
                               " call(s) failed (unknown code, or a compare_swap loop that never won)");
  const unsigned groups = amo_half_threads / group;
  std::vector<bool> used(amo_locations, false);
  constexpr unsigned nbits = 8 * sizeof(T);
  const bool unique_bits = std::size_t(group) * steps <= nbits;
  for (unsigned g = 0; g < groups; ++g) {
    const unsigned word = p.loc[g * group];
    used[word] = true;
    const T init = p.init[word];
    const T final_value = mem[word];
    auto at = [&](unsigned t, unsigned k) { return std::size_t(g * group + t) * steps + k; };
    const std::string where = "word " + std::to_string(word);
    switch (s) {
      case amo_scenario::random_scripts: {
        T sim = init;
        for (unsigned k = 0; k < steps; ++k) {
          const std::size_t i = at(0, k);
          const T old = reference_step(p.codes[i], sim, p.a[i], p.b[i]);
          if (amo_code_fetches(p.codes[i]) && !same_bits(out[i], old))
            report(where + " step " + std::to_string(k) + " " + amo_code_name(p.codes[i]) + "(" + show(p.a[i]) +
                   (p.codes[i] == c_cswap || p.codes[i] == c_cswap_nbi ? ", cond " + show(p.b[i]) : std::string()) +
                   "): fetched " + show(out[i]) + ", expected " + show(old));
        }
        if (!same_bits(final_value, sim)) report(where + ": final " + show(final_value) + ", expected " + show(sim));
        break;
      }
      case amo_scenario::increments: {
        if constexpr (std::is_integral_v<T>) {
          std::vector<T> got;
          for (unsigned t = 0; t < group; ++t)
            for (unsigned k = 0; k < steps; ++k) got.push_back(out[at(t, k)]);
          std::sort(got.begin(), got.end());
          for (std::size_t j = 0; j < got.size(); ++j)
            if (got[j] != static_cast<T>(init + T(j))) {
              report(where + ": the fetched values are not init.." + "init+" + std::to_string(got.size() - 1) +
                     " once each: sorted value " + std::to_string(j) + " is " + show(got[j]) + ", expected " +
                     show(static_cast<T>(init + T(j))));
              break;
            }
          const T expected = static_cast<T>(init + T(group * steps));
          if (final_value != expected) report(where + ": final " + show(final_value) + ", expected " + show(expected));
        }
        break;
      }
      case amo_scenario::adds_and_reads: {
        if constexpr (std::is_integral_v<T>) {
          T expected = init;
          for (unsigned t = 0; t < group; ++t)
            for (unsigned k = 0; k < steps; ++k) {
              const std::size_t i = at(t, k);
              if (p.codes[i] == c_add) expected = static_cast<T>(expected + p.a[i]);
              if (p.codes[i] == c_inc) expected = static_cast<T>(expected + T(1));
            }
          if (final_value != expected) report(where + ": final " + show(final_value) + ", expected " + show(expected));
          for (unsigned t = 0; t < group; ++t) {
            T last = init;
            for (unsigned k = 0; k < steps; ++k) {
              const std::size_t i = at(t, k);
              if (!amo_code_fetches(p.codes[i])) continue;
              if (out[i] < last || out[i] > expected)
                report(where + " thread " + std::to_string(t) + " step " + std::to_string(k) + ": read " + show(out[i]) +
                       " after reading " + show(last) + " (reads of a growing word went back, or past the final " +
                       show(expected) + ")");
              last = out[i];
            }
          }
        }
        break;
      }
      case amo_scenario::swaps: {
        std::vector<amo_bits_t<T>> in{bits_of(init)}, outv{bits_of(final_value)};
        for (unsigned t = 0; t < group; ++t)
          for (unsigned k = 0; k < steps; ++k) {
            in.push_back(bits_of(p.a[at(t, k)]));
            outv.push_back(bits_of(out[at(t, k)]));
          }
        std::sort(in.begin(), in.end());
        std::sort(outv.begin(), outv.end());
        if (in != outv)
          report(where + ": the values swapped out plus the final value are not the values swapped in plus the "
                         "initial value (a lost or duplicated swap)");
        break;
      }
      case amo_scenario::sets_and_reads: {
        std::vector<amo_bits_t<T>> written{bits_of(init)};
        for (unsigned t = 0; t < group; ++t)
          for (unsigned k = 0; k < steps; ++k)
            if (p.codes[at(t, k)] == c_set) written.push_back(bits_of(p.a[at(t, k)]));
        std::sort(written.begin(), written.end());
        auto was_written = [&](T v) { return std::binary_search(written.begin(), written.end(), bits_of(v)); };
        if (!was_written(final_value) || (written.size() > 1 && same_bits(final_value, init)))
          report(where + ": final " + show(final_value) + " is not a value some thread set");
        for (unsigned t = 0; t < group; ++t) {
          bool has_set = false;
          for (unsigned k = 0; k < steps; ++k) {
            const std::size_t i = at(t, k);
            if (p.codes[i] == c_set) has_set = true;
            if (!amo_code_fetches(p.codes[i])) continue;
            if (!was_written(out[i])) report(where + ": read " + show(out[i]) + ", a value nobody wrote (torn?)");
            else if (has_set && same_bits(out[i], init))
              report(where + " thread " + std::to_string(t) + ": read the initial value after its own set");
          }
        }
        break;
      }
      case amo_scenario::or_bits:
      case amo_scenario::and_bits:
      case amo_scenario::xor_bits: {
        if constexpr (std::is_integral_v<T>) {
          T expected = init;
          std::vector<T> fetched;
          for (unsigned t = 0; t < group; ++t)
            for (unsigned k = 0; k < steps; ++k) {
              const std::size_t i = at(t, k);
              reference_step(p.codes[i], expected, p.a[i], p.b[i]);  // OR/AND/XOR commute
              if (!amo_code_fetches(p.codes[i])) continue;
              fetched.push_back(out[i]);
              if (!unique_bits) continue;
              const T bit = s == amo_scenario::and_bits ? static_cast<T>(~p.a[i]) : p.a[i];
              const bool own_bit_now = (out[i] & bit) != 0, own_bit_before = (init & bit) != 0;
              if (own_bit_now != own_bit_before)
                report(where + " thread " + std::to_string(t) + ": fetched " + show(out[i]) +
                       " already shows its own update of bit mask " + show(bit));
            }
          if (final_value != expected) report(where + ": final " + show(final_value) + ", expected " + show(expected));
          if (unique_bits) {
            std::sort(fetched.begin(), fetched.end());
            if (std::adjacent_find(fetched.begin(), fetched.end()) != fetched.end())
              report(where + ": two fetching calls returned the same value (each changes a different bit)");
          }
        }
        break;
      }
    }
  }
  for (unsigned w = 0; w < amo_locations; ++w)
    if (!used[w] && !same_bits(mem[w], p.init[w]))
      report("word " + std::to_string(w) + ", which no call targets, changed from " + show(p.init[w]) + " to " + show(mem[w]));
  EXPECT_EQ(failures, 0) << what << " (" << scenario_name(s) << ", " << group << " thread(s) per word, " << steps
                         << " calls each; PE " << run().my_pe << ", seed 0x" << std::hex << run().seed << std::dec
                         << "):" << fail.str();
}

// One launch: both halves (this PE, the peer) of scenario `s`, then the checks.
template <class Ops, class T>
void run_amo_scenario(const std::string& family, amo_scenario s, unsigned group, unsigned steps) {
  const run_info& r = run();
  const std::uint64_t key = mix(mix(r.seed, hash(family)), static_cast<std::uint64_t>(s) * 1000 + group);
  // Every PE builds every PE's plans (the same keys), to initialise the regions it holds.
  auto plan_of = [&](int source_pe, unsigned half) {
    return make_amo_plan<T, Ops>(s, group, steps, mix(key, std::uint64_t(source_pe) * 2 + half));
  };
  T* sym = staging_sym().get<T>();
  const std::size_t region = amo_locations;
  std::vector<T> mine(std::size_t(r.n_pes) * 2 * region);
  ASSERT_LE(mine.size() * sizeof(T), staging_bytes);
  for (int pe = 0; pe < r.n_pes; ++pe)
    for (unsigned h = 0; h < 2; ++h) {
      const auto p = plan_of(pe, h);
      std::copy(p.init.begin(), p.init.end(), mine.begin() + (std::size_t(pe) * 2 + h) * region);
    }
  gpu::to_device(sym, mine.data(), mine.size() * sizeof(T));

  const amo_half_plan<T> halves[2] = {plan_of(r.my_pe, 0), plan_of(r.my_pe, 1)};
  const std::size_t n = std::size_t(amo_half_threads) * steps;
  std::vector<int> codes(2 * n);
  std::vector<T> a(2 * n), b(2 * n);
  std::vector<unsigned> loc(2 * amo_half_threads);
  for (unsigned h = 0; h < 2; ++h) {
    std::copy(halves[h].codes.begin(), halves[h].codes.end(), codes.begin() + h * n);
    std::copy(halves[h].a.begin(), halves[h].a.end(), a.begin() + h * n);
    std::copy(halves[h].b.begin(), halves[h].b.end(), b.begin() + h * n);
    std::copy(halves[h].loc.begin(), halves[h].loc.end(), loc.begin() + h * amo_half_threads);
  }
  device_buffer d_codes(codes.size() * sizeof(int)), d_a(a.size() * sizeof(T)), d_b(b.size() * sizeof(T)),
      d_loc(loc.size() * sizeof(unsigned)), d_out(2 * n * sizeof(T)), d_err(2 * amo_half_threads * sizeof(std::uint32_t));
  gpu::to_device(d_codes.get(), codes.data(), d_codes.size());
  gpu::to_device(d_a.get(), a.data(), d_a.size());
  gpu::to_device(d_b.get(), b.data(), d_b.size());
  gpu::to_device(d_loc.get(), loc.data(), d_loc.size());
  gpu::fill(d_out.get(), 0x5A, d_out.size());
  gpu::fill(d_err.get(), 0xFF, d_err.size());
  const unsigned cas_limit = 4 * amo_half_threads * steps + 1000;
  gio::shmem_barrier_all();  // every region is initialised before anyone's atomics land in it
  amo_threads_kernel<Ops, T><<<2 * amo_half_wgs, amo_threads>>>(r.handle, sym, r.peer, steps, d_codes.get<int>(), d_a.get<T>(),
                                                                d_b.get<T>(), d_loc.get<unsigned>(), d_out.get<T>(),
                                                                d_err.get<std::uint32_t>(), cas_limit);
  gpu::finish_launch((family + " amo_threads_kernel").c_str());
  gio::shmem_barrier_all();  // the peer's atomics into this PE's memory are done

  std::vector<T> out(2 * n), self_mem(region), peer_mem(region);
  std::vector<std::uint32_t> errors(2 * amo_half_threads);
  gpu::to_host(out.data(), d_out.get(), d_out.size());
  gpu::to_host(errors.data(), d_err.get(), d_err.size());
  gpu::to_host(self_mem.data(), sym + (std::size_t(r.my_pe) * 2 + 0) * region, region * sizeof(T));
  device_buffer staging(region * sizeof(T));
  gio::shmem_getmem(staging.get(), sym + (std::size_t(r.my_pe) * 2 + 1) * region, region * sizeof(T), r.peer);
  gpu::to_host(peer_mem.data(), staging.get(), region * sizeof(T));
  gio::shmem_barrier_all();  // the next scenario reinitialises the regions only after every PE read them
  check_amo_half(family + " on this PE", s, group, steps, halves[0], out.data(), self_mem.data(), errors.data());
  check_amo_half(family + " on the peer PE " + std::to_string(r.peer), s, group, steps, halves[1], out.data() + n,
                 peer_mem.data(), errors.data() + amo_half_threads);
}

template <class Ops, class T> void run_amo_family(const std::string& family) {
  run_amo_scenario<Ops, T>(family, amo_scenario::random_scripts, 1, amo_max_steps);
  const unsigned wave = gio::platform::wave_size;
  for (unsigned group : {wave, amo_threads}) {
    std::vector<amo_scenario> list{amo_scenario::swaps, amo_scenario::sets_and_reads};
    if constexpr (Ops::standard) {
      list.push_back(amo_scenario::increments);
      list.push_back(amo_scenario::adds_and_reads);
    }
    if constexpr (Ops::bitwise) {
      list.push_back(amo_scenario::or_bits);
      list.push_back(amo_scenario::and_bits);
      list.push_back(amo_scenario::xor_bits);
    }
    for (amo_scenario s : list) {
      const bool bits = s == amo_scenario::or_bits || s == amo_scenario::and_bits || s == amo_scenario::xor_bits;
      run_amo_scenario<Ops, T>(family, s, group, bits ? 1 : 4);
    }
  }
}

// ---- One parameterised test per binding family --------------------------------------------------
struct amo_family {
  std::string name;  // "typed_int", "generic_int"
  void (*run)(const std::string& name);
};
inline void PrintTo(const amo_family& f, std::ostream* os) { *os << f.name; }  // gtest names a failing case by it

template <std::size_t First, std::size_t... I> void add_amo_families(std::vector<amo_family>& out, std::index_sequence<I...>) {
  auto add = [&](auto index) {
    const auto& entry = std::get<First + decltype(index)::value>(gio::types::amo_types);
    using E = std::decay_t<decltype(entry)>;
    using T = typename E::type;
    using Typed = typename E::typed;
    out.push_back({std::string("typed_") + entry.name, &run_amo_family<Typed, T>});
    out.push_back({std::string("generic_") + entry.name, &run_amo_family<generic_amo<T, Typed>, T>});
  };
  (add(std::integral_constant<std::size_t, I>{}), ...);
}

template <std::size_t First, std::size_t Last> std::vector<amo_family> amo_families_of_rows() {
  std::vector<amo_family> out;
  add_amo_families<First>(out, std::make_index_sequence<Last - First>{});
  return out;
}

inline constexpr std::size_t amo_rows = std::tuple_size_v<std::decay_t<decltype(gio::types::amo_types)>>;
std::vector<amo_family> amo_shard_0();
std::vector<amo_family> amo_shard_1();

}  // namespace gio_test
