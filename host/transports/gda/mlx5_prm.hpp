// The mlx5 PRM commands the DevX ring path sends (QUERY_HCA_CAP, CREATE_CQ, CREATE_QP and the three
// QP transitions), encoded and decoded without rdma-core: plain structs in, byte buffers out, so a
// CPU unit test can check every byte (tests/unit/mlx5_prm_test.cpp compares them with buffers
// built from the Linux kernel's own layout header, include/linux/mlx5/mlx5_ifc.h).
//
// Layouts: docs/devx-rings-plan.md §2 gives every field's bit offset, width and the value used.
// A PRM buffer is a sequence of big-endian 32-bit words; a field is named by its bit offset from
// the buffer's start (bit 0 = the most significant bit of byte 0) and its width, as the kernel's
// `u8 name[bits]` structs name it. `set` has DEVX_SET's semantics (read the big-endian word, replace
// the field's bits, write it back); 64-bit fields are two whole words, high word first.
//
// Values that do not fit their field throw std::out_of_range naming the field: DEVX_SET would
// silently drop the high bits (a log_sq_size of 16 would become 0). Private to the host runtime.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gio/templates/endian.hpp"

namespace gio::transports::gda::prm {

// ---- fields ------------------------------------------------------------------------------------

struct field {
  std::uint32_t bit;   // offset from the start of the command buffer
  std::uint32_t bits;  // width
  const char* name;    // the kernel's name (with the path inside the command), for errors and tests
};

// A field `set`/`get` can handle: inside one 32-bit word, or one or more whole words.
constexpr bool well_formed(field f) {
  if (f.bits == 0) return false;
  if (f.bits <= 32) return f.bit / 32 == (f.bit + f.bits - 1) / 32;
  return f.bit % 32 == 0 && f.bits % 32 == 0;
}

constexpr field at(field f, std::uint32_t base, const char* name) { return {base + f.bit, f.bits, name}; }

// A big-endian word of a buffer (no alignment assumed).
inline std::uint32_t load_be32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return templates::from_be32(v);
}

inline void store_be32(std::uint8_t* p, std::uint32_t v) {
  const std::uint32_t be = templates::to_be32(v);
  std::memcpy(p, &be, sizeof be);
}

inline bool fits(field f, std::uint64_t value) { return f.bits >= 64 || (value >> f.bits) == 0; }

// DEVX_SET / DEVX_SET64: the field's bits of `buffer` become `value`; every other bit is kept.
inline void set(std::uint8_t* buffer, field f, std::uint64_t value) {
  if (!well_formed(f) || f.bits > 64) throw std::logic_error(std::string("prm: malformed field ") + f.name);
  if (!fits(f, value))
    throw std::out_of_range(std::string("prm: ") + f.name + " is " + std::to_string(f.bits) + " bits wide; " +
                            std::to_string(value) + " does not fit");
  std::uint8_t* word = buffer + f.bit / 32 * 4;
  if (f.bits == 64) {
    store_be32(word, static_cast<std::uint32_t>(value >> 32));
    store_be32(word + 4, static_cast<std::uint32_t>(value));
    return;
  }
  if (f.bits == 32) {
    store_be32(word, static_cast<std::uint32_t>(value));
    return;
  }
  const std::uint32_t shift = 32 - f.bit % 32 - f.bits;
  const std::uint32_t mask = ((1u << f.bits) - 1) << shift;
  store_be32(word, (load_be32(word) & ~mask) | (static_cast<std::uint32_t>(value) << shift & mask));
}

// DEVX_GET / DEVX_GET64.
inline std::uint64_t get(const std::uint8_t* buffer, field f) {
  if (!well_formed(f) || f.bits > 64) throw std::logic_error(std::string("prm: malformed field ") + f.name);
  const std::uint8_t* word = buffer + f.bit / 32 * 4;
  if (f.bits == 64) return static_cast<std::uint64_t>(load_be32(word)) << 32 | load_be32(word + 4);
  if (f.bits == 32) return load_be32(word);
  const std::uint32_t shift = 32 - f.bit % 32 - f.bits;
  return load_be32(word) >> shift & ((1u << f.bits) - 1);
}

