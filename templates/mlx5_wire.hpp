// mlx5 wire formats: the send-queue WQE segments and the 64-byte CQE, as the ConnectX NIC reads
// and writes them, with the constants gio uses. Mirrors rdma-core's <infiniband/mlx5dv.h>
// (struct mlx5_wqe_*_seg, struct mlx5_cqe64, struct mlx5_err_cqe, MLX5_OPCODE_*, MLX5_CQE_*),
// which device code cannot include (it pulls in verbs.h and x86 intrinsics). The unit test
// tests/unit/mlx5_templates_test.cpp checks every constant, size and offset here against that
// header, and every encoder against rdma-core's.
//
// Multi-byte fields hold big-endian values (the *_be names). The structs have no padding and
// keep natural alignment (checked below) instead of being __attribute__((packed)): every segment
// sits at a 16-byte offset of a 64-byte WQE basic block, so device code can store them with
// aligned 4/8/16-byte accesses. Where rdma-core has a misaligned field (the ctrl segment's
// 16-bit dci_stream_channel_id at offset 9), it is spelled as bytes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gio::templates::mlx5 {

// ---- constants (values of mlx5dv.h; the test asserts each one) ---------------------------------

namespace opcode {  // ctrl segment opcode byte
inline constexpr std::uint8_t nop = 0x00;
inline constexpr std::uint8_t rdma_write = 0x08;
inline constexpr std::uint8_t rdma_write_imm = 0x09;
inline constexpr std::uint8_t send = 0x0a;
inline constexpr std::uint8_t rdma_read = 0x10;
inline constexpr std::uint8_t atomic_cs = 0x11;
inline constexpr std::uint8_t atomic_fa = 0x12;
inline constexpr std::uint8_t atomic_masked_cs = 0x14;
inline constexpr std::uint8_t atomic_masked_fa = 0x15;
}  // namespace opcode

// ctrl segment opmod byte for the masked ("extended") atomics: bit 3 = extended, bits 2:0 =
// log2(operand bytes) - 2. The same values as NVSHMEM IBGDA's *_BYTE_EXT_AMO_OPMOD >> 24; mlx5dv.h
// does not define them.
namespace opmod {
inline constexpr std::uint8_t none = 0x00;
inline constexpr std::uint8_t ext_atomic_4byte = 0x08;
inline constexpr std::uint8_t ext_atomic_8byte = 0x09;
}  // namespace opmod

// fm_ce_se byte: fence mode in bits 7:5, completion/event request in bits 3:2, solicited bit 1.
namespace ctrl_flags {
inline constexpr std::uint8_t cq_update = 2 << 2;  // MLX5_WQE_CTRL_CQ_UPDATE: write a CQE
inline constexpr std::uint8_t solicited = 1 << 1;  // MLX5_WQE_CTRL_SOLICITED
// Fence modes (PRM names; see docs/transports.md "Ordering" for what each guarantees).
inline constexpr std::uint8_t fm_none = 0 << 5;
inline constexpr std::uint8_t fm_initiator_small = 1 << 5;  // MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE
inline constexpr std::uint8_t fm_fence = 2 << 5;            // IB fence (prior reads/atomics done)
inline constexpr std::uint8_t fm_strong_ordering = 3 << 5;  // all prior WQEs completed
inline constexpr std::uint8_t fm_fence_and_small = 4 << 5;  // MLX5_WQE_CTRL_FENCE = IBV_SEND_FENCE
inline constexpr std::uint8_t fm_mask = 7 << 5;
}  // namespace ctrl_flags

inline constexpr std::uint32_t send_wqe_bb = 64;     // MLX5_SEND_WQE_BB: one WQE basic block
inline constexpr std::uint32_t send_wqe_shift = 6;   // MLX5_SEND_WQE_SHIFT
inline constexpr std::uint32_t send_wqe_ds = 16;     // the unit of qpn_ds's DS count
inline constexpr std::uint32_t inline_seg = 0x80000000u;  // MLX5_INLINE_SEG, in inline byte_count
inline constexpr std::uint32_t snd_dbr = 1;          // MLX5_SND_DBR: SQ word of the QP doorbell record
inline constexpr std::uint32_t rcv_dbr = 0;          // MLX5_RCV_DBR
inline constexpr std::uint32_t cq_set_ci = 0;        // MLX5_CQ_SET_CI: CQ doorbell record word 0

namespace cqe_opcode {  // CQE op_own bits 7:4
inline constexpr std::uint8_t req = 0;
inline constexpr std::uint8_t resp_wr_imm = 1;
inline constexpr std::uint8_t resp_send = 2;
inline constexpr std::uint8_t resp_send_imm = 3;
inline constexpr std::uint8_t resp_send_inv = 4;
inline constexpr std::uint8_t resize_cq = 5;
inline constexpr std::uint8_t no_packet = 6;
inline constexpr std::uint8_t sig_err = 12;
inline constexpr std::uint8_t req_err = 13;
inline constexpr std::uint8_t resp_err = 14;
inline constexpr std::uint8_t invalid = 15;
}  // namespace cqe_opcode
inline constexpr std::uint8_t cqe_owner_mask = 1;  // MLX5_CQE_OWNER_MASK

