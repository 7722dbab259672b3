// The host runtime's state, shared by its parts (runtime.cpp: init, heap, RMA; teams.cpp;
// collectives.cpp). Private to the host runtime.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bootstrap.hpp"
#include "config.hpp"
#include "gio/host.hpp"
#include "gpu/backend.hpp"
#include "heap_allocator.hpp"
#include "transports/host_transport.hpp"
#include "transports/p2p/p2p_setup.hpp"

namespace gio::rt {

inline constexpr bool gpu_build = GIO_GPU_IS_CUDA || GIO_GPU_IS_HIP;
#if defined(GIO_CHECKS) && GIO_CHECKS
inline constexpr bool checked_build = true;
#else
inline constexpr bool checked_build = false;
#endif

// gio's own part of every heap, before the user's allocations: the probe word and the teams' sync
// areas (team_sync_offset). Symmetric like the rest, so peers address it with the same offsets.
inline constexpr std::size_t probe_offset = 0;

// One entry of the team table as the host keeps it.
struct team_slot {
  team_info info = no_team();  // size 0: unused; copied to the device table on each change
  std::unique_ptr<bootstrap> group;   // the members: host-side sync, the CPU build's collectives
  shmem_team_config_t config{0};
  bool used() const { return info.size > 0; }
};

struct runtime {
  config::settings settings{};
  std::unique_ptr<bootstrap> boot;
  std::unique_ptr<gpu::backend> backend;
  gpu::device_info device;
  char* heap = nullptr;
  std::size_t heap_bytes = 0;      // the whole reservation
  std::size_t internal_bytes = 0;  // gio's part at its start
  std::size_t team_sync_offset = 0;  // the teams' areas: max_teams x team_area_bytes(n_pes) bytes
  std::unique_ptr<heap_allocator> allocator;
  // Offsets of the live blocks of shmem_malloc_with_hints(SHMEM_MALLOC_ATOMICS_REMOTE): the
  // handle's atomics area covers them (runtime.cpp, refresh_atomics_area).
  std::set<std::size_t> atomics_blocks;
  std::vector<transports::p2p::connection> connections;  // one per PE
  // The network transports (GIO_TRANSPORT, other nodes), each on when every PE opened it.
  struct network_slot {
    std::unique_ptr<transports::host_transport> transport;
    transports::transport_state state;
  };
  std::vector<network_slot> networks;
  // f(transport) for each network transport that is on.
  template <class F> void each_network_on(F&& f) {
    for (network_slot& n : networks)
      if (n.state.on) f(*n.transport);
  }
  std::vector<peer_info> peers;    // host copy of the device table
  peer_info* peers_device = nullptr;
  std::vector<team_slot> teams;    // GIO_MAX_TEAMS entries, index = shmem_team_t
  // Host contexts, index = shmem_ctx_t::id: each one's team, SHMEM_TEAM_INVALID when free.
  // Entry 0 is SHMEM_CTX_DEFAULT (SHMEM_TEAM_WORLD).
  std::vector<shmem_team_t> contexts{SHMEM_TEAM_WORLD};
  team_info* teams_device = nullptr;
  device_handle handle{};
  std::uint64_t collective_calls = 0;
  double init_seconds = 0;
  bool device_selected = false;
  gpu_share share{};  // the PEs of this node on this GPU, and MPS (launch_collective sizes by it)

  int pe() const { return boot ? boot->rank() : -1; }
  ~runtime();

 private:
  void shutdown_step(const char* what, const std::function<void()>& step) noexcept;
};

// The running runtime, or throws gio::error naming `call` when shmem_init has not run.
runtime& running(const char* call);

// Offset of a symmetric address range (any byte of the heap, gio's part included), or throws.
std::size_t heap_offset(runtime& r, const void* ptr, std::size_t bytes, const char* call);
// `pe`'s heap as mapped here, or throws (PE out of range, or not reachable from this PE).
char* reachable_heap(runtime& r, int pe, const char* call);
// Whether this GPU's device library reaches `pe` (in range): a mapped heap, or a network
// transport. Host calls that run as kernels (atomics, collectives, the stream barrier) require it.
bool device_reachable(const runtime& r, int pe);
void require_device_reachable(runtime& r, int pe, const char* call);  // throws unless in range and reachable

}  // namespace gio::rt
