// Teams on the host: the team table (host copy and the device copy kernels read), the MPI group
// of each team, and the lookups the collectives share. Private to the host runtime.
#pragma once
#include <vector>

#include "runtime.hpp"

namespace gio::rt {

// World PE of team PE `index`, and the reverse (-1 if `world_pe` is not a member).
inline int world_pe_of(const team_info& t, int index) { return t.start + t.stride * index; }
inline int team_pe_of(const team_info& t, int world_pe) {
  const int distance = world_pe - t.start;
  if (distance < 0 || distance % t.stride != 0 || distance / t.stride >= t.size) return -1;
  return distance / t.stride;
}

// Bytes of gio's internal heap part that hold the teams' sync areas.
std::size_t team_sync_area_bytes(int max_teams, int n_pes);

// Init, collective over every PE (so outside the init stages): decides SHMEM_TEAM_SHARED and
// makes the groups of WORLD and SHARED. Returns the full table, unused slots empty.
std::vector<team_slot> make_predefined_teams(runtime& r);
// Init stage: installs the table, copies it to the device and points the handle at it.
void publish_teams(runtime& r, std::vector<team_slot> table);

// This PE's entry for `team`, or throws gio::error naming `call` (SHMEM_TEAM_INVALID, an index
// outside the table, or a slot that holds no team on this PE).
team_slot& member_team(runtime& r, shmem_team_t team, const char* call);
// GPU builds: kernels of this PE store into every member's heap; throws naming the first member
// whose heap this GPU cannot reach.
void require_reachable_members(runtime& r, const team_info& t, const char* call);

}  // namespace gio::rt