namespace cqe_syndrome {  // mlx5_err_cqe.syndrome
inline constexpr std::uint8_t local_length_err = 0x01;
inline constexpr std::uint8_t local_qp_op_err = 0x02;
inline constexpr std::uint8_t local_prot_err = 0x04;
inline constexpr std::uint8_t wr_flush_err = 0x05;
inline constexpr std::uint8_t mw_bind_err = 0x06;
inline constexpr std::uint8_t bad_resp_err = 0x10;
inline constexpr std::uint8_t local_access_err = 0x11;
inline constexpr std::uint8_t remote_inval_req_err = 0x12;
inline constexpr std::uint8_t remote_access_err = 0x13;
inline constexpr std::uint8_t remote_op_err = 0x14;
inline constexpr std::uint8_t transport_retry_exc_err = 0x15;
inline constexpr std::uint8_t rnr_retry_exc_err = 0x16;
inline constexpr std::uint8_t remote_aborted_err = 0x22;
}  // namespace cqe_syndrome

// ---- send WQE segments ---------------------------------------------------------------------------

// Control segment (struct mlx5_wqe_ctrl_seg): first 16 bytes of every WQE.
struct ctrl_seg {
  std::uint32_t opmod_idx_opcode_be;  // opmod[31:24] | wqe index[23:8] | opcode[7:0]
  std::uint32_t qpn_ds_be;            // qpn[31:8] | ds[7:0] (WQE size in 16-byte units)
  std::uint8_t signature;
  std::uint8_t dci_stream_channel_id_be[2];
  std::uint8_t fm_ce_se;
  std::uint32_t imm_be;  // immediate / invalidation key; 0 for the kinds gio posts
};

// Remote address segment (struct mlx5_wqe_raddr_seg).
struct raddr_seg {
  std::uint64_t raddr_be;
  std::uint32_t rkey_be;
  std::uint32_t reserved;
};

// Data (scatter/gather) pointer segment (struct mlx5_wqe_data_seg).
struct data_seg {
  std::uint32_t byte_count_be;
  std::uint32_t lkey_be;
  std::uint64_t addr_be;
};

// Inline data segment header (struct mlx5_wqe_inl_data_seg): byte_count_be = be32(len |
// inline_seg), followed directly by the data, padded to 16 bytes.
struct inl_data_seg {
  std::uint32_t byte_count_be;
};

// Atomic segment (struct mlx5_wqe_atomic_seg): compare-swap uses both, fetch-add only swap_add.
struct atomic_seg {
  std::uint64_t swap_add_be;
  std::uint64_t compare_be;
};

// Extended (masked) atomic segments, opcode atomic_masked_*; layouts of the mlx5 PRM as NVSHMEM
// IBGDA and the Linux mlx5 driver (struct mlx5_wqe_masked_atomic_seg) use them.
struct masked_fa32_seg {  // opmod ext_atomic_4byte
  std::uint32_t add_be;
  std::uint32_t field_boundary_be;  // 0: one 32-bit field, plain fetch-add
  std::uint64_t reserved;
};
struct masked_cs32_seg {  // opmod ext_atomic_4byte
  std::uint32_t swap_be;
  std::uint32_t compare_be;
  std::uint32_t swap_mask_be;  // all ones: plain 32-bit compare-swap
  std::uint32_t compare_mask_be;
};
struct masked_fa64_seg {  // opmod ext_atomic_8byte
  std::uint64_t add_be;
  std::uint64_t field_boundary_be;
};
struct masked_cs64_seg {  // opmod ext_atomic_8byte; two 16-byte segments (DS + 2)
  std::uint64_t swap_be;
  std::uint64_t compare_be;
  std::uint64_t swap_mask_be;
  std::uint64_t compare_mask_be;
};

// One SQ slot: a 64-byte basic block. gio's templates are all single-block WQEs, so the slot of
// WQE index i is i & (sq_depth - 1) and no WQE wraps around the end of the ring.
struct alignas(64) wqe_bb {
  ctrl_seg ctrl;
  std::uint8_t body[48];
};

// ---- completion queue entries --------------------------------------------------------------------