// A field that holds raw bytes in wire order (a GID): copied as they are, as NVSHMEM and
// rdma-core's dr_devx.c memcpy them.
inline void set_bytes(std::uint8_t* buffer, field f, const std::uint8_t* bytes) {
  if (f.bit % 8 != 0 || f.bits % 8 != 0) throw std::logic_error(std::string("prm: ") + f.name + " is not byte aligned");
  std::memcpy(buffer + f.bit / 8, bytes, f.bits / 8);
}

// ---- opcodes, enumerations and sizes (docs/devx-rings-plan.md §2) -------------------------------

namespace op {  // command opcodes
inline constexpr std::uint16_t query_hca_cap = 0x100;
inline constexpr std::uint16_t create_cq = 0x400;
inline constexpr std::uint16_t create_qp = 0x500;
inline constexpr std::uint16_t rst2init_qp = 0x502;
inline constexpr std::uint16_t init2rtr_qp = 0x503;
inline constexpr std::uint16_t rtr2rts_qp = 0x504;
}  // namespace op

inline constexpr std::uint16_t cap_general = 0x0;  // MLX5_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE
inline constexpr std::uint16_t cap_atomic = 0x3;   // MLX5_SET_HCA_CAP_OP_MOD_ATOMIC
inline constexpr std::uint16_t cap_roce = 0x4;     // MLX5_SET_HCA_CAP_OP_MOD_ROCE
inline constexpr std::uint32_t st_rc = 0x0;        // MLX5_QPC_ST_RC
inline constexpr std::uint32_t pm_state_migrated = 0x3;
inline constexpr std::uint32_t rq_type_zero_len = 0x3;  // MLX5_ZERO_LEN_RQ (linux/mlx5/qp.h)
inline constexpr std::uint32_t atomic_mode_up_to_8b = 0x3;
inline constexpr std::uint32_t cqe_size_64 = 0x0;
inline constexpr std::uint32_t port_type_ib = 0x0;
inline constexpr std::uint32_t port_type_ethernet = 0x1;

inline constexpr std::size_t query_hca_cap_in_bytes = 16;
inline constexpr std::size_t query_hca_cap_out_bytes = 16 + 4096;
inline constexpr std::size_t create_cq_in_bytes = 272;
inline constexpr std::size_t create_qp_in_bytes = 272;
inline constexpr std::size_t modify_qp_in_bytes = 272;  // RST2INIT, INIT2RTR and RTR2RTS alike
inline constexpr std::size_t command_out_bytes = 16;    // CREATE_CQ/QP and the transitions' outboxes

// ---- layouts -----------------------------------------------------------------------------------
// Offsets are the kernel's (mlx5_ifc.h), where it names the field; the few it leaves reserved are
// the ones rdma-core and DPDK name (docs/devx-rings-plan.md §5), each marked below.

