// The handle the host gives every kernel, by value. Both compilers (the host's C++ compiler and
// nvcc/hipcc) see this header, so it holds only trivially copyable, fixed-layout structs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/team.hpp"

namespace gio {

// How a PE is reached from this one. Each transport adds one value (DESIGN.md).
enum class transport : std::uint32_t {
  none = 0,  // not reachable from the device (e.g. another node before the GDA transport)
  self = 1,  // this PE
  p2p = 2,   // heap mapped into this GPU: another GPU over NVLink/xGMI/PCIe, or the same GPU
  gda = 3,   // through the NIC: RDMA from queue pairs this GPU drives (device_handle::gda)
};

// Per-peer capabilities, probed at init (gio-info prints them).
enum peer_capability : std::uint32_t {
  peer_load_store = 1u << 0,      // ordinary loads/stores reach the peer's heap
  peer_native_atomics = 1u << 1,  // the link executes atomics natively (else: CAS fallback)
  peer_same_device = 1u << 2,     // the peer PE runs on this same GPU
};

struct peer_info {
  char* heap_base;           // the peer's heap as mapped into this process, or nullptr
  std::uint32_t transport;   // gio::transport
  std::uint32_t caps;        // gio::peer_capability bits
};
static_assert(sizeof(peer_info) == 16, "peer_info is shared with device code");

inline constexpr std::uint32_t handle_abi_version = 8;  // 8: the atomics area (atomics_area_*)

struct gda_table;  // gio/gda.hpp

// Up to this many PEs (a window starting at the node's first PE) are resolved from the handle
// itself, so a context in shared memory finds them without a global-memory load (after an
// acquire the L1 cache is invalid and a table lookup would cost an L2 round trip per put): the
// address of symmetric `p` on PE `inline_first_pe + i` is `p + inline_delta[i]`.
inline constexpr int handle_inline_peers = 8;

struct alignas(16) device_handle {
  std::uint32_t abi_version;   // handle_abi_version of the library that made it
  std::int32_t my_pe;
  std::int32_t n_pes;
  std::int32_t max_teams;      // entries of `teams`
  char* heap_base;             // this PE's symmetric heap (GPU memory)
  std::uint64_t heap_size;
  const peer_info* peers;      // n_pes entries, in GPU memory
  std::uint64_t wait_timeout_ns;  // budget of every device wait in checked builds; 0 = unbounded
  // The inline window (read together: one 16-byte load).
  std::int32_t inline_first_pe;
  std::int32_t inline_count;        // 0..handle_inline_peers
  std::uint32_t inline_reachable;   // bit i: PE inline_first_pe + i has a mapped heap
  std::uint32_t inline_native_atomics;  // bit i: atomics to that PE run natively (else CAS loop)
  std::int64_t inline_delta[handle_inline_peers];  // that heap's base minus this PE's heap base
  const team_info* teams;     // max_teams entries, in GPU memory; index = shmem_team_t
  std::uint64_t world_sync_offset;  // teams[SHMEM_TEAM_WORLD].sync_offset, without a table load
  const gda_table* gda;       // the GDA transport's tables in GPU memory, or nullptr when no PE is reached over it
  // The heap's atomics area: the offsets [atomics_area_offset, + atomics_area_bytes) holding every
  // block of shmem_malloc_with_hints(SHMEM_MALLOC_ATOMICS_REMOTE), while a network transport is on
  // (else 0 bytes). Every PE's atomics on a word there go through the NIC, its own included, so
  // that they are atomic with the NIC atomics of other nodes (docs/memory-model.md, "atomics").
  std::uint64_t atomics_area_offset;
  std::uint64_t atomics_area_bytes;
};
static_assert(std::is_trivially_copyable_v<device_handle>, "passed to kernels by value");
static_assert(sizeof(device_handle) == 176, "device_handle layout is part of the ABI");
static_assert(offsetof(device_handle, inline_first_pe) % 16 == 0, "the inline window header is read as one 16-byte load");

}  // namespace gio
