// Teams on the device: the queries of OpenSHMEM 1.5 §9.4 and the record lookup the collectives
// use. Team records come from the handle (WORLD), the context (its own team) or the team table
// in GPU memory, which the host fills before kernels that use a new team are launched.
#pragma once
#include "gio/device/checks.hpp"
#include "gio/device/ctx.hpp"
#include "gio/team.hpp"

namespace gio {
namespace detail {

// The record of `team`, checked: a valid index of a team this PE belongs to.
GIO_DEVICE team_info team_of(const ctx& c, shmem_team_t team, const char* call, source_location loc) {
  check_team_index(c, team, call, loc);
  // WORLD (usually a constant here) comes from the handle (team_record) without a wait for the
  // context's team id before the record's loads, whose results the caller's first access needs.
  const team_info t = team != SHMEM_TEAM_WORLD && team == c.team_id ? c.team : team_record(c.h, team);
  check_team_member(c, team, t, call, loc);
  return t;
}

// The record of `team` for the queries, which answer -1 instead of failing.
GIO_DEVICE team_info query_team(const ctx& c, shmem_team_t team) {
  if (team < 0 || team >= c.h.max_teams) return no_team();
  return team_record(c.h, team);
}

}  // namespace detail

// This PE's number in `team`, or -1 (not a member, or an invalid team).
GIO_DEVICE int shmem_team_my_pe(const ctx& c, shmem_team_t team) {
  const team_info t = detail::query_team(c, team);
  return t.size > 0 ? t.my_pe : -1;
}

// Members of `team`, or -1 for an invalid team.
GIO_DEVICE int shmem_team_n_pes(const ctx& c, shmem_team_t team) {
  const team_info t = detail::query_team(c, team);
  return t.size > 0 ? t.size : -1;
}

// PE `src_pe` of `src_team` as a PE of `dest_team`, or -1 if it is not a member (or either team
// or src_pe is invalid).
GIO_DEVICE int shmem_team_translate_pe(const ctx& c, shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  const team_info src = detail::query_team(c, src_team);
  const team_info dest = detail::query_team(c, dest_team);
  if (src.size <= 0 || dest.size <= 0 || src_pe < 0 || src_pe >= src.size) return -1;
  const int world = src.start + src_pe * src.stride;
  const int offset = world - dest.start;
  if (offset < 0 || offset % dest.stride != 0 || offset / dest.stride >= dest.size) return -1;
  return offset / dest.stride;
}

}  // namespace gio
