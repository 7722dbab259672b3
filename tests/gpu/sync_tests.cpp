// Point-to-point synchronisation and the memory model on the device:
//  * wait_until / test and their _all/_any/_some forms, every comparison operator, status masks,
//    for the generic templates and every typed name of gio::types::sync_types;
//  * litmus tests over thousands of rounds (GIO_LITMUS_ROUNDS) and many workgroups, every round
//    checked on the device: message passing (put + fence/quiet + flag, at every scope), acquire
//    through every wait form, and store buffering with shmem_quiet.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "api_types_generated.hpp"
#include "device_forms.hpp"
#include "gio/device.hpp"
#include "gio/launch.hpp"
#include "gio/platform/strong.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

using gio::SHMEM_CMP_EQ;
using gio::SHMEM_CMP_GE;

// ---- wait_until / test ------------------------------------------------------------------------
// The generic templates under the member names of gio::types::sync_<name>.
template <class T> struct generic_sync {
  static GIO_DEVICE void wait_until(const gio::ctx& c, T* ivar, int cmp, T v) { gio::shmem_wait_until(c, ivar, cmp, v); }
  static GIO_DEVICE int test(const gio::ctx& c, T* ivar, int cmp, T v) { return gio::shmem_test(c, ivar, cmp, v); }
  static GIO_DEVICE void wait_until_all(const gio::ctx& c, T* ivars, std::size_t n, const int* status, int cmp, T v) { gio::shmem_wait_until_all(c, ivars, n, status, cmp, v); }
  static GIO_DEVICE std::size_t wait_until_any(const gio::ctx& c, T* ivars, std::size_t n, const int* status, int cmp, T v) { return gio::shmem_wait_until_any(c, ivars, n, status, cmp, v); }
  static GIO_DEVICE std::size_t wait_until_some(const gio::ctx& c, T* ivars, std::size_t n, std::size_t* idx, const int* status, int cmp, T v) { return gio::shmem_wait_until_some(c, ivars, n, idx, status, cmp, v); }
  static GIO_DEVICE int test_all(const gio::ctx& c, T* ivars, std::size_t n, const int* status, int cmp, T v) { return gio::shmem_test_all(c, ivars, n, status, cmp, v); }
  static GIO_DEVICE std::size_t test_any(const gio::ctx& c, T* ivars, std::size_t n, const int* status, int cmp, T v) { return gio::shmem_test_any(c, ivars, n, status, cmp, v); }
  static GIO_DEVICE std::size_t test_some(const gio::ctx& c, T* ivars, std::size_t n, std::size_t* idx, const int* status, int cmp, T v) { return gio::shmem_test_some(c, ivars, n, idx, status, cmp, v); }
};

// Layout of the symmetric ivars of one run (elements of T):
constexpr std::size_t at_single = 0;   // 1: the test() truth table
constexpr std::size_t at_array = 8;    // 8: ivars[i] = i, for the _all/_any/_some tables
constexpr std::size_t at_waited = 16;  // 6: one per operator, written by the peer
constexpr std::size_t at_any = 24;     // 8: the peer writes element 5 only
constexpr std::size_t at_all = 32;     // 8: the peer writes every element
constexpr std::size_t n_ivars = 40;

// Per operator (EQ, NE, GT, GE, LT, LE): the ivar's initial value (unsatisfied), the comparison
// value, and what the peer writes (satisfies it).
struct waited_case {
  int init, value, write;
};
GIO_HOST_DEVICE constexpr waited_case waited(int op) {
  switch (op) {
    case 0: return {0, 7, 7};
    case 1: return {7, 7, 3};
    case 2: return {2, 5, 6};
    case 3: return {2, 5, 5};
    case 4: return {9, 5, 4};
    default: return {9, 5, 5};
  }
}
// test(ivar, op, 5) with ivar = 4, 5, 6.
constexpr int truth[6][3] = {{0, 1, 0}, {1, 0, 1}, {0, 0, 1}, {0, 1, 1}, {1, 0, 0}, {1, 1, 0}};

