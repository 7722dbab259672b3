// mlx5 send-WQE templates (GIO §5.3): for each kind of operation, `prefill` writes everything
// that is fixed for an SQ slot once, at init and off the critical path (opcode and opmod, QPN and
// DS, completion/fence flags, lkey/rkey, constant operand fields, zeroed reserved bytes), and
// `patch` writes only what changes per operation (the WQE index, addresses, length, atomic
// operands). prefill runs on the host (building the SQ image before it is copied to GPU memory)
// or in an init kernel; patch runs on the GPU in the transport's hot path, and on the host in
// the conformance test and the software NIC. A prefilled-then-patched slot is byte for byte the
// WQE rdma-core's mlx5 provider would build for the same work request
// (tests/unit/mlx5_templates_test.cpp). Ring and doorbell handling (which slot, when to ring)
// belongs to the transport; the value helpers for it are at the end of this file.
//
// Every template is one 64-byte basic block (wqe_bb), so WQE index i lives in slot
// i & (sq_depth - 1). All addresses are the NIC's view (virtual addresses of registered memory).
//
// Contract: patch assumes the slot was prefilled by the same template with the same statics; it
// writes no byte that prefill owns (the one exception, inline_write's DS byte, is noted there).
// A ring that mixes kinds either keeps each slot's kind in step (per-kind slot assignment, or a
// shadow kind per slot) or calls prefill from the device on a kind change: prefill is a full
// 64-byte write, the cost of building the WQE from scratch.
#pragma once
#include <cstdint>

#include "gio/platform/host_device.hpp"
#include "gio/templates/endian.hpp"
#include "gio/templates/mlx5_wire.hpp"

namespace gio::templates::mlx5 {

// ---- ctrl segment words ----------------------------------------------------------------------

GIO_HOST_DEVICE_INLINE constexpr std::uint32_t opmod_idx_opcode_be(std::uint8_t opmod, std::uint16_t wqe_idx,
                                                                   std::uint8_t op) {
  return to_be32((std::uint32_t{opmod} << 24) | (std::uint32_t{wqe_idx} << 8) | op);
}
GIO_HOST_DEVICE_INLINE constexpr std::uint32_t qpn_ds_be(std::uint32_t qpn, std::uint8_t ds) {
  return to_be32((qpn << 8) | ds);
}
// WQE size in 16-byte units for ctrl + raddr + an inline segment of `len` bytes (rdma-core: no
// inline segment at all for len 0).
GIO_HOST_DEVICE_INLINE constexpr std::uint8_t inline_write_ds(std::uint32_t len) {
  return static_cast<std::uint8_t>(len == 0 ? 2 : 2 + (sizeof(inl_data_seg) + len + send_wqe_ds - 1) / send_wqe_ds);
}

// The fields of a slot that prefill fixes: the QP, the keys of the local and remote registered
// memory, and the fm_ce_se byte (ctrl_flags::cq_update for a signaled WQE, a fence mode).
struct wqe_static {
  std::uint32_t qpn;
  std::uint32_t lkey;
  std::uint32_t rkey;
  std::uint8_t fm_ce_se;
};

namespace detail {
// Segment at byte offset `off` (a multiple of 16) of a slot.
template <class Seg> GIO_HOST_DEVICE_INLINE Seg& seg_at(wqe_bb& slot, unsigned off) {
  return *reinterpret_cast<Seg*>(reinterpret_cast<unsigned char*>(&slot) + off);
}
GIO_HOST_DEVICE_INLINE void clear(wqe_bb& slot) {
  auto* words = reinterpret_cast<std::uint64_t*>(&slot);
  for (unsigned i = 0; i < sizeof(wqe_bb) / sizeof(std::uint64_t); ++i) words[i] = 0;
}
GIO_HOST_DEVICE_INLINE void prefill_ctrl(wqe_bb& slot, std::uint8_t opmod, std::uint8_t op, std::uint8_t ds,
                                         const wqe_static& st) {
  clear(slot);
  slot.ctrl.opmod_idx_opcode_be = opmod_idx_opcode_be(opmod, 0, op);
  slot.ctrl.qpn_ds_be = qpn_ds_be(st.qpn, ds);
  slot.ctrl.fm_ce_se = st.fm_ce_se;
}
inline constexpr unsigned raddr_off = sizeof(ctrl_seg);                   // 16
inline constexpr unsigned second_off = raddr_off + sizeof(raddr_seg);     // 32
inline constexpr unsigned third_off = second_off + sizeof(atomic_seg);    // 48
}  // namespace detail

// ---- RDMA write and read: ctrl | raddr | data pointer ----------------------------------------

template <std::uint8_t Opcode> struct rdma_template {
  static constexpr std::uint8_t op = Opcode;
  static constexpr std::uint8_t mod = opmod::none;
  static constexpr std::uint8_t ds = 3;

  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& slot, const wqe_static& st) {
    detail::prefill_ctrl(slot, mod, op, ds, st);
    detail::seg_at<raddr_seg>(slot, detail::raddr_off).rkey_be = to_be32(st.rkey);
    detail::seg_at<data_seg>(slot, detail::second_off).lkey_be = to_be32(st.lkey);
  }
  // write: `len` bytes from local `laddr` to remote `raddr`; read: from remote `raddr` to `laddr`.
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t laddr,
                                           std::uint64_t raddr, std::uint32_t len) {
    slot.ctrl.opmod_idx_opcode_be = opmod_idx_opcode_be(mod, wqe_idx, op);
    detail::seg_at<raddr_seg>(slot, detail::raddr_off).raddr_be = to_be64(raddr);
    auto& data = detail::seg_at<data_seg>(slot, detail::second_off);
    data.byte_count_be = to_be32(len);
    data.addr_be = to_be64(laddr);
  }
};
using rdma_write = rdma_template<opcode::rdma_write>;
using rdma_read = rdma_template<opcode::rdma_read>;

