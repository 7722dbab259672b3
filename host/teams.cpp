// Teams (OpenSHMEM 1.5 §9.4). Every team is a strided set of world PEs, so one team_info
// describes it on the device; on the host each team also has an MPI group (a split of its
// parent's) for the collective parts of team management and host-side sync. docs/teams.md.
#include "teams.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gio {
namespace rt {
namespace {

std::size_t slot_sync_bytes(const runtime& r) { return team_area_bytes(r.boot->size()); }

// Copies slot `s` to the device table, so kernels launched afterwards see it.
void publish_slot(runtime& r, shmem_team_t s) {
  r.backend->copy(r.teams_device + s, &r.teams[s].info, sizeof(team_info));
}

const team_slot* find_team(const runtime& r, shmem_team_t team) {
  if (team < 0 || team >= static_cast<int>(r.teams.size()) || !r.teams[team].used()) return nullptr;
  return &r.teams[team];
}

// Installs a team this PE belongs to in slot `s`: its sync area starts cleared.
void install(runtime& r, shmem_team_t s, const team_info& info, std::unique_ptr<bootstrap> group,
             shmem_team_config_t config) {
  team_slot& slot = r.teams[s];
  slot.info = info;
  slot.info.sync_offset = r.team_sync_offset + static_cast<std::uint64_t>(s) * slot_sync_bytes(r);
  slot.info.reserved = 0;
  slot.group = std::move(group);
  slot.config = config;
  r.backend->fill(r.heap + slot.info.sync_offset, 0, slot_sync_bytes(r));
  publish_slot(r, s);
}

// One new team per "family" (one for split_strided; the x and y teams of split_2d): this PE's
// color in the family (-1: not a member), its rank in the new team and the team's description.
struct new_team {
  int color;
  team_info info;
  shmem_team_t* out;
  const shmem_team_config_t* config;
  long config_mask;
};

// Collective over `parent`'s members, who all pass the same number of families. Slots are agreed
// over the whole parent (the lowest slots free on every member), so every member computes the
// same outcome, and running out returns non-zero everywhere.
int create_teams(runtime& r, const team_slot& parent, const char* call, const std::vector<new_team>& teams) {
  for (const auto& t : teams) *t.out = SHMEM_TEAM_INVALID;
  const int slots = static_cast<int>(r.teams.size()), members = parent.info.size;
  std::vector<unsigned char> used(slots), all_used(static_cast<std::size_t>(slots) * members);
  for (int s = 0; s < slots; ++s) used[s] = r.teams[s].used();
  parent.group->allgather(used.data(), all_used.data(), used.size());

  std::vector<shmem_team_t> chosen;
  for (int s = 0; s < slots && chosen.size() < teams.size(); ++s) {
    bool free_everywhere = true;
    for (int m = 0; m < members; ++m) free_everywhere = free_everywhere && !all_used[std::size_t(m) * slots + s];
    if (free_everywhere) chosen.push_back(s);
  }
  if (chosen.size() < teams.size()) {
    int fullest = 0, most = -1;
    for (int m = 0; m < members; ++m) {
      const int n = static_cast<int>(std::count(all_used.begin() + std::size_t(m) * slots,
                                                all_used.begin() + std::size_t(m + 1) * slots, 1));
      if (n > most) most = n, fullest = m;
    }
    std::fprintf(stderr,
                 "gio: PE %d: %s: out of team slots: needs %zu free on every PE of the parent team, but PE %d has "
                 "%d of GIO_MAX_TEAMS=%d in use; destroy teams or raise GIO_MAX_TEAMS\n",
                 r.pe(), call, teams.size(), world_pe_of(parent.info, fullest), most, slots);
    return 1;
  }

  std::vector<bootstrap*> joined;
  for (std::size_t f = 0; f < teams.size(); ++f) {
    auto group = parent.group->split(teams[f].color, teams[f].info.my_pe);
    if (!group) continue;
    const new_team& t = teams[f];
    install(r, chosen[f], t.info, std::move(group),
            t.config && (t.config_mask & SHMEM_TEAM_NUM_CONTEXTS) ? *t.config : shmem_team_config_t{0});
    *t.out = chosen[f];
    joined.push_back(r.teams[chosen[f]].group.get());
  }
  // No member's first sync may land before another member has cleared its sync area.
  for (bootstrap* group : joined) group->barrier();
  return 0;
}

std::string team_name(shmem_team_t team) { return "team " + std::to_string(team); }

}  // namespace

std::size_t team_sync_area_bytes(int max_teams, int n_pes) {
  return static_cast<std::size_t>(max_teams) * team_area_bytes(n_pes);
}

std::vector<team_slot> make_predefined_teams(runtime& r) {
  const int n = r.boot->size(), me = r.pe();
  // SHARED is this node's PEs when they are consecutive world ranks and every one of them
  // reaches every other by loads and stores; otherwise this PE alone (docs/teams.md).
  struct node_view {
    std::int32_t node_id;
    std::int32_t reaches_node;
  };
  node_view mine{r.boot->node_id(), 1};
  std::vector<node_view> all(n);
  r.boot->allgather(&mine, all.data(), sizeof mine);  // node ids
  for (int pe = 0; pe < n; ++pe)
    if (all[pe].node_id == mine.node_id && !r.peers[pe].heap_base) mine.reaches_node = 0;
  r.boot->allgather(&mine, all.data(), sizeof mine);  // and reachability
  int first = n, last = -1, count = 0;
  bool reachable = true;
  for (int pe = 0; pe < n; ++pe) {
    if (all[pe].node_id != mine.node_id) continue;
    first = std::min(first, pe), last = std::max(last, pe), ++count;
    reachable = reachable && all[pe].reaches_node;
  }
  const bool whole_node = reachable && last - first + 1 == count;

  std::vector<team_slot> table(r.settings.max_teams);
  table[SHMEM_TEAM_WORLD].info = {0, 1, n, me, 0, 0};
  table[SHMEM_TEAM_WORLD].group = r.boot->split(0, me);
  table[SHMEM_TEAM_SHARED].info = whole_node ? team_info{first, 1, count, me - first, 0, 0} : team_info{me, 1, 1, 0, 0, 0};
  table[SHMEM_TEAM_SHARED].group = r.boot->split(whole_node ? first : me, me);
  return table;
}

void publish_teams(runtime& r, std::vector<team_slot> table) {
  r.teams = std::move(table);
  const int slots = static_cast<int>(r.teams.size());
  r.teams_device = static_cast<team_info*>(r.backend->allocate_table(sizeof(team_info) * slots));
  for (int s = 0; s < slots; ++s) {
    team_slot& slot = r.teams[s];
    if (slot.used())
      install(r, s, slot.info, std::move(slot.group), slot.config);
    else
      publish_slot(r, s);
  }
  r.handle.max_teams = slots;
  r.handle.teams = r.teams_device;
  r.handle.world_sync_offset = r.teams[SHMEM_TEAM_WORLD].info.sync_offset;
}

team_slot& member_team(runtime& r, shmem_team_t team, const char* call) {
  if (!find_team(r, team))
    throw error(r.pe(), std::string(call) + ": " + team_name(team) + " is not a valid team on this PE" +
                            (team == SHMEM_TEAM_INVALID ? " (SHMEM_TEAM_INVALID)" : ""));
  return r.teams[team];
}

void require_reachable_members(runtime& r, const team_info& t, const char* call) {
  for (int i = 0; i < t.size; ++i) {
    const int pe = world_pe_of(t, i);
    if (!device_reachable(r, pe))
      throw error(r.pe(), std::string(call) + ": PE " + std::to_string(pe) + " (team PE " + std::to_string(i) +
                              ") is not reachable from this GPU");
  }
}

}  // namespace rt

