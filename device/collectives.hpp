// Team synchronisation and collectives on the load/store transport (OpenSHMEM 1.5 §9.9): the one
// implementation behind every generated binding, at thread, wave or workgroup scope (Coop).
// One caller group per PE per call; every member of the team calls, in the same order.
//
// Sync (docs/collectives.md): each PE counts its syncs of a team in its own sync area (word 0).
// A sync stores its new count into word 1 + my_pe of every other member's area, after a release
// fence (acq_rel for sync, sc for barrier = quiet + sync), then waits with acquire loads until
// every member's word in its own area reaches that count. A member can be at most one sync ahead, so
// `>=` needs no reset; 64-bit counters do not wrap. Lanes of a wave/workgroup split the peers.
//
// Data collectives push with the group's stores (or gda puts) straight into the members'
// symmetric dest, then sync: no staging buffer. Over gda a sync first completes the context's
// WQEs (quiet) and sends its count as an inline RDMA write. Reductions pull: sync (every source ready), each PE combines every
// member's source in team order (so every PE gets bit-identical results), writes its dest, then
// sync (no source is changed while a peer still reads it). In-place reductions (dest == source)
// work in chunks held in registers, with a sync between reading a chunk and writing it. Small
// ones (reduce_push_bytes, reduce_push_members; include/gio/team.hpp) push into the team's
// scratch instead and sync once.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/device/checks.hpp"
#include "gio/device/coop.hpp"
#include "gio/device/copy.hpp"
#include "gio/device/library.hpp"
#include "gio/device/rma_core.hpp"
#include "gio/device/teams.hpp"
#include "gio/device/wait_core.hpp"
#include "gio/ops.hpp"
#include "gio/platform/strong.hpp"

