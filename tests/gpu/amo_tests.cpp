// Remote atomics (OpenSHMEM 1.5 §9.7) from kernels and from the host:
//  * every binding (every typed name of gio::types::amo_types and the generic templates) against
//    a host reference, on this PE and on the peer at once, with every thread of 8 workgroups
//    issuing concurrently on words of its own and with every lane of a wave / every thread of a
//    workgroup on one shared word (amo_families.hpp);
//  * stress: every thread of every workgroup of every PE increments one counter on PE 0; every
//    fetched value is distinct (exactly 0..N-1) and the final count is exact;
//  * a compare_swap spin lock taken by workgroups of every PE around a non-atomic increment;
//  * the heap's atomics area (shmem_malloc_with_hints): exact where a NIC's atomics are not
//    atomic with a GPU's (over the NIC model's pcie atomics);
//  * the capability that selects native atomics or CAS loops matches GIO_ATOMICS (gpu_tests_cas
//    runs these tests again with GIO_ATOMICS=cas, so the CAS loops get the same checks);
//  * the host's atomics on every type.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "amo_families.hpp"

namespace gio_test {
namespace {

std::vector<amo_family> families() {
  std::vector<amo_family> out;
  for (auto shard : {amo_shard_0, amo_shard_1})
    for (auto& f : shard()) out.push_back(f);
  return out;
}

class AmoBindings : public ::testing::TestWithParam<amo_family> {};
TEST_P(AmoBindings, EveryCallAgainstReference) { GetParam().run(GetParam().name); }
INSTANTIATE_TEST_SUITE_P(Atomics, AmoBindings, ::testing::ValuesIn(families()),
                         [](const ::testing::TestParamInfo<amo_family>& info) { return info.param.name; });

bool cas_forced() {
  const char* mode = std::getenv("GIO_ATOMICS");
  return mode != nullptr && std::string(mode) == "cas";
}

// ---- Capabilities --------------------------------------------------------------------------------
// GIO_ATOMICS=cas clears peer_native_atomics for every PE (this one included) and in the handle,
// so every device atomic takes the CAS loop; without it a PE on the same GPU is always native.
TEST(AmoCapabilities, NativeOrCasAsConfigured) {
  const run_info& r = run();
  for (int pe = 0; pe < r.n_pes; ++pe) {
    const gio::peer_report rep = gio::shmem_peer_report(pe);
    if (cas_forced())
      EXPECT_EQ(rep.caps & gio::peer_native_atomics, 0u) << "GIO_ATOMICS=cas: PE " << pe << " still has native atomics";
    else if (rep.caps & gio::peer_same_device)
      EXPECT_NE(rep.caps & gio::peer_native_atomics, 0u) << "PE " << pe << " shares this GPU: atomics must be native";
    if (r.my_pe == 0)
      std::printf("atomics from PE 0 to PE %d: %s\n", pe, (rep.caps & gio::peer_native_atomics) ? "native" : "CAS loop");
  }
  if (cas_forced())
    EXPECT_EQ(gio::shmem_device_handle().inline_native_atomics, 0u) << "GIO_ATOMICS=cas: the handle still marks native peers";
}

// ---- Stress: one counter, every thread of every PE --------------------------------------------
constexpr unsigned stress_threads = 256;

__global__ void __launch_bounds__(stress_threads) counter_kernel(gio::device_handle h, std::uint64_t* counter,
                                                                 std::uint64_t* out, unsigned iters) {
  const gio::ctx c = gio::ctx_default(h);
  const std::size_t t = std::size_t(gio::platform::wg_id()) * stress_threads + gio::platform::thread_in_wg();
  for (unsigned i = 0; i < iters; ++i) {
    std::uint64_t* slot = out + t * iters + i;
    switch ((t + i) % 4) {  // typed and generic, fetch_add and fetch_inc, blocking and _nbi: one word
      case 0: *slot = gio::shmem_ctx_uint64_atomic_fetch_add(c, counter, 1, 0); break;
      case 1: *slot = gio::shmem_atomic_fetch_inc(c, counter, 0); break;
      case 2: gio::shmem_ctx_uint64_atomic_fetch_add_nbi(c, slot, counter, 1, 0); break;
      default: gio::shmem_atomic_fetch_inc_nbi(c, slot, counter, 0); break;
    }
  }
  gio::shmem_quiet(c);
}

TEST(AmoStress, OneCounterEveryThreadOfEveryPe) {
  const run_info& r = run();
  // CAS loops on one word scale with the number of contenders: fewer threads when forced.
  const unsigned wgs = cas_forced() ? 32 : static_cast<unsigned>(gpu::sm_count());
  const unsigned iters = cas_forced() ? 1 : 4;
  const std::size_t per_pe = std::size_t(wgs) * stress_threads * iters;
  sym_buffer counter(sizeof(std::uint64_t));
  sym_buffer out(per_pe * sizeof(std::uint64_t));
  gio::shmem_barrier_all();
  counter_kernel<<<wgs, stress_threads>>>(r.handle, counter.get<std::uint64_t>(), out.get<std::uint64_t>(), iters);
  gpu::finish_launch("counter_kernel");
  gio::shmem_barrier_all();

  const std::uint64_t total = per_pe * r.n_pes;
  device_buffer staging(std::max(per_pe, std::size_t(1)) * sizeof(std::uint64_t));
  std::uint64_t final_count = 0;
  gio::shmem_getmem(staging.get(), counter.get(), sizeof(std::uint64_t), 0);
  gpu::to_host(&final_count, staging.get(), sizeof final_count);
  EXPECT_EQ(final_count, total) << "PE 0's counter after " << total << " increments from " << r.n_pes << " PEs";
  if (r.my_pe == 0) {
    std::vector<std::uint64_t> all(total);
    for (int pe = 0; pe < r.n_pes; ++pe) {
      gio::shmem_getmem(staging.get(), out.get(), per_pe * sizeof(std::uint64_t), pe);
      gpu::to_host(all.data() + per_pe * pe, staging.get(), per_pe * sizeof(std::uint64_t));
    }
    std::sort(all.begin(), all.end());
    std::size_t wrong = 0;
    std::uint64_t first_wrong = 0, got = 0;
    for (std::uint64_t i = 0; i < total; ++i)
      if (all[i] != i && wrong++ == 0) first_wrong = i, got = all[i];
    EXPECT_EQ(wrong, 0u) << "the " << total << " fetched values are not 0.." << total - 1
                         << " once each: sorted position " << first_wrong << " holds " << got
                         << " (duplicates: a lost or doubled increment)";
  }
  gio::shmem_barrier_all();  // PE 0 has read every PE's values before they are freed
}

// ---- The atomics area: every PE's atomics on one word, some through a NIC -------------------------
// A block of shmem_malloc_with_hints(SHMEM_MALLOC_ATOMICS_REMOTE) lies in the heap's atomics area,
// where over a network transport every PE's atomics go through the NIC, PE 0's on its own word
// included (a loopback QP), so that they are atomic with each other even where a NIC's atomics are
// not atomic with a GPU's. gpu_gda_atomics_area runs this over the NIC model with
// GIO_NIC_MODEL_ATOMICS=pcie, whose atomics are a read and a later write, atomic among NIC atomics
// only. A word of plain shmem_malloc beside it shows the hazard the area removes: there PE 0's
// atomics are its GPU's own; its count is printed, not checked (losses are likely, not certain).
__global__ void atomics_area_kernel(gio::device_handle h, std::uint64_t* hinted, std::uint64_t* plain, unsigned iters) {
  const gio::ctx c = gio::ctx_default(h);
  for (unsigned i = 0; i < iters; ++i) {
    if ((i + gio::platform::thread_in_wg()) % 2 == 0) gio::shmem_atomic_add(c, hinted, std::uint64_t{1}, 0);
    else (void)gio::shmem_atomic_fetch_inc(c, hinted, 0);
    gio::shmem_atomic_add(c, plain, std::uint64_t{1}, 0);
  }
  gio::shmem_quiet(c);
}

TEST(AtomicsArea, EveryPesAtomicsOnOneWordAreExact) {
  const run_info& r = run();
  constexpr unsigned wgs = 4, threads = 32, iters = 32;
  auto* hinted = static_cast<std::uint64_t*>(
      gio::shmem_malloc_with_hints(sizeof(std::uint64_t), gio::SHMEM_MALLOC_ATOMICS_REMOTE));
  ASSERT_NE(hinted, nullptr);
  sym_buffer plain(sizeof(std::uint64_t));
  gpu::fill(hinted, 0, sizeof(std::uint64_t));
  // Taken after the allocation: a handle carries the area as it was when taken.
  const gio::device_handle h = gio::shmem_device_handle();
  const auto offset = static_cast<std::uint64_t>(reinterpret_cast<char*>(hinted) - h.heap_base);
  const bool network = h.gda != nullptr;
  if (network)
    EXPECT_TRUE(offset >= h.atomics_area_offset && offset + 8 <= h.atomics_area_offset + h.atomics_area_bytes)
        << "the block at heap offset " << offset << " is outside the atomics area [" << h.atomics_area_offset << ", +"
        << h.atomics_area_bytes << ")";
  else
    EXPECT_EQ(h.atomics_area_bytes, 0u) << "an atomics area without a network transport";
  gio::shmem_barrier_all();
  atomics_area_kernel<<<wgs, threads>>>(h, hinted, plain.get<std::uint64_t>(), iters);
  gpu::finish_launch("atomics_area_kernel");
  gio::shmem_barrier_all();

  std::uint64_t got[2] = {};
  device_buffer staging(sizeof got);
  gio::shmem_getmem(staging.get(), hinted, sizeof(std::uint64_t), 0);
  gio::shmem_getmem(staging.get<std::uint64_t>() + 1, plain.get(), sizeof(std::uint64_t), 0);
  gpu::to_host(got, staging.get(), sizeof got);
  const std::uint64_t total = std::uint64_t(r.n_pes) * wgs * threads * iters;
  EXPECT_EQ(got[0], total) << "PE 0's word of the atomics area after " << total << " atomics from " << r.n_pes
                           << " PEs (network transport: " << (network ? "yes" : "no") << ")";
  if (r.my_pe == 0)
    std::printf("atomics area: %llu of %llu counted; a plain word beside it (PE 0's own atomics on the GPU): %llu\n",
                static_cast<unsigned long long>(got[0]), static_cast<unsigned long long>(total),
                static_cast<unsigned long long>(got[1]));
  gio::shmem_barrier_all();
  gio::shmem_free(hinted);
}

// ---- A compare_swap spin lock across PEs ------------------------------------------------------------
// One contender per workgroup (a spin lock between lanes of one wave needs independent thread
// scheduling, which AMD GPUs lack). The lock word on PE 0 holds 0 or the holder's id. Inside,
// the holder reads the counter, writes its id to `owner` and the counter + 1 with plain g/p, and
// checks before releasing (swap back to 0) that the owner and the lock are still its own.
constexpr std::uint64_t lock_budget_ns = 20'000'000'000ull;

__global__ void lock_kernel(gio::device_handle h, std::uint64_t* lock, std::uint64_t* counter, std::uint64_t* owner,
                            unsigned iters, std::uint32_t* failures) {
  if (gio::platform::thread_in_wg() != 0) return;
  const gio::ctx c = gio::ctx_default(h);
  const std::uint64_t id = std::uint64_t(gio::shmem_my_pe(c)) * gio::platform::num_wgs() + gio::platform::wg_id() + 1;
  std::uint32_t bad = 0;
  for (unsigned i = 0; i < iters; ++i) {
    const std::uint64_t start = gio::platform::timer_ns();
    bool held = false;
    while (!held && gio::platform::timer_ns() - start < lock_budget_ns)
      held = gio::shmem_ctx_uint64_atomic_compare_swap(c, lock, 0, id, 0) == 0;
    if (!held) {  // bounded: report instead of hanging
      bad += 1000;
      break;
    }
    gio::shmem_quiet(c);  // the critical section's accesses come after the CAS that took the lock
    const std::uint64_t v = gio::shmem_g(c, counter, 0);
    gio::shmem_p(c, owner, id, 0);
    gio::shmem_p(c, counter, v + 1, 0);
    gio::shmem_quiet(c);
    if (gio::shmem_g(c, owner, 0) != id) ++bad;                      // another holder inside
    if (gio::shmem_atomic_swap(c, lock, std::uint64_t(0), 0) != id) ++bad;  // release: still ours?
  }
  failures[gio::platform::wg_id()] = bad;
}

TEST(AmoStress, CompareSwapLockAcrossPes) {
  const run_info& r = run();
  constexpr unsigned wgs = 64, iters = 16;
  sym_buffer words(3 * sizeof(std::uint64_t));  // lock, counter, owner
  auto* w = words.get<std::uint64_t>();
  device_buffer failures(wgs * sizeof(std::uint32_t));
  gpu::fill(failures.get(), 0xFF, failures.size());
  gio::shmem_barrier_all();
  lock_kernel<<<wgs, 32>>>(r.handle, w, w + 1, w + 2, iters, failures.get<std::uint32_t>());
  gpu::finish_launch("lock_kernel");
  gio::shmem_barrier_all();
  EXPECT_EQ(sum_counters(failures.get<std::uint32_t>(), wgs), 0u)
      << "PE " << r.my_pe << ": two holders inside the lock, a release of someone else's lock, or a lock not taken in "
      << lock_budget_ns / 1'000'000'000ull << " s (counts 1000)";
  std::uint64_t got[3] = {};
  device_buffer staging(sizeof got);
  gio::shmem_getmem(staging.get(), w, sizeof got, 0);
  gpu::to_host(got, staging.get(), sizeof got);
  EXPECT_EQ(got[1], std::uint64_t(r.n_pes) * wgs * iters) << "increments under the lock were lost";
  EXPECT_EQ(got[0], 0u) << "the lock is still held";
  gio::shmem_barrier_all();
}

// ---- Host atomics --------------------------------------------------------------------------------
template <class T> T host_step(int code, T* dest, T a, T b, int pe) {
  T f{};
  switch (code) {
    case c_fetch: return gio::shmem_atomic_fetch(dest, pe);
    case c_fetch_nbi: gio::shmem_atomic_fetch_nbi(&f, dest, pe); break;
    case c_set: gio::shmem_atomic_set(dest, a, pe); break;
    case c_swap: return gio::shmem_atomic_swap(dest, a, pe);
    case c_swap_nbi: gio::shmem_atomic_swap_nbi(&f, dest, a, pe); break;
    case c_cswap: return gio::shmem_atomic_compare_swap(dest, b, a, pe);
    case c_cswap_nbi: gio::shmem_atomic_compare_swap_nbi(&f, dest, b, a, pe); break;
    case c_finc: return gio::shmem_atomic_fetch_inc(dest, pe);
    case c_finc_nbi: gio::shmem_atomic_fetch_inc_nbi(&f, dest, pe); break;
    case c_inc: gio::shmem_atomic_inc(dest, pe); break;
    case c_fadd: return gio::shmem_atomic_fetch_add(dest, a, pe);
    case c_fadd_nbi: gio::shmem_atomic_fetch_add_nbi(&f, dest, a, pe); break;
    case c_add: gio::shmem_atomic_add(dest, a, pe); break;
    case c_fand: return gio::shmem_atomic_fetch_and(dest, a, pe);
    case c_fand_nbi: gio::shmem_atomic_fetch_and_nbi(&f, dest, a, pe); break;
    case c_and: gio::shmem_atomic_and(dest, a, pe); break;
    case c_for: return gio::shmem_atomic_fetch_or(dest, a, pe);
    case c_for_nbi: gio::shmem_atomic_fetch_or_nbi(&f, dest, a, pe); break;
    case c_or: gio::shmem_atomic_or(dest, a, pe); break;
    case c_fxor: return gio::shmem_atomic_fetch_xor(dest, a, pe);
    case c_fxor_nbi: gio::shmem_atomic_fetch_xor_nbi(&f, dest, a, pe); break;
    case c_xor: gio::shmem_atomic_xor(dest, a, pe); break;
    default: ADD_FAILURE() << "host_step: code " << code; break;
  }
  gio::shmem_quiet();  // completes the _nbi forms' fetches
  return f;
}

// A script of host calls on one word of this PE and one of the peer (word my_pe of each), against
// the same reference as the device tests; the final words read back through the device.
template <class T, class Flags> void run_host_atomics(const std::string& name) {
  const run_info& r = run();
  constexpr int steps = 48;
  sym_buffer words(std::size_t(r.n_pes) * sizeof(T));
  T* mine = words.get<T>() + r.my_pe;
  std::vector<int> codes = codes_of<Flags>();
  codes.erase(std::remove(codes.begin(), codes.end(), int(c_cas_inc)), codes.end());
  for (int target : {r.my_pe, r.peer}) {
    std::mt19937_64 rng(mix(mix(r.seed, hash("host atomics " + name)), std::uint64_t(r.my_pe) * 2 + (target != r.my_pe)));
    T sim = random_value<T>(rng);
    gio::shmem_atomic_set(mine, sim, target);
    int wrong = 0;
    std::string first;
    for (int k = 0; k < steps; ++k) {
      const int code = codes[k < static_cast<int>(codes.size()) ? k : rng() % codes.size()];  // every code once, then random
      const T a = code >= c_fand ? random_bits_operand<T>(rng) : random_value<T>(rng);
      const T b = rng() % 2 ? sim : random_value<T>(rng);
      const T old = reference_step(code, sim, a, b);
      const T got = host_step(code, mine, a, b, target);
      if (amo_code_fetches(code) && !same_bits(got, old) && wrong++ == 0)
        first = std::string(amo_code_name(code)) + "(" + show(a) + ") fetched " + show(got) + ", expected " + show(old);
    }
    const T final_value = gio::shmem_atomic_fetch(mine, target);
    EXPECT_EQ(wrong, 0) << name << " on PE " << target << " from PE " << r.my_pe << ": " << first;
    EXPECT_TRUE(same_bits(final_value, sim)) << name << " on PE " << target << ": final " << show(final_value)
                                             << ", expected " << show(sim);
    T through_device{};
    device_buffer staging(sizeof(T));
    gio::shmem_getmem(staging.get(), mine, sizeof(T), target);
    gpu::to_host(&through_device, staging.get(), sizeof(T));
    EXPECT_TRUE(same_bits(through_device, sim)) << name << " on PE " << target << ": the word in memory is "
                                                << show(through_device) << ", expected " << show(sim);
  }
  gio::shmem_barrier_all();
}

TEST(HostAtomics, EveryTypeAgainstReference) {
  std::apply([&](auto... entry) {
    (run_host_atomics<typename decltype(entry)::type, typename decltype(entry)::typed>(entry.name), ...);
  }, gio::types::amo_types);
}

}  // namespace
}  // namespace gio_test