using rt::find_team;
using rt::running;

int shmem_team_my_pe(shmem_team_t team) {
  const auto* t = find_team(running("shmem_team_my_pe"), team);
  return t ? t->info.my_pe : -1;
}

int shmem_team_n_pes(shmem_team_t team) {
  const auto* t = find_team(running("shmem_team_n_pes"), team);
  return t ? t->info.size : -1;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  rt::runtime& r = running("shmem_team_translate_pe");
  const auto* src = find_team(r, src_team);
  const auto* dest = find_team(r, dest_team);
  if (!src || !dest || src_pe < 0 || src_pe >= src->info.size) return -1;
  return rt::team_pe_of(dest->info, rt::world_pe_of(src->info, src_pe));
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config) {
  const auto* t = find_team(running("shmem_team_get_config"), team);
  if (!t) return -1;
  if (config && (config_mask & SHMEM_TEAM_NUM_CONTEXTS)) config->num_contexts = t->config.num_contexts;
  return 0;
}

int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size, const shmem_team_config_t* config,
                             long config_mask, shmem_team_t* new_team) {
  constexpr const char* call = "shmem_team_split_strided";
  rt::runtime& r = running(call);
  if (!new_team) throw error(r.pe(), std::string(call) + ": new_team is null");
  *new_team = SHMEM_TEAM_INVALID;
  const auto* p = find_team(r, parent);
  if (!p) return -1;  // OpenSHMEM: an invalid parent gives SHMEM_TEAM_INVALID, nothing is created
  const long long last = static_cast<long long>(start) + static_cast<long long>(stride) * (size - 1LL);
  if (size < 1 || stride < 1 || start < 0 || last >= p->info.size)
    throw error(r.pe(), std::string(call) + ": start " + std::to_string(start) + ", stride " + std::to_string(stride) +
                            ", size " + std::to_string(size) + " do not describe PEs of the parent team (" +
                            std::to_string(p->info.size) + " PEs; need start >= 0, stride >= 1, size >= 1)");
  const int me = p->info.my_pe - start;
  const bool member = me >= 0 && me % stride == 0 && me / stride < size;
  const team_info info{rt::world_pe_of(p->info, start), p->info.stride * stride, size, member ? me / stride : -1, 0, 0};
  return rt::create_teams(r, *p, call, {{member ? 0 : -1, info, new_team, config, config_mask}});
}

