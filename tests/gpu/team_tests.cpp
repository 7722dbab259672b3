// Teams on the device (OpenSHMEM 1.5 §9.4 and team contexts) and device-side synchronisation:
//  * the host's and the device's team queries agree with the shape each test team was made with
//    (WORLD, SHARED, strided splits, a one-PE team, both axes of a 2-D split, a split of a split);
//  * a team context's PE numbers are team PEs: puts, gets, atomics and put_signal through it
//    reach the world PE the shape says, for contexts made by ctx_create_wg and ctx_default;
//  * shmem_barrier_all / sync_all / barrier / team_sync at thread, wave and workgroup scope over
//    thousands of rounds: every member writes round r into its slot on every member (spread over
//    the calling group's threads), synchronises, and must then see round r (or r + 1, from a
//    member already past the sync) in every member's slot: never an older round.
// (Small reductions back to back: reduce_rounds_tests.cpp.)
#include <cstddef>
#include <cstdint>
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

// ---- Queries ----------------------------------------------------------------------------------------
TEST(Teams, HostQueriesMatchShapes) {
  const run_info& r = run();
  scoped_teams teams;
  for (const test_team& t : teams.get()) {
    if (t.name == "shared") {
      // Every PE of this node when each reaches every other by loads and stores (docs/teams.md);
      // with GIO_TRANSPORT=gda|ikn none does, and the team is this PE alone.
      bool node_mapped = true;
      for (int pe = 0; pe < r.n_pes; ++pe) node_mapped = node_mapped && gio::shmem_ptr(staging_sym().get(), pe) != nullptr;
      EXPECT_EQ(t.size, node_mapped ? gio::shmem_runtime_report().node_pes : 1) << "SHMEM_TEAM_SHARED: the node's mapped PEs";
      EXPECT_EQ(t.stride, 1) << "SHMEM_TEAM_SHARED";
    }
    if (!t.member()) continue;
    EXPECT_EQ(gio::shmem_team_my_pe(t.team), t.my_team_pe()) << "team " << t.name << " on PE " << r.my_pe;
    EXPECT_EQ(gio::shmem_team_n_pes(t.team), t.size) << "team " << t.name;
    for (int i = 0; i < t.size; ++i)
      EXPECT_EQ(gio::shmem_team_translate_pe(t.team, i, gio::SHMEM_TEAM_WORLD), t.world_of(i)) << "team " << t.name << " PE " << i;
    for (int w = 0; w < r.n_pes; ++w)
      EXPECT_EQ(gio::shmem_team_translate_pe(gio::SHMEM_TEAM_WORLD, w, t.team), t.index_of(w)) << "world PE " << w << " in team " << t.name;
  }
  EXPECT_EQ(gio::shmem_team_my_pe(gio::SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(gio::shmem_team_n_pes(gio::SHMEM_TEAM_INVALID), -1);
}

constexpr int max_query_pes = 16;
struct team_query {
  int my_pe, n_pes, ctx_team, ctx_my_pe;
  int to_world[max_query_pes];    // translate(team, i, WORLD)
  int from_world[max_query_pes];  // translate(WORLD, j, team)
  int to_next[max_query_pes];     // translate(team, i, next team in the list)
};

__global__ void team_query_kernel(gio::device_handle h, const gio::shmem_team_t* teams, int n_teams, team_query* out) {
  const int k = static_cast<int>(gio::platform::thread_in_wg());
  if (k >= n_teams) return;
  const gio::shmem_team_t team = teams[k], next = teams[(k + 1) % n_teams];
  const gio::ctx world = gio::ctx_default(h);
  const gio::ctx on_team = gio::ctx_default(h, team);
  team_query q{};
  q.my_pe = gio::shmem_team_my_pe(world, team);
  q.n_pes = gio::shmem_team_n_pes(world, team);
  q.ctx_team = gio::shmem_ctx_get_team(on_team);
  q.ctx_my_pe = gio::shmem_team_my_pe(on_team, team);
  for (int i = 0; i < max_query_pes; ++i) {
    q.to_world[i] = gio::shmem_team_translate_pe(world, team, i, gio::SHMEM_TEAM_WORLD);
    q.from_world[i] = gio::shmem_team_translate_pe(world, gio::SHMEM_TEAM_WORLD, i, team);
    q.to_next[i] = gio::shmem_team_translate_pe(world, team, i, next);
  }
  out[k] = q;
}

TEST(Teams, DeviceQueriesMatchHost) {
  const run_info& r = run();
  ASSERT_LE(r.n_pes, max_query_pes);
  scoped_teams teams;
  std::vector<const test_team*> mine;
  std::vector<gio::shmem_team_t> ids;
  for (const test_team& t : teams.get())
    if (t.member()) mine.push_back(&t), ids.push_back(t.team);
  ids.push_back(gio::SHMEM_TEAM_INVALID);  // queries on an invalid team answer -1
  device_buffer d_ids(ids.size() * sizeof(gio::shmem_team_t)), d_out(ids.size() * sizeof(team_query));
  gpu::to_device(d_ids.get(), ids.data(), d_ids.size());
  gpu::fill(d_out.get(), 0x7F, d_out.size());
  team_query_kernel<<<1, 64>>>(fresh_handle(), d_ids.get<gio::shmem_team_t>(), static_cast<int>(ids.size()),
                               d_out.get<team_query>());
  gpu::finish_launch("team_query_kernel");
  std::vector<team_query> got(ids.size());
  gpu::to_host(got.data(), d_out.get(), d_out.size());
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const test_team& t = *mine[k];
    const team_query& q = got[k];
    const gio::shmem_team_t next = ids[(k + 1) % ids.size()];
    EXPECT_EQ(q.my_pe, t.my_team_pe()) << "device shmem_team_my_pe, team " << t.name;
    EXPECT_EQ(q.n_pes, t.size) << "device shmem_team_n_pes, team " << t.name;
    EXPECT_EQ(q.ctx_team, t.team) << "shmem_ctx_get_team of a context made for team " << t.name;
    EXPECT_EQ(q.ctx_my_pe, t.my_team_pe()) << "shmem_team_my_pe through the team's own context, team " << t.name;
    for (int i = 0; i < max_query_pes; ++i) {
      EXPECT_EQ(q.to_world[i], i < t.size ? t.world_of(i) : -1) << "device translate(" << t.name << ", " << i << ", WORLD)";
      EXPECT_EQ(q.from_world[i], i < r.n_pes ? t.index_of(i) : -1) << "device translate(WORLD, " << i << ", " << t.name << ")";
      const int host = next == gio::SHMEM_TEAM_INVALID || i >= t.size ? -1 : gio::shmem_team_translate_pe(t.team, i, next);
      EXPECT_EQ(q.to_next[i], host) << "device translate(" << t.name << ", " << i << ", team " << next << ") vs the host";
    }
  }
  const team_query& invalid = got.back();
  EXPECT_EQ(invalid.my_pe, -1) << "device shmem_team_my_pe(SHMEM_TEAM_INVALID)";
  EXPECT_EQ(invalid.n_pes, -1) << "device shmem_team_n_pes(SHMEM_TEAM_INVALID)";
  EXPECT_EQ(invalid.to_world[0], -1) << "device translate from SHMEM_TEAM_INVALID";
  EXPECT_EQ(invalid.from_world[0], -1) << "device translate into SHMEM_TEAM_INVALID";
}

// ---- Team contexts ------------------------------------------------------------------------------------
// Region of one (team, context kind) on every PE, in 64-bit words:
//   [0, n_pes)      slot i: written by team PE i through the context (shmem_p)
//   n_pes           counter: every member adds 1 on team PE 0 (atomic)
//   n_pes + 1       signal from the team predecessor (put_signal)
//   n_pes + 2       its payload
//   n_pes + 3       id: world PE + 1, set by the host before the kernel (read with shmem_g)
//   n_pes + 4       what this PE's shmem_g of every member's id got, wrong ones counted
GIO_HOST_DEVICE std::uint64_t marker(int world_pe, int team_index) { return 0xC0DE000000ull + std::uint64_t(team_index) * 1000 + world_pe + 1; }

template <bool CreateWg>
__global__ void team_ctx_kernel(gio::device_handle h, gio::shmem_team_t team, int team_index, std::uint64_t* region, int n_world) {
  __shared__ gio::ctx storage;
  const gio::ctx* cp = nullptr;
  gio::ctx local;
  if constexpr (CreateWg) {
    cp = &gio::ctx_create_wg(h, storage, team);
  } else {
    local = gio::ctx_default(h, team);
    cp = &local;
  }
  const gio::ctx& c = *cp;
  const int me = gio::shmem_team_my_pe(c, team), size = gio::shmem_team_n_pes(c, team);
  const int world_me = gio::shmem_team_translate_pe(c, team, me, gio::SHMEM_TEAM_WORLD);
  const unsigned t = gio::platform::thread_in_wg();
  if (static_cast<int>(t) < size) gio::shmem_p(c, region + me, marker(world_me, team_index), static_cast<int>(t));
  if (t == 0) {
    gio::shmem_atomic_add(c, region + n_world, std::uint64_t(1), 0);
    const std::uint64_t payload = marker(world_me, team_index);
    gio::shmem_put_signal(c, region + n_world + 2, &payload, 1, region + n_world + 1, marker(world_me, team_index),
                          gio::SHMEM_SIGNAL_SET, (me + 1) % size);
    std::uint64_t wrong = 0;
    for (int j = 0; j < size; ++j) {
      const std::uint64_t id = gio::shmem_g(c, region + n_world + 3, j);
      const std::uint64_t expected = static_cast<std::uint64_t>(gio::shmem_team_translate_pe(c, team, j, gio::SHMEM_TEAM_WORLD)) + 1;
      if (id != expected) ++wrong;
    }
    region[n_world + 4] = wrong;
  }
  gio::shmem_quiet(c);
}

TEST(TeamContext, PesAreTeamPes) {
  const run_info& r = run();
  scoped_teams teams;
  const std::size_t words = std::size_t(r.n_pes) + 5;
  const std::size_t n_regions = teams.get().size() * 2;
  sym_buffer regions(n_regions * words * sizeof(std::uint64_t));
  auto* base = regions.get<std::uint64_t>();
  std::vector<std::uint64_t> init(n_regions * words, 0);
  for (std::size_t k = 0; k < n_regions; ++k) init[k * words + r.n_pes + 3] = std::uint64_t(r.my_pe) + 1;
  gpu::to_device(base, init.data(), init.size() * sizeof(std::uint64_t));
  gio::shmem_barrier_all();
  const gio::device_handle h = fresh_handle();
  for (std::size_t k = 0; k < teams.get().size(); ++k) {
    const test_team& t = teams.get()[k];
    if (!t.member()) continue;
    team_ctx_kernel<true><<<1, 64>>>(h, t.team, static_cast<int>(k), base + (2 * k) * words, r.n_pes);
    gpu::finish_launch(("team_ctx_kernel<ctx_create_wg> " + t.name).c_str());
    team_ctx_kernel<false><<<1, 64>>>(h, t.team, static_cast<int>(k), base + (2 * k + 1) * words, r.n_pes);
    gpu::finish_launch(("team_ctx_kernel<ctx_default> " + t.name).c_str());
  }
  gio::shmem_barrier_all();  // every PE's puts, atomics and signals have landed
  std::vector<std::uint64_t> got(n_regions * words);
  gpu::to_host(got.data(), base, got.size() * sizeof(std::uint64_t));
  for (std::size_t k = 0; k < teams.get().size(); ++k) {
    const test_team& t = teams.get()[k];
    if (!t.member()) continue;
    const int me = t.my_team_pe();
    for (int kind = 0; kind < 2; ++kind) {
      const std::uint64_t* g = got.data() + (2 * k + kind) * words;
      const std::string what = "team " + t.name + (kind == 0 ? " (ctx_create_wg)" : " (ctx_default)") + " on PE " +
                               std::to_string(r.my_pe);
      for (int i = 0; i < r.n_pes; ++i)
        EXPECT_EQ(g[i], i < t.size ? marker(t.world_of(i), static_cast<int>(k)) : 0u)
            << what << ": slot " << i << " (written by team PE " << i << " through its context)";
      EXPECT_EQ(g[r.n_pes], me == 0 ? std::uint64_t(t.size) : 0u) << what << ": atomic adds to team PE 0";
      const int pred = t.world_of((me + t.size - 1) % t.size);
      EXPECT_EQ(g[r.n_pes + 1], marker(pred, static_cast<int>(k))) << what << ": signal from the team predecessor";
      EXPECT_EQ(g[r.n_pes + 2], marker(pred, static_cast<int>(k))) << what << ": put_signal payload from the predecessor";
      EXPECT_EQ(g[r.n_pes + 4], 0u) << what << ": shmem_g of team PE j reached another PE than world PE start + j * stride";
    }
  }
  gio::shmem_barrier_all();
}

// ---- Device barriers and syncs --------------------------------------------------------------------------
enum class sync_call { barrier_all, sync_all, barrier, team_sync };
template <class Coop> GIO_HOST_DEVICE constexpr unsigned sync_threads() {
  return std::is_same_v<Coop, thread> ? 32 : std::is_same_v<Coop, wave> ? gio::platform::wave_size : 128;
}
template <class Coop> GIO_HOST_DEVICE constexpr unsigned sync_words() {  // words each PE writes to each member per round
  return std::is_same_v<Coop, thread> ? 4 : std::is_same_v<Coop, wave> ? 32 : 128;
}

template <class Coop, sync_call Call>
GIO_DEVICE void do_sync(const gio::ctx& c, gio::shmem_team_t team) {
  constexpr bool t = std::is_same_v<Coop, thread>, w = std::is_same_v<Coop, wave>;
  if constexpr (Call == sync_call::barrier_all) { if constexpr (t) gio::shmem_barrier_all(c); else if constexpr (w) gio::shmem_barrier_all_wave(c); else gio::shmem_barrier_all_wg(c); }
  if constexpr (Call == sync_call::sync_all) { if constexpr (t) gio::shmem_sync_all(c); else if constexpr (w) gio::shmem_sync_all_wave(c); else gio::shmem_sync_all_wg(c); }
  if constexpr (Call == sync_call::barrier) { if constexpr (t) gio::shmem_barrier(c, team); else if constexpr (w) gio::shmem_barrier_wave(c, team); else gio::shmem_barrier_wg(c, team); }
  if constexpr (Call == sync_call::team_sync) { if constexpr (t) gio::shmem_team_sync(c, team); else if constexpr (w) gio::shmem_team_sync_wave(c, team); else gio::shmem_team_sync_wg(c, team); }
}

// One calling group per PE (thread 0, warp 0 or the whole workgroup). The barrier/team_sync
// variants write through a context of the team (team PE numbers); the _all ones through WORLD.
template <class Coop, sync_call Call>
__global__ void sync_rounds_kernel(gio::device_handle h, gio::shmem_team_t team, unsigned* slots, unsigned rounds,
                                   std::uint32_t* violations) {
  __shared__ gio::ctx storage;
  constexpr bool all = Call == sync_call::barrier_all || Call == sync_call::sync_all;
  const gio::ctx& c = gio::ctx_create_wg(h, storage, all ? gio::SHMEM_TEAM_WORLD : team);
  if (Coop::size() == 1 && gio::platform::thread_in_wg() != 0) return;
  const gio::shmem_team_t on = all ? gio::SHMEM_TEAM_WORLD : team;
  const int me = gio::shmem_team_my_pe(c, on), size = gio::shmem_team_n_pes(c, on);
  constexpr unsigned W = sync_words<Coop>();
  const unsigned rank = Coop::rank(), group = Coop::size();
  const unsigned total = static_cast<unsigned>(size) * W;
  std::uint32_t bad = 0;
  for (unsigned r = 1; r <= rounds; ++r) {
    for (unsigned i = rank; i < total; i += group)
      gio::shmem_p(c, slots + std::size_t(me) * W + i % W, r, static_cast<int>(i / W));
    if constexpr (Call == sync_call::sync_all || Call == sync_call::team_sync) gio::shmem_quiet(c);  // sync does not quiet
    do_sync<Coop, Call>(c, team);
    for (unsigned i = rank; i < total; i += group) {
      const unsigned v = gio::platform::ld_relaxed_sys(slots + i);
      if (v < r || v > r + 1) ++bad;  // an older round: a write from before the sync not visible
    }
  }
  violations[gio::platform::thread_in_wg()] = bad;
}

struct sync_case {
  std::string name;
  void (*run)(const std::string& name, const std::string& team_name);
  std::string team;  // "" for the _all calls
};
void PrintTo(const sync_case& c, std::ostream* os) { *os << c.name; }  // gtest names a failing case by it

template <class Coop, sync_call Call> void run_sync_rounds(const std::string& name, const std::string& team_name) {
  const run_info& r = run();
  scoped_teams teams;
  const test_team* t = nullptr;
  for (const test_team& x : teams.get())
    if (x.name == (team_name.empty() ? "world" : team_name)) t = &x;
  if (t == nullptr) GTEST_SKIP() << "no team " << team_name << " with " << r.n_pes << " PEs";  // evens_tail needs 4
  constexpr unsigned threads = sync_threads<Coop>();
  sym_buffer slots(std::size_t(r.n_pes) * sync_words<Coop>() * sizeof(unsigned));
  device_buffer violations(threads * sizeof(std::uint32_t));
  gpu::fill(violations.get(), 0, violations.size());
  const unsigned rounds = static_cast<unsigned>(lockstep_rounds());
  if (t->member()) {
    sync_rounds_kernel<Coop, Call><<<1, threads>>>(fresh_handle(), t->team, slots.get<unsigned>(), rounds,
                                                   violations.get<std::uint32_t>());
    gpu::finish_launch(name.c_str());
  }
  gio::shmem_barrier_all();
  EXPECT_EQ(sum_counters(violations.get<std::uint32_t>(), threads), 0u)
      << name << " on team " << t->name << ": a member's write from before the sync was not visible after it, over "
      << rounds << " rounds, PE " << r.my_pe;
  if (t->member()) {
    std::vector<unsigned> last(std::size_t(t->size) * sync_words<Coop>());
    gpu::to_host(last.data(), slots.get(), last.size() * sizeof(unsigned));
    for (std::size_t i = 0; i < last.size(); ++i)
      if (last[i] != rounds) {
        ADD_FAILURE() << name << " on team " << t->name << ": slot word " << i << " holds round " << last[i] << " after "
                      << rounds << " rounds";
        break;
      }
  }
}

std::vector<sync_case> sync_cases() {
  std::vector<sync_case> out;
  auto scopes = [&](const std::string& call, auto t, auto w, auto g, const std::string& team) {
    const std::string suffix = team.empty() ? "" : "_" + team;
    out.push_back({call + suffix, t, team});
    out.push_back({call + "_wave" + suffix, w, team});
    out.push_back({call + "_wg" + suffix, g, team});
  };
  scopes("barrier_all", &run_sync_rounds<thread, sync_call::barrier_all>, &run_sync_rounds<wave, sync_call::barrier_all>,
         &run_sync_rounds<wg, sync_call::barrier_all>, "");
  scopes("sync_all", &run_sync_rounds<thread, sync_call::sync_all>, &run_sync_rounds<wave, sync_call::sync_all>,
         &run_sync_rounds<wg, sync_call::sync_all>, "");
  // Every shape of team: one this PE may not be in, an offset one, one PE, a 2-D axis, a nested split.
  for (const char* team : {"world", "evens", "tail", "last", "split2d_y", "evens_tail"}) {
    scopes("barrier", &run_sync_rounds<thread, sync_call::barrier>, &run_sync_rounds<wave, sync_call::barrier>,
           &run_sync_rounds<wg, sync_call::barrier>, team);
    scopes("team_sync", &run_sync_rounds<thread, sync_call::team_sync>, &run_sync_rounds<wave, sync_call::team_sync>,
           &run_sync_rounds<wg, sync_call::team_sync>, team);
  }
  return out;
}

class DeviceSync : public ::testing::TestWithParam<sync_case> {};
TEST_P(DeviceSync, NoStaleRound) { GetParam().run(GetParam().name, GetParam().team); }
INSTANTIATE_TEST_SUITE_P(MemoryModel, DeviceSync, ::testing::ValuesIn(sync_cases()),
                         [](const ::testing::TestParamInfo<sync_case>& info) { return info.param.name; });

}  // namespace
}  // namespace gio_test