enum result : int {  // slots of the results array, after the 18 of the truth table
  all_none = 18, all_low_excluded, all_excluded,
  any_none, any_mid_excluded, any_excluded,
  some_none, some_none_index_sum, some_one_excluded, some_excluded,
  wait_all_reached, wait_any_none, wait_any_excluded, wait_any_empty, wait_some_one_excluded, wait_some_excluded,
  waited_seen,  // 6 slots: the value each operator's wait returned on
  peer_any = waited_seen + 6, peer_some_count, peer_some_index, peer_all_reached,
  n_results
};

template <class Ops, class T>
__global__ void sync_kernel(gio::device_handle h, T* ivars, long long* out, int peer) {
  const gio::ctx c = gio::ctx_default(h);
  const int none_excluded[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const int all_excluded_mask[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const int low_excluded[8] = {1, 1, 1, 1, 0, 0, 0, 0};
  const int mid_excluded[8] = {0, 0, 0, 0, 1, 1, 1, 0};
  const int five_excluded[8] = {0, 0, 0, 0, 0, 1, 0, 0};
  std::size_t idx[8];
  auto as_result = [](std::size_t v) { return v == SIZE_MAX ? -1ll : static_cast<long long>(v); };

  // The peer's writes first, so that two PEs time-sharing one GPU never wait on each other.
  for (int op = 0; op < 6; ++op) gio::shmem_p(c, ivars + at_waited + op, T(waited(op).write), peer);
  gio::shmem_p(c, ivars + at_any + 5, T(7), peer);
  for (int i = 0; i < 8; ++i) gio::shmem_p(c, ivars + at_all + i, T(7), peer);
  gio::shmem_quiet(c);

  T* single = ivars + at_single;
  for (int op = 0; op < 6; ++op)
    for (int rel = 0; rel < 3; ++rel) {
      gio::platform::st_relaxed_sys(single, T(4 + rel));
      out[op * 3 + rel] = Ops::test(c, single, op, T(5));
    }

  T* arr = ivars + at_array;
  for (int i = 0; i < 8; ++i) gio::platform::st_relaxed_sys(arr + i, T(i));
  out[all_none] = Ops::test_all(c, arr, 8, nullptr, SHMEM_CMP_GE, T(4));
  out[all_low_excluded] = Ops::test_all(c, arr, 8, low_excluded, SHMEM_CMP_GE, T(4));
  out[all_excluded] = Ops::test_all(c, arr, 8, all_excluded_mask, SHMEM_CMP_GE, T(4));
  out[any_none] = as_result(Ops::test_any(c, arr, 8, none_excluded, SHMEM_CMP_GE, T(4)));
  out[any_mid_excluded] = as_result(Ops::test_any(c, arr, 8, mid_excluded, SHMEM_CMP_GE, T(4)));
  out[any_excluded] = as_result(Ops::test_any(c, arr, 8, all_excluded_mask, SHMEM_CMP_GE, T(4)));
  out[some_none] = as_result(Ops::test_some(c, arr, 8, idx, nullptr, SHMEM_CMP_GE, T(4)));
  out[some_none_index_sum] = static_cast<long long>(idx[0] + idx[1] + idx[2] + idx[3]);
  out[some_one_excluded] = as_result(Ops::test_some(c, arr, 8, idx, five_excluded, SHMEM_CMP_GE, T(4)));
  out[some_excluded] = as_result(Ops::test_some(c, arr, 8, idx, all_excluded_mask, SHMEM_CMP_GE, T(4)));
  Ops::wait_until_all(c, arr, 8, low_excluded, SHMEM_CMP_GE, T(4));
  out[wait_all_reached] = 1;
  out[wait_any_none] = as_result(Ops::wait_until_any(c, arr, 8, nullptr, SHMEM_CMP_GE, T(4)));
  out[wait_any_excluded] = as_result(Ops::wait_until_any(c, arr, 8, all_excluded_mask, SHMEM_CMP_GE, T(4)));
  out[wait_any_empty] = as_result(Ops::wait_until_any(c, arr, 0, nullptr, SHMEM_CMP_GE, T(4)));
  out[wait_some_one_excluded] = as_result(Ops::wait_until_some(c, arr, 8, idx, five_excluded, SHMEM_CMP_GE, T(4)));
  out[wait_some_excluded] = as_result(Ops::wait_until_some(c, arr, 8, idx, all_excluded_mask, SHMEM_CMP_GE, T(4)));

  // Waits that the peer's writes satisfy.
  for (int op = 0; op < 6; ++op) {
    Ops::wait_until(c, ivars + at_waited + op, op, T(waited(op).value));
    out[waited_seen + op] = static_cast<long long>(gio::platform::ld_relaxed_sys(ivars + at_waited + op));
  }
  out[peer_any] = as_result(Ops::wait_until_any(c, ivars + at_any, 8, nullptr, SHMEM_CMP_EQ, T(7)));
  out[peer_some_count] = as_result(Ops::wait_until_some(c, ivars + at_any, 8, idx, nullptr, SHMEM_CMP_EQ, T(7)));
  out[peer_some_index] = static_cast<long long>(idx[0]);
  Ops::wait_until_all(c, ivars + at_all, 8, nullptr, SHMEM_CMP_EQ, T(7));
  out[peer_all_reached] = 1;
}

template <class Ops, class T> void run_sync(const std::string& name) {
  static_assert(n_ivars * sizeof(T) <= staging_bytes);
  std::vector<T> init(n_ivars, T(0));
  for (int op = 0; op < 6; ++op) init[at_waited + op] = T(waited(op).init);
  T* ivars = staging_sym().get<T>();
  gpu::to_device(ivars, init.data(), init.size() * sizeof(T));
  device_buffer results(n_results * sizeof(long long));
  gpu::fill(results.get(), 0xff, results.size());
  gio::shmem_barrier_all();  // the peer writes into `ivars` only after they are initialised
  sync_kernel<Ops, T><<<1, 1>>>(run().handle, ivars, results.get<long long>(), run().peer);
  gpu::finish_launch(name.c_str());
  gio::shmem_barrier_all();  // the next test reuses the staging buffer
  std::vector<long long> got(n_results);
  gpu::to_host(got.data(), results.get(), results.size());

  static const char* ops[6] = {"EQ", "NE", "GT", "GE", "LT", "LE"};
  for (int op = 0; op < 6; ++op)
    for (int rel = 0; rel < 3; ++rel)
      EXPECT_EQ(got[op * 3 + rel], truth[op][rel]) << name << " test(" << 4 + rel << " " << ops[op] << " 5)";
  EXPECT_EQ(got[all_none], 0) << name << " test_all, no mask";
  EXPECT_EQ(got[all_low_excluded], 1) << name << " test_all, unsatisfied elements excluded";
  EXPECT_EQ(got[all_excluded], 1) << name << " test_all, every element excluded";
  EXPECT_GE(got[any_none], 4) << name << " test_any, no mask";
  EXPECT_LE(got[any_none], 7) << name << " test_any, no mask";
  EXPECT_EQ(got[any_mid_excluded], 7) << name << " test_any, 4..6 excluded";
  EXPECT_EQ(got[any_excluded], -1) << name << " test_any, every element excluded: SIZE_MAX";
  EXPECT_EQ(got[some_none], 4) << name << " test_some, no mask";
  EXPECT_EQ(got[some_none_index_sum], 4 + 5 + 6 + 7) << name << " test_some indices";
  EXPECT_EQ(got[some_one_excluded], 3) << name << " test_some, element 5 excluded";
  EXPECT_EQ(got[some_excluded], 0) << name << " test_some, every element excluded";
  EXPECT_EQ(got[wait_all_reached], 1) << name << " wait_until_all, unsatisfied elements excluded";
  EXPECT_GE(got[wait_any_none], 4) << name << " wait_until_any, no mask";
  EXPECT_LE(got[wait_any_none], 7) << name << " wait_until_any, no mask";
  EXPECT_EQ(got[wait_any_excluded], -1) << name << " wait_until_any, every element excluded: SIZE_MAX";
  EXPECT_EQ(got[wait_any_empty], -1) << name << " wait_until_any, nelems 0: SIZE_MAX";
  EXPECT_EQ(got[wait_some_one_excluded], 3) << name << " wait_until_some, element 5 excluded";
  EXPECT_EQ(got[wait_some_excluded], 0) << name << " wait_until_some, every element excluded";
  for (int op = 0; op < 6; ++op)
    EXPECT_EQ(got[waited_seen + op], waited(op).write) << name << " wait_until(" << ops[op] << ") on the peer's write";
  EXPECT_EQ(got[peer_any], 5) << name << " wait_until_any on the peer's write";
  EXPECT_EQ(got[peer_some_count], 1) << name << " wait_until_some on the peer's write";
  EXPECT_EQ(got[peer_some_index], 5) << name << " wait_until_some index";
  EXPECT_EQ(got[peer_all_reached], 1) << name << " wait_until_all on the peer's writes";
}

struct named_run {
  std::string name;
  void (*run)(const std::string& name);
};

std::vector<named_run> sync_families() {
  std::vector<named_run> out;
  std::apply([&](auto... entry) {
    ((out.push_back({std::string("typed_") + entry.name, &run_sync<typename decltype(entry)::typed, typename decltype(entry)::type>}),
      out.push_back({std::string("generic_") + entry.name, &run_sync<generic_sync<typename decltype(entry)::type>, typename decltype(entry)::type>})),
     ...);
  }, gio::types::sync_types);
  return out;
}

class PointToPointSync : public ::testing::TestWithParam<named_run> {};
TEST_P(PointToPointSync, EveryOperatorAndMask) { GetParam().run(GetParam().name); }
INSTANTIATE_TEST_SUITE_P(Bindings, PointToPointSync, ::testing::ValuesIn(sync_families()),
                         [](const ::testing::TestParamInfo<named_run>& info) { return info.param.name; });

// ---- Litmus: message passing --------------------------------------------------------------------
// Agents are groups of Coop (threads, waves or workgroups). Agent a of PE p and agent a of its
// peer form a pair: one writes, the other reads (roles alternate by workgroup and PE, so both
// GPUs do both). Round r: the writer waits until the slot r % ring is free (the reader's ack), fills its
// message with round r's pattern, puts it into the slot on the reader (the whole group), and
// its leader orders the flag after the data (fence or quiet) and sets flag[slot] = r + 1. The
// reader's leader acquires the flag (one of the wait forms), the group checks every word, and
// the leader acks. A word from any other round is a violation.
constexpr unsigned litmus_threads = 256;
constexpr unsigned ring = 16;             // slots per agent: the writer runs up to 16 rounds ahead
constexpr unsigned wg_message_words = 2048;  // 8 KiB per workgroup per round, split among its groups

enum class order { fence, quiet };
// Where the writer builds its message: shared memory (over gda an inline or staged put), or its
// own symmetric heap (over gda an RDMA write straight from it: an _nbi put is then only posted,
// and the quiet before the flag is what completes it before the next round rewrites the source).
enum class source { shared_memory, heap };
enum class acquire { wait_until, test_loop, test_all_loop, wait_any, wait_some, wait_all };

GIO_DEVICE unsigned message_word(std::uint64_t seed, int writer, unsigned agent, unsigned round, unsigned word) {
  std::uint32_t x = static_cast<std::uint32_t>(seed) ^ static_cast<std::uint32_t>(seed >> 32) * 31u;
  x ^= (agent * 0x9E3779B1u) ^ (round * 0x85EBCA77u) ^ (word * 0xC2B2AE3Du) ^ (static_cast<unsigned>(writer) << 28);
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

template <acquire Acq>
GIO_DEVICE bool acquire_flag(const gio::ctx& c, unsigned* slots, unsigned slot, unsigned value) {
  if constexpr (Acq == acquire::wait_until) {
    gio::shmem_wait_until(c, slots + slot, SHMEM_CMP_EQ, value);
    return true;
  } else if constexpr (Acq == acquire::test_loop) {
    while (!gio::shmem_test(c, slots + slot, SHMEM_CMP_EQ, value)) {
    }
    return true;
  } else {
    int others_excluded[ring];
    for (unsigned i = 0; i < ring; ++i) others_excluded[i] = i != slot;
    if constexpr (Acq == acquire::test_all_loop) {  // its own reads: relaxed, then one fence (sm_90)
      while (!gio::shmem_test_all(c, slots, ring, others_excluded, SHMEM_CMP_EQ, value)) {
      }
      return true;
    } else if constexpr (Acq == acquire::wait_any) {
      return gio::shmem_wait_until_any(c, slots, ring, others_excluded, SHMEM_CMP_EQ, value) == slot;
    } else if constexpr (Acq == acquire::wait_some) {
      std::size_t idx[ring];
      const std::size_t n = gio::shmem_wait_until_some(c, slots, ring, idx, others_excluded, SHMEM_CMP_EQ, value);
      return n == 1 && idx[0] == slot;
    } else {
      gio::shmem_wait_until_all(c, slots, ring, others_excluded, SHMEM_CMP_EQ, value);
      return true;
    }
  }
}

template <class Coop, order Order, acquire Acq, source Src>
__global__ void __launch_bounds__(litmus_threads) message_passing_kernel(gio::device_handle h, unsigned* payload, unsigned* flags,
                                                                         unsigned* acks, unsigned* heap_source,
                                                                         std::uint32_t* violations, unsigned rounds,
                                                                         std::uint64_t seed) {
  __shared__ gio::ctx storage;
  __shared__ unsigned shared_source[wg_message_words];
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  constexpr unsigned groups = groups_per_wg<Coop>(litmus_threads);
  constexpr unsigned words = wg_message_words / groups;
  const unsigned group = gio::platform::thread_in_wg() / Coop::size();
  const unsigned agent = gio::platform::wg_id() * groups + group;
  const bool leader = Coop::rank() == 0;
  const int me = gio::shmem_my_pe(c), peer = me ^ 1;
  unsigned* my_source =
      (Src == source::heap ? heap_source + std::size_t(gio::platform::wg_id()) * wg_message_words : shared_source) + group * words;
  unsigned* my_flags = flags + std::size_t(agent) * ring;
  std::uint32_t bad = 0;

  // Roles are per workgroup: spinning on different events inside one wave would need
  // independent thread scheduling, which AMD GPUs lack.
  if ((gio::platform::wg_id() + me) % 2 == 0) {  // writer
    for (unsigned r = 0; r < rounds; ++r) {
      const unsigned slot = r % ring;
      if (leader && r >= ring) gio::shmem_wait_until(c, acks + agent, SHMEM_CMP_GE, r - ring + 1);
      Coop::sync();
      for (unsigned w = Coop::rank(); w < words; w += Coop::size()) my_source[w] = message_word(seed, me, agent, r, w);
      Coop::sync();
      unsigned* dest = payload + (std::size_t(agent) * ring + slot) * words;
      call<generic_rma<unsigned>, false, Order == order::quiet, Coop>(c, dest, my_source, words, peer);
      if (leader) {
        if constexpr (Order == order::fence) gio::shmem_fence(c);
        else gio::shmem_quiet(c);
        gio::shmem_p(c, my_flags + slot, r + 1, peer);
      }
    }
  } else {  // reader
    for (unsigned r = 0; r < rounds; ++r) {
      const unsigned slot = r % ring;
      if (leader && !acquire_flag<Acq>(c, my_flags, slot, r + 1)) ++bad;
      Coop::sync();
      const unsigned* message = payload + (std::size_t(agent) * ring + slot) * words;
      for (unsigned w = Coop::rank(); w < words; w += Coop::size())
        if (message[w] != message_word(seed, peer, agent, r, w)) ++bad;
      Coop::sync();
      if (leader) {
        gio::shmem_quiet(c);  // the group's reads of this slot are done before the writer may reuse it
        gio::shmem_p(c, acks + agent, r + 1, peer);
      }
    }
  }
  violations[gio::platform::wg_id() * litmus_threads + gio::platform::thread_in_wg()] = bad;
}

template <class Kernel> unsigned litmus_wgs(Kernel kernel) {
  return litmus_workgroups(gio::max_coresident_wgs(kernel, litmus_threads));
}

template <class Coop, order Order, acquire Acq, source Src = source::shared_memory>
void run_message_passing(const std::string& name) {
  auto kernel = message_passing_kernel<Coop, Order, Acq, Src>;
  const unsigned wgs = litmus_wgs(kernel);
  const unsigned agents = wgs * groups_per_wg<Coop>(litmus_threads);
  const unsigned words = wg_message_words / groups_per_wg<Coop>(litmus_threads);
  const unsigned rounds = static_cast<unsigned>(litmus_rounds());
  sym_buffer payload(std::size_t(agents) * ring * words * sizeof(unsigned));
  sym_buffer flags(std::size_t(agents) * ring * sizeof(unsigned));
  sym_buffer acks(std::size_t(agents) * sizeof(unsigned));
  sym_buffer heap_source(std::size_t(wgs) * wg_message_words * sizeof(unsigned));  // used by source::heap
  device_buffer violations(std::size_t(wgs) * litmus_threads * sizeof(std::uint32_t));
  gpu::fill(violations.get(), 0, violations.size());
  gio::shmem_barrier_all();
  kernel<<<wgs, litmus_threads>>>(run().handle, payload.get<unsigned>(), flags.get<unsigned>(), acks.get<unsigned>(),
                                  heap_source.get<unsigned>(), violations.get<std::uint32_t>(), rounds, run().seed);
  gpu::finish_launch(name.c_str());
  gio::shmem_barrier_all();
  EXPECT_EQ(sum_counters(violations.get<std::uint32_t>(), std::size_t(wgs) * litmus_threads), 0u)
      << name << ": stale message words (or a wrong index from the wait) over " << rounds << " rounds x " << agents
      << " agents on PE " << run().my_pe << ", seed 0x" << std::hex << run().seed;
}

// ---- Litmus: store buffering ---------------------------------------------------------------------
// Every thread t of PE p and thread t of its peer: round r, each stores r + 1 to its location
// x (on the peer, or its own), shmem_quiet, then loads the other's location. Both loads missing
// the other's store (the "both stale" outcome) is forbidden with quiet (store->load order at
// system scope). Locations rotate through a ring of 16, values never repeat. Each thread records
// a stale bit per round; the host ANDs the two PEs' bitmaps. Workgroup pairs resynchronise every
// 64 rounds so that the PEs' rounds overlap.
constexpr unsigned sb_chunk_rounds = 1024;  // rounds per launch: bounds the bitmaps
constexpr unsigned sb_resync = 64;

template <bool Quiet, bool StoreToPeer>
__global__ void __launch_bounds__(litmus_threads) store_buffering_kernel(gio::device_handle h, unsigned* x, unsigned* sync,
                                                                         unsigned* stale, unsigned first_round, unsigned rounds) {
  const gio::ctx c = gio::ctx_default(h);
  const int me = gio::shmem_my_pe(c), peer = me ^ 1;
  const unsigned wg = gio::platform::wg_id();
  const unsigned agent = wg * litmus_threads + gio::platform::thread_in_wg();
  const unsigned bitmap_words = (rounds + 31) / 32;
  unsigned bits = 0;
  for (unsigned i = 0; i < rounds; ++i) {
    const unsigned r = first_round + i;
    if (r % sb_resync == 0) {
      if (gio::platform::thread_in_wg() == 0) {
        gio::shmem_p(c, sync + wg, r / sb_resync + 1, peer);
        gio::shmem_wait_until(c, sync + wg, SHMEM_CMP_GE, r / sb_resync + 1);
      }
      gio::platform::wg_barrier();
    }
    unsigned* loc = x + std::size_t(agent) * ring + r % ring;
    gio::shmem_p(c, loc, r + 1, StoreToPeer ? peer : me);
    if constexpr (Quiet) gio::shmem_quiet(c);
    const unsigned seen = gio::shmem_g(c, loc, StoreToPeer ? me : peer);
    if (seen < r + 1) bits |= 1u << (i % 32);
    if (i % 32 == 31 || i + 1 == rounds) {
      stale[std::size_t(agent) * bitmap_words + i / 32] = bits;
      bits = 0;
    }
  }
}

// Returns how many (thread pair, round) saw both loads stale.
template <bool Quiet, bool StoreToPeer> std::uint64_t run_store_buffering() {
  auto kernel = store_buffering_kernel<Quiet, StoreToPeer>;
  const unsigned wgs = litmus_wgs(kernel);
  const std::size_t agents = std::size_t(wgs) * litmus_threads;
  const unsigned rounds = static_cast<unsigned>(litmus_rounds());
  sym_buffer x(agents * ring * sizeof(unsigned));
  sym_buffer sync(wgs * sizeof(unsigned));
  sym_buffer stale(agents * (sb_chunk_rounds / 32) * sizeof(unsigned));
  device_buffer peer_stale(stale.size());
  std::uint64_t both = 0;
  for (unsigned first = 0; first < rounds; first += sb_chunk_rounds) {
    const unsigned n = std::min(sb_chunk_rounds, rounds - first);
    const std::size_t words = agents * ((n + 31) / 32);
    kernel<<<wgs, litmus_threads>>>(run().handle, x.get<unsigned>(), sync.get<unsigned>(), stale.get<unsigned>(), first, n);
    gpu::finish_launch("store_buffering_kernel");
    gio::shmem_barrier_all();
    gio::shmem_getmem(peer_stale.get(), stale.get(), words * sizeof(unsigned), run().peer);
    std::vector<unsigned> mine(words), theirs(words);
    gpu::to_host(mine.data(), stale.get(), words * sizeof(unsigned));
    gpu::to_host(theirs.data(), peer_stale.get(), words * sizeof(unsigned));
    for (std::size_t k = 0; k < words; ++k) both += static_cast<std::uint64_t>(__builtin_popcount(mine[k] & theirs[k]));
    gio::shmem_barrier_all();  // the peer has read this chunk's bitmap before the next overwrites it
  }
  return both;
}

// ---- The litmus tests -----------------------------------------------------------------------------
std::vector<named_run> litmus_runs() {
  return {
      {"mp_wg_put_fence", &run_message_passing<wg, order::fence, acquire::wait_until>},
      {"mp_wg_put_nbi_quiet", &run_message_passing<wg, order::quiet, acquire::wait_until>},
      {"mp_wave_put_fence", &run_message_passing<wave, order::fence, acquire::wait_until>},
      {"mp_wave_put_nbi_quiet", &run_message_passing<wave, order::quiet, acquire::wait_until>},
      {"mp_thread_put_fence", &run_message_passing<thread, order::fence, acquire::wait_until>},
      {"mp_thread_put_nbi_quiet", &run_message_passing<thread, order::quiet, acquire::wait_until>},
      {"mp_wg_put_nbi_quiet_heap_source", &run_message_passing<wg, order::quiet, acquire::wait_until, source::heap>},
      {"mp_wave_put_nbi_quiet_heap_source", &run_message_passing<wave, order::quiet, acquire::wait_until, source::heap>},
      {"mp_thread_put_nbi_quiet_heap_source", &run_message_passing<thread, order::quiet, acquire::wait_until, source::heap>},
      {"acquire_test_loop", &run_message_passing<wg, order::fence, acquire::test_loop>},
      {"acquire_test_all_loop", &run_message_passing<wg, order::fence, acquire::test_all_loop>},
      {"acquire_wait_until_any", &run_message_passing<wg, order::fence, acquire::wait_any>},
      {"acquire_wait_until_some", &run_message_passing<wg, order::fence, acquire::wait_some>},
      {"acquire_wait_until_all", &run_message_passing<wg, order::fence, acquire::wait_all>},
      {"sb_quiet_store_remote_load_local", [](const std::string& name) {
         EXPECT_EQ((run_store_buffering<true, true>()), 0u) << name << ": both loads stale despite shmem_quiet, seed 0x" << std::hex << run().seed;
       }},
      {"sb_quiet_store_local_load_remote", [](const std::string& name) {
         EXPECT_EQ((run_store_buffering<true, false>()), 0u) << name << ": both loads stale despite shmem_quiet, seed 0x" << std::hex << run().seed;
       }},
      // Without quiet the outcome is allowed: reported, not asserted, to show the test can see it.
      {"sb_without_quiet_reported", [](const std::string& name) {
         const std::uint64_t both = run_store_buffering<false, true>();
         if (run().my_pe == 0) std::printf("%s: both loads stale in %llu (thread pair, round)s without quiet (allowed)\n", name.c_str(), static_cast<unsigned long long>(both));
       }},
  };
}

class Litmus : public ::testing::TestWithParam<named_run> {};
TEST_P(Litmus, NoForbiddenOutcome) { GetParam().run(GetParam().name); }
INSTANTIATE_TEST_SUITE_P(MemoryModel, Litmus, ::testing::ValuesIn(litmus_runs()),
                         [](const ::testing::TestParamInfo<named_run>& info) { return info.param.name; });

}  // namespace
}  // namespace gio_test