namespace layout {

// Every command's header, and every outbox's.
inline constexpr field opcode{0x0, 16, "opcode"};
inline constexpr field uid{0x10, 16, "uid"};
inline constexpr field op_mod{0x30, 16, "op_mod"};
inline constexpr field status{0x0, 8, "status"};
inline constexpr field syndrome{0x20, 32, "syndrome"};
inline constexpr field out_object_id{0x48, 24, "cqn/qpn"};  // create_cq_out.cqn, create_qp_out.qpn

// query_hca_cap_in / _out (capability at bit 0x80 of the outbox).
inline constexpr field other_function{0x40, 1, "other_function"};
inline constexpr field function_id{0x50, 16, "function_id"};
inline constexpr std::uint32_t capability = 0x80;

namespace cap {  // cmd_hca_cap, offsets inside `capability`
inline constexpr field log_max_qp_sz{0x88, 8, "cmd_hca_cap.log_max_qp_sz"};
inline constexpr field log_max_qp{0x9b, 5, "cmd_hca_cap.log_max_qp"};
inline constexpr field log_max_cq_sz{0xc8, 8, "cmd_hca_cap.log_max_cq_sz"};
inline constexpr field log_max_ra_req_qp{0x14a, 6, "cmd_hca_cap.log_max_ra_req_qp"};
inline constexpr field log_max_ra_res_qp{0x15a, 6, "cmd_hca_cap.log_max_ra_res_qp"};
inline constexpr field port_type{0x1b6, 2, "cmd_hca_cap.port_type"};
inline constexpr field num_ports{0x1b8, 8, "cmd_hca_cap.num_ports"};
inline constexpr field log_max_msg{0x1c3, 5, "cmd_hca_cap.log_max_msg"};
inline constexpr field cqe_version{0x1fc, 4, "cmd_hca_cap.cqe_version"};
inline constexpr field roce{0x21d, 1, "cmd_hca_cap.roce"};
inline constexpr field atomic{0x21e, 1, "cmd_hca_cap.atomic"};
inline constexpr field cq_oi{0x220, 1, "cmd_hca_cap.cq_oi"};
inline constexpr field rc{0x23f, 1, "cmd_hca_cap.rc"};
inline constexpr field uar_4k{0x240, 1, "cmd_hca_cap.uar_4k"};
inline constexpr field uar_sz{0x24a, 6, "cmd_hca_cap.uar_sz"};
inline constexpr field umem_uid_0{0x252, 1, "cmd_hca_cap.umem_uid_0"};
inline constexpr field log_pg_sz{0x258, 8, "cmd_hca_cap.log_pg_sz"};
inline constexpr field bf{0x260, 1, "cmd_hca_cap.bf"};
inline constexpr field log_bf_reg_size{0x26b, 5, "cmd_hca_cap.log_bf_reg_size"};
inline constexpr field sq_ts_format{0x440, 2, "cmd_hca_cap.sq_ts_format"};
// roce_cap
inline constexpr field roce_qp_ts_format{0x1e, 2, "roce_cap.qp_ts_format"};
// atomic_caps
inline constexpr field atomic_operations{0x90, 16, "atomic_caps.atomic_operations"};
inline constexpr field atomic_size_qp{0xb0, 16, "atomic_caps.atomic_size_qp"};
}  // namespace cap

// create_cq_in: the CQ context at bit 0x80.
inline constexpr std::uint32_t cq_context = 0x80;
namespace cqc {  // offsets inside cq_context
inline constexpr field dbr_umem_valid{0x6, 1, "cqc.dbr_umem_valid"};
inline constexpr field cqe_sz{0x8, 3, "cqc.cqe_sz"};
inline constexpr field cc{0xb, 1, "cqc.cc"};
inline constexpr field oi{0xe, 1, "cqc.oi"};
inline constexpr field cqe_comp_en{0x11, 1, "cqc.cqe_comp_en"};
inline constexpr field dbr_umem_id{0x20, 32, "cqc.dbr_umem_id"};  // kernel: reserved_at_20; DPDK names it
inline constexpr field page_offset{0x54, 6, "cqc.page_offset"};
inline constexpr field log_cq_size{0x63, 5, "cqc.log_cq_size"};
inline constexpr field uar_page{0x68, 24, "cqc.uar_page"};
// The kernel's 32-bit c_eqn_or_apu_element; DPDK's 8-bit c_eqn is its low byte.
inline constexpr field c_eqn{0xa0, 32, "cqc.c_eqn_or_apu_element"};
inline constexpr field log_page_size{0xc3, 5, "cqc.log_page_size"};
inline constexpr field dbr_addr{0x1c0, 64, "cqc.dbr_addr"};
}  // namespace cqc
// Kernel: reserved_at_280[0x60]; DPDK and NVSHMEM name these two (plan §2.1).
inline constexpr field cq_umem_offset{0x280, 64, "cq_umem_offset"};
inline constexpr field cq_umem_id{0x2c0, 32, "cq_umem_id"};
inline constexpr field cq_umem_valid{0x2e0, 1, "cq_umem_valid"};

// create_qp_in and the three transitions: the QP context at bit 0xc0.
inline constexpr field qpn{0x48, 24, "qpn"};  // the transitions' target QP
inline constexpr field opt_param_mask{0x80, 32, "opt_param_mask"};
inline constexpr std::uint32_t qp_context = 0xc0;
namespace qpc {  // offsets inside qpc
inline constexpr field st{0x8, 8, "qpc.st"};
inline constexpr field pm_state{0x13, 2, "qpc.pm_state"};
inline constexpr field pd{0x28, 24, "qpc.pd"};
inline constexpr field mtu{0x40, 3, "qpc.mtu"};
inline constexpr field log_msg_max{0x43, 5, "qpc.log_msg_max"};
inline constexpr field log_rq_size{0x49, 4, "qpc.log_rq_size"};
inline constexpr field log_rq_stride{0x4d, 3, "qpc.log_rq_stride"};
inline constexpr field no_sq{0x50, 1, "qpc.no_sq"};
inline constexpr field log_sq_size{0x51, 4, "qpc.log_sq_size"};
inline constexpr field ts_format{0x58, 2, "qpc.ts_format"};
inline constexpr field counter_set_id{0x60, 8, "qpc.counter_set_id"};
inline constexpr field uar_page{0x68, 24, "qpc.uar_page"};
inline constexpr field user_index{0x88, 24, "qpc.user_index"};
inline constexpr field log_page_size{0xa3, 5, "qpc.log_page_size"};
inline constexpr field remote_qpn{0xa8, 24, "qpc.remote_qpn"};
inline constexpr std::uint32_t primary_address_path = 0xc0;
inline constexpr field log_ack_req_freq{0x380, 4, "qpc.log_ack_req_freq"};
inline constexpr field log_sra_max{0x388, 3, "qpc.log_sra_max"};
inline constexpr field retry_count{0x38d, 3, "qpc.retry_count"};
inline constexpr field rnr_retry{0x390, 3, "qpc.rnr_retry"};
inline constexpr field next_send_psn{0x3c8, 24, "qpc.next_send_psn"};
inline constexpr field cqn_snd{0x3e8, 24, "qpc.cqn_snd"};
inline constexpr field log_rra_max{0x488, 3, "qpc.log_rra_max"};
inline constexpr field atomic_mode{0x48c, 4, "qpc.atomic_mode"};
inline constexpr field rre{0x490, 1, "qpc.rre"};
inline constexpr field rwe{0x491, 1, "qpc.rwe"};
inline constexpr field rae{0x492, 1, "qpc.rae"};
inline constexpr field page_offset{0x494, 6, "qpc.page_offset"};
inline constexpr field min_rnr_nak{0x4a3, 5, "qpc.min_rnr_nak"};
inline constexpr field next_rcv_psn{0x4a8, 24, "qpc.next_rcv_psn"};
inline constexpr field cqn_rcv{0x4e8, 24, "qpc.cqn_rcv"};
inline constexpr field dbr_addr{0x500, 64, "qpc.dbr_addr"};
inline constexpr field rq_type{0x565, 3, "qpc.rq_type"};
inline constexpr field cs_req{0x630, 8, "qpc.cs_req"};
inline constexpr field cs_res{0x638, 8, "qpc.cs_res"};
inline constexpr field dbr_umem_valid{0x683, 1, "qpc.dbr_umem_valid"};
inline constexpr field dbr_umem_id{0x720, 32, "qpc.dbr_umem_id"};  // kernel: in reserved_at_684; rdma-core names it
}  // namespace qpc
namespace ads {  // offsets inside an address path
inline constexpr field fl{0x0, 1, "ads.fl"};
inline constexpr field pkey_index{0x10, 16, "ads.pkey_index"};
inline constexpr field grh{0x28, 1, "ads.grh"};
inline constexpr field mlid{0x29, 7, "ads.mlid"};
inline constexpr field rlid{0x30, 16, "ads.rlid"};
inline constexpr field ack_timeout{0x40, 5, "ads.ack_timeout"};
inline constexpr field src_addr_index{0x48, 8, "ads.src_addr_index"};
inline constexpr field stat_rate{0x54, 4, "ads.stat_rate"};
inline constexpr field hop_limit{0x58, 8, "ads.hop_limit"};
inline constexpr field tclass{0x64, 8, "ads.tclass"};
inline constexpr field flow_label{0x6c, 20, "ads.flow_label"};
inline constexpr field rgid_rip{0x80, 128, "ads.rgid_rip"};
inline constexpr field dscp{0x10a, 6, "ads.dscp"};
inline constexpr field udp_sport{0x110, 16, "ads.udp_sport"};
inline constexpr field eth_prio{0x121, 3, "ads.eth_prio"};
inline constexpr field sl{0x124, 4, "ads.sl"};
inline constexpr field vhca_port_num{0x128, 8, "ads.vhca_port_num"};
inline constexpr field rmac_47_32{0x130, 16, "ads.rmac_47_32"};
inline constexpr field rmac_31_0{0x140, 32, "ads.rmac_31_0"};
}  // namespace ads
// Kernel 6.12 names these (6.1: reserved_at_800[0x60]); after the QP context (plan §2.2).
inline constexpr field wq_umem_offset{0x800, 64, "wq_umem_offset"};
inline constexpr field wq_umem_id{0x840, 32, "wq_umem_id"};
inline constexpr field wq_umem_valid{0x860, 1, "wq_umem_valid"};

// A QP-context field as a command offset, and an address-path field as one.
constexpr field in_qpc(field f) { return at(f, qp_context, f.name); }
constexpr field in_path(field f) { return at(f, qp_context + qpc::primary_address_path, f.name); }
constexpr field in_cqc(field f) { return at(f, cq_context, f.name); }
constexpr field in_cap(field f) { return at(f, capability, f.name); }

}  // namespace layout

