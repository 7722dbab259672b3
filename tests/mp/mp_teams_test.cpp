// Teams across processes (mpirun -np 2 and 4): splits, translation, slots, sync. The job runs
// with GIO_MAX_TEAMS=8 so that running out of slots is quick to reach. Every PE makes the same
// collective calls in the same order (team calls only among the team's members); checks use
// EXPECT before collectives so a failing PE never leaves the others waiting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gio/host.hpp"
#include "mp_test_support.hpp"

namespace gio {
namespace {

constexpr int max_teams = 8;

// The team's expected members: world PEs start + stride * i, i < size.
struct expected_team {
  int start, stride, size;
  int index_of(int world) const {
    const int d = world - start;
    return d >= 0 && d % stride == 0 && d / stride < size ? d / stride : -1;
  }
};

// Checks `team` against `expected` from this PE's point of view, both directions of translation.
void expect_team(shmem_team_t team, const expected_team& expected) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int index = expected.index_of(me);
  if (index < 0) {
    EXPECT_EQ(team, SHMEM_TEAM_INVALID) << "PE " << me << " is not a member";
    return;
  }
  ASSERT_NE(team, SHMEM_TEAM_INVALID);
  EXPECT_EQ(shmem_team_my_pe(team), index);
  EXPECT_EQ(shmem_team_n_pes(team), expected.size);
  for (int world = -1; world <= n; ++world)
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, world, team), world < 0 || world >= n ? -1 : expected.index_of(world))
        << "world PE " << world;
  for (int i = -1; i <= expected.size; ++i)
    EXPECT_EQ(shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD), i < 0 || i >= expected.size ? -1 : expected.start + expected.stride * i)
        << "team PE " << i;
}

// All PEs of the world agree on `value` (a sum over the world equals n times it).
bool same_on_every_pe(int value) {
  auto* buffer = static_cast<int*>(shmem_malloc(2 * sizeof(int)));
  buffer[0] = value;
  shmem_int_sum_reduce(SHMEM_TEAM_WORLD, buffer + 1, buffer, 1);
  const bool same = buffer[1] == value * shmem_n_pes();
  shmem_free(buffer);
  return same;
}

TEST(MpTeams, PredefinedTeams) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), me);
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), n);
  // mpirun places every PE of this job on this node, consecutively: SHARED is all of them.
  expect_team(SHMEM_TEAM_SHARED, {0, 1, n});
  shmem_team_config_t config{-1};
  EXPECT_EQ(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &config), 0);
  EXPECT_EQ(config.num_contexts, 0);
}

TEST(MpTeams, InvalidTeamsAnswerMinusOne) {
  for (shmem_team_t team : {SHMEM_TEAM_INVALID, max_teams - 1, max_teams, 1000}) {
    SCOPED_TRACE(team);
    EXPECT_EQ(shmem_team_my_pe(team), -1);
    EXPECT_EQ(shmem_team_n_pes(team), -1);
    EXPECT_EQ(shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD), -1);
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, team), -1);
    shmem_team_config_t config{};
    EXPECT_NE(shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &config), 0);
    EXPECT_NE(shmem_team_sync(team), 0);
  }
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, shmem_n_pes(), SHMEM_TEAM_WORLD), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, -1, SHMEM_TEAM_WORLD), -1);
}

// Odd world PEs (start 1, stride 2), then a split of that team: strides compose.
TEST(MpTeams, SplitStridedOddPEsAndANestedSplit) {
  const int n = shmem_n_pes();
  const expected_team odd{1, 2, n / 2};
  shmem_team_t team = 12345;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, nullptr, 0, &team), 0);
  expect_team(team, odd);
  if (team != SHMEM_TEAM_INVALID) {  // collective over the odd team only
    const int last = odd.size - 1;
    shmem_team_t nested = 12345;
    ASSERT_EQ(shmem_team_split_strided(team, last, 1, 1, nullptr, 0, &nested), 0);
    const int nested_world = odd.start + odd.stride * last;
    expect_team(nested, {nested_world, 1, 1});
    if (nested != SHMEM_TEAM_INVALID) {
      EXPECT_EQ(shmem_team_translate_pe(nested, 0, team), last);
      EXPECT_EQ(shmem_team_translate_pe(team, last, nested), 0);
    }
    shmem_team_destroy(nested);
    EXPECT_EQ(shmem_team_sync(team), 0);
    shmem_team_destroy(team);
    EXPECT_EQ(shmem_team_n_pes(team), -1) << "destroyed";
  }
  shmem_sync_all();
}