// 64-byte CQE (struct mlx5_cqe64), the fields a requester-side CQ uses. With 128-byte CQEs this is
// the second half of each entry.
struct cqe64 {
  std::uint8_t rsvd0[32];
  std::uint32_t srqn_uidx_be;
  std::uint32_t imm_inval_pkey_be;
  std::uint8_t app;
  std::uint8_t app_op;
  std::uint16_t app_info_be;
  std::uint32_t byte_cnt_be;
  std::uint64_t timestamp_be;
  std::uint32_t sop_drop_qpn_be;  // qpn[23:0]
  std::uint16_t wqe_counter_be;
  std::uint8_t signature;
  std::uint8_t op_own;  // opcode[7:4] | format[3:2] | se[1] | owner[0]
};

// Error CQE (struct mlx5_err_cqe): the same 64 bytes when the opcode is req_err or resp_err.
struct err_cqe {
  std::uint8_t rsvd0[32];
  std::uint32_t srqn_be;
  std::uint8_t rsvd1[18];
  std::uint8_t vendor_err_synd;
  std::uint8_t syndrome;
  std::uint32_t s_wqe_opcode_qpn_be;  // opcode of the failed WQE[31:24] | qpn[23:0]
  std::uint16_t wqe_counter_be;
  std::uint8_t signature;
  std::uint8_t op_own;
};

// ---- layout checks (the test repeats them against mlx5dv.h's own structs) ------------------------

static_assert(sizeof(ctrl_seg) == 16 && alignof(ctrl_seg) == 4);
static_assert(offsetof(ctrl_seg, opmod_idx_opcode_be) == 0 && offsetof(ctrl_seg, qpn_ds_be) == 4 &&
              offsetof(ctrl_seg, signature) == 8 && offsetof(ctrl_seg, dci_stream_channel_id_be) == 9 &&
              offsetof(ctrl_seg, fm_ce_se) == 11 && offsetof(ctrl_seg, imm_be) == 12);
static_assert(sizeof(raddr_seg) == 16 && offsetof(raddr_seg, raddr_be) == 0 &&
              offsetof(raddr_seg, rkey_be) == 8 && offsetof(raddr_seg, reserved) == 12);
static_assert(sizeof(data_seg) == 16 && offsetof(data_seg, byte_count_be) == 0 &&
              offsetof(data_seg, lkey_be) == 4 && offsetof(data_seg, addr_be) == 8);
static_assert(sizeof(inl_data_seg) == 4);
static_assert(sizeof(atomic_seg) == 16 && offsetof(atomic_seg, swap_add_be) == 0 &&
              offsetof(atomic_seg, compare_be) == 8);
static_assert(sizeof(masked_fa32_seg) == 16 && offsetof(masked_fa32_seg, add_be) == 0 &&
              offsetof(masked_fa32_seg, field_boundary_be) == 4 && offsetof(masked_fa32_seg, reserved) == 8);
static_assert(sizeof(masked_cs32_seg) == 16 && offsetof(masked_cs32_seg, swap_be) == 0 &&
              offsetof(masked_cs32_seg, compare_be) == 4 && offsetof(masked_cs32_seg, swap_mask_be) == 8 &&
              offsetof(masked_cs32_seg, compare_mask_be) == 12);
static_assert(sizeof(masked_fa64_seg) == 16 && offsetof(masked_fa64_seg, add_be) == 0 &&
              offsetof(masked_fa64_seg, field_boundary_be) == 8);
static_assert(sizeof(masked_cs64_seg) == 32 && offsetof(masked_cs64_seg, swap_be) == 0 &&
              offsetof(masked_cs64_seg, compare_be) == 8 && offsetof(masked_cs64_seg, swap_mask_be) == 16 &&
              offsetof(masked_cs64_seg, compare_mask_be) == 24);
static_assert(sizeof(wqe_bb) == send_wqe_bb && alignof(wqe_bb) == send_wqe_bb);
static_assert(sizeof(cqe64) == 64 && offsetof(cqe64, srqn_uidx_be) == 32 &&
              offsetof(cqe64, imm_inval_pkey_be) == 36 && offsetof(cqe64, app) == 40 &&
              offsetof(cqe64, app_op) == 41 && offsetof(cqe64, app_info_be) == 42 &&
              offsetof(cqe64, byte_cnt_be) == 44 && offsetof(cqe64, timestamp_be) == 48 &&
              offsetof(cqe64, sop_drop_qpn_be) == 56 && offsetof(cqe64, wqe_counter_be) == 60 &&
              offsetof(cqe64, signature) == 62 && offsetof(cqe64, op_own) == 63);
static_assert(sizeof(err_cqe) == 64 && offsetof(err_cqe, srqn_be) == 32 &&
              offsetof(err_cqe, vendor_err_synd) == 54 && offsetof(err_cqe, syndrome) == 55 &&
              offsetof(err_cqe, s_wqe_opcode_qpn_be) == 56 && offsetof(err_cqe, wqe_counter_be) == 60 &&
              offsetof(err_cqe, signature) == 62 && offsetof(err_cqe, op_own) == 63);

}  // namespace gio::templates::mlx5
