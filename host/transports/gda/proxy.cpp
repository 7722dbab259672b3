#include "transports/gda/proxy.hpp"

#include <chrono>
#include <cstdio>
#include <utility>

#include "gio/device/transports/gda/wqe_builder.hpp"
#include "gio/templates/mlx5_wqe.hpp"

namespace gio::transports::gda {

namespace {

// The doorbell store between two full fences: whatever the NIC will read because of it (WQEs,
// the doorbell record) is written first (rdma-core's order for mlx5), and the store leaves the
// CPU's write-combining buffer at once (the UAR page may be mapped write-combining, where a lone
// store can wait in the buffer; rdma-core flushes after its doorbell too).
void ring_doorbell(volatile std::uint64_t* uar, std::uint64_t value) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  *uar = value;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

}  // namespace

proxy::proxy(std::vector<queue> queues, std::vector<relay> relays, bool report)
    : queues_(std::move(queues)),
      cursors_(queues_.size()),
      relays_(std::move(relays)),
      relayed_value_(relays_.size(), 0),
      report_(report) {
  for (std::size_t q = 0; q < queues_.size(); ++q)
    cursors_[q].slot_kind.assign(std::size_t{1} << queues_[q].log_sq, gda_kind_write);  // as the host prefilled
  thread_ = std::thread([this] { run(); });
}

proxy::~proxy() {
  stop_.store(true, std::memory_order_relaxed);
  if (thread_.joinable()) thread_.join();
}

void proxy::run() {
  // What the proxy sees, every few seconds (a stuck ring shows its next command).
  auto last_report = std::chrono::steady_clock::now();
  unsigned idle = 0;
  while (!stop_.load(std::memory_order_relaxed)) {
    bool any = false;
    for (std::size_t q = 0; q < queues_.size(); ++q) any |= serve(q);
    for (std::size_t r = 0; r < relays_.size(); ++r) any |= relay_one(r);
    // A busy thread is what IKN costs (a core per GPU); after a long idle spell it yields.
    idle = any ? 0 : idle + 1;
    if (idle > 4096) std::this_thread::yield();
    if (report_ && std::chrono::steady_clock::now() - last_report > std::chrono::seconds(3)) {
      last_report = std::chrono::steady_clock::now();
      for (std::size_t q = 0; q < queues_.size(); ++q) {
        const std::uint32_t mask = (1u << queues_[q].log_sq) - 1u;
        std::fprintf(stderr, "gio ikn proxy: QP 0x%x: next command %llu, its ready word %llu, posted in all %llu\n",
                     queues_[q].qpn, static_cast<unsigned long long>(cursors_[q].next),
                     static_cast<unsigned long long>(
                         __atomic_load_n(&queues_[q].commands[cursors_[q].next & mask].ready, __ATOMIC_ACQUIRE)),
                     static_cast<unsigned long long>(posted()));
      }
      for (std::size_t r = 0; r < relays_.size(); ++r)
        std::fprintf(stderr, "gio doorbell relay: QP 0x%x: mailbox 0x%016llx, last rung 0x%016llx, %llu rung in all\n",
                     relays_[r].qpn,
                     static_cast<unsigned long long>(__atomic_load_n(relays_[r].mailbox, __ATOMIC_ACQUIRE)),
                     static_cast<unsigned long long>(relayed_value_[r]), static_cast<unsigned long long>(relayed()));
    }
  }
}

bool proxy::serve(std::size_t q) {
  const queue& Q = queues_[q];
  cursor& at = cursors_[q];
  const std::uint32_t mask = (1u << Q.log_sq) - 1u;
  const std::uint64_t first = at.next;
  for (;;) {
    gda_command& slot = Q.commands[at.next & mask];
    // The GPU wrote the command, fenced at system scope, then `ready`: acquire pairs with it.
    if (__atomic_load_n(&slot.ready, __ATOMIC_ACQUIRE) != at.next + 1) break;
    const gda_command cmd = slot;
    const std::uint32_t s = static_cast<std::uint32_t>(at.next) & mask;
    build_wqe(Q.sq[s], &at.slot_kind[s], static_cast<std::uint16_t>(at.next), cmd, Q.qpn, Q.lkey, Q.rkey, Q.hdp_rkey);
    ++at.next;
  }
  if (at.next == first) return false;
  // The WQEs before the doorbell record, the record before the doorbell (as rdma-core's mlx5).
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&Q.dbrec[templates::mlx5::snd_dbr], templates::mlx5::sq_dbrec_be(static_cast<std::uint32_t>(at.next)),
                   __ATOMIC_RELAXED);
  ring_doorbell(Q.uar, doorbell_of(Q.sq[static_cast<std::uint32_t>(at.next - 1) & mask]));
  posted_.fetch_add(at.next - first, std::memory_order_relaxed);
  return true;
}

bool proxy::relay_one(std::size_t r) {
  // The GPU fenced its WQEs and doorbell record at system scope before the mailbox store: the
  // acquire pairs with it. A doorbell names its last WQE's index, so consecutive ones differ
  // (unless 2^16 WQEs were rung between two looks, which the SQ depth rules out).
  const std::uint64_t value = __atomic_load_n(relays_[r].mailbox, __ATOMIC_ACQUIRE);
  if (value == relayed_value_[r]) return false;
  ring_doorbell(relays_[r].uar, value);
  relayed_value_[r] = value;
  relayed_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace gio::transports::gda