TEST(MpTeams, SplitStridedEvenPEsOfTheWorld) {
  const int n = shmem_n_pes();
  shmem_team_t team;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &team), 0);
  expect_team(team, {0, 2, (n + 1) / 2});
  shmem_team_destroy(team);
}

TEST(MpTeams, SizeOneTeams) {
  for (int k = 0; k < shmem_n_pes(); ++k) {
    SCOPED_TRACE(k);
    shmem_team_t team;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, k, 1, 1, nullptr, 0, &team), 0);
    expect_team(team, {k, 1, 1});
    if (team != SHMEM_TEAM_INVALID) {
      EXPECT_EQ(shmem_team_sync(team), 0);
    }
    shmem_team_destroy(team);
  }
}

// OpenSHMEM 1.5 split_2d: rows of xrange PEs (the last may be shorter) are the x teams, columns
// the y teams; an xrange wider than the parent makes one row.
TEST(MpTeams, Split2dRowsAndColumns) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  for (int xrange : {1, 2, 3, n, n + 1}) {
    SCOPED_TRACE("xrange " + std::to_string(xrange));
    shmem_team_t x = 12345, y = 12345;
    ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, nullptr, 0, &x, nullptr, 0, &y), 0);
    const int width = std::min(xrange, n), row = me / width, column = me % width;
    expect_team(x, {row * width, 1, std::min(width, n - row * width)});
    expect_team(y, {column, width, (n - column + width - 1) / width});
    EXPECT_NE(x, y);
    EXPECT_EQ(shmem_team_sync(x), 0);
    EXPECT_EQ(shmem_team_sync(y), 0);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
  }
}

// split_2d of a strided parent (the even world PEs): the teams' world PEs compose both strides.
TEST(MpTeams, Split2dOfAStridedParent) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const expected_team even{0, 2, (n + 1) / 2};
  shmem_team_t parent;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, even.size, nullptr, 0, &parent), 0);
  if (parent != SHMEM_TEAM_INVALID) {
    shmem_team_t x, y;
    ASSERT_EQ(shmem_team_split_2d(parent, 1, nullptr, 0, &x, nullptr, 0, &y), 0);
    expect_team(x, {me, 1, 1});
    expect_team(y, even);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
    shmem_team_destroy(parent);
  }
  shmem_sync_all();
}

TEST(MpTeams, ConfigIsRecorded) {
  const shmem_team_config_t wanted{5};
  shmem_team_t with, without;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), &wanted, SHMEM_TEAM_NUM_CONTEXTS, &with), 0);
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), &wanted, 0, &without), 0);
  shmem_team_config_t seen{-1};
  EXPECT_EQ(shmem_team_get_config(with, SHMEM_TEAM_NUM_CONTEXTS, &seen), 0);
  EXPECT_EQ(seen.num_contexts, 5);
  EXPECT_EQ(shmem_team_get_config(without, SHMEM_TEAM_NUM_CONTEXTS, &seen), 0);
  EXPECT_EQ(seen.num_contexts, 0) << "the mask did not name num_contexts";
  shmem_team_destroy(without);
  shmem_team_destroy(with);
}

TEST(MpTeams, DestroyFreesTheSlotForReuse) {
  shmem_team_t first = SHMEM_TEAM_INVALID;
  for (int round = 0; round < 3 * max_teams; ++round) {
    shmem_team_t team;
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &team), 0) << round;
    if (round == 0) first = team;
    EXPECT_EQ(team, first) << "the lowest free slot, again";
    EXPECT_EQ(shmem_team_sync(team), 0);
    shmem_team_destroy(team);
  }
  EXPECT_EQ(first, 2) << "slots 0 and 1 are WORLD and SHARED";
}