// ---- commands ----------------------------------------------------------------------------------

using command = std::vector<std::uint8_t>;

// QUERY_HCA_CAP of the current values (op_mod bit 0) of capability group `group`.
inline command query_hca_cap_in(std::uint16_t group) {
  command in(query_hca_cap_in_bytes, 0);
  set(in.data(), layout::opcode, op::query_hca_cap);
  set(in.data(), layout::op_mod, static_cast<std::uint32_t>(group) << 1 | 1u);
  return in;
}

// The general capabilities the DevX ring path reads (plan §2.6).
struct hca_caps {
  std::uint32_t log_max_qp_sz = 0, log_max_qp = 0, log_max_cq_sz = 0;
  std::uint32_t log_max_ra_req_qp = 0, log_max_ra_res_qp = 0;
  std::uint32_t port_type = 0, num_ports = 0, log_max_msg = 0, cqe_version = 0;
  std::uint32_t roce = 0, atomic = 0, cq_oi = 0, rc = 0;
  std::uint32_t uar_4k = 0, uar_sz = 0, umem_uid_0 = 0, log_pg_sz = 0, bf = 0, log_bf_reg_size = 0;
  std::uint32_t sq_ts_format = 0;  // timestamp formats an SQ may use (MLX5_TIMESTAMP_FORMAT_CAP_*)
};

