// Teams (OpenSHMEM 1.5 §9.4): the identifiers and the per-team record that the host runtime
// keeps in a table in GPU memory (device_handle::teams). Seen by both compilers: plain structs.
#pragma once
#include <cstdint>
#include <type_traits>

#include "gio/platform/host_device.hpp"

namespace gio {

// A team is an index into the team table; the predefined teams have fixed indices.
using shmem_team_t = std::int32_t;
inline constexpr shmem_team_t SHMEM_TEAM_INVALID = -1;
inline constexpr shmem_team_t SHMEM_TEAM_WORLD = 0;
inline constexpr shmem_team_t SHMEM_TEAM_SHARED = 1;  // the PEs of this node that share memory with this PE

// OpenSHMEM 1.5 shmem_team_config_t; num_contexts is accepted and recorded (contexts are made
// on the device from the handle, so there is nothing to reserve).
struct shmem_team_config_t {
  int num_contexts;
};
inline constexpr long SHMEM_TEAM_NUM_CONTEXTS = 1l << 0;

// One team as seen by one PE: members are world PEs start, start + stride, ... (size of them).
// A team's sync area is symmetric: the same heap offset on every member (docs/collectives.md
// gives its layout and size).
struct team_info {
  std::int32_t start;         // world PE of team PE 0
  std::int32_t stride;        // >= 1
  std::int32_t size;          // members; 0 = unused slot
  std::int32_t my_pe;         // this PE's index in the team, -1 if not a member
  std::uint64_t sync_offset;  // heap offset of this team's sync area
  std::uint64_t reserved;
};
static_assert(sizeof(team_info) == 32, "team_info is shared with device code");

// An unused slot, an invalid team, or a team seen from a PE outside it: no members.
GIO_HOST_DEVICE_INLINE constexpr team_info no_team() { return {0, 1, 0, -1, 0, 0}; }
static_assert(std::is_trivially_copyable_v<team_info>);

// Layout of a team's sync area (all 64-bit words, symmetric offset team_info::sync_offset):
//   word 0:            this PE's epoch: how many syncs of the team it has completed (local only)
//   word 1 + i:        arrival of team PE i: the epoch it reached, stored by PE i itself
// so a team of n PEs needs (1 + n) words on each member. Then, in a job of N PEs:
//   word 1 + N + i:    team PE i's element count in its latest shmem_collect, stored by PE i
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t team_sync_words(std::int32_t size) { return 1u + static_cast<std::uint64_t>(size); }
// Offset of the collect counts in a team's area, in a job of world_size PEs.
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t team_counts_offset(std::int32_t world_size) {
  return team_sync_words(world_size) * sizeof(std::uint64_t);
}

// Small reductions push instead of pull (docs/collectives.md): on a team of at most
// reduce_push_members PEs, a reduction of at most reduce_push_bytes is pushed by each member
// into every member's reduce scratch, which follows the sync words in the team's area: two slots
// (used by alternate syncs of the team), each a reduce_push_bytes block per team PE.
inline constexpr std::uint64_t reduce_push_bytes = 2048;
inline constexpr std::int32_t reduce_push_members = 8;
// Team PEs a slot has room for, in a job of world_size PEs (no team is larger than the world).
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t reduce_slot_members(std::int32_t world_size) {
  return static_cast<std::uint64_t>(world_size < reduce_push_members ? world_size : reduce_push_members);
}
// Offset of the reduce scratch in a team's area (64-byte aligned, as every area is).
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t team_scratch_offset(std::int32_t world_size) {
  return (team_counts_offset(world_size) + static_cast<std::uint64_t>(world_size) * sizeof(std::uint64_t) + 63u) / 64u * 64u;
}
// Bytes of one team's area, sync words and scratch; a multiple of 64.
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t team_area_bytes(std::int32_t world_size) {
  return team_scratch_offset(world_size) + 2u * reduce_slot_members(world_size) * reduce_push_bytes;
}

}  // namespace gio