// Slots are agreed over the parent: one taken only on PE 0 is skipped on every PE.
TEST(MpTeams, SlotsAreAgreedAcrossThePEs) {
  shmem_team_t only_pe0, everyone;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, &only_pe0), 0);
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &everyone), 0);
  EXPECT_EQ(everyone, 3);
  EXPECT_TRUE(same_on_every_pe(everyone));
  EXPECT_EQ(shmem_team_sync(everyone), 0);
  shmem_team_destroy(everyone);
  shmem_team_destroy(only_pe0);
}

TEST(MpTeams, RunningOutOfSlotsFailsOnEveryPE) {
  std::vector<shmem_team_t> teams;
  for (int i = 0; i <= max_teams; ++i) {
    shmem_team_t team = 12345;
    const int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &team);
    if (rc != 0) {
      EXPECT_EQ(team, SHMEM_TEAM_INVALID);
      break;
    }
    teams.push_back(team);
  }
  EXPECT_EQ(static_cast<int>(teams.size()), max_teams - 2) << "every slot but WORLD's and SHARED's";
  EXPECT_TRUE(same_on_every_pe(static_cast<int>(teams.size())));
  // split_2d needs two slots: with one free it fails, and takes none.
  shmem_team_destroy(teams.back());
  teams.pop_back();
  shmem_team_t x = 12345, y = 12345;
  EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &x, nullptr, 0, &y), 0);
  EXPECT_EQ(x, SHMEM_TEAM_INVALID);
  EXPECT_EQ(y, SHMEM_TEAM_INVALID);
  shmem_team_t last;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &last), 0);
  teams.push_back(last);
  for (shmem_team_t team : teams) shmem_team_destroy(team);
  shmem_team_t again;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &again), 0);
  EXPECT_EQ(again, 2);
  shmem_team_destroy(again);
}

TEST(MpTeams, BadSplitArgumentsThrowOnEveryPE) {
  const int n = shmem_n_pes();
  struct args {
    int start, stride, size;
  };
  for (const args& a : {args{0, 1, n + 1}, args{-1, 1, 1}, args{0, 0, 2}, args{0, 1, 0}, args{n - 1, 2, 2}, args{n, 1, 1}}) {
    SCOPED_TRACE(std::to_string(a.start) + " " + std::to_string(a.stride) + " " + std::to_string(a.size));
    shmem_team_t team;
    try {
      shmem_team_split_strided(SHMEM_TEAM_WORLD, a.start, a.stride, a.size, nullptr, 0, &team);
      ADD_FAILURE() << "did not throw";
    } catch (const error& e) {
      EXPECT_EQ(e.pe(), shmem_my_pe());
      EXPECT_TRUE(mp_test::names_pe_and_call(e.what(), "shmem_team_split_strided"));
    }
  }
  shmem_team_t x, y;
  try {
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, nullptr, 0, &x, nullptr, 0, &y);
    ADD_FAILURE() << "xrange 0 did not throw";
  } catch (const error& e) {
    EXPECT_TRUE(mp_test::names_pe_and_call(e.what(), "shmem_team_split_2d"));
  }
  shmem_sync_all();  // nobody was left inside a split
  shmem_team_t team;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &team), 0) << "no slot leaked";
  EXPECT_EQ(team, 2);
  shmem_team_destroy(team);
}

TEST(MpTeams, InvalidParentGivesAnInvalidTeam) {
  shmem_team_t team = 12345, x = 12345, y = 12345;
  EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, nullptr, 0, &team), 0);
  EXPECT_EQ(team, SHMEM_TEAM_INVALID);
  EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, nullptr, 0, &x, nullptr, 0, &y), 0);
  EXPECT_EQ(x, SHMEM_TEAM_INVALID);
  EXPECT_EQ(y, SHMEM_TEAM_INVALID);
}

