// The IKN baseline (GIO §6.1, "existing intra-kernel networking"): the same queue pairs and
// templates as gda, but the GPU only fills a command ring in pinned host memory and a CPU thread
// builds each WQE (device/transports/gda/wqe_builder.hpp, the direct mode's own code), writes it
// to the SQ, updates the doorbell record and rings. Completions are polled by the GPU, as in
// the direct mode. Private to the host runtime.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "transports/gda/gda_setup.hpp"
#include "transports/gda/polling_thread.hpp"

namespace gio::transports::ikn {

class proxy {
 public:
  using queue = gda::host_queue;

  // `report`: GIO_DEBUG=info (config::settings::debug): print each queue's state every 3 s.
  proxy(std::vector<queue> queues, bool report);
  proxy(const proxy&) = delete;
  proxy& operator=(const proxy&) = delete;

  std::uint64_t posted() const { return posted_.load(std::memory_order_relaxed); }

 private:
  bool serve(std::size_t q);  // posts every ready command of queue q; false if none was ready
  void report() const;

  struct cursor {
    std::uint64_t next = 0;                // index of the next command to post
    std::vector<std::uint8_t> slot_kind;   // the template each SQ slot holds (CPU's own copy)
  };
  std::vector<queue> queues_;
  std::vector<cursor> cursors_;
  std::atomic<std::uint64_t> posted_{0};
  gda::polling_thread thread_;  // last: started once everything above is set up, stopped first
};

}  // namespace gio::transports::ikn
