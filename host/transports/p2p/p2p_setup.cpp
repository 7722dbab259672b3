#include "transports/p2p/p2p_setup.hpp"

#include <cstring>
#include <string>

namespace gio::transports::p2p {

heap_card make_card(gpu::backend& backend, void* heap, std::size_t heap_bytes, const std::string& gpu_bus_id,
                    int node_id) {
  heap_card card{};
  card.heap = backend.export_heap(heap);
  card.node_id = node_id;
  std::strncpy(card.gpu_bus_id, gpu_bus_id.c_str(), sizeof card.gpu_bus_id - 1);
  card.heap_bytes = heap_bytes;
  return card;
}

connection connect(gpu::backend& backend, bool gpu_build, const heap_card& mine, const heap_card& theirs) {
  connection c;
  if (mine.node_id != theirs.node_id) return c;  // another node
  std::uint32_t caps = peer_load_store;  // GPU-less build: the CPU reaches every local heap
  if (gpu_build) {
    c.gpu = backend.device_by_bus_id(theirs.gpu_bus_id);
    caps = c.gpu < 0 ? 0 : backend.probe_link(c.gpu);
  }
  if (!(caps & peer_load_store)) return c;
  c.peer = {static_cast<char*>(backend.import_heap(theirs.heap, theirs.heap_bytes)),
            static_cast<std::uint32_t>(transport::p2p), caps};
  c.imported = true;
  c.mapped_bytes = theirs.heap_bytes;
  return c;
}

void disconnect(gpu::backend& backend, connection& c) {
  if (c.imported) backend.close_import(c.peer.heap_base, c.mapped_bytes);
  c = connection{};
}

}  // namespace gio::transports::p2p
