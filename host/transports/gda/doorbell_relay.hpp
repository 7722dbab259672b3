// The doorbells of CPU-assisted gda (GIO_GDA_DOORBELL=cpu, or a platform that will not map the
// NIC's UAR into the GPU): the GPU stores each doorbell value to a mailbox in pinned host memory
// where it would have stored it to the UAR (after the same fences), and a CPU thread stores every
// new value to the UAR. Private to the host runtime.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "transports/gda/polling_thread.hpp"

namespace gio::transports::gda {

class doorbell_relay {
 public:
  struct mailbox {
    const std::uint64_t* value = nullptr;
    volatile std::uint64_t* uar = nullptr;
    std::uint32_t qpn = 0;
  };

  // `report`: GIO_DEBUG=info: print each mailbox's state every 3 s.
  doorbell_relay(std::vector<mailbox> mailboxes, bool report);
  doorbell_relay(const doorbell_relay&) = delete;
  doorbell_relay& operator=(const doorbell_relay&) = delete;

  std::uint64_t relayed() const { return relayed_.load(std::memory_order_relaxed); }  // doorbells rung for the GPU

 private:
  bool relay_one(std::size_t m);  // rings mailbox m's new doorbell; false if there was none
  void report() const;

  std::vector<mailbox> mailboxes_;
  std::vector<std::uint64_t> rung_;  // per mailbox: the last value rung (a mailbox starts at 0, no doorbell)
  std::atomic<std::uint64_t> relayed_{0};
  polling_thread thread_;  // last: started once everything above is set up, stopped first
};

}  // namespace gio::transports::gda
