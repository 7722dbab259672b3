// The IKN baseline (GIO §6.1, "existing intra-kernel networking"): the same queue pairs and
// templates as gda, but the GPU only fills a command ring in pinned host memory and a CPU thread
// builds each WQE (device/transports/gda/wqe_builder.hpp, the direct mode's own code), writes it
// to the SQ, updates the doorbell record and rings. Completions are polled by the GPU, as in
// the direct mode. The same thread relays CPU-assisted doorbells (GIO_GDA_DOORBELL=cpu, or a
// platform that will not map the NIC's UAR into the GPU): the GPU leaves each doorbell in a
// mailbox in pinned host memory and the thread stores it to the UAR. Private to the host runtime.
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "gio/gda.hpp"

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

  // A CPU-assisted doorbell: the GPU stores the doorbell value to `mailbox` where it would have
  // stored it to the UAR (after the same fences); every new value is stored to `uar`.
  struct relay {
    const std::uint64_t* mailbox = nullptr;
    volatile std::uint64_t* uar = nullptr;
    std::uint32_t qpn = 0;
  };

  // `report`: GIO_DEBUG=info (config::settings::debug): print each queue's state every 3 s.
  proxy(std::vector<queue> queues, std::vector<relay> relays, bool report);
  ~proxy();  // stops the thread
  proxy(const proxy&) = delete;
  proxy& operator=(const proxy&) = delete;

  std::uint64_t posted() const { return posted_.load(std::memory_order_relaxed); }
  std::uint64_t relayed() const { return relayed_.load(std::memory_order_relaxed); }  // doorbells rung for the GPU

 private:
  void run();
  bool serve(std::size_t q);  // posts every ready command of queue q; false if none was ready
  bool relay_one(std::size_t r);  // rings relay r's new doorbell; false if there was none

  struct cursor {
    std::uint64_t next = 0;                // index of the next command to post
    std::vector<std::uint8_t> slot_kind;   // the template each SQ slot holds (CPU's own copy)
  };
  std::vector<queue> queues_;
  std::vector<cursor> cursors_;
  std::vector<relay> relays_;
  std::vector<std::uint64_t> relayed_value_;  // per relay: the last value rung (a mailbox starts at 0, no doorbell)
  bool report_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> posted_{0};
  std::atomic<std::uint64_t> relayed_{0};
  std::thread thread_;
};

}  // namespace gio::transports::gda
