// Small device reductions back to back (device/collectives.hpp: reductions of at most
// gio::reduce_push_bytes on teams of at most gio::reduce_push_members PEs push into the team's
// two scratch slots and sync once). Not in the compile-only sample of CI (tests/gpu/CMakeLists.txt):
// its three scopes' reductions doubled team_tests.cpp's HIP compile.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "device_forms.hpp"
#include "gio/device.hpp"
#include "gio/platform/strong.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"
#include "test_teams.hpp"

namespace gio_test {
namespace {

struct reduce_round_case {
  std::string name;
  void (*run)(const std::string& name, const std::string& team_name);
  std::string team;
};
void PrintTo(const reduce_round_case& c, std::ostream* os) { *os << c.name; }  // gtest names a failing case by it

// ---- Small reductions back to back ----------------------------------------------------------------
// Reductions of at most gio::reduce_push_bytes push into the team's two scratch slots, each slot
// reused every other sync with one sync per call (device/collectives.hpp, push_source). Round
// r's int64 sum must be exact on every member with nothing but the reductions between rounds
// (and a team_sync before every fifth round, which shifts the slots' parity), members skewed
// (each PE, one round in three, spins before calling), sizes alternating between 7 elements and
// the largest pushed, and every third round in place.
//
// White box, where the reduction pushes (p2p, team of at most reduce_push_members): after round
// r, whose sync was number n, one member (rotating) waits until every other member has arrived
// at sync n + 1, i.e. has pushed round r + 1 into slot (n + 1) % 2 of its scratch; slot n % 2
// must still hold round r's blocks and slot (n + 1) % 2 round r + 1's. With one slot, or a
// parity the writers and the reader disagree on, the check fails deterministically.
template <class Coop> GIO_DEVICE void team_sync(const gio::ctx& c, gio::shmem_team_t team) {
  if constexpr (std::is_same_v<Coop, thread>) gio::shmem_team_sync(c, team);
  else if constexpr (std::is_same_v<Coop, wave>) gio::shmem_team_sync_wave(c, team);
  else gio::shmem_team_sync_wg(c, team);
}

template <class Coop>
GIO_DEVICE void sum_reduce(const gio::ctx& c, gio::shmem_team_t team, std::int64_t* dest, const std::int64_t* source,
                           std::size_t count) {
  if constexpr (std::is_same_v<Coop, thread>) gio::shmem_int64_sum_reduce(c, team, dest, source, count);
  else if constexpr (std::is_same_v<Coop, wave>) gio::shmem_int64_sum_reduce_wave(c, team, dest, source, count);
  else gio::shmem_int64_sum_reduce_wg(c, team, dest, source, count);
}

GIO_HOST_DEVICE constexpr std::size_t reduce_round_count(unsigned r) {
  return r % 2 ? 7 : gio::reduce_push_bytes / sizeof(std::int64_t);
}
GIO_HOST_DEVICE constexpr bool team_sync_before_round(unsigned r) { return r % 5 == 0; }

// Elements of round r's blocks in one scratch slot that are not member j's source (j != me).
GIO_DEVICE std::uint32_t stale_blocks(const std::int64_t* slot, unsigned r, std::int64_t me, std::int64_t size) {
  constexpr std::size_t per_block = gio::reduce_push_bytes / sizeof(std::int64_t);
  std::uint32_t bad = 0;
  for (std::int64_t j = 0; j < size; ++j)
    for (std::size_t i = 0; j != me && i < reduce_round_count(r); ++i)
      if (gio::platform::ld_relaxed_sys(slot + j * per_block + i) != std::int64_t(r) * (j + 1) + std::int64_t(i)) ++bad;
  return bad;
}

template <class Coop>
__global__ void reduce_rounds_kernel(gio::device_handle h, gio::shmem_team_t team, std::int64_t* source,
                                     std::int64_t* dest, unsigned rounds, std::uint32_t* violations) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage, team);
  if (Coop::size() == 1 && gio::platform::thread_in_wg() != 0) return;
  const std::int64_t me = gio::shmem_team_my_pe(c, team), size = gio::shmem_team_n_pes(c, team);
  const unsigned rank = Coop::rank(), group = Coop::size();
  const bool pushes = h.gda == nullptr && size > 1 && size <= gio::reduce_push_members;
  char* area = h.heap_base + h.teams[team].sync_offset;
  const std::uint64_t slot_bytes = gio::reduce_slot_members(h.n_pes) * gio::reduce_push_bytes;
  std::uint32_t bad = 0;
  for (unsigned r = 1; r <= rounds; ++r) {
    if (team_sync_before_round(r)) team_sync<Coop>(c, team);
    const std::size_t count = reduce_round_count(r);
    std::int64_t* out = r % 3 == 0 ? source : dest;
    for (std::size_t i = rank; i < count; i += group) source[i] = std::int64_t(r) * (me + 1) + std::int64_t(i);
    if ((r + static_cast<unsigned>(me)) % 3 == 0) {
      const std::uint64_t until = gio::platform::timer_ns() + 500 * static_cast<std::uint64_t>(me + 1);
      while (gio::platform::timer_ns() < until) {}
    }
    sum_reduce<Coop>(c, team, out, source, count);
    const std::int64_t base = std::int64_t(r) * size * (size + 1) / 2;
    for (std::size_t i = rank; i < count; i += group)
      if (out[i] != base + size * std::int64_t(i)) ++bad;
    if (pushes && r < rounds && r % static_cast<unsigned>(size) == static_cast<unsigned>(me)) {
      if (rank == 0) {
        const auto* words = reinterpret_cast<const std::uint64_t*>(area);
        const std::uint64_t n = gio::platform::ld_relaxed_sys(words);  // this round's sync
        for (std::int64_t j = 0; j < size; ++j)
          while (j != me && gio::platform::ld_acquire_sys(words + 1 + j) < n + 1) {}
        const char* scratch = area + gio::team_scratch_offset(h.n_pes);
        bad += stale_blocks(reinterpret_cast<const std::int64_t*>(scratch + (n % 2) * slot_bytes), r, me, size);
        if (!team_sync_before_round(r + 1))  // else sync n + 1 was the team_sync, before any push
          bad += stale_blocks(reinterpret_cast<const std::int64_t*>(scratch + ((n + 1) % 2) * slot_bytes), r + 1, me, size);
      }
      Coop::sync();
    }
  }
  violations[gio::platform::thread_in_wg()] = bad;
}

