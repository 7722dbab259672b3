// The teams' areas in gio's part of the heap (include/gio/team.hpp, host/teams.cpp): sync words,
// then the reduce scratch that small reductions push into (docs/collectives.md). The device
// addresses slot s of a team's scratch as sync_offset + team_scratch_offset(n) + s x slot bytes,
// block my_pe x reduce_push_bytes; these tests hold the layout to what that arithmetic needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "gio/team.hpp"
#include "teams.hpp"

namespace gio {
namespace {

constexpr std::int32_t world_sizes[] = {1, 2, 3, 7, 8, 9, 64, 1024, 4096};

TEST(TeamLayout, CountsThenScratchFollowTheSyncWordsAligned) {
  for (std::int32_t n : world_sizes) {
    EXPECT_EQ(team_counts_offset(n), team_sync_words(n) * sizeof(std::uint64_t)) << n << " PEs";
    EXPECT_GE(team_scratch_offset(n), team_counts_offset(n) + n * sizeof(std::uint64_t))
        << n << " PEs: a count word per PE before the scratch";
    EXPECT_EQ(team_scratch_offset(n) % 64, 0u) << n << " PEs";
    EXPECT_EQ(team_area_bytes(n) % 64, 0u) << n << " PEs: the next team's area must stay 64-byte aligned";
  }
}

TEST(TeamLayout, TwoSlotsHoldEveryPushableTeam) {
  for (std::int32_t n : world_sizes) {
    // The largest team that pushes: the whole world, or reduce_push_members of it.
    const std::uint64_t members = static_cast<std::uint64_t>(std::min(n, reduce_push_members));
    EXPECT_EQ(reduce_slot_members(n), members) << n << " PEs";
    const std::uint64_t last_block_end =
        team_scratch_offset(n) + (2 - 1) * members * reduce_push_bytes + members * reduce_push_bytes;
    EXPECT_EQ(team_area_bytes(n), last_block_end) << n << " PEs: slot 1's last block ends the area";
  }
  EXPECT_EQ(reduce_push_bytes % 16, 0u) << "blocks keep 16-byte elements aligned";
}

TEST(TeamLayout, EveryTeamSlotHasAWholeArea) {
  for (std::int32_t n : world_sizes)
    for (int teams : {2, 32, 4096})
      EXPECT_EQ(rt::team_sync_area_bytes(teams, n), static_cast<std::size_t>(teams) * team_area_bytes(n))
          << teams << " teams, " << n << " PEs";
  // What docs/teams.md states for the default 32 teams.
  EXPECT_EQ(rt::team_sync_area_bytes(32, 2), 258u * 1024);
  EXPECT_EQ(rt::team_sync_area_bytes(32, 8), 1030u * 1024);
  EXPECT_EQ(rt::team_sync_area_bytes(32, 1024), 1538u * 1024);
}

}  // namespace
}  // namespace gio
