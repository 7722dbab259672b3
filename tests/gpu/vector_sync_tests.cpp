// The vector forms of point-to-point synchronisation (OpenSHMEM 1.5 §9.10):
// shmem_<type>_{wait_until,test}_{all,any,some}_vector and the generic templates, where element
// i is compared with values[i]. For every comparison operator the per-element values make a
// known subset of the elements satisfied, and every form is checked against that subset with
// and without status masks (any non-zero status excludes), with every element excluded and with
// no elements; then waits that the peer's writes satisfy, which must also make the data the peer
// wrote before them visible (acquire). For the generic templates and every typed name of
// gio::types::sync_types.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "api_types_generated.hpp"
#include "gio/device.hpp"
#include "gio/platform/strong.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

template <class T> struct generic_vector_sync {
  using C = gio::ctx;
  using Z = std::size_t;
  static GIO_DEVICE void wait_until_all_vector(const C& c, T* iv, Z n, const int* st, int cmp, const T* v) { gio::shmem_wait_until_all_vector(c, iv, n, st, cmp, v); }
  static GIO_DEVICE Z wait_until_any_vector(const C& c, T* iv, Z n, const int* st, int cmp, const T* v) { return gio::shmem_wait_until_any_vector(c, iv, n, st, cmp, v); }
  static GIO_DEVICE Z wait_until_some_vector(const C& c, T* iv, Z n, Z* idx, const int* st, int cmp, const T* v) { return gio::shmem_wait_until_some_vector(c, iv, n, idx, st, cmp, v); }
  static GIO_DEVICE int test_all_vector(const C& c, T* iv, Z n, const int* st, int cmp, const T* v) { return gio::shmem_test_all_vector(c, iv, n, st, cmp, v); }
  static GIO_DEVICE Z test_any_vector(const C& c, T* iv, Z n, const int* st, int cmp, const T* v) { return gio::shmem_test_any_vector(c, iv, n, st, cmp, v); }
  static GIO_DEVICE Z test_some_vector(const C& c, T* iv, Z n, Z* idx, const int* st, int cmp, const T* v) { return gio::shmem_test_some_vector(c, iv, n, idx, st, cmp, v); }
};

constexpr unsigned n_el = 8;
// Symmetric layout (elements of T).
constexpr std::size_t at_arr = 0;    // arr[i] = i + 2, written by the kernel itself
constexpr std::size_t at_all = 16;   // the peer writes 20 + i into every element
constexpr std::size_t at_any = 32;   // the peer writes 25 into element 5 only
constexpr std::size_t at_data = 48;  // the peer writes 100 + i here before its flags
constexpr std::size_t n_ivars = 64;

// Which elements satisfy operator `op` (bit i = element i): a different mix per operator.
GIO_HOST_DEVICE unsigned truth_mask(int op) {
  const unsigned m = 0xB2u;  // 1011 0010
  return ((m << op) | (m >> (8 - op))) & 0xFFu;
}

// values[i] for element x = i + 2 such that (x op values[i]) is `satisfied`.
template <class T> GIO_DEVICE T value_for(int op, bool satisfied, T x) {
  switch (op) {
    case gio::SHMEM_CMP_EQ: return satisfied ? x : T(x + 1);
    case gio::SHMEM_CMP_NE: return satisfied ? T(x + 1) : x;
    case gio::SHMEM_CMP_GT: return satisfied ? T(x - 1) : x;
    case gio::SHMEM_CMP_GE: return satisfied ? x : T(x + 1);
    case gio::SHMEM_CMP_LT: return satisfied ? T(x + 1) : x;
    default: return satisfied ? x : T(x - 1);  // LE
  }
}

enum per_op : int {
  all_nomask, all_unsatisfied_excluded, any_nomask, any_satisfied_excluded, some_count, some_set,
  some_lowest_excluded, wait_all_reached, wait_any, wait_some_count, wait_some_set, per_op_slots
};
enum global_slot : int {
  g_wait_any_all_excluded = 6 * per_op_slots, g_wait_some_all_excluded, g_wait_any_empty, g_wait_some_empty,
  g_test_all_all_excluded, g_test_any_empty, g_test_some_empty, g_test_all_empty,
  g_peer_all_reached, g_peer_data_wrong, g_peer_any, g_peer_some_count, g_peer_some_index, g_peer_test_all,
  n_slots
};