// QUERY_HCA_CAP(general) outbox -> caps. The outbox must be query_hca_cap_out_bytes long.
inline hca_caps parse_general_caps(const std::uint8_t* out) {
  using namespace layout;
  auto read = [out](field f) { return static_cast<std::uint32_t>(get(out, in_cap(f))); };
  hca_caps c;
  c.log_max_qp_sz = read(cap::log_max_qp_sz);
  c.log_max_qp = read(cap::log_max_qp);
  c.log_max_cq_sz = read(cap::log_max_cq_sz);
  c.log_max_ra_req_qp = read(cap::log_max_ra_req_qp);
  c.log_max_ra_res_qp = read(cap::log_max_ra_res_qp);
  c.port_type = read(cap::port_type);
  c.num_ports = read(cap::num_ports);
  c.log_max_msg = read(cap::log_max_msg);
  c.cqe_version = read(cap::cqe_version);
  c.roce = read(cap::roce);
  c.atomic = read(cap::atomic);
  c.cq_oi = read(cap::cq_oi);
  c.rc = read(cap::rc);
  c.uar_4k = read(cap::uar_4k);
  c.uar_sz = read(cap::uar_sz);
  c.umem_uid_0 = read(cap::umem_uid_0);
  c.log_pg_sz = read(cap::log_pg_sz);
  c.bf = read(cap::bf);
  c.log_bf_reg_size = read(cap::log_bf_reg_size);
  c.sq_ts_format = read(cap::sq_ts_format);
  return c;
}

// QUERY_HCA_CAP(roce) outbox -> the timestamp formats a QP may use (MLX5_TIMESTAMP_FORMAT_CAP_*).
inline std::uint32_t parse_roce_qp_ts_format(const std::uint8_t* out) {
  return static_cast<std::uint32_t>(get(out, layout::in_cap(layout::cap::roce_qp_ts_format)));
}

// A QP's ts_format from what the device supports, as the kernel chooses it
// (mlx5_get_qp_default_ts): free-running (0) where that is all it has, else the device's
// default (1). A free-running QP on a device in real-time-only mode is refused (BAD_PARAM).
// `supported`: roce_cap.qp_ts_format when RoCE is on, else cmd_hca_cap.sq_ts_format.
inline std::uint32_t qp_ts_format(std::uint32_t supported) { return supported == 0 ? 0u : 1u; }

struct atomic_caps {
  std::uint32_t operations = 0;  // MLX5_ATOMIC_OPS_* bits
  std::uint32_t size_qp = 0;     // operand sizes an RC QP may use, bit n = 2^n bytes
};