int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t* xaxis_config, long xaxis_mask,
                        shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
                        shmem_team_t* yaxis_team) {
  constexpr const char* call = "shmem_team_split_2d";
  rt::runtime& r = running(call);
  if (!xaxis_team || !yaxis_team) throw error(r.pe(), std::string(call) + ": xaxis_team or yaxis_team is null");
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  const auto* p = find_team(r, parent);
  if (!p) return -1;
  if (xrange < 1) throw error(r.pe(), std::string(call) + ": xrange " + std::to_string(xrange) + " is not positive");
  // The parent's PEs form a grid with rows of xrange PEs (the last row may be shorter); the x
  // teams are its rows, the y teams its columns. A wider xrange than the parent is one row.
  const int n = p->info.size, x = std::min(xrange, n), me = p->info.my_pe;
  const int row = me / x, column = me % x;
  const team_info xinfo{rt::world_pe_of(p->info, row * x), p->info.stride, std::min(x, n - row * x), column, 0, 0};
  const team_info yinfo{rt::world_pe_of(p->info, column), p->info.stride * x, (n - column + x - 1) / x, row, 0, 0};
  return rt::create_teams(r, *p, call,
                         {{row, xinfo, xaxis_team, xaxis_config, xaxis_mask},
                          {column, yinfo, yaxis_team, yaxis_config, yaxis_mask}});
}

void shmem_team_destroy(shmem_team_t team) {
  constexpr const char* call = "shmem_team_destroy";
  rt::runtime& r = running(call);
  if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED)
    throw error(r.pe(), std::string(call) + ": " +
                            (team == SHMEM_TEAM_WORLD ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED") +
                            " is predefined and cannot be destroyed");
  if (!find_team(r, team)) return;  // SHMEM_TEAM_INVALID (a PE left out of a split): nothing to do
  rt::team_slot& slot = r.teams[team];
  // The slot may be reused as soon as it is free: every member's kernels that use the team have
  // finished (synchronize) before any member frees it (barrier).
  r.backend->synchronize();
  slot.group->barrier();
  slot = rt::team_slot{};
  rt::publish_slot(r, team);
  for (shmem_team_t& owner : r.contexts)  // the team's contexts go with it
    if (owner == team) owner = SHMEM_TEAM_INVALID;
}

// --- Host contexts ----------------------------------------------------------------------------

namespace {
int make_ctx(rt::runtime& r, shmem_team_t team, long options, shmem_ctx_t* ctx, const char* call) {
  if (!ctx) throw error(r.pe(), std::string(call) + ": ctx is null");
  *ctx = SHMEM_CTX_INVALID;
  constexpr long known = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
  if (options & ~known)
    throw error(r.pe(), std::string(call) + ": options " + std::to_string(options) +
                            " hold bits other than SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE and SHMEM_CTX_NOSTORE");
  const auto* t = find_team(r, team);
  if (!t || t->info.my_pe < 0) return -1;  // not a team of this PE's
  auto free_entry = std::find(r.contexts.begin() + 1, r.contexts.end(), SHMEM_TEAM_INVALID);
  if (free_entry == r.contexts.end()) free_entry = r.contexts.insert(r.contexts.end(), SHMEM_TEAM_INVALID);
  *free_entry = team;
  *ctx = shmem_ctx_t{static_cast<std::int32_t>(free_entry - r.contexts.begin())};
  return 0;
}

// The context's team, or SHMEM_TEAM_INVALID.
shmem_team_t team_of(const rt::runtime& r, shmem_ctx_t ctx) {
  return ctx.id >= 0 && ctx.id < static_cast<int>(r.contexts.size()) ? r.contexts[ctx.id] : SHMEM_TEAM_INVALID;
}
}  // namespace