template <class Ops, class T>
__global__ void vector_sync_kernel(gio::device_handle h, T* ivars, long long* out, int peer) {
  const gio::ctx c = gio::ctx_default(h);
  auto as_result = [](std::size_t v) { return v == SIZE_MAX ? -1ll : static_cast<long long>(v); };
  auto index_set = [](const std::size_t* idx, std::size_t n) {
    long long s = 0;
    for (std::size_t k = 0; k < n; ++k) s |= 1ll << idx[k];
    return s;
  };

  // The peer's writes first (two PEs time-sharing a GPU never wait on each other): data, then
  // (ordered after it by the fence) the flags.
  for (unsigned i = 0; i < n_el; ++i) gio::shmem_p(c, ivars + at_data + i, T(100 + i), peer);
  gio::shmem_fence(c);
  for (unsigned i = 0; i < n_el; ++i) gio::shmem_p(c, ivars + at_all + i, T(20 + i), peer);
  gio::shmem_p(c, ivars + at_any + 5, T(25), peer);
  gio::shmem_quiet(c);

  T* arr = ivars + at_arr;
  for (unsigned i = 0; i < n_el; ++i) gio::platform::st_relaxed_sys(arr + i, T(i + 2));
  std::size_t idx[n_el];
  for (int op = 0; op < 6; ++op) {
    const unsigned m = truth_mask(op);
    T values[n_el];
    int unsatisfied_excluded[n_el], satisfied_excluded[n_el], lowest_excluded[n_el];
    bool lowest_done = false;
    for (unsigned i = 0; i < n_el; ++i) {
      const bool sat = (m >> i) & 1u;
      values[i] = value_for<T>(op, sat, T(i + 2));
      unsatisfied_excluded[i] = sat ? 0 : static_cast<int>(i) + 1;  // any non-zero status excludes
      satisfied_excluded[i] = sat ? -1 : 0;
      lowest_excluded[i] = sat && !lowest_done ? 7 : 0;
      if (sat) lowest_done = true;
    }
    long long* o = out + op * per_op_slots;
    o[all_nomask] = Ops::test_all_vector(c, arr, n_el, nullptr, op, values);
    o[all_unsatisfied_excluded] = Ops::test_all_vector(c, arr, n_el, unsatisfied_excluded, op, values);
    o[any_nomask] = as_result(Ops::test_any_vector(c, arr, n_el, nullptr, op, values));
    o[any_satisfied_excluded] = as_result(Ops::test_any_vector(c, arr, n_el, satisfied_excluded, op, values));
    const std::size_t found = Ops::test_some_vector(c, arr, n_el, idx, nullptr, op, values);
    o[some_count] = static_cast<long long>(found);
    o[some_set] = index_set(idx, found);
    o[some_lowest_excluded] = as_result(Ops::test_some_vector(c, arr, n_el, idx, lowest_excluded, op, values));
    Ops::wait_until_all_vector(c, arr, n_el, unsatisfied_excluded, op, values);
    o[wait_all_reached] = 1;
    o[wait_any] = as_result(Ops::wait_until_any_vector(c, arr, n_el, nullptr, op, values));
    const std::size_t waited = Ops::wait_until_some_vector(c, arr, n_el, idx, nullptr, op, values);
    o[wait_some_count] = static_cast<long long>(waited);
    o[wait_some_set] = index_set(idx, waited);
  }
  {
    const int every[n_el] = {1, 1, 1, 1, 1, 1, 1, 1};
    T v[n_el];
    for (unsigned i = 0; i < n_el; ++i) v[i] = T(i + 2);  // EQ: every element satisfied
    out[g_wait_any_all_excluded] = as_result(Ops::wait_until_any_vector(c, arr, n_el, every, gio::SHMEM_CMP_EQ, v));
    out[g_wait_some_all_excluded] = as_result(Ops::wait_until_some_vector(c, arr, n_el, idx, every, gio::SHMEM_CMP_EQ, v));
    out[g_wait_any_empty] = as_result(Ops::wait_until_any_vector(c, arr, 0, nullptr, gio::SHMEM_CMP_EQ, v));
    out[g_wait_some_empty] = as_result(Ops::wait_until_some_vector(c, arr, 0, idx, nullptr, gio::SHMEM_CMP_EQ, v));
    for (unsigned i = 0; i < n_el; ++i) v[i] = T(i + 3);  // EQ: no element satisfied
    out[g_test_all_all_excluded] = Ops::test_all_vector(c, arr, n_el, every, gio::SHMEM_CMP_EQ, v);
    out[g_test_any_empty] = as_result(Ops::test_any_vector(c, arr, 0, nullptr, gio::SHMEM_CMP_EQ, v));
    out[g_test_some_empty] = as_result(Ops::test_some_vector(c, arr, 0, idx, nullptr, gio::SHMEM_CMP_EQ, v));
    out[g_test_all_empty] = Ops::test_all_vector(c, arr, 0, nullptr, gio::SHMEM_CMP_EQ, v);
  }
  // Waits the peer's writes satisfy.
  T peer_values[n_el];
  for (unsigned i = 0; i < n_el; ++i) peer_values[i] = T(20 + i);
  Ops::wait_until_all_vector(c, ivars + at_all, n_el, nullptr, gio::SHMEM_CMP_EQ, peer_values);
  out[g_peer_all_reached] = 1;
  long long wrong = 0;
  for (unsigned i = 0; i < n_el; ++i)
    if (gio::platform::ld_relaxed_sys(ivars + at_data + i) != T(100 + i)) ++wrong;
  out[g_peer_data_wrong] = wrong;
  out[g_peer_any] = as_result(Ops::wait_until_any_vector(c, ivars + at_any, n_el, nullptr, gio::SHMEM_CMP_EQ, peer_values));
  const std::size_t some = Ops::wait_until_some_vector(c, ivars + at_any, n_el, idx, nullptr, gio::SHMEM_CMP_EQ, peer_values);
  out[g_peer_some_count] = static_cast<long long>(some);
  out[g_peer_some_index] = static_cast<long long>(idx[0]);
  out[g_peer_test_all] = Ops::test_all_vector(c, ivars + at_all, n_el, nullptr, gio::SHMEM_CMP_EQ, peer_values);
}