TEST(MpTeams, PredefinedTeamsCannotBeDestroyed) {
  for (const auto& [team, name] : {std::pair{SHMEM_TEAM_WORLD, "SHMEM_TEAM_WORLD"}, std::pair{SHMEM_TEAM_SHARED, "SHMEM_TEAM_SHARED"}}) {
    try {
      shmem_team_destroy(team);
      ADD_FAILURE() << name << " was destroyed";
    } catch (const error& e) {
      EXPECT_TRUE(mp_test::names_pe_and_call(e.what(), "shmem_team_destroy"));
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  shmem_team_destroy(SHMEM_TEAM_INVALID);  // a PE left out of a split may pass its result: no-op
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), shmem_n_pes());
}

// Each round, every member stores the round number into every member's slot for it, syncs, and
// checks that all members' stores arrived; a sync that let a PE through early fails the check.
TEST(MpTeams, TeamSyncSeparatesRounds) {
  const int n = shmem_n_pes();
  const shmem_team_t none = SHMEM_TEAM_INVALID;
  shmem_team_t x = none, y = none;
  ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &x, nullptr, 0, &y), 0);
  const shmem_team_t teams[] = {SHMEM_TEAM_WORLD, x, y};
  // One row of slots per team: a PE that moved on to its next team must not disturb a member of
  // another team still checking this one.
  auto* slots = static_cast<std::int64_t*>(shmem_calloc(3 * n, sizeof(std::int64_t)));
  for (int t = 0; t < 3; ++t) {
    const shmem_team_t team = teams[t];
    const int size = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
    std::int64_t* seen = slots + t * n;
    int late = 0;
    for (std::int64_t round = 1; round <= 20; ++round) {
      for (int i = 0; i < size; ++i)
        shmem_putmem(&seen[mine], &round, sizeof round, shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD));
      if (round % 2) {
        EXPECT_EQ(shmem_team_sync(team), 0);
      } else {
        shmem_team_sync_on_stream(team, nullptr);  // GPU-less build: runs synchronously
      }
      for (int i = 0; i < size; ++i) late += seen[i] != round;
      EXPECT_EQ(shmem_team_sync(team), 0);
    }
    EXPECT_EQ(late, 0) << "team " << team;
  }
  shmem_team_destroy(x);
  shmem_team_destroy(y);
  shmem_free(slots);
}