// ---- inline RDMA write: ctrl | raddr | inline header + data (for p and small puts) ------------

struct inline_write {
  static constexpr std::uint8_t op = opcode::rdma_write;
  static constexpr std::uint8_t mod = opmod::none;
  // What fits in one basic block after ctrl, raddr and the 4-byte inline header. The QP must be
  // created with max_inline_data >= this.
  static constexpr std::uint32_t max_len = send_wqe_bb - detail::second_off - sizeof(inl_data_seg);  // 28

  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& slot, const wqe_static& st) {
    detail::prefill_ctrl(slot, mod, op, inline_write_ds(max_len), st);
    detail::seg_at<raddr_seg>(slot, detail::raddr_off).rkey_be = to_be32(st.rkey);
  }
  // Copies `len` (<= max_len) bytes from `src` into the WQE. The length is per operation, so the
  // DS byte (the low byte of qpn_ds, offset 7) is patched too; the QPN bytes are left alone.
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t raddr,
                                           const void* src, std::uint32_t len) {
    slot.ctrl.opmod_idx_opcode_be = opmod_idx_opcode_be(mod, wqe_idx, op);
    reinterpret_cast<unsigned char*>(&slot.ctrl)[7] = inline_write_ds(len);
    detail::seg_at<raddr_seg>(slot, detail::raddr_off).raddr_be = to_be64(raddr);
    unsigned char* seg = reinterpret_cast<unsigned char*>(&slot) + detail::second_off;
    if (len == 0) return;
    reinterpret_cast<inl_data_seg*>(seg)->byte_count_be = to_be32(len | inline_seg);
    const auto* from = static_cast<const unsigned char*>(src);
    for (std::uint32_t i = 0; i < len; ++i) seg[sizeof(inl_data_seg) + i] = from[i];
  }
};

// ---- atomics: ctrl | raddr | atomic operands | data pointer (where the old value lands) -------

// Shared by the four atomic kinds; Operands writes the 16-byte operand segment.
template <std::uint8_t Opcode, std::uint8_t Opmod, std::uint32_t Bytes> struct atomic_template {
  static constexpr std::uint8_t op = Opcode;
  static constexpr std::uint8_t mod = Opmod;
  static constexpr std::uint8_t ds = 4;
  static constexpr std::uint32_t operand_bytes = Bytes;

  // Reserved and constant operand fields (fetch-add's compare, the masks) are set by the caller.
  GIO_HOST_DEVICE_INLINE static void prefill_common(wqe_bb& slot, const wqe_static& st) {
    detail::prefill_ctrl(slot, mod, op, ds, st);
    detail::seg_at<raddr_seg>(slot, detail::raddr_off).rkey_be = to_be32(st.rkey);
    auto& data = detail::seg_at<data_seg>(slot, detail::third_off);
    data.byte_count_be = to_be32(Bytes);
    data.lkey_be = to_be32(st.lkey);
  }
  GIO_HOST_DEVICE_INLINE static void patch_common(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t fetch_laddr,
                                                  std::uint64_t raddr) {
    slot.ctrl.opmod_idx_opcode_be = opmod_idx_opcode_be(mod, wqe_idx, op);
    detail::seg_at<raddr_seg>(slot, detail::raddr_off).raddr_be = to_be64(raddr);
    detail::seg_at<data_seg>(slot, detail::third_off).addr_be = to_be64(fetch_laddr);
  }
};

