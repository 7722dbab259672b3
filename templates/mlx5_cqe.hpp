// mlx5 CQE decoding: whether the entry at a consumer index belongs to software yet (owner bit
// against the CQ's phase), and the fields a requester needs from it: opcode, WQE counter, QPN,
// and for an error CQE the syndrome, vendor syndrome and the failed WQE's opcode. Device code
// polls with cqe_ready() and decodes with decode_cqe(); reports use the *_name() functions
// (host and device, for printf) or to_string() (host).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "gio/platform/host_device.hpp"
#include "gio/templates/endian.hpp"
#include "gio/templates/mlx5_wire.hpp"

namespace gio::templates::mlx5 {

// The CQE at free-running consumer index `ci` of a CQ of 2^log_size entries is software's when
// its owner bit equals the phase of ci (0 on the first pass, 1 on the second, ...) and its opcode
// is not `invalid` (how the CQ is initialised). As rdma-core's get_sw_cqe.
GIO_HOST_DEVICE_INLINE constexpr bool cqe_ready(std::uint8_t op_own, std::uint32_t ci, unsigned log_size) {
  return (op_own >> 4) != cqe_opcode::invalid &&
         (op_own & cqe_owner_mask) == ((ci >> log_size) & 1u);
}

// A fresh CQ's contents: every CQE's opcode INVALID with owner 0, as rdma-core's mlx5_alloc_cq_buf
// leaves them, so that no slot reads as a completion before the NIC writes it. `ring` holds
// `count` 64-byte CQEs (host memory: an image to copy, or the ring itself).
inline void mark_cqes_invalid(void* ring, std::size_t count) {
  auto* cqe = static_cast<cqe64*>(ring);
  for (std::size_t i = 0; i < count; ++i) cqe[i].op_own = static_cast<std::uint8_t>(cqe_opcode::invalid << 4);
}

GIO_HOST_DEVICE_INLINE constexpr bool cqe_opcode_is_error(std::uint8_t op) {
  return op == cqe_opcode::req_err || op == cqe_opcode::resp_err;
}

struct cqe_info {
  std::uint8_t opcode;        // cqe_opcode::*
  std::uint8_t owner;         // op_own bit 0
  std::uint8_t format;        // op_own bits 3:2 (0: not compressed)
  std::uint16_t wqe_counter;  // index of the WQE this CQE completes (its last, for coalesced CQEs)
  std::uint32_t qpn;
  std::uint32_t byte_count;   // success CQEs only: bytes of a read / atomic response
  // error CQEs only (zero otherwise):
  std::uint8_t syndrome;         // cqe_syndrome::*
  std::uint8_t vendor_syndrome;
  std::uint8_t wqe_opcode;       // opcode of the failed WQE (opcode::*)

