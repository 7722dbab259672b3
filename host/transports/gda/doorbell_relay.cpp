#include "transports/gda/doorbell_relay.hpp"

#include <cstdio>
#include <utility>

#include "transports/gda/nic.hpp"

namespace gio::transports::gda {

doorbell_relay::doorbell_relay(std::vector<mailbox> mailboxes, bool report)
    : mailboxes_(std::move(mailboxes)), rung_(mailboxes_.size(), 0) {
  thread_.start(mailboxes_.size(), [this](std::size_t m) { return relay_one(m); },
                report ? [this] { this->report(); } : std::function<void()>());
}

void doorbell_relay::report() const {
  for (std::size_t m = 0; m < mailboxes_.size(); ++m)
    std::fprintf(stderr, "gio doorbell relay: QP 0x%x: mailbox 0x%016llx, last rung 0x%016llx, %llu rung in all\n",
                 mailboxes_[m].qpn, static_cast<unsigned long long>(__atomic_load_n(mailboxes_[m].value, __ATOMIC_ACQUIRE)),
                 static_cast<unsigned long long>(rung_[m]), static_cast<unsigned long long>(relayed()));
}

bool doorbell_relay::relay_one(std::size_t m) {
  // The GPU fenced its WQEs and doorbell record at system scope before the mailbox store: the
  // acquire pairs with it. A doorbell names its last WQE's index, so consecutive ones differ
  // (unless 2^16 WQEs were rung between two looks, which the SQ depth rules out).
  const std::uint64_t value = __atomic_load_n(mailboxes_[m].value, __ATOMIC_ACQUIRE);
  if (value == rung_[m]) return false;
  ring_doorbell(mailboxes_[m].uar, value);
  rung_[m] = value;
  relayed_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace gio::transports::gda