namespace gio::detail {

// Offset of team `t`'s PE `member`'s heap from this PE's, as mapped here.
GIO_DEVICE std::ptrdiff_t member_delta(const ctx& c, const team_info& t, int member, const char* call,
                                       source_location loc) {
  return route_world(c, t.start + member * t.stride, call, loc).delta;
}

// Stores `value` at symmetric `word` of the PE `where` leads to: a store over the load/store
// transport, an inline RDMA write over gda.
GIO_DEVICE void store_over(const ctx& c, const peer_route& where, std::uint64_t* word, std::uint64_t value,
                           const char* call, source_location loc) {
  transports::over(where, [&](auto t) { decltype(t)::p(c, where, word, value, call, loc); });
}

// The group copies `bytes` from local `source` to symmetric `dest` of team member `member`.
// Over gda the put is not waited for: the sync that follows every data collective completes it.
template <class Coop>
GIO_DEVICE void copy_to_member(const ctx& c, const team_info& t, int member, void* dest, const void* source,
                               std::size_t bytes, const char* call, source_location loc) {
  const peer_route where = route_world(c, t.start + member * t.stride, call, loc);
  transports::over(where, [&](auto tr) {
    decltype(tr)::template push<Coop>(c, where, dest, source, bytes, call, loc);
  });
}

// The team's sync words on this PE (include/gio/team.hpp).
GIO_DEVICE std::uint64_t* sync_words(const ctx& c, const team_info& t) {
  return reinterpret_cast<std::uint64_t*>(c.h.heap_base + t.sync_offset);
}
// The number of the team's next sync on this PE. Every member of the group reads it before the
// sync's first group barrier, so the leader's update at the sync's end cannot overtake any read.
GIO_DEVICE std::uint64_t next_sync_number(const ctx& c, const team_info& t) {
  return platform::ld_relaxed_sys(sync_words(c, t)) + 1;
}

// The team's sync number `count` (next_sync_number, read by the caller, who needed it earlier).
template <class Coop>
GIO_DEVICE void sync_team_numbered(const ctx& c, const team_info& t, std::uint64_t count, bool quiet, const char* call,
                                   source_location loc) {
  std::uint64_t* area = sync_words(c, t);
  // The network half of the fence: every WQE this PE posted, on any context (the group's
  // accesses may follow other workgroups' by a grid sync), has completed before a count goes out.
  if (transports::any_in_flight(c) && Coop::rank() == 0) transports::complete_all(c, call, loc);
  Coop::sync();  // ... and the group's earlier accesses precede the fences below (cumulativity)
  // The first wave does the work, its fence executed by all its lanes at once: lanes on
  // different paths would issue one (serialised) fence each.
  const int rank = static_cast<int>(Coop::rank());
  const int lanes = static_cast<int>(Coop::size() < platform::wave_size ? Coop::size() : platform::wave_size);
  if (rank < lanes) {
    // The members this lane signals, after itself. A thread alone looks each route up ahead of
    // its store, the first before the fence: nothing after a system fence issues until it
    // completes, so a lookup after it adds its latency to every sync (barrier_all, one thread:
    // 1.717 -> 1.676 us). A group's lanes look up after the fence: lanes that take
    // different paths just before it issue it once per path (wg: 2.140 -> 2.235 us when they did).
    constexpr bool route_before_fence = std::is_same_v<Coop, coop::thread>;
    const auto route_of = [&](int j) { return j < t.size ? route_world(c, t.start + j * t.stride, call, loc) : peer_route{}; };
    const auto next_member = [&](int j) { return j + lanes == t.my_pe ? j + 2 * lanes : j + lanes; };
    int member = rank == t.my_pe ? rank + lanes : rank;
    peer_route where{};
    if constexpr (route_before_fence) where = route_of(member);
    if (t.size > 1 || quiet) quiet ? platform::fence_sc_system() : platform::fence_acq_rel_system();
    // A plain store of the count, not an atomic increment: it needs nothing from the link but
    // stores, and it becomes visible sooner (gio-bench-order-probe: 1.57 vs 1.91 us per barrier).
    // Each store right after the fence or the store before it; the next route after the store,
    // which does not hold up what follows it (a fence does).
    while (member < t.size) {
      store_over(c, route_before_fence ? where : route_of(member), area + 1 + t.my_pe, count, call, loc);
      member = next_member(member);
      if constexpr (route_before_fence) where = route_of(member);
    }
    wait_budget budget(c);
    for (int j = rank; j < t.size; j += lanes)
      if (j != t.my_pe) wait_one(c, area + 1 + j, SHMEM_CMP_GE, count, budget, call, loc);
    if (rank == 0) platform::st_relaxed_sys(area, count);
  }
  Coop::sync();
}

template <class Coop>
GIO_DEVICE void sync_team(const ctx& c, const team_info& t, bool quiet, const char* call, source_location loc) {
  sync_team_numbered<Coop>(c, t, next_sync_number(c, t), quiet, call, loc);
}

template <class Coop>
GIO_DEVICE void team_sync(const ctx& c, shmem_team_t team, bool quiet, const char* call, source_location loc) {
  sync_team<Coop>(c, team_of(c, team, call, loc), quiet, call, loc);
}

// Members in the order this PE serves them: starting after itself, so that PEs do not all
// write to the same member first.
GIO_DEVICE int nth_member_after_me(const team_info& t, int k) { return (t.my_pe + 1 + k) % t.size; }

template <class Coop>
GIO_DEVICE void broadcast_inline(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                          std::size_t elem_size, int root, const char* call, source_location loc) {
  const team_info t = team_of(c, team, call, loc);
  check_root(c, root, t, call, loc);
  check_size(c, nelems, elem_size, call, loc);
  const std::size_t bytes = nelems * elem_size;
  check_symmetric(c, dest, bytes, call, loc);
  if (t.my_pe == root) {
    for (int k = 0; k < t.size; ++k) {
      const int j = nth_member_after_me(t, k);
      if (j == root && dest == source) continue;
      copy_to_member<Coop>(c, t, j, dest, source, bytes, call, loc);
    }
  }
  sync_team<Coop>(c, t, false, call, loc);
}

// fcollect: every member's source lands at block my_pe of every member's dest. alltoall: block
// j of source goes to member j, at block my_pe of its dest.
template <class Coop, bool AllToAll>
GIO_DEVICE void exchange_blocks_inline(const ctx& c, shmem_team_t team, void* dest, const void* source,
                                       std::size_t nelems, std::size_t elem_size, const char* call, source_location loc) {
  const team_info t = team_of(c, team, call, loc);
  check_size(c, nelems, elem_size, call, loc);
  const std::size_t bytes = nelems * elem_size;
  check_size(c, bytes, static_cast<std::size_t>(t.size), call, loc);
  check_symmetric(c, dest, bytes * t.size, call, loc);
  char* my_block = static_cast<char*>(dest) + bytes * t.my_pe;
  for (int k = 0; k < t.size; ++k) {
    const int j = nth_member_after_me(t, k);
    const char* from = static_cast<const char*>(source) + (AllToAll ? bytes * j : 0);
    copy_to_member<Coop>(c, t, j, my_block, from, bytes, call, loc);
  }
  sync_team<Coop>(c, t, false, call, loc);
}

// collect: every member's `nelems` (counts may differ) concatenated in team order into every
// member's dest. Each member stores its count into word my_pe of every member's count words
// (include/gio/team.hpp), a first sync makes them visible, each member pushes its block at the
// sum of the counts before its own, and a second sync completes the pushes. A member's next count
// store comes after that second sync, which no member passes before it has read every count.
template <class Coop>
GIO_DEVICE void collect_inline(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                        std::size_t elem_size, const char* call, source_location loc) {
  const team_info t = team_of(c, team, call, loc);
  check_size(c, nelems, elem_size, call, loc);
  std::uint64_t* counts = reinterpret_cast<std::uint64_t*>(reinterpret_cast<char*>(sync_words(c, t)) +
                                                           team_counts_offset(c.h.n_pes));
  for (int j = static_cast<int>(Coop::rank()); j < t.size; j += static_cast<int>(Coop::size()))
    store_over(c, route_world(c, t.start + j * t.stride, call, loc), counts + t.my_pe, nelems, call, loc);
  sync_team<Coop>(c, t, false, call, loc);
  std::size_t before = 0, total = 0;
  for (int j = 0; j < t.size; ++j) {
    const std::uint64_t count = platform::ld_relaxed_sys(counts + j);
    if (j < t.my_pe) before += count;
    total += count;
  }
  check_size(c, total, elem_size, call, loc);
  check_symmetric(c, dest, total * elem_size, call, loc);
  char* my_block = static_cast<char*>(dest) + before * elem_size;
  if (nelems > 0)
    for (int k = 0; k < t.size; ++k)
      copy_to_member<Coop>(c, t, nth_member_after_me(t, k), my_block, source, nelems * elem_size, call, loc);
  sync_team<Coop>(c, t, false, call, loc);
}

// alltoalls: block j of source (elements j * nelems ... of stride sst) goes to member j, at block
// my_pe of its dest (elements my_pe * nelems ... of stride dst).
template <class Coop>
GIO_DEVICE void alltoalls_inline(const ctx& c, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                          std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size, const char* call,
                          source_location loc) {
  const team_info t = team_of(c, team, call, loc);
  check_size(c, nelems, static_cast<std::size_t>(t.size), call, loc);
  // Every member's block in dest, as one strided span.
  check_strided(c, true, dest, source, dst, sst, nelems * t.size, elem_size, call, loc);
  const std::size_t dest_block = nelems * static_cast<std::size_t>(dst) * elem_size;
  const std::size_t source_block = nelems * static_cast<std::size_t>(sst) * elem_size;
  char* my_block = static_cast<char*>(dest) + dest_block * t.my_pe;
  for (int k = 0; k < t.size; ++k) {
    const int j = nth_member_after_me(t, k);
    strided_over<Coop>(c, route_world(c, t.start + j * t.stride, call, loc), true, my_block,
                       static_cast<const char*>(source) + source_block * j, dst, sst, nelems, elem_size, call, loc);
  }
  sync_team<Coop>(c, t, false, call, loc);
}

// Elements combined per access: 16 bytes when every address allows it, else one.
template <class T, unsigned N> struct alignas(N * sizeof(T)) pack {
  T v[N];
};

// Packs chunk + h * size + rank (h < held) of the result, each member 0's source combined with
// members 1, 2, ... in order; all `held` loads of a member are issued before any is combined,
// so a thread keeps `held` remote loads in flight.
template <unsigned held, class P>
GIO_DEVICE void combine_chunk(const ctx& c, const team_info& t, reduce_op op, const P* source, std::size_t chunk,
                              std::size_t count, std::size_t rank, std::size_t size, P (&acc)[held],
                              const char* call, source_location loc) {
  const P* first = transports::p2p::translate(source, member_delta(c, t, 0, call, loc));
#pragma unroll
  for (unsigned h = 0; h < held; ++h) {
    const std::size_t i = chunk + h * size + rank;
    if (i < count) acc[h] = first[i];
  }
  for (int j = 1; j < t.size; ++j) {
    const P* member = transports::p2p::translate(source, member_delta(c, t, j, call, loc));
    P next[held];
#pragma unroll
    for (unsigned h = 0; h < held; ++h) {
      const std::size_t i = chunk + h * size + rank;
      if (i < count) next[h] = member[i];
    }
#pragma unroll
    for (unsigned h = 0; h < held; ++h)
#pragma unroll
      for (unsigned e = 0; e < sizeof(P::v) / sizeof(P::v[0]); ++e) acc[h].v[e] = reduce_combine(op, acc[h].v[e], next[h].v[e]);
  }
}

// Combines packs [0, count) into dest, a chunk of `held` packs per thread at a time. In place,
// every pack must be read by every member before any member overwrites it: the team syncs
// between combining a chunk and writing it.
template <class Coop, class P>
GIO_DEVICE void reduce_packs(const ctx& c, const team_info& t, reduce_op op, P* dest, const P* source,
                             std::size_t count, const char* call, source_location loc) {
  constexpr unsigned held = 4;
  const std::size_t rank = Coop::rank(), size = Coop::size();
  const bool in_place = static_cast<const void*>(dest) == static_cast<const void*>(source);
  for (std::size_t chunk = 0; chunk < count; chunk += held * size) {
    P acc[held];
    combine_chunk<held>(c, t, op, source, chunk, count, rank, size, acc, call, loc);
    if (in_place) sync_team<Coop>(c, t, false, call, loc);
#pragma unroll
    for (unsigned h = 0; h < held; ++h) {
      const std::size_t i = chunk + h * size + rank;
      if (i < count) dest[i] = acc[h];
    }
  }
}

// Reductions when PEs are reached over gda: each member's chunk of `source` comes into this
// context's bounce buffer (an RDMA read from gda members, a copy from the others), and the group
// combines the chunks in team order, as reduce_packs does, so every PE gets the same bits.
template <class Coop, class T>
GIO_DEVICE void reduce_staged(const ctx& c, const team_info& t, reduce_op op, T* dest, const T* source,
                              std::size_t count, const char* call, source_location loc) {
  const std::size_t per = transports::staging_bytes(c) / (sizeof(T) * static_cast<std::size_t>(t.size));
  if (per == 0)
    fail(c, call, loc, "team too large for the gda bounce buffer (GIO_GDA_BOUNCE) [team size, bounce bytes]", t.size,
         static_cast<long long>(transports::staging_bytes(c)));
  const std::size_t rank = Coop::rank(), size = Coop::size();
  if (rank == 0) transports::lock_staging(c);
  Coop::sync();  // nobody stages before the leader holds the buffer
  T* stage = reinterpret_cast<T*>(transports::staging_data(c));
  const bool in_place = dest == source;
  for (std::size_t chunk = 0; chunk < count; chunk += per) {
    const std::size_t n = count - chunk < per ? count - chunk : per;
    for (int j = 0; j < t.size; ++j) {
      const peer_route where = route_world(c, t.start + j * t.stride, call, loc);
      transports::over(where, [&](auto tr) {
        decltype(tr)::template pull<Coop>(c, where, stage + j * per, source + chunk, n * sizeof(T), call, loc);
      });
    }
    Coop::sync();
    if (in_place) sync_team<Coop>(c, t, false, call, loc);  // every member has read this chunk
    for (std::size_t i = rank; i < n; i += size) {
      T acc = stage[i];
      for (int j = 1; j < t.size; ++j) acc = reduce_combine(op, acc, stage[j * per + i]);
      dest[chunk + i] = acc;
    }
    Coop::sync();
  }
  if (rank == 0) transports::unlock_staging(c);
}

// Small reductions on small teams push (docs/collectives.md, "Small reductions"): each member
// copies its source into block my_pe of slot (this sync's number % 2) of every member's reduce
// scratch; the sync that follows (the caller's) makes the blocks visible; each PE then combines
// them in team order (its own block read from `source`). One sync instead of two: a member
// writes a slot again only in the call after next, i.e. after it has passed the sync in between,
// which no member reaches before it has combined from that slot.
GIO_DEVICE bool reduction_pushes(const ctx& c, const team_info& t, std::size_t bytes) {
  return !transports::any_in_flight(c) && t.size <= reduce_push_members && bytes <= reduce_push_bytes;
}

// The slot that `sync_number` (of the sync after the push) selects, in this PE's scratch (the same
// offset on every member).
GIO_DEVICE char* reduce_slot(const ctx& c, const team_info& t, std::uint64_t sync_number) {
  const std::uint64_t slot_bytes = reduce_slot_members(c.h.n_pes) * reduce_push_bytes;
  return reinterpret_cast<char*>(sync_words(c, t)) + team_scratch_offset(c.h.n_pes) + (sync_number % 2) * slot_bytes;
}

template <class Coop>
GIO_DEVICE void push_source(const ctx& c, const team_info& t, char* slot, const void* source, std::size_t bytes,
                            const char* call, source_location loc) {
  Coop::sync();  // the group's writes to source precede its copies (split differently)
  for (int k = 0; k + 1 < t.size; ++k) {  // stores over the peer mappings (never gda: reduction_pushes)
    char* block = transports::p2p::translate(slot + t.my_pe * reduce_push_bytes,
                                             member_delta(c, t, nth_member_after_me(t, k), call, loc));
    transports::p2p::put<Coop>(block, source, bytes);
  }
}

template <class Coop, class T>
GIO_DEVICE void combine_pushed(const team_info& t, reduce_op op, T* dest, const T* source, const char* slot,
                               std::size_t count) {
  const T* block = reinterpret_cast<const T*>(slot);
  constexpr std::size_t per_block = reduce_push_bytes / sizeof(T);
  for (std::size_t i = Coop::rank(); i < count; i += Coop::size()) {
    const auto element_of = [&](int j) { return j == t.my_pe ? source[i] : block[j * per_block + i]; };
    T acc = element_of(0);
    for (int j = 1; j < t.size; ++j) acc = reduce_combine(op, acc, element_of(j));
    dest[i] = acc;
  }
  Coop::sync();  // the group's dest is whole when any of it returns
}

template <class Coop, class T>
GIO_DEVICE void reduce_inline(const ctx& c, shmem_team_t team, reduce_op op, T* dest, const T* source, std::size_t nreduce,
                       const char* call, source_location loc) {
  const team_info t = team_of(c, team, call, loc);
  check_size(c, nreduce, sizeof(T), call, loc);
  check_symmetric(c, dest, nreduce * sizeof(T), call, loc);
  check_symmetric(c, source, nreduce * sizeof(T), call, loc);
  // One sync call site for both designs (it is inlined into every type's reduction), and one
  // load of its number, which the push also needs to pick its slot.
  const std::uint64_t sync_number = next_sync_number(c, t);
  const bool pushes = reduction_pushes(c, t, nreduce * sizeof(T));
  char* slot = nullptr;
  if (pushes) {
    slot = reduce_slot(c, t, sync_number);
    push_source<Coop>(c, t, slot, source, nreduce * sizeof(T), call, loc);
  }
  // pushed: every block is here; pulled: every source is ready
  sync_team_numbered<Coop>(c, t, sync_number, false, call, loc);
  if (pushes) return combine_pushed<Coop>(t, op, dest, source, slot, nreduce);
  if (transports::any_in_flight(c)) {  // a network transport: its staging area
    reduce_staged<Coop>(c, t, op, dest, source, nreduce, call, loc);
    sync_team<Coop>(c, t, false, call, loc);
    return;
  }
  constexpr unsigned per16 = sizeof(T) <= 16 ? 16 / sizeof(T) : 1;
  using wide = pack<T, per16>;
  using narrow = pack<T, 1>;
  const bool aligned = ((reinterpret_cast<std::uintptr_t>(dest) | reinterpret_cast<std::uintptr_t>(source)) % 16) == 0;
  const std::size_t wide_count = aligned ? nreduce / per16 : 0;
  reduce_packs<Coop>(c, t, op, reinterpret_cast<wide*>(dest), reinterpret_cast<const wide*>(source), wide_count, call, loc);
  const std::size_t done = wide_count * per16;
  reduce_packs<Coop>(c, t, op, reinterpret_cast<narrow*>(dest + done), reinterpret_cast<const narrow*>(source + done),
                     nreduce - done, call, loc);
  sync_team<Coop>(c, t, false, call, loc);  // no member changes its source while another reads it
}

// ---- The calls the bindings make: inline, or out of line in gio::device_library ---------------
// A target linking gio::device_library (device/library.hpp) calls the library's entries, one per
// scope and call (reductions type-erased by dtype), instead of the inline forms above.
namespace out_of_line {
inline namespace GIO_LIBRARY_ENTRIES_NAMESPACE {
// Defined, for coop::thread, wave and wg, in device/library/collectives_entries.hpp.
template <class Coop>
__device__ void reduce(const ctx& c, shmem_team_t team, reduce_op op, void* dest, const void* source, std::size_t nreduce,
                       dtype type, const char* call, source_location loc);
template <class Coop>
__device__ void broadcast(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                          std::size_t elem_size, int root, const char* call, source_location loc);
template <class Coop, bool AllToAll>
__device__ void exchange_blocks(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                std::size_t elem_size, const char* call, source_location loc);
template <class Coop>
__device__ void collect(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                        std::size_t elem_size, const char* call, source_location loc);
template <class Coop>
__device__ void alltoalls(const ctx& c, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                          std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size, const char* call,
                          source_location loc);
}  // namespace GIO_LIBRARY_ENTRIES_NAMESPACE
}  // namespace out_of_line

template <class Coop>
GIO_DEVICE void broadcast(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                          std::size_t elem_size, int root, const char* call, source_location loc) {
  if constexpr (calls_device_library) out_of_line::broadcast<Coop>(c, team, dest, source, nelems, elem_size, root, call, loc);
  else broadcast_inline<Coop>(c, team, dest, source, nelems, elem_size, root, call, loc);
}
template <class Coop, bool AllToAll>
GIO_DEVICE void exchange_blocks(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                std::size_t elem_size, const char* call, source_location loc) {
  if constexpr (calls_device_library)
    out_of_line::exchange_blocks<Coop, AllToAll>(c, team, dest, source, nelems, elem_size, call, loc);
  else exchange_blocks_inline<Coop, AllToAll>(c, team, dest, source, nelems, elem_size, call, loc);
}
template <class Coop>
GIO_DEVICE void fcollect(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                         std::size_t elem_size, const char* call, source_location loc) {
  exchange_blocks<Coop, false>(c, team, dest, source, nelems, elem_size, call, loc);
}
template <class Coop>
GIO_DEVICE void alltoall(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                         std::size_t elem_size, const char* call, source_location loc) {
  exchange_blocks<Coop, true>(c, team, dest, source, nelems, elem_size, call, loc);
}
template <class Coop>
GIO_DEVICE void collect(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                        std::size_t elem_size, const char* call, source_location loc) {
  if constexpr (calls_device_library) out_of_line::collect<Coop>(c, team, dest, source, nelems, elem_size, call, loc);
  else collect_inline<Coop>(c, team, dest, source, nelems, elem_size, call, loc);
}
template <class Coop>
GIO_DEVICE void alltoalls(const ctx& c, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                          std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size, const char* call,
                          source_location loc) {
  if constexpr (calls_device_library)
    out_of_line::alltoalls<Coop>(c, team, dest, source, dst, sst, nelems, elem_size, call, loc);
  else alltoalls_inline<Coop>(c, team, dest, source, dst, sst, nelems, elem_size, call, loc);
}
template <class Coop, class T>
GIO_DEVICE void reduce(const ctx& c, shmem_team_t team, reduce_op op, T* dest, const T* source, std::size_t nreduce,
                       const char* call, source_location loc) {
  if constexpr (calls_device_library)
    out_of_line::reduce<Coop>(c, team, op, dest, source, nreduce, dtype_of<T>(), call, loc);
  else reduce_inline<Coop>(c, team, op, dest, source, nreduce, call, loc);
}

}  // namespace gio::detail
