// Host side of the load/store transport: decides whether a node-local peer's heap can be
// mapped into this GPU, maps it, and unmaps it at the end. The device side is
// device/transports/p2p/p2p.hpp. Private to the host runtime.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "gio/handle.hpp"
#include "gpu/backend.hpp"

namespace gio::transports::p2p {

// What each PE publishes at init so that node-local peers can map its heap.
struct heap_card {
  gpu::heap_export heap;
  std::int32_t node_id;  // bootstrap::node_id(): PEs of one node share it
  char gpu_bus_id[32];
  std::uint64_t heap_bytes;
};

heap_card make_card(gpu::backend& backend, void* heap, std::size_t heap_bytes, const std::string& gpu_bus_id,
                    int node_id);

struct connection {
  peer_info peer{nullptr, static_cast<std::uint32_t>(transport::none), 0};
  int gpu = -1;           // the peer's GPU ordinal in this process, -1 if none/unknown
  bool imported = false;  // the mapping must be closed at the end
  std::size_t mapped_bytes = 0;
};

// `mine` and `theirs` are the two PEs' cards. A peer on another node, or whose GPU this GPU
// cannot reach with loads and stores, gets transport::none (a later transport may take it).
connection connect(gpu::backend& backend, bool gpu_build, const heap_card& mine, const heap_card& theirs);
void disconnect(gpu::backend& backend, connection& c);

}  // namespace gio::transports::p2p