int shmem_ctx_create(long options, shmem_ctx_t* ctx) {
  return make_ctx(running("shmem_ctx_create"), SHMEM_TEAM_WORLD, options, ctx, "shmem_ctx_create");
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx) {
  return make_ctx(running("shmem_team_create_ctx"), team, options, ctx, "shmem_team_create_ctx");
}

void shmem_ctx_destroy(shmem_ctx_t ctx) {
  constexpr const char* call = "shmem_ctx_destroy";
  rt::runtime& r = running(call);
  if (ctx == SHMEM_CTX_DEFAULT) throw error(r.pe(), std::string(call) + ": SHMEM_CTX_DEFAULT cannot be destroyed");
  if (team_of(r, ctx) == SHMEM_TEAM_INVALID) return;  // SHMEM_CTX_INVALID, or its team already destroyed it
  shmem_quiet();
  r.contexts[ctx.id] = SHMEM_TEAM_INVALID;
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team) {
  rt::runtime& r = running("shmem_ctx_get_team");
  if (!team) throw error(r.pe(), "shmem_ctx_get_team: team is null");
  *team = team_of(r, ctx);
  return *team == SHMEM_TEAM_INVALID ? -1 : 0;
}

namespace {
// The context's team, or throws naming `call` when the context is not valid.
shmem_team_t valid_team_of(rt::runtime& r, shmem_ctx_t ctx, const char* call) {
  const shmem_team_t team = team_of(r, ctx);
  if (team == SHMEM_TEAM_INVALID)
    throw error(r.pe(), std::string(call) + ": context " + std::to_string(ctx.id) +
                            (ctx == SHMEM_CTX_INVALID ? " (SHMEM_CTX_INVALID)" : "") +
                            " is not valid (never created, destroyed, or its team was destroyed)");
  return team;
}
}  // namespace

int detail::ctx_world_pe(shmem_ctx_t ctx, int pe, const char* call) {
  rt::runtime& r = running(call);
  const shmem_team_t team = valid_team_of(r, ctx, call);
  const team_info& t = r.teams[team].info;
  if (pe < 0 || pe >= t.size)
    throw error(r.pe(), std::string(call) + ": PE " + std::to_string(pe) + " is outside the context's " +
                            rt::team_name(team) + " (" + std::to_string(t.size) + " PEs)");
  return rt::world_pe_of(t, pe);
}

void shmem_ctx_quiet(shmem_ctx_t ctx) {
  valid_team_of(running("shmem_ctx_quiet"), ctx, "shmem_ctx_quiet");
  shmem_quiet();
}

void shmem_ctx_fence(shmem_ctx_t ctx) {
  valid_team_of(running("shmem_ctx_fence"), ctx, "shmem_ctx_fence");
  shmem_fence();
}

void shmem_fence() { shmem_quiet(); }

void shmem_ctx_putmem(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe) {
  shmem_putmem(dest, source, nbytes, detail::ctx_world_pe(ctx, pe, "shmem_ctx_putmem"));
}

void shmem_ctx_getmem(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe) {
  shmem_getmem(dest, source, nbytes, detail::ctx_world_pe(ctx, pe, "shmem_ctx_getmem"));
}

void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe) {
  shmem_putmem_nbi(dest, source, nbytes, detail::ctx_world_pe(ctx, pe, "shmem_ctx_putmem_nbi"));
}

void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe) {
  shmem_getmem_nbi(dest, source, nbytes, detail::ctx_world_pe(ctx, pe, "shmem_ctx_getmem_nbi"));
}

int shmem_team_sync(shmem_team_t team) {
  rt::runtime& r = running("shmem_team_sync");
  const auto* t = find_team(r, team);
  if (!t) return -1;
  r.backend->synchronize();  // this PE's kernels are part of what it brings to the sync
  t->group->barrier();
  return 0;
}

void shmem_sync_all() { shmem_team_sync(SHMEM_TEAM_WORLD); }

void shmem_team_sync_on_stream(shmem_team_t team, stream_t stream) {
  constexpr const char* call = "shmem_team_sync_on_stream";
  rt::runtime& r = running(call);
  const rt::team_slot& t = rt::member_team(r, team, call);
  if (!rt::gpu_build) {  // no device: streams run synchronously
    t.group->barrier();
    return;
  }
  rt::require_reachable_members(r, t.info, call);
  r.backend->team_sync(r.handle, team, /*quiet=*/false, call, &stream);
}

void shmem_sync_all_on_stream(stream_t stream) { shmem_team_sync_on_stream(SHMEM_TEAM_WORLD, stream); }

}  // namespace gio