  GIO_HOST_DEVICE_INLINE constexpr bool is_error() const { return cqe_opcode_is_error(opcode); }
};

GIO_HOST_DEVICE_INLINE cqe_info decode_cqe(const cqe64& cqe) {
  cqe_info info{};
  info.opcode = static_cast<std::uint8_t>(cqe.op_own >> 4);
  info.owner = static_cast<std::uint8_t>(cqe.op_own & cqe_owner_mask);
  info.format = static_cast<std::uint8_t>((cqe.op_own >> 2) & 3u);
  info.wqe_counter = from_be16(cqe.wqe_counter_be);
  if (info.is_error()) {
    // The err_cqe view of the same 64 bytes, read bytewise (no type punning).
    const auto* bytes = reinterpret_cast<const unsigned char*>(&cqe);
    info.wqe_opcode = bytes[offsetof(err_cqe, s_wqe_opcode_qpn_be)];
    info.qpn = (std::uint32_t{bytes[offsetof(err_cqe, s_wqe_opcode_qpn_be) + 1]} << 16) |
               (std::uint32_t{bytes[offsetof(err_cqe, s_wqe_opcode_qpn_be) + 2]} << 8) |
               bytes[offsetof(err_cqe, s_wqe_opcode_qpn_be) + 3];
    info.syndrome = bytes[offsetof(err_cqe, syndrome)];
    info.vendor_syndrome = bytes[offsetof(err_cqe, vendor_err_synd)];
  } else {
    info.qpn = from_be32(cqe.sop_drop_qpn_be) & 0xffffffu;
    info.byte_count = from_be32(cqe.byte_cnt_be);
  }
  return info;
}

GIO_HOST_DEVICE_INLINE constexpr const char* cqe_opcode_name(std::uint8_t op) {
  switch (op) {
    case cqe_opcode::req: return "REQ";
    case cqe_opcode::resp_wr_imm: return "RESP_WR_IMM";
    case cqe_opcode::resp_send: return "RESP_SEND";
    case cqe_opcode::resp_send_imm: return "RESP_SEND_IMM";
    case cqe_opcode::resp_send_inv: return "RESP_SEND_INV";
    case cqe_opcode::resize_cq: return "RESIZE_CQ";
    case cqe_opcode::no_packet: return "NO_PACKET";
    case cqe_opcode::sig_err: return "SIG_ERR";
    case cqe_opcode::req_err: return "REQ_ERR";
    case cqe_opcode::resp_err: return "RESP_ERR";
    case cqe_opcode::invalid: return "INVALID";
    default: return "UNKNOWN";
  }
}

GIO_HOST_DEVICE_INLINE constexpr const char* cqe_syndrome_name(std::uint8_t syndrome) {
  switch (syndrome) {
    case cqe_syndrome::local_length_err: return "LOCAL_LENGTH_ERR";
    case cqe_syndrome::local_qp_op_err: return "LOCAL_QP_OP_ERR";
    case cqe_syndrome::local_prot_err: return "LOCAL_PROT_ERR";
    case cqe_syndrome::wr_flush_err: return "WR_FLUSH_ERR";
    case cqe_syndrome::mw_bind_err: return "MW_BIND_ERR";
    case cqe_syndrome::bad_resp_err: return "BAD_RESP_ERR";
    case cqe_syndrome::local_access_err: return "LOCAL_ACCESS_ERR";
    case cqe_syndrome::remote_inval_req_err: return "REMOTE_INVAL_REQ_ERR";
    case cqe_syndrome::remote_access_err: return "REMOTE_ACCESS_ERR";
    case cqe_syndrome::remote_op_err: return "REMOTE_OP_ERR";
    case cqe_syndrome::transport_retry_exc_err: return "TRANSPORT_RETRY_EXC_ERR";
    case cqe_syndrome::rnr_retry_exc_err: return "RNR_RETRY_EXC_ERR";
    case cqe_syndrome::remote_aborted_err: return "REMOTE_ABORTED_ERR";
    default: return "UNKNOWN_SYNDROME";
  }
}

GIO_HOST_DEVICE_INLINE constexpr const char* wqe_opcode_name(std::uint8_t op) {
  switch (op) {
    case opcode::nop: return "NOP";
    case opcode::rdma_write: return "RDMA_WRITE";
    case opcode::rdma_write_imm: return "RDMA_WRITE_IMM";
    case opcode::send: return "SEND";
    case opcode::rdma_read: return "RDMA_READ";
    case opcode::atomic_cs: return "ATOMIC_CS";
    case opcode::atomic_fa: return "ATOMIC_FA";
    case opcode::atomic_masked_cs: return "ATOMIC_MASKED_CS";
    case opcode::atomic_masked_fa: return "ATOMIC_MASKED_FA";
    default: return "UNKNOWN_OPCODE";
  }
}

// One line for reports (host only), e.g.
// "REQ_ERR qpn 0x1234 wqe 17 opcode RDMA_WRITE syndrome REMOTE_ACCESS_ERR (0x13) vendor 0x88".
inline std::string to_string(const cqe_info& info) {
  auto hex = [](unsigned v) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string s;
    do {
      s.insert(s.begin(), digits[v & 15u]);
      v >>= 4;
    } while (v != 0);
    return "0x" + s;
  };
  std::string s = cqe_opcode_name(info.opcode);
  s += " qpn " + hex(info.qpn) + " wqe " + std::to_string(info.wqe_counter);
  if (info.is_error()) {
    s += std::string(" opcode ") + wqe_opcode_name(info.wqe_opcode) + " syndrome " +
         cqe_syndrome_name(info.syndrome) + " (" + hex(info.syndrome) + ") vendor " + hex(info.vendor_syndrome);
  } else {
    s += " bytes " + std::to_string(info.byte_count);
  }
  return s;
}

}  // namespace gio::templates::mlx5