inline atomic_caps parse_atomic_caps(const std::uint8_t* out) {
  atomic_caps a;
  a.operations = static_cast<std::uint32_t>(get(out, layout::in_cap(layout::cap::atomic_operations)));
  a.size_qp = static_cast<std::uint32_t>(get(out, layout::in_cap(layout::cap::atomic_size_qp)));
  return a;
}

// A CQ over umem-registered memory, 64-byte CQEs, not collapsed, no compression (gio's poller
// walks the ring by index and reads plain 64-byte CQEs; plan P3).
struct cq_params {
  std::uint32_t log_cq_size = 0;     // log2 of the CQE count
  std::uint32_t uar_page = 0;        // a UAR's page_id (never rung: no CQ events)
  std::uint32_t eqn = 0;             // mlx5dv_devx_query_eqn of vector 0
  std::uint32_t log_page_size = 0;   // log2(page) - 12 of the ring's memory (plan P6)
  std::uint32_t ring_umem_id = 0;
  std::uint64_t ring_umem_offset = 0;  // byte offset of CQE 0 in that umem
  std::uint32_t dbr_umem_id = 0;
  std::uint64_t dbr_offset = 0;      // byte offset of the 8-byte doorbell record in its umem
  bool overrun_ignore = false;       // cqc.oi: the GPU advances the consumer index, so not needed
};

inline command create_cq_in(const cq_params& p) {
  using namespace layout;
  command in(create_cq_in_bytes, 0);
  std::uint8_t* b = in.data();
  set(b, opcode, op::create_cq);
  set(b, in_cqc(cqc::dbr_umem_valid), 1);
  set(b, in_cqc(cqc::cqe_sz), cqe_size_64);
  set(b, in_cqc(cqc::oi), p.overrun_ignore ? 1 : 0);
  set(b, in_cqc(cqc::dbr_umem_id), p.dbr_umem_id);
  set(b, in_cqc(cqc::log_cq_size), p.log_cq_size);
  set(b, in_cqc(cqc::uar_page), p.uar_page);
  set(b, in_cqc(cqc::c_eqn), p.eqn);
  set(b, in_cqc(cqc::log_page_size), p.log_page_size);
  set(b, in_cqc(cqc::dbr_addr), p.dbr_offset);
  set(b, cq_umem_offset, p.ring_umem_offset);
  set(b, cq_umem_id, p.ring_umem_id);
  set(b, cq_umem_valid, 1);
  return in;
}

// An RC requester QP: SQ only (a zero-length RQ; incoming RDMA writes, reads and atomics consume
// no receive WQEs), both CQ numbers the one CQ, buffers in umems (plan §2.2, P8).
struct qp_params {
  std::uint32_t pd = 0;
  std::uint32_t uar_page = 0;       // the doorbell UAR's page_id
  std::uint32_t cqn = 0;
  std::uint32_t log_sq_size = 0;    // log2 of the 64-byte WQEBB count
  std::uint32_t user_index = 0;     // reported in CQEs under cqe_version 1
  std::uint32_t ts_format = 0;      // plan P13
  std::uint32_t log_page_size = 0;  // plan P6
  std::uint32_t wq_umem_id = 0;
  std::uint64_t wq_umem_offset = 0;  // byte offset of the SQ (no RQ precedes it)
  std::uint32_t dbr_umem_id = 0;
  std::uint64_t dbr_offset = 0;     // byte offset of the 8-byte record: [0] RQ, [1] SQ counter
};

inline command create_qp_in(const qp_params& p) {
  using namespace layout;
  command in(create_qp_in_bytes, 0);
  std::uint8_t* b = in.data();
  set(b, opcode, op::create_qp);
  set(b, in_qpc(qpc::st), st_rc);
  set(b, in_qpc(qpc::pm_state), pm_state_migrated);
  set(b, in_qpc(qpc::pd), p.pd);
  set(b, in_qpc(qpc::log_rq_size), 0);
  set(b, in_qpc(qpc::no_sq), 0);
  set(b, in_qpc(qpc::log_sq_size), p.log_sq_size);
  set(b, in_qpc(qpc::ts_format), p.ts_format);
  set(b, in_qpc(qpc::uar_page), p.uar_page);
  set(b, in_qpc(qpc::user_index), p.user_index);
  set(b, in_qpc(qpc::log_page_size), p.log_page_size);
  set(b, in_qpc(qpc::cqn_snd), p.cqn);
  set(b, in_qpc(qpc::cqn_rcv), p.cqn);
  set(b, in_qpc(qpc::dbr_addr), p.dbr_offset);
  set(b, in_qpc(qpc::rq_type), rq_type_zero_len);
  set(b, in_qpc(qpc::dbr_umem_valid), 1);
  set(b, in_qpc(qpc::dbr_umem_id), p.dbr_umem_id);
  set(b, wq_umem_offset, p.wq_umem_offset);
  set(b, wq_umem_id, p.wq_umem_id);
  set(b, wq_umem_valid, 1);
  return in;
}

