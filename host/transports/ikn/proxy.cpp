#include "transports/ikn/proxy.hpp"

#include <cstdio>
#include <utility>

#include "gio/device/transports/gda/wqe_builder.hpp"
#include "gio/templates/mlx5_wqe.hpp"
#include "transports/gda/nic.hpp"

namespace gio::transports::ikn {

using gda::build_wqe;
using gda::doorbell_of;
using gda::ring_doorbell;

proxy::proxy(std::vector<queue> queues, bool report) : queues_(std::move(queues)), cursors_(queues_.size()) {
  for (std::size_t q = 0; q < queues_.size(); ++q)
    cursors_[q].slot_kind.assign(std::size_t{1} << queues_[q].log_sq, gda_kind_write);  // as the host prefilled
  thread_.start(queues_.size(), [this](std::size_t q) { return serve(q); },
                report ? [this] { this->report(); } : std::function<void()>());
}

void proxy::report() const {
  for (std::size_t q = 0; q < queues_.size(); ++q) {
    const std::uint32_t mask = (1u << queues_[q].log_sq) - 1u;
    std::fprintf(stderr, "gio ikn proxy: QP 0x%x: next command %llu, its ready word %llu, posted in all %llu\n",
                 queues_[q].qpn, static_cast<unsigned long long>(cursors_[q].next),
                 static_cast<unsigned long long>(
                     __atomic_load_n(&queues_[q].commands[cursors_[q].next & mask].ready, __ATOMIC_ACQUIRE)),
                 static_cast<unsigned long long>(posted()));
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

}  // namespace gio::transports::ikn