// 64-bit fetch-add (IBV_WR_ATOMIC_FETCH_AND_ADD). raddr must be 8-byte aligned.
struct fetch_add64 : atomic_template<opcode::atomic_fa, opmod::none, 8> {
  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& slot, const wqe_static& st) { prefill_common(slot, st); }
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t fetch_laddr,
                                           std::uint64_t raddr, std::uint64_t add) {
    patch_common(slot, wqe_idx, fetch_laddr, raddr);
    detail::seg_at<atomic_seg>(slot, detail::second_off).swap_add_be = to_be64(add);
  }
};

// 64-bit compare-swap (IBV_WR_ATOMIC_CMP_AND_SWP): if *raddr == compare then *raddr = swap; the
// old value lands at fetch_laddr.
struct compare_swap64 : atomic_template<opcode::atomic_cs, opmod::none, 8> {
  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& slot, const wqe_static& st) { prefill_common(slot, st); }
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t fetch_laddr,
                                           std::uint64_t raddr, std::uint64_t compare, std::uint64_t swap) {
    patch_common(slot, wqe_idx, fetch_laddr, raddr);
    auto& a = detail::seg_at<atomic_seg>(slot, detail::second_off);
    a.swap_add_be = to_be64(swap);
    a.compare_be = to_be64(compare);
  }
};

// 32-bit fetch-add: the extended (masked) fetch-add with 4-byte operands and one field
// (field_boundary 0). Needs a NIC with 4-byte extended atomics (ConnectX-5 and later; the host
// checks the HCA's atomic_size_qp); without them the transport emulates with compare_swap64.
struct fetch_add32 : atomic_template<opcode::atomic_masked_fa, opmod::ext_atomic_4byte, 4> {
  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& slot, const wqe_static& st) { prefill_common(slot, st); }
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t fetch_laddr,
                                           std::uint64_t raddr, std::uint32_t add) {
    patch_common(slot, wqe_idx, fetch_laddr, raddr);
    detail::seg_at<masked_fa32_seg>(slot, detail::second_off).add_be = to_be32(add);
  }
};

// 32-bit compare-swap: the extended (masked) compare-swap with all-ones masks.
struct compare_swap32 : atomic_template<opcode::atomic_masked_cs, opmod::ext_atomic_4byte, 4> {
  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& slot, const wqe_static& st) {
    prefill_common(slot, st);
    auto& a = detail::seg_at<masked_cs32_seg>(slot, detail::second_off);
    a.swap_mask_be = to_be32(0xffffffffu);
    a.compare_mask_be = to_be32(0xffffffffu);
  }
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t fetch_laddr,
                                           std::uint64_t raddr, std::uint32_t compare, std::uint32_t swap) {
    patch_common(slot, wqe_idx, fetch_laddr, raddr);
    auto& a = detail::seg_at<masked_cs32_seg>(slot, detail::second_off);
    a.swap_be = to_be32(swap);
    a.compare_be = to_be32(compare);
  }
};

// 32-bit swap / atomic set: the extended compare-swap with compare mask 0 (the compare always
// succeeds) and an all-ones swap mask, as NVSHMEM IBGDA posts SET/SWAP/SIGNAL_SET of 4 bytes. The
// 64-bit form needs masked_cs64_seg (DS 5, two basic blocks) and has no template yet.
struct swap32 : atomic_template<opcode::atomic_masked_cs, opmod::ext_atomic_4byte, 4> {
  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& slot, const wqe_static& st) {
    prefill_common(slot, st);
    detail::seg_at<masked_cs32_seg>(slot, detail::second_off).swap_mask_be = to_be32(0xffffffffu);
  }
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& slot, std::uint16_t wqe_idx, std::uint64_t fetch_laddr,
                                           std::uint64_t raddr, std::uint32_t value) {
    patch_common(slot, wqe_idx, fetch_laddr, raddr);
    detail::seg_at<masked_cs32_seg>(slot, detail::second_off).swap_be = to_be32(value);
  }
};