template <class Coop> void run_reduce_rounds(const std::string& name, const std::string& team_name) {
  const run_info& r = run();
  scoped_teams teams;
  const test_team* t = nullptr;
  for (const test_team& x : teams.get())
    if (x.name == team_name) t = &x;
  if (t == nullptr) GTEST_SKIP() << "no team " << team_name << " with " << r.n_pes << " PEs";
  constexpr unsigned threads = std::is_same_v<Coop, wg> ? 128 : gio::platform::wave_size;  // thread: one lane works
  sym_buffer source(gio::reduce_push_bytes), dest(gio::reduce_push_bytes);
  device_buffer violations(threads * sizeof(std::uint32_t));
  gpu::fill(violations.get(), 0, violations.size());
  const unsigned rounds = static_cast<unsigned>(lockstep_rounds());
  if (t->member()) {
    reduce_rounds_kernel<Coop><<<1, threads>>>(fresh_handle(), t->team, source.get<std::int64_t>(),
                                              dest.get<std::int64_t>(), rounds, violations.get<std::uint32_t>());
    gpu::finish_launch(name.c_str());
  }
  gio::shmem_barrier_all();
  EXPECT_EQ(sum_counters(violations.get<std::uint32_t>(), threads), 0u)
      << name << " on team " << t->name << ": elements of back-to-back reductions that were not the round's sum, "
      << "or scratch blocks overwritten before the next sync, over "
      << rounds << " rounds, PE " << r.my_pe;
}

std::vector<reduce_round_case> reduce_round_cases() {
  std::vector<reduce_round_case> out;
  for (const char* team : {"world", "evens", "split2d_y"}) {
    const std::string suffix = std::string("_") + team;
    out.push_back({"int64_sum" + suffix, &run_reduce_rounds<thread>, team});
    out.push_back({"int64_sum_wave" + suffix, &run_reduce_rounds<wave>, team});
    out.push_back({"int64_sum_wg" + suffix, &run_reduce_rounds<wg>, team});
  }
  return out;
}

class ReduceRounds : public ::testing::TestWithParam<reduce_round_case> {};
TEST_P(ReduceRounds, EveryRoundExact) { GetParam().run(GetParam().name, GetParam().team); }
INSTANTIATE_TEST_SUITE_P(MemoryModel, ReduceRounds, ::testing::ValuesIn(reduce_round_cases()),
                         [](const ::testing::TestParamInfo<reduce_round_case>& info) { return info.param.name; });

}  // namespace
}  // namespace gio_test