// RESET -> INIT: the port, remote access for writes, reads and atomics (rae and an atomic mode,
// or the responder rejects atomics: plan P9a).
struct rst2init_params {
  std::uint32_t qpn = 0;
  std::uint32_t port = 1;        // vhca_port_num, 1-based
  std::uint32_t pkey_index = 0;  // InfiniBand
  std::uint32_t atomic_mode = atomic_mode_up_to_8b;
};

inline command rst2init_qp_in(const rst2init_params& p) {
  using namespace layout;
  command in(modify_qp_in_bytes, 0);
  std::uint8_t* b = in.data();
  set(b, opcode, op::rst2init_qp);
  set(b, qpn, p.qpn);
  set(b, in_qpc(qpc::pm_state), pm_state_migrated);
  set(b, in_qpc(qpc::counter_set_id), 0);
  set(b, in_qpc(qpc::rre), 1);
  set(b, in_qpc(qpc::rwe), 1);
  set(b, in_qpc(qpc::rae), 1);
  set(b, in_qpc(qpc::atomic_mode), p.atomic_mode);
  set(b, in_path(ads::vhca_port_num), p.port);
  set(b, in_path(ads::pkey_index), p.pkey_index);
  return in;
}

// How INIT2RTR reaches the peer (plan §2.5). InfiniBand: its LID, with a GRH (`global`) when it is
// in another subnet. RoCE: always global, plus the next hop's MAC and a UDP source port (RoCEv2).
struct path_params {
  bool roce = false;
  std::uint32_t port = 1;            // vhca_port_num
  std::uint32_t rlid = 0;            // InfiniBand
  std::uint32_t sl = 0;              // InfiniBand service level; RoCE: eth_prio
  bool global = false;               // GRH (always for RoCE)
  std::array<std::uint8_t, 16> rgid{};
  std::uint32_t src_addr_index = 0;  // our GID index
  std::uint32_t hop_limit = 0;
  std::uint32_t tclass = 0;
  std::array<std::uint8_t, 6> rmac{};  // RoCE
  std::uint32_t udp_sport = 0;         // RoCEv2
};

struct init2rtr_params {
  std::uint32_t qpn = 0;
  std::uint32_t mtu = 0;           // enum ibv_mtu codes (1 = 256 ... 5 = 4096), the PRM's too
  std::uint32_t log_msg_max = 0;
  std::uint32_t remote_qpn = 0;
  std::uint32_t next_rcv_psn = 0;  // the peer's first send PSN
  std::uint32_t log_rra_max = 0;   // log2 of the reads/atomics we accept in flight (plan P9b)
  std::uint32_t min_rnr_nak = 0;
  path_params path;
};

inline void encode_path(std::uint8_t* b, const path_params& p) {
  using namespace layout;
  set(b, in_path(ads::vhca_port_num), p.port);
  if (p.global || p.roce) {
    if (!p.roce) set(b, in_path(ads::grh), 1);
    set_bytes(b, in_path(ads::rgid_rip), p.rgid.data());
    set(b, in_path(ads::src_addr_index), p.src_addr_index);
    set(b, in_path(ads::hop_limit), p.hop_limit);
    set(b, in_path(ads::tclass), p.tclass);
  }
  if (p.roce) {
    // The 48-bit MAC, first byte most significant, across rmac_47_32 and rmac_31_0.
    set(b, in_path(ads::rmac_47_32), static_cast<std::uint32_t>(p.rmac[0]) << 8 | p.rmac[1]);
    set(b, in_path(ads::rmac_31_0), load_be32(p.rmac.data() + 2));
    set(b, in_path(ads::udp_sport), p.udp_sport);
    set(b, in_path(ads::dscp), p.tclass >> 2);
    set(b, in_path(ads::eth_prio), p.sl);
  } else {
    set(b, in_path(ads::rlid), p.rlid);
    set(b, in_path(ads::sl), p.sl);
  }
}

