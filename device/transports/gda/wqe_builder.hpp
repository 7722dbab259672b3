// A gda_command as a WQE in its SQ slot: the one translation from "what the device asked for" to
// mlx5 bytes, used by the direct mode on the GPU and by the proxy (IKN) thread on the CPU
// (host/transports/ikn/proxy.cpp), so both post identical WQEs. The slot keeps the template it
// was last prefilled with (its kind); only a change of kind costs the full 64-byte prefill,
// otherwise the templates' patch writes the few per-operation fields (GIO §5.3).
#pragma once
#include <cstdint>

#include "gio/gda.hpp"
#include "gio/platform/host_device.hpp"
#include "gio/templates/mlx5_wqe.hpp"

namespace gio::transports::gda {

namespace mlx5 = templates::mlx5;

// Every WQE asks for a CQE (completion tracking is per WQE index); the signal of put_signal also
// carries the IB fence, as IBV_SEND_FENCE encodes it (docs/transports.md, "Ordering").
inline constexpr std::uint8_t flags_plain = mlx5::ctrl_flags::cq_update;
inline constexpr std::uint8_t flags_signal = mlx5::ctrl_flags::cq_update | mlx5::ctrl_flags::fm_fence_and_small;

GIO_HOST_DEVICE_INLINE void prefill_kind(mlx5::wqe_bb& slot, std::uint8_t kind, std::uint32_t qpn, std::uint32_t lkey,
                                         std::uint32_t rkey) {
  const mlx5::wqe_static plain{qpn, lkey, rkey, flags_plain};
  const mlx5::wqe_static signal{qpn, lkey, rkey, flags_signal};
  switch (kind) {
    case gda_kind_inline:
    case gda_kind_hdp_flush: mlx5::inline_write::prefill(slot, plain); break;
    case gda_kind_read: mlx5::rdma_read::prefill(slot, plain); break;
    case gda_kind_fa64: mlx5::fetch_add64::prefill(slot, plain); break;
    case gda_kind_cs64: mlx5::compare_swap64::prefill(slot, plain); break;
    case gda_kind_fa32: mlx5::fetch_add32::prefill(slot, plain); break;
    case gda_kind_cs32: mlx5::compare_swap32::prefill(slot, plain); break;
    case gda_kind_swap32: mlx5::swap32::prefill(slot, plain); break;
    case gda_kind_signal_set: mlx5::inline_write::prefill(slot, signal); break;
    case gda_kind_signal_add: mlx5::fetch_add64::prefill(slot, signal); break;
    default: mlx5::rdma_write::prefill(slot, plain); break;
  }
}

// Writes command `cmd` as WQE `wqe_idx` into `slot`, whose current template is `*slot_kind`.
// `rkey` is the peer heap's key; an HDP flush uses the peer's HDP register key, `hdp_rkey`.
GIO_HOST_DEVICE_INLINE void build_wqe(mlx5::wqe_bb& slot, std::uint8_t* slot_kind, std::uint16_t wqe_idx,
                                      const gda_command& cmd, std::uint32_t qpn, std::uint32_t lkey,
                                      std::uint32_t rkey, std::uint32_t hdp_rkey) {
  if (*slot_kind != cmd.kind) {
    prefill_kind(slot, cmd.kind, qpn, lkey, cmd.kind == gda_kind_hdp_flush ? hdp_rkey : rkey);
    *slot_kind = cmd.kind;
  }
  switch (cmd.kind) {
    case gda_kind_inline:
    case gda_kind_hdp_flush:
    case gda_kind_signal_set: mlx5::inline_write::patch(slot, wqe_idx, cmd.raddr, cmd.data, cmd.len); break;
    case gda_kind_read: mlx5::rdma_read::patch(slot, wqe_idx, cmd.op.laddr, cmd.raddr, cmd.len); break;
    case gda_kind_fa64:
    case gda_kind_signal_add: mlx5::fetch_add64::patch(slot, wqe_idx, cmd.op.laddr, cmd.raddr, cmd.op.operand); break;
    case gda_kind_cs64:
      mlx5::compare_swap64::patch(slot, wqe_idx, cmd.op.laddr, cmd.raddr, cmd.op.compare, cmd.op.operand);
      break;
    case gda_kind_fa32:
      mlx5::fetch_add32::patch(slot, wqe_idx, cmd.op.laddr, cmd.raddr, static_cast<std::uint32_t>(cmd.op.operand));
      break;
    case gda_kind_cs32:
      mlx5::compare_swap32::patch(slot, wqe_idx, cmd.op.laddr, cmd.raddr, static_cast<std::uint32_t>(cmd.op.compare),
                                  static_cast<std::uint32_t>(cmd.op.operand));
      break;
    case gda_kind_swap32:
      mlx5::swap32::patch(slot, wqe_idx, cmd.op.laddr, cmd.raddr, static_cast<std::uint32_t>(cmd.op.operand));
      break;
    default: mlx5::rdma_write::patch(slot, wqe_idx, cmd.op.laddr, cmd.raddr, cmd.len); break;
  }
}

// The 8 bytes a doorbell rings with: the first 8 bytes of the WQE's ctrl segment, as in memory.
GIO_HOST_DEVICE_INLINE std::uint64_t doorbell_of(const mlx5::wqe_bb& slot) {
  return mlx5::uar_doorbell(slot.ctrl);
}

}  // namespace gio::transports::gda