// ---- put with signal: two consecutive WQEs ----------------------------------------------------

// The data as an RDMA write in slot of wqe_idx, then the signal in the slot of wqe_idx + 1: an
// 8-byte inline write (signal set) or a 64-bit fetch-add (signal add). The signal WQE carries
// fence mode `signal_fm` (default MLX5_WQE_CTRL_FENCE, what IBV_SEND_FENCE encodes). On one RC QP
// the responder executes the two in order; docs/transports.md ("Ordering") says what the fence
// adds and when fm_strong_ordering is needed instead.
enum class signal_kind : std::uint8_t { set, add };

struct put_signal {
  // put: the put WQE's flags (usually unsignaled: the signal's completion implies the put's);
  // signal: the signal WQE's keys and flags (lkey of the fetch scratch for `add`); its fence
  // mode bits are replaced by signal_fm.
  GIO_HOST_DEVICE_INLINE static void prefill(wqe_bb& put_slot, wqe_bb& signal_slot, const wqe_static& put,
                                             wqe_static signal, signal_kind kind,
                                             std::uint8_t signal_fm = ctrl_flags::fm_fence_and_small) {
    rdma_write::prefill(put_slot, put);
    signal.fm_ce_se = static_cast<std::uint8_t>((signal.fm_ce_se & ~ctrl_flags::fm_mask) | signal_fm);
    if (kind == signal_kind::set) {
      inline_write::prefill(signal_slot, signal);
    } else {
      fetch_add64::prefill(signal_slot, signal);
    }
  }
  // put_slot/signal_slot are the slots of wqe_idx and wqe_idx + 1 (the caller wraps the ring).
  // fetch_laddr: where the NIC writes the signal's old value for `add` (a per-QP scratch word).
  GIO_HOST_DEVICE_INLINE static void patch(wqe_bb& put_slot, wqe_bb& signal_slot, std::uint16_t wqe_idx,
                                           signal_kind kind, std::uint64_t laddr, std::uint64_t raddr,
                                           std::uint32_t len, std::uint64_t signal_raddr, std::uint64_t signal_value,
                                           std::uint64_t fetch_laddr) {
    rdma_write::patch(put_slot, wqe_idx, laddr, raddr, len);
    const auto next = static_cast<std::uint16_t>(wqe_idx + 1);
    if (kind == signal_kind::set) {
      inline_write::patch(signal_slot, next, signal_raddr, &signal_value, sizeof(signal_value));
    } else {
      fetch_add64::patch(signal_slot, next, fetch_laddr, signal_raddr, signal_value);
    }
  }
};

// ---- doorbells ---------------------------------------------------------------------------------

// Slot of a WQE index in an SQ of 2^log_depth basic blocks.
GIO_HOST_DEVICE_INLINE constexpr std::uint32_t slot_of(std::uint32_t wqe_idx, unsigned log_depth) {
  return wqe_idx & ((1u << log_depth) - 1u);
}
// SQ doorbell record (dbrec[snd_dbr]) after posting up to, not including, producer index `pi`.
GIO_HOST_DEVICE_INLINE constexpr std::uint32_t sq_dbrec_be(std::uint32_t pi) { return to_be32(pi & 0xffffu); }
// CQ doorbell record (dbrec[cq_set_ci]) after consuming CQEs up to consumer index `ci`.
GIO_HOST_DEVICE_INLINE constexpr std::uint32_t cq_dbrec_be(std::uint32_t ci) { return to_be32(ci & 0xffffffu); }
// The 64-bit value stored to the QP's UAR/BlueFlame doorbell register (mlx5dv_qp.bf.reg): the
// first 8 bytes of the last posted WQE's ctrl segment,
// as they lie in memory (rdma-core: mmio_write64_be(reg, *(__be64*)ctrl)).
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t uar_doorbell(const ctrl_seg& ctrl) {
  return (std::uint64_t{ctrl.qpn_ds_be} << 32) | ctrl.opmod_idx_opcode_be;
}
// The same value computed from the fields, so the ringing thread need not read the slot back.
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t uar_doorbell(std::uint8_t opmod, std::uint16_t wqe_idx, std::uint8_t op,
                                                            std::uint32_t qpn, std::uint8_t ds) {
  return (std::uint64_t{qpn_ds_be(qpn, ds)} << 32) | opmod_idx_opcode_be(opmod, wqe_idx, op);
}

}  // namespace gio::templates::mlx5
