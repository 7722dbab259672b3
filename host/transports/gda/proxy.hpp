// The IKN baseline (GIO §6.1, "existing intra-kernel networking"): the same queue pairs and
// templates as gda, but the GPU only fills a command ring in pinned host memory and a CPU thread
// builds each WQE (device/transports/gda/wqe_builder.hpp, the direct mode's own code), writes it
// to the SQ, updates the doorbell record and rings. Completions are polled by the GPU, as in
// the direct mode. Private to the host runtime.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "gio/gda.hpp"
#include "transports/gda/polling_thread.hpp"

namespace gio::transports::gda {

class proxy {
 public:
  // One QP as the CPU drives it: host addresses of its rings and command ring.
  struct queue {
    templates::mlx5::wqe_bb* sq = nullptr;
    std::uint32_t* dbrec = nullptr;
    volatile std::uint64_t* uar = nullptr;
    gda_command* commands = nullptr;
    std::uint32_t log_sq = 0;
    std::uint32_t qpn = 0, lkey = 0, rkey = 0;
    std::uint32_t hdp_rkey = 0;  // the peer's HDP flush register key (gda_qp::hdp_rkey)
  };

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
  polling_thread thread_;  // last: started once everything above is set up, stopped first
};

}  // namespace gio::transports::gda