inline command init2rtr_qp_in(const init2rtr_params& p) {
  using namespace layout;
  command in(modify_qp_in_bytes, 0);
  std::uint8_t* b = in.data();
  set(b, opcode, op::init2rtr_qp);
  set(b, qpn, p.qpn);
  set(b, in_qpc(qpc::mtu), p.mtu);
  set(b, in_qpc(qpc::log_msg_max), p.log_msg_max);
  set(b, in_qpc(qpc::remote_qpn), p.remote_qpn);
  set(b, in_qpc(qpc::next_rcv_psn), p.next_rcv_psn);
  set(b, in_qpc(qpc::log_rra_max), p.log_rra_max);
  set(b, in_qpc(qpc::min_rnr_nak), p.min_rnr_nak);
  encode_path(b, p.path);
  return in;
}

struct rtr2rts_params {
  std::uint32_t qpn = 0;
  std::uint32_t next_send_psn = 0;  // = the peer's next_rcv_psn
  std::uint32_t log_sra_max = 0;    // log2 of our reads/atomics in flight (plan P9b)
  std::uint32_t retry_count = 0;
  std::uint32_t rnr_retry = 0;
  std::uint32_t ack_timeout = 0;    // 4.096 us * 2^n
};

inline command rtr2rts_qp_in(const rtr2rts_params& p) {
  using namespace layout;
  command in(modify_qp_in_bytes, 0);
  std::uint8_t* b = in.data();
  set(b, opcode, op::rtr2rts_qp);
  set(b, qpn, p.qpn);
  set(b, in_qpc(qpc::log_ack_req_freq), 0);
  set(b, in_qpc(qpc::log_sra_max), p.log_sra_max);
  set(b, in_qpc(qpc::retry_count), p.retry_count);
  set(b, in_qpc(qpc::rnr_retry), p.rnr_retry);
  set(b, in_qpc(qpc::next_send_psn), p.next_send_psn);
  set(b, in_path(ads::ack_timeout), p.ack_timeout);
  return in;
}

// ---- outboxes ----------------------------------------------------------------------------------

struct outbox {
  std::uint32_t status = 0;     // 0 = OK
  std::uint32_t syndrome = 0;   // firmware's reason when status != 0
  std::uint32_t object_id = 0;  // CREATE_CQ: cqn; CREATE_QP: qpn; 0 for others
};

inline outbox parse_out(const std::uint8_t* out, std::size_t bytes) {
  if (bytes < command_out_bytes) throw std::logic_error("prm: an outbox is at least 16 bytes");
  outbox o;
  o.status = static_cast<std::uint32_t>(get(out, layout::status));
  o.syndrome = static_cast<std::uint32_t>(get(out, layout::syndrome));
  o.object_id = static_cast<std::uint32_t>(get(out, layout::out_object_id));
  return o;
}

// The PRM's command status values (the kernel's MLX5_CMD_STAT_*, linux/mlx5/device.h), for errors.
inline const char* status_name(std::uint32_t status) {
  switch (status) {
    case 0x0: return "OK";
    case 0x1: return "INTERNAL_ERR";
    case 0x2: return "BAD_OP";
    case 0x3: return "BAD_PARAM";
    case 0x4: return "BAD_SYS_STATE";
    case 0x5: return "BAD_RESOURCE";
    case 0x6: return "RESOURCE_BUSY";
    case 0x7: return "NOT_READY";
    case 0x8: return "EXCEED_LIM";
    case 0x9: return "BAD_RES_STATE";
    case 0xa: return "BAD_INDEX";
    case 0xf: return "NO_RESOURCES";
    case 0x10: return "BAD_QP_STATE";
    case 0x30: return "BAD_PKT";
    case 0x40: return "BAD_SIZE_OUTS_CQES";
    case 0x50: return "BAD_INPUT_LEN";
    case 0x51: return "BAD_OUTPUT_LEN";
  }
  return "unknown status";
}

// floor(log2(n)) for n >= 1, 0 for 0: the PRM's log_* fields from counts.
inline std::uint32_t floor_log2(std::uint32_t n) {
  std::uint32_t log = 0;
  while (n >>= 1) ++log;
  return log;
}

}  // namespace gio::transports::gda::prm
