// Contexts (GIO paper Fig. 2): each workgroup makes its context once from the handle the kernel
// received by value, in caller-provided shared memory; ctx_default() gives a context without
// storage, for code that has no workgroup-wide entry point. A context belongs to a team
// (OpenSHMEM team contexts): the PE numbers of its RMA, atomic and signal calls are PEs of that
// team. Per-context transport state (queue pairs for the GDA transport) joins the struct with
// that transport.
#pragma once
#include "gio/handle.hpp"
#include "gio/platform/platform.hpp"
#include "gio/team.hpp"

namespace gio {

struct ctx {
  device_handle h;
  team_info team;       // the context's team as this PE sees it (WORLD: 0, 1, n_pes, my_pe)
  shmem_team_t team_id;
  // The handle's inline window re-indexed by team PE, so that a call to team PE i < 8 finds its
  // peer with one shared-memory (or register) read: bit i of team_reachable says team_delta[i]
  // is valid, bit i of team_native_atomics that atomics to it run natively.
  std::uint32_t team_reachable;
  std::uint32_t team_native_atomics;
  std::uint32_t reserved;
  std::int64_t team_delta[handle_inline_peers];
};

namespace detail {
// WORLD is described by the handle itself; other teams come from the team table (one global
// load). Unchecked: callers check the index (checks.hpp).
GIO_DEVICE team_info team_record(const device_handle& h, shmem_team_t team) {
  if (team == SHMEM_TEAM_WORLD) return {0, 1, h.n_pes, h.my_pe, h.world_sync_offset, 0};
  return h.teams[team];
}
// An unusable team (invalid index, or one this PE is not in) gets size 0: every PE-taking call
// through such a context then fails its PE check instead of reaching a wrong PE.
GIO_DEVICE team_info context_team(const device_handle& h, shmem_team_t team) {
  if (team < 0 || team >= h.max_teams) return no_team();
  const team_info t = team_record(h, team);
  return t.my_pe < 0 ? no_team() : t;
}
}  // namespace detail

// Any thread, any time: a context in registers.
GIO_DEVICE ctx ctx_default(const device_handle& h, shmem_team_t team = SHMEM_TEAM_WORLD) {
  ctx c{h, detail::context_team(h, team), team, 0, 0, 0, {}};
  for (int i = 0; i < handle_inline_peers && i < c.team.size; ++i) {
    const unsigned window_index = static_cast<unsigned>(c.team.start + i * c.team.stride - h.inline_first_pe);
    if (window_index >= static_cast<unsigned>(h.inline_count) || !((h.inline_reachable >> window_index) & 1u)) continue;
    c.team_reachable |= 1u << i;
    c.team_native_atomics |= ((h.inline_native_atomics >> window_index) & 1u) << i;
    c.team_delta[i] = h.inline_delta[window_index];
  }
  return c;
}

// Whole workgroup: fills `storage` (declare it __shared__) and returns it to every thread.
GIO_DEVICE const ctx& ctx_create_wg(const device_handle& h, ctx& storage, shmem_team_t team = SHMEM_TEAM_WORLD) {
  if (platform::thread_in_wg() == 0) storage = ctx_default(h, team);
  platform::wg_barrier();
  return storage;
}

// WORLD's numbers, whatever the context's team (OpenSHMEM); see shmem_team_my_pe for the team's.
GIO_DEVICE int shmem_my_pe(const ctx& c) { return c.h.my_pe; }
GIO_DEVICE int shmem_n_pes(const ctx& c) { return c.h.n_pes; }
GIO_DEVICE shmem_team_t shmem_ctx_get_team(const ctx& c) { return c.team_id; }

}  // namespace gio