int popcount8(unsigned m) { return __builtin_popcount(m & 0xFFu); }

template <class Ops, class T> void run_vector_sync(const std::string& name) {
  T* ivars = staging_sym().get<T>();
  gpu::fill(ivars, 0, n_ivars * sizeof(T));
  device_buffer results(n_slots * sizeof(long long));
  gpu::fill(results.get(), 0xEE, results.size());
  gio::shmem_barrier_all();  // the peer writes into `ivars` only after they are cleared
  vector_sync_kernel<Ops, T><<<1, 1>>>(run().handle, ivars, results.get<long long>(), run().peer);
  gpu::finish_launch(name.c_str());
  gio::shmem_barrier_all();  // the next test reuses the staging buffer
  std::vector<long long> got(n_slots);
  gpu::to_host(got.data(), results.get(), results.size());

  static const char* ops[6] = {"EQ", "NE", "GT", "GE", "LT", "LE"};
  for (int op = 0; op < 6; ++op) {
    const unsigned m = truth_mask(op);
    const long long* o = got.data() + op * per_op_slots;
    const std::string what = name + " " + ops[op] + " (satisfied elements 0x" + [&] {
      char b[8];
      std::snprintf(b, sizeof b, "%02x", m);
      return std::string(b);
    }() + ")";
    auto satisfied = [&](long long i) { return i >= 0 && i < 8 && ((m >> i) & 1u); };
    EXPECT_EQ(o[all_nomask], 0) << what << ": test_all_vector, no mask";
    EXPECT_EQ(o[all_unsatisfied_excluded], 1) << what << ": test_all_vector, unsatisfied elements excluded";
    EXPECT_TRUE(satisfied(o[any_nomask])) << what << ": test_any_vector returned " << o[any_nomask];
    EXPECT_EQ(o[any_satisfied_excluded], -1) << what << ": test_any_vector, satisfied elements excluded: SIZE_MAX";
    EXPECT_EQ(o[some_count], popcount8(m)) << what << ": test_some_vector count";
    EXPECT_EQ(o[some_set], static_cast<long long>(m)) << what << ": test_some_vector indices (as a bit set)";
    EXPECT_EQ(o[some_lowest_excluded], popcount8(m) - 1) << what << ": test_some_vector, lowest satisfied excluded";
    EXPECT_EQ(o[wait_all_reached], 1) << what << ": wait_until_all_vector, unsatisfied elements excluded";
    EXPECT_TRUE(satisfied(o[wait_any])) << what << ": wait_until_any_vector returned " << o[wait_any];
    EXPECT_EQ(o[wait_some_count], popcount8(m)) << what << ": wait_until_some_vector count";
    EXPECT_EQ(o[wait_some_set], static_cast<long long>(m)) << what << ": wait_until_some_vector indices (as a bit set)";
  }
  EXPECT_EQ(got[g_wait_any_all_excluded], -1) << name << ": wait_until_any_vector, every element excluded: SIZE_MAX";
  EXPECT_EQ(got[g_wait_some_all_excluded], 0) << name << ": wait_until_some_vector, every element excluded";
  EXPECT_EQ(got[g_wait_any_empty], -1) << name << ": wait_until_any_vector, nelems 0: SIZE_MAX";
  EXPECT_EQ(got[g_wait_some_empty], 0) << name << ": wait_until_some_vector, nelems 0";
  EXPECT_EQ(got[g_test_all_all_excluded], 1) << name << ": test_all_vector, every element excluded";
  EXPECT_EQ(got[g_test_any_empty], -1) << name << ": test_any_vector, nelems 0: SIZE_MAX";
  EXPECT_EQ(got[g_test_some_empty], 0) << name << ": test_some_vector, nelems 0";
  EXPECT_EQ(got[g_test_all_empty], 1) << name << ": test_all_vector, nelems 0";
  EXPECT_EQ(got[g_peer_all_reached], 1) << name << ": wait_until_all_vector on the peer's writes";
  EXPECT_EQ(got[g_peer_data_wrong], 0) << name << ": data the peer wrote before its flags, read after the wait";
  EXPECT_EQ(got[g_peer_any], 5) << name << ": wait_until_any_vector on the peer's write";
  EXPECT_EQ(got[g_peer_some_count], 1) << name << ": wait_until_some_vector on the peer's write";
  EXPECT_EQ(got[g_peer_some_index], 5) << name << ": wait_until_some_vector index";
  EXPECT_EQ(got[g_peer_test_all], 1) << name << ": test_all_vector after the wait";
}

struct named_run {
  std::string name;
  void (*run)(const std::string& name);
};
void PrintTo(const named_run& r, std::ostream* os) { *os << r.name; }  // gtest names a failing case by it

std::vector<named_run> vector_families() {
  std::vector<named_run> out;
  std::apply([&](auto... entry) {
    ((out.push_back({std::string("typed_") + entry.name,
                     &run_vector_sync<typename decltype(entry)::typed, typename decltype(entry)::type>}),
      out.push_back({std::string("generic_") + entry.name,
                     &run_vector_sync<generic_vector_sync<typename decltype(entry)::type>, typename decltype(entry)::type>})),
     ...);
  }, gio::types::sync_types);
  return out;
}

class VectorSync : public ::testing::TestWithParam<named_run> {};
TEST_P(VectorSync, EveryFormOperatorAndMask) { GetParam().run(GetParam().name); }
INSTANTIATE_TEST_SUITE_P(Bindings, VectorSync, ::testing::ValuesIn(vector_families()),
                         [](const ::testing::TestParamInfo<named_run>& info) { return info.param.name; });

}  // namespace
}  // namespace gio_test