// Host contexts: a team context numbers PEs as its team does; the default context is the world's.
TEST(MpContexts, TeamContextNumbersPEsAsItsTeam) {
  const int n = shmem_n_pes(), me = shmem_my_pe();
  auto* inbox = static_cast<int*>(shmem_calloc(4, sizeof(int)));
  ASSERT_NE(inbox, nullptr);
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, nullptr, 0, &odd), 0);
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  if (me % 2 == 1) {
    ASSERT_EQ(shmem_team_create_ctx(odd, SHMEM_CTX_PRIVATE, &ctx), 0);
    EXPECT_NE(ctx, SHMEM_CTX_DEFAULT);
    shmem_team_t team = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(ctx, &team), 0);
    EXPECT_EQ(team, odd);
    // Team PE 0 is world PE 1: every odd PE writes its world number into slot 0 there, by a typed,
    // a generic and a byte form, then an atomic through the context.
    const int odd_index = me / 2;
    if (odd_index == n / 2 - 1) {  // the last odd PE alone, so the slot has one writer
      shmem_ctx_int_p(ctx, inbox, me, 0);
      shmem_put(ctx, inbox + 1, &me, 1, 0);
      shmem_ctx_putmem(ctx, inbox + 2, &me, sizeof me, 0);
      shmem_ctx_quiet(ctx);
    }
  } else {
    // Not a member: no context of that team; *ctx becomes SHMEM_CTX_INVALID.
    EXPECT_NE(shmem_team_create_ctx(odd, 0, &ctx), 0);
    EXPECT_EQ(ctx, SHMEM_CTX_INVALID);
  }
  shmem_barrier_all();
  if (me == 1) {
    const int last_odd = n - 1 - (n % 2 == 0 ? 0 : 1);
    EXPECT_EQ(inbox[0], last_odd);
    EXPECT_EQ(inbox[1], last_odd);
    EXPECT_EQ(inbox[2], last_odd);
  }
  shmem_barrier_all();
  // Every member adds through its context to team PE 0; the world's default context reads it back.
  if (me % 2 == 1) shmem_ctx_int_atomic_add(ctx, inbox + 3, 1, 0);
  shmem_barrier_all();
  EXPECT_EQ(shmem_atomic_fetch(SHMEM_CTX_DEFAULT, inbox + 3, 1), n / 2);
  EXPECT_EQ(shmem_ctx_int_atomic_fetch(SHMEM_CTX_DEFAULT, inbox + 3, 1), n / 2);
  shmem_barrier_all();
  if (me % 2 == 1) {
    // A PE outside the team's numbering is an error naming the PE and the context's team.
    try {
      shmem_ctx_int_p(ctx, inbox, 0, n / 2);
      ADD_FAILURE() << "team PE " << n / 2 << " of a " << n / 2 << "-PE team did not throw";
    } catch (const error& e) {
      EXPECT_EQ(e.pe(), me);
      EXPECT_NE(std::string(e.what()).find("shmem_ctx_int_p: PE " + std::to_string(n / 2) + " is outside the context's team"),
                std::string::npos) << e.what();
    }
    shmem_ctx_destroy(ctx);
    shmem_team_t team = 12345;
    EXPECT_EQ(shmem_ctx_get_team(ctx, &team), -1) << "destroyed";
    EXPECT_EQ(team, SHMEM_TEAM_INVALID);
    EXPECT_THROW(shmem_ctx_putmem(ctx, inbox, &me, sizeof me, 0), error) << "a destroyed context";
  }
  shmem_barrier_all();
  shmem_team_destroy(odd);
  shmem_free(inbox);
}

TEST(MpContexts, WorldContextsDestroyingAndBadOptions) {
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE, &ctx), 0);
  shmem_team_t team = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_ctx_get_team(ctx, &team), 0);
  EXPECT_EQ(team, SHMEM_TEAM_WORLD);
  EXPECT_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team), 0);
  EXPECT_EQ(team, SHMEM_TEAM_WORLD);
  // Created and destroyed contexts are reused, never confused with live ones.
  shmem_ctx_t second = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(0, &second), 0);
  EXPECT_NE(second, ctx);
  shmem_ctx_destroy(ctx);
  shmem_ctx_t third = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(0, &third), 0);
  EXPECT_EQ(third, ctx) << "the freed entry is reused";
  shmem_ctx_fence(third);
  shmem_ctx_destroy(third);
  shmem_ctx_destroy(second);
  shmem_ctx_destroy(SHMEM_CTX_INVALID);  // no-op
  EXPECT_THROW(shmem_ctx_destroy(SHMEM_CTX_DEFAULT), error);
  EXPECT_THROW(shmem_ctx_create(1L << 20, &ctx), error);
  EXPECT_THROW(shmem_ctx_quiet(SHMEM_CTX_INVALID), error);
  shmem_fence();
  // A team's contexts go with it.
  shmem_team_t all = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), nullptr, 0, &all), 0);
  ASSERT_EQ(shmem_team_create_ctx(all, 0, &ctx), 0);
  shmem_team_destroy(all);
  EXPECT_EQ(shmem_ctx_get_team(ctx, &team), -1);
  try {
    shmem_ctx_quiet(ctx);
    ADD_FAILURE() << "a context of a destroyed team did not throw";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("its team was destroyed"), std::string::npos) << e.what();
  }
  shmem_barrier_all();
}

}  // namespace
}  // namespace gio

int main(int argc, char** argv) {
  return gio::mp_test::run_tests_in_one_job(argc, argv, {{"GIO_SYMMETRIC_SIZE", "1M"}, {"GIO_MAX_TEAMS", "8"}});
}
