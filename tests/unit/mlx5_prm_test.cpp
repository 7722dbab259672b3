// gio's mlx5 PRM command encoder (host/transports/gda/mlx5_prm.hpp) against the Linux kernel's
// layout header, include/linux/mlx5/mlx5_ifc.h: mlx5_prm_reference.c exports, for every field
// the encoder writes or reads, the kernel's bit offset and width (offsetof/sizeof of its
// `u8 name[bits]` members). Here:
//  - every layout constant of the encoder equals the kernel's (and the offsets written in
//    docs/devx-rings-plan.md, where it states them);
//  - prm::set/get behave as DEVX_SET/DEVX_GET: compared with an independent bit-by-bit setter on
//    random backgrounds, for every field in the table;
//  - each command, built by the encoder from random and boundary parameters, equals byte for byte
//    the buffer a reference builder makes by setting the kernel's fields bit by bit;
//  - outboxes and capabilities parse back what the reference wrote.
// What this cannot show: that firmware accepts these commands (no NIC here).
#include "transports/gda/mlx5_prm.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "mlx5_prm_reference.h"

namespace gio::transports::gda::prm {
namespace {

using bytes = std::vector<std::uint8_t>;

// ---- the kernel's table ------------------------------------------------------------------------

const gio_ifc_field& kernel(const std::string& name) {
  for (unsigned i = 0; i < gio_ifc_field_count; ++i)
    if (name == gio_ifc_fields[i].name) return gio_ifc_fields[i];
  throw std::logic_error("mlx5_prm_reference.c exports no field " + name);
}

unsigned long long kernel_value(const std::string& name) {
  for (unsigned i = 0; i < gio_ifc_value_count; ++i)
    if (name == gio_ifc_values[i].name) return gio_ifc_values[i].value;
  throw std::logic_error("mlx5_prm_reference.c exports no value " + name);
}

std::size_t kernel_bytes(const std::string& structure) { return kernel_value("sizeof." + structure) / 8; }

// ---- the reference setter: one bit at a time ---------------------------------------------------
// PRM bit n is bit (7 - n % 8) of byte n / 8 (big-endian words, most significant bit first), and a
// field's most significant bit comes first. Written without words or shifts of whole fields, so it
// shares no arithmetic with prm::set.

void ref_set_bit(bytes& b, unsigned n, bool one) {
  const std::uint8_t mask = static_cast<std::uint8_t>(0x80u >> (n % 8));
  b.at(n / 8) = static_cast<std::uint8_t>(one ? (b.at(n / 8) | mask) : (b.at(n / 8) & ~mask));
}

bool ref_get_bit(const bytes& b, unsigned n) { return (b.at(n / 8) & (0x80u >> (n % 8))) != 0; }

void ref_set(bytes& b, const std::string& name, std::uint64_t v) {
  const gio_ifc_field& f = kernel(name);
  ASSERT_LE(f.bits, 64u) << name;
  for (unsigned i = 0; i < f.bits; ++i) ref_set_bit(b, f.bit + i, (v >> (f.bits - 1 - i)) & 1u);
}

std::uint64_t ref_get(const bytes& b, const gio_ifc_field& f) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < f.bits; ++i) v = v << 1 | (ref_get_bit(b, f.bit + i) ? 1u : 0u);
  return v;
}

// Raw bytes from `name`'s first bit on (a GID; the 6-byte MAC from rmac_47_32, as dr_devx.c and
// NVSHMEM memcpy it).
void ref_set_raw(bytes& b, const std::string& name, const std::uint8_t* raw, unsigned n) {
  const gio_ifc_field& f = kernel(name);
  for (unsigned byte = 0; byte < n; ++byte)
    for (unsigned i = 0; i < 8; ++i) ref_set_bit(b, f.bit + byte * 8 + i, (raw[byte] >> (7 - i)) & 1u);
}

// ---- values ------------------------------------------------------------------------------------

// Random values of a field's width, with the boundaries (0, all ones, the top bit alone) often.
class values {
 public:
  explicit values(std::uint32_t seed) : rng_(seed) {}
  std::uint64_t of(unsigned bits) {
    const std::uint64_t max = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    switch (rng_() % 6) {
      case 0: return 0;
      case 1: return max;
      case 2: return 1ull << (bits - 1);
      default: return std::uniform_int_distribution<std::uint64_t>(0, max)(rng_);
    }
  }
  std::uint64_t of(const std::string& kernel_name) { return of(kernel(kernel_name).bits); }
  std::uint32_t of32(const std::string& kernel_name) { return static_cast<std::uint32_t>(of(kernel_name)); }
  bool flip() { return rng_() & 1u; }
  std::uint8_t byte() { return static_cast<std::uint8_t>(rng_()); }

 private:
  std::mt19937_64 rng_;
};

constexpr int iterations = 4000;

std::string dump_difference(const bytes& ours, const bytes& ref) {
  std::string s;
  for (std::size_t i = 0; i < ours.size() && i < ref.size(); ++i)
    if (ours[i] != ref[i]) {
      char line[96];
      std::snprintf(line, sizeof line, " byte %zu (bit 0x%zx): ours 0x%02x, kernel layout 0x%02x;", i, i * 8,
                    ours[i], ref[i]);
      s += line;
    }
  return s;
}

#define EXPECT_SAME_BYTES(ours, ref)                                 \
  do {                                                               \
    ASSERT_EQ((ours).size(), (ref).size());                          \
    EXPECT_TRUE((ours) == (ref)) << dump_difference((ours), (ref)); \
  } while (0)

// ---- layout constants --------------------------------------------------------------------------

struct named {
  std::string kernel_name;
  field ours;
};

void expect_layout(const std::vector<named>& fields) {
  for (const named& n : fields) {
    const gio_ifc_field& k = kernel(n.kernel_name);
    EXPECT_EQ(n.ours.bit, k.bit) << n.kernel_name << " (ours: " << n.ours.name << ")";
    EXPECT_EQ(n.ours.bits, k.bits) << n.kernel_name << " (ours: " << n.ours.name << ")";
    EXPECT_TRUE(well_formed(n.ours)) << n.ours.name;
  }
}

std::vector<named> modify_qp_layout(const std::string& cmd) {
  using namespace layout;
  auto name = [&](const char* path) { return cmd + "." + path; };
  return {
      {name("opcode"), opcode},
      {name("op_mod"), op_mod},
      {name("qpn"), qpn},
      {name("opt_param_mask"), opt_param_mask},
      {name("qpc.pm_state"), in_qpc(qpc::pm_state)},
      {name("qpc.mtu"), in_qpc(qpc::mtu)},
      {name("qpc.log_msg_max"), in_qpc(qpc::log_msg_max)},
      {name("qpc.counter_set_id"), in_qpc(qpc::counter_set_id)},
      {name("qpc.remote_qpn"), in_qpc(qpc::remote_qpn)},
      {name("qpc.log_ack_req_freq"), in_qpc(qpc::log_ack_req_freq)},
      {name("qpc.log_sra_max"), in_qpc(qpc::log_sra_max)},
      {name("qpc.retry_count"), in_qpc(qpc::retry_count)},
      {name("qpc.rnr_retry"), in_qpc(qpc::rnr_retry)},
      {name("qpc.next_send_psn"), in_qpc(qpc::next_send_psn)},
      {name("qpc.log_rra_max"), in_qpc(qpc::log_rra_max)},
      {name("qpc.atomic_mode"), in_qpc(qpc::atomic_mode)},
      {name("qpc.rre"), in_qpc(qpc::rre)},
      {name("qpc.rwe"), in_qpc(qpc::rwe)},
      {name("qpc.rae"), in_qpc(qpc::rae)},
      {name("qpc.min_rnr_nak"), in_qpc(qpc::min_rnr_nak)},
      {name("qpc.next_rcv_psn"), in_qpc(qpc::next_rcv_psn)},
      {name("qpc.primary_address_path.fl"), in_path(ads::fl)},
      {name("qpc.primary_address_path.pkey_index"), in_path(ads::pkey_index)},
      {name("qpc.primary_address_path.grh"), in_path(ads::grh)},
      {name("qpc.primary_address_path.mlid"), in_path(ads::mlid)},
      {name("qpc.primary_address_path.rlid"), in_path(ads::rlid)},
      {name("qpc.primary_address_path.ack_timeout"), in_path(ads::ack_timeout)},
      {name("qpc.primary_address_path.src_addr_index"), in_path(ads::src_addr_index)},
      {name("qpc.primary_address_path.stat_rate"), in_path(ads::stat_rate)},
      {name("qpc.primary_address_path.hop_limit"), in_path(ads::hop_limit)},
      {name("qpc.primary_address_path.tclass"), in_path(ads::tclass)},
      {name("qpc.primary_address_path.flow_label"), in_path(ads::flow_label)},
      {name("qpc.primary_address_path.rgid_rip"), in_path(ads::rgid_rip)},
      {name("qpc.primary_address_path.dscp"), in_path(ads::dscp)},
      {name("qpc.primary_address_path.udp_sport"), in_path(ads::udp_sport)},
      {name("qpc.primary_address_path.eth_prio"), in_path(ads::eth_prio)},
      {name("qpc.primary_address_path.sl"), in_path(ads::sl)},
      {name("qpc.primary_address_path.vhca_port_num"), in_path(ads::vhca_port_num)},
      {name("qpc.primary_address_path.rmac_47_32"), in_path(ads::rmac_47_32)},
      {name("qpc.primary_address_path.rmac_31_0"), in_path(ads::rmac_31_0)},
  };
}

TEST(Mlx5Prm, LayoutIsTheKernels) {
  using namespace layout;
#ifdef GIO_MLX5_IFC_SOURCE
  std::printf("kernel layout header from: %s\n", GIO_MLX5_IFC_SOURCE);
#endif
  expect_layout({
      {"query_hca_cap_in.opcode", opcode},
      {"query_hca_cap_in.op_mod", op_mod},
      {"query_hca_cap_in.other_function", other_function},
      {"query_hca_cap_in.function_id", function_id},
      {"query_hca_cap_out.status", status},
      {"query_hca_cap_out.syndrome", syndrome},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_qp_sz", in_cap(cap::log_max_qp_sz)},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_qp", in_cap(cap::log_max_qp)},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_cq_sz", in_cap(cap::log_max_cq_sz)},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_ra_req_qp", in_cap(cap::log_max_ra_req_qp)},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_ra_res_qp", in_cap(cap::log_max_ra_res_qp)},
      {"query_hca_cap_out.capability.cmd_hca_cap.port_type", in_cap(cap::port_type)},
      {"query_hca_cap_out.capability.cmd_hca_cap.num_ports", in_cap(cap::num_ports)},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_msg", in_cap(cap::log_max_msg)},
      {"query_hca_cap_out.capability.cmd_hca_cap.cqe_version", in_cap(cap::cqe_version)},
      {"query_hca_cap_out.capability.cmd_hca_cap.roce", in_cap(cap::roce)},
      {"query_hca_cap_out.capability.cmd_hca_cap.atomic", in_cap(cap::atomic)},
      {"query_hca_cap_out.capability.cmd_hca_cap.cq_oi", in_cap(cap::cq_oi)},
      {"query_hca_cap_out.capability.cmd_hca_cap.rc", in_cap(cap::rc)},
      {"query_hca_cap_out.capability.cmd_hca_cap.uar_4k", in_cap(cap::uar_4k)},
      {"query_hca_cap_out.capability.cmd_hca_cap.uar_sz", in_cap(cap::uar_sz)},
      {"query_hca_cap_out.capability.cmd_hca_cap.umem_uid_0", in_cap(cap::umem_uid_0)},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_pg_sz", in_cap(cap::log_pg_sz)},
      {"query_hca_cap_out.capability.cmd_hca_cap.bf", in_cap(cap::bf)},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_bf_reg_size", in_cap(cap::log_bf_reg_size)},
      {"query_hca_cap_out.capability.cmd_hca_cap.sq_ts_format", in_cap(cap::sq_ts_format)},
      {"query_hca_cap_out.capability.roce_cap.qp_ts_format", in_cap(cap::roce_qp_ts_format)},
      {"query_hca_cap_out.capability.atomic_caps.atomic_operations", in_cap(cap::atomic_operations)},
      {"query_hca_cap_out.capability.atomic_caps.atomic_size_qp", in_cap(cap::atomic_size_qp)},

      {"create_cq_in.opcode", opcode},
      {"create_cq_in.uid", uid},
      {"create_cq_in.op_mod", op_mod},
      {"create_cq_in.cq_context.dbr_umem_valid", in_cqc(cqc::dbr_umem_valid)},
      {"create_cq_in.cq_context.cqe_sz", in_cqc(cqc::cqe_sz)},
      {"create_cq_in.cq_context.cc", in_cqc(cqc::cc)},
      {"create_cq_in.cq_context.oi", in_cqc(cqc::oi)},
      {"create_cq_in.cq_context.cqe_comp_en", in_cqc(cqc::cqe_comp_en)},
      {"create_cq_in.cq_context.dbr_umem_id", in_cqc(cqc::dbr_umem_id)},
      {"create_cq_in.cq_context.page_offset", in_cqc(cqc::page_offset)},
      {"create_cq_in.cq_context.log_cq_size", in_cqc(cqc::log_cq_size)},
      {"create_cq_in.cq_context.uar_page", in_cqc(cqc::uar_page)},
      {"create_cq_in.cq_context.c_eqn_or_apu_element", in_cqc(cqc::c_eqn)},
      {"create_cq_in.cq_context.log_page_size", in_cqc(cqc::log_page_size)},
      {"create_cq_in.cq_context.dbr_addr", in_cqc(cqc::dbr_addr)},
      {"create_cq_in.cq_umem_offset", cq_umem_offset},
      {"create_cq_in.cq_umem_id", cq_umem_id},
      {"create_cq_in.cq_umem_valid", cq_umem_valid},
      {"create_cq_out.status", status},
      {"create_cq_out.syndrome", syndrome},
      {"create_cq_out.cqn", out_object_id},

      {"create_qp_in.opcode", opcode},
      {"create_qp_in.uid", uid},
      {"create_qp_in.op_mod", op_mod},
      {"create_qp_in.opt_param_mask", opt_param_mask},
      {"create_qp_in.qpc.st", in_qpc(qpc::st)},
      {"create_qp_in.qpc.pm_state", in_qpc(qpc::pm_state)},
      {"create_qp_in.qpc.pd", in_qpc(qpc::pd)},
      {"create_qp_in.qpc.log_rq_size", in_qpc(qpc::log_rq_size)},
      {"create_qp_in.qpc.log_rq_stride", in_qpc(qpc::log_rq_stride)},
      {"create_qp_in.qpc.no_sq", in_qpc(qpc::no_sq)},
      {"create_qp_in.qpc.log_sq_size", in_qpc(qpc::log_sq_size)},
      {"create_qp_in.qpc.ts_format", in_qpc(qpc::ts_format)},
      {"create_qp_in.qpc.counter_set_id", in_qpc(qpc::counter_set_id)},
      {"create_qp_in.qpc.uar_page", in_qpc(qpc::uar_page)},
      {"create_qp_in.qpc.user_index", in_qpc(qpc::user_index)},
      {"create_qp_in.qpc.log_page_size", in_qpc(qpc::log_page_size)},
      {"create_qp_in.qpc.cqn_snd", in_qpc(qpc::cqn_snd)},
      {"create_qp_in.qpc.page_offset", in_qpc(qpc::page_offset)},
      {"create_qp_in.qpc.cqn_rcv", in_qpc(qpc::cqn_rcv)},
      {"create_qp_in.qpc.dbr_addr", in_qpc(qpc::dbr_addr)},
      {"create_qp_in.qpc.rq_type", in_qpc(qpc::rq_type)},
      {"create_qp_in.qpc.cs_req", in_qpc(qpc::cs_req)},
      {"create_qp_in.qpc.cs_res", in_qpc(qpc::cs_res)},
      {"create_qp_in.qpc.dbr_umem_valid", in_qpc(qpc::dbr_umem_valid)},
      {"create_qp_in.qpc.dbr_umem_id", in_qpc(qpc::dbr_umem_id)},
      {"create_qp_in.wq_umem_offset", wq_umem_offset},
      {"create_qp_in.wq_umem_id", wq_umem_id},
      {"create_qp_in.wq_umem_valid", wq_umem_valid},
      {"create_qp_out.status", status},
      {"create_qp_out.syndrome", syndrome},
      {"create_qp_out.qpn", out_object_id},
  });
  for (const char* cmd : {"rst2init_qp_in", "init2rtr_qp_in", "rtr2rts_qp_in"}) expect_layout(modify_qp_layout(cmd));
  for (const char* out : {"rst2init_qp_out", "init2rtr_qp_out", "rtr2rts_qp_out"})
    expect_layout({{std::string(out) + ".status", status}, {std::string(out) + ".syndrome", syndrome}});

  // The context starts where the encoder puts it, and the contexts nest as it assumes.
  EXPECT_EQ(kernel("create_cq_in.cq_context").bit, cq_context);
  EXPECT_EQ(kernel("create_qp_in.qpc").bit, qp_context);
  EXPECT_EQ(kernel("create_qp_in.qpc.primary_address_path").bit, qp_context + qpc::primary_address_path);
  EXPECT_EQ(kernel("query_hca_cap_out.capability").bit, capability);
  // rmac_47_32 and rmac_31_0 are one contiguous 48-bit MAC (the 6-byte memcpy relies on it).
  EXPECT_EQ(kernel("init2rtr_qp_in.qpc.primary_address_path.rmac_31_0").bit,
            kernel("init2rtr_qp_in.qpc.primary_address_path.rmac_47_32").bit + 16);
}

TEST(Mlx5Prm, SizesOpcodesAndEnumsAreTheKernels) {
  EXPECT_EQ(kernel_bytes("query_hca_cap_in"), query_hca_cap_in_bytes);
  EXPECT_EQ(kernel_bytes("query_hca_cap_out"), query_hca_cap_out_bytes);
  EXPECT_EQ(kernel_bytes("create_cq_in"), create_cq_in_bytes);
  EXPECT_EQ(kernel_bytes("create_qp_in"), create_qp_in_bytes);
  for (const char* s : {"rst2init_qp_in", "init2rtr_qp_in", "rtr2rts_qp_in"}) EXPECT_EQ(kernel_bytes(s), modify_qp_in_bytes) << s;
  for (const char* s : {"create_cq_out", "create_qp_out", "rst2init_qp_out", "init2rtr_qp_out", "rtr2rts_qp_out"})
    EXPECT_EQ(kernel_bytes(s), command_out_bytes) << s;
  // Contexts as plan §2 gives them: cqc 64 B, qpc 232 B, ads 44 B.
  EXPECT_EQ(kernel_bytes("cqc"), 64u);
  EXPECT_EQ(kernel_bytes("qpc"), 232u);
  EXPECT_EQ(kernel_bytes("ads"), 44u);

  EXPECT_EQ(kernel_value("MLX5_CMD_OP_QUERY_HCA_CAP"), op::query_hca_cap);
  EXPECT_EQ(kernel_value("MLX5_CMD_OP_CREATE_CQ"), op::create_cq);
  EXPECT_EQ(kernel_value("MLX5_CMD_OP_CREATE_QP"), op::create_qp);
  EXPECT_EQ(kernel_value("MLX5_CMD_OP_RST2INIT_QP"), op::rst2init_qp);
  EXPECT_EQ(kernel_value("MLX5_CMD_OP_INIT2RTR_QP"), op::init2rtr_qp);
  EXPECT_EQ(kernel_value("MLX5_CMD_OP_RTR2RTS_QP"), op::rtr2rts_qp);
  EXPECT_EQ(kernel_value("MLX5_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE"), cap_general);
  EXPECT_EQ(kernel_value("MLX5_SET_HCA_CAP_OP_MOD_ATOMIC"), cap_atomic);
  EXPECT_EQ(kernel_value("MLX5_SET_HCA_CAP_OP_MOD_ROCE"), cap_roce);
  EXPECT_EQ(kernel_value("MLX5_QPC_ST_RC"), st_rc);
  EXPECT_EQ(kernel_value("MLX5_QPC_PM_STATE_MIGRATED"), pm_state_migrated);
  EXPECT_EQ(kernel_value("MLX5_QPC_ATOMIC_MODE_UP_TO_8B"), atomic_mode_up_to_8b);
  EXPECT_EQ(kernel_value("MLX5_CMD_HCA_CAP_PORT_TYPE_IB"), port_type_ib);
  EXPECT_EQ(kernel_value("MLX5_CMD_HCA_CAP_PORT_TYPE_ETHERNET"), port_type_ethernet);
  // The PRM's MTU codes are enum ibv_mtu's (mlx5_nic.cpp passes the port's active_mtu through).
  EXPECT_EQ(kernel_value("MLX5_QPC_MTU_256_BYTES"), 1u);
  EXPECT_EQ(kernel_value("MLX5_QPC_MTU_4K_BYTES"), 5u);
}

// The offsets docs/devx-rings-plan.md §2 states (command-relative bit offset and width), as
// transcribed there from rdma-core, the kernel and DPDK: the kernel's header must agree.
TEST(Mlx5Prm, KernelAgreesWithThePlan) {
  struct stated {
    const char* kernel_name;
    unsigned bit, bits;
  };
  const std::vector<stated> plan = {
      // §2.1 CREATE_CQ
      {"create_cq_in.opcode", 0x0, 16}, {"create_cq_in.uid", 0x10, 16}, {"create_cq_in.op_mod", 0x30, 16},
      {"create_cq_in.cq_context.dbr_umem_valid", 0x86, 1}, {"create_cq_in.cq_context.cqe_sz", 0x88, 3},
      {"create_cq_in.cq_context.cc", 0x8b, 1}, {"create_cq_in.cq_context.oi", 0x8e, 1},
      {"create_cq_in.cq_context.cqe_comp_en", 0x91, 1}, {"create_cq_in.cq_context.dbr_umem_id", 0xa0, 32},
      {"create_cq_in.cq_context.page_offset", 0xd4, 6}, {"create_cq_in.cq_context.log_cq_size", 0xe3, 5},
      {"create_cq_in.cq_context.uar_page", 0xe8, 24}, {"create_cq_in.cq_context.log_page_size", 0x143, 5},
      {"create_cq_in.cq_context.dbr_addr", 0x240, 64}, {"create_cq_in.cq_umem_offset", 0x280, 64},
      {"create_cq_in.cq_umem_id", 0x2c0, 32}, {"create_cq_in.cq_umem_valid", 0x2e0, 1},
      {"create_cq_out.status", 0x0, 8}, {"create_cq_out.syndrome", 0x20, 32}, {"create_cq_out.cqn", 0x48, 24},
      // §2.2 CREATE_QP
      {"create_qp_in.opcode", 0x0, 16}, {"create_qp_in.op_mod", 0x30, 16}, {"create_qp_in.opt_param_mask", 0x80, 32},
      {"create_qp_in.qpc.st", 0xc8, 8}, {"create_qp_in.qpc.pm_state", 0xd3, 2}, {"create_qp_in.qpc.pd", 0xe8, 24},
      {"create_qp_in.qpc.log_rq_size", 0x109, 4}, {"create_qp_in.qpc.log_rq_stride", 0x10d, 3},
      {"create_qp_in.qpc.no_sq", 0x110, 1}, {"create_qp_in.qpc.log_sq_size", 0x111, 4},
      {"create_qp_in.qpc.ts_format", 0x118, 2}, {"create_qp_in.qpc.counter_set_id", 0x120, 8},
      {"create_qp_in.qpc.uar_page", 0x128, 24}, {"create_qp_in.qpc.user_index", 0x148, 24},
      {"create_qp_in.qpc.log_page_size", 0x163, 5}, {"create_qp_in.qpc.cqn_snd", 0x4a8, 24},
      {"create_qp_in.qpc.page_offset", 0x554, 6}, {"create_qp_in.qpc.cqn_rcv", 0x5a8, 24},
      {"create_qp_in.qpc.dbr_addr", 0x5c0, 64}, {"create_qp_in.qpc.rq_type", 0x625, 3},
      {"create_qp_in.qpc.srqn_rmpn_xrqn", 0x628, 24}, {"create_qp_in.qpc.cs_req", 0x6f0, 8},
      {"create_qp_in.qpc.cs_res", 0x6f8, 8}, {"create_qp_in.qpc.dbr_umem_valid", 0x743, 1},
      {"create_qp_in.qpc.dbr_umem_id", 0x7e0, 32}, {"create_qp_in.wq_umem_offset", 0x800, 64},
      {"create_qp_in.wq_umem_id", 0x840, 32}, {"create_qp_in.wq_umem_valid", 0x860, 1},
      // §2.3 the transitions (INIT2RTR stands for all three: their layout is one)
      {"init2rtr_qp_in.qpn", 0x48, 24}, {"init2rtr_qp_in.opt_param_mask", 0x80, 32},
      {"init2rtr_qp_in.qpc.pm_state", 0xd3, 2}, {"init2rtr_qp_in.qpc.mtu", 0x100, 3},
      {"init2rtr_qp_in.qpc.log_msg_max", 0x103, 5}, {"init2rtr_qp_in.qpc.counter_set_id", 0x120, 8},
      {"init2rtr_qp_in.qpc.remote_qpn", 0x168, 24}, {"init2rtr_qp_in.qpc.log_ack_req_freq", 0x440, 4},
      {"init2rtr_qp_in.qpc.log_sra_max", 0x448, 3}, {"init2rtr_qp_in.qpc.retry_count", 0x44d, 3},
      {"init2rtr_qp_in.qpc.rnr_retry", 0x450, 3}, {"init2rtr_qp_in.qpc.next_send_psn", 0x488, 24},
      {"init2rtr_qp_in.qpc.log_rra_max", 0x548, 3}, {"init2rtr_qp_in.qpc.atomic_mode", 0x54c, 4},
      {"init2rtr_qp_in.qpc.rre", 0x550, 1}, {"init2rtr_qp_in.qpc.rwe", 0x551, 1}, {"init2rtr_qp_in.qpc.rae", 0x552, 1},
      {"init2rtr_qp_in.qpc.min_rnr_nak", 0x563, 5}, {"init2rtr_qp_in.qpc.next_rcv_psn", 0x568, 24},
      // §2.4 the primary address path
      {"init2rtr_qp_in.qpc.primary_address_path.fl", 0x180, 1},
      {"init2rtr_qp_in.qpc.primary_address_path.pkey_index", 0x190, 16},
      {"init2rtr_qp_in.qpc.primary_address_path.grh", 0x1a8, 1},
      {"init2rtr_qp_in.qpc.primary_address_path.mlid", 0x1a9, 7},
      {"init2rtr_qp_in.qpc.primary_address_path.rlid", 0x1b0, 16},
      {"init2rtr_qp_in.qpc.primary_address_path.ack_timeout", 0x1c0, 5},
      {"init2rtr_qp_in.qpc.primary_address_path.src_addr_index", 0x1c8, 8},
      {"init2rtr_qp_in.qpc.primary_address_path.stat_rate", 0x1d4, 4},
      {"init2rtr_qp_in.qpc.primary_address_path.hop_limit", 0x1d8, 8},
      {"init2rtr_qp_in.qpc.primary_address_path.tclass", 0x1e4, 8},
      {"init2rtr_qp_in.qpc.primary_address_path.flow_label", 0x1ec, 20},
      {"init2rtr_qp_in.qpc.primary_address_path.rgid_rip", 0x200, 128},
      {"init2rtr_qp_in.qpc.primary_address_path.dscp", 0x28a, 6},
      {"init2rtr_qp_in.qpc.primary_address_path.udp_sport", 0x290, 16},
      {"init2rtr_qp_in.qpc.primary_address_path.eth_prio", 0x2a1, 3},
      {"init2rtr_qp_in.qpc.primary_address_path.sl", 0x2a4, 4},
      {"init2rtr_qp_in.qpc.primary_address_path.vhca_port_num", 0x2a8, 8},
      {"init2rtr_qp_in.qpc.primary_address_path.rmac_47_32", 0x2b0, 16},
      {"init2rtr_qp_in.qpc.primary_address_path.rmac_31_0", 0x2c0, 32},
      // §2.6 QUERY_HCA_CAP (cmd_hca_cap offsets + 0x80, the capability's start in the outbox)
      {"query_hca_cap_in.opcode", 0x0, 16}, {"query_hca_cap_in.op_mod", 0x30, 16},
      {"query_hca_cap_in.other_function", 0x40, 1}, {"query_hca_cap_in.function_id", 0x50, 16},
      {"query_hca_cap_out.status", 0x0, 8}, {"query_hca_cap_out.syndrome", 0x20, 32},
      {"query_hca_cap_out.capability", 0x80, 0x8000},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_qp_sz", 0x80 + 0x88, 8},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_qp", 0x80 + 0x9b, 5},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_cq_sz", 0x80 + 0xc8, 8},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_ra_req_qp", 0x80 + 0x14a, 6},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_ra_res_qp", 0x80 + 0x15a, 6},
      {"query_hca_cap_out.capability.cmd_hca_cap.port_type", 0x80 + 0x1b6, 2},
      {"query_hca_cap_out.capability.cmd_hca_cap.num_ports", 0x80 + 0x1b8, 8},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_max_msg", 0x80 + 0x1c3, 5},
      {"query_hca_cap_out.capability.cmd_hca_cap.cqe_version", 0x80 + 0x1fc, 4},
      {"query_hca_cap_out.capability.cmd_hca_cap.roce", 0x80 + 0x21d, 1},
      {"query_hca_cap_out.capability.cmd_hca_cap.atomic", 0x80 + 0x21e, 1},
      {"query_hca_cap_out.capability.cmd_hca_cap.cq_oi", 0x80 + 0x220, 1},
      {"query_hca_cap_out.capability.cmd_hca_cap.rc", 0x80 + 0x23f, 1},
      {"query_hca_cap_out.capability.cmd_hca_cap.uar_4k", 0x80 + 0x240, 1},
      {"query_hca_cap_out.capability.cmd_hca_cap.uar_sz", 0x80 + 0x24a, 6},
      {"query_hca_cap_out.capability.cmd_hca_cap.umem_uid_0", 0x80 + 0x252, 1},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_pg_sz", 0x80 + 0x258, 8},
      {"query_hca_cap_out.capability.cmd_hca_cap.bf", 0x80 + 0x260, 1},
      {"query_hca_cap_out.capability.cmd_hca_cap.log_bf_reg_size", 0x80 + 0x26b, 5},
  };
  for (const stated& s : plan) {
    const gio_ifc_field& k = kernel(s.kernel_name);
    EXPECT_EQ(k.bit, s.bit) << s.kernel_name;
    EXPECT_EQ(k.bits, s.bits) << s.kernel_name;
  }
  // The plan gives DPDK's 8-bit c_eqn at 0x138; the kernel's field is 32 bits wide and ends at the
  // same bit (the 8-bit field is its low byte), so an EQ number < 256 encodes the same either way.
  const gio_ifc_field& eqn = kernel("create_cq_in.cq_context.c_eqn_or_apu_element");
  EXPECT_EQ(eqn.bit + eqn.bits, 0x138u + 8u);
}

// ---- set / get -----------------------------------------------------------------------------------

TEST(Mlx5Prm, SetAndGetAreDevxSetAndGet) {
  values v(1);
  int checked = 0;
  for (unsigned i = 0; i < gio_ifc_field_count; ++i) {
    const gio_ifc_field& k = gio_ifc_fields[i];
    const field f{k.bit, k.bits, k.name};
    if (k.bits > 64 || !well_formed(f)) continue;  // contexts, GIDs: not set as one value
    for (int round = 0; round < 64; ++round) {
      bytes background(k.bit / 8 + 16);
      for (auto& b : background) b = v.byte();
      const std::uint64_t value = v.of(k.bits);
      bytes ours = background, ref = background;
      set(ours.data(), f, value);
      for (unsigned j = 0; j < k.bits; ++j) ref_set_bit(ref, k.bit + j, (value >> (k.bits - 1 - j)) & 1u);
      EXPECT_SAME_BYTES(ours, ref);
      EXPECT_EQ(get(ours.data(), f), value) << k.name;
      EXPECT_EQ(ref_get(ours, k), value) << k.name;
      EXPECT_EQ(get(background.data(), f), ref_get(background, k)) << k.name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 64 * 150);
}

TEST(Mlx5Prm, ValuesThatDoNotFitAreRefused) {
  qp_params q;
  q.log_sq_size = 16;  // 4 bits: DEVX_SET would write 0
  try {
    (void)create_qp_in(q);
    FAIL() << "log_sq_size 16 was accepted";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("qpc.log_sq_size"), std::string::npos) << e.what();
  }
  cq_params c;
  c.uar_page = 1u << 24;
  EXPECT_THROW((void)create_cq_in(c), std::out_of_range);
  rst2init_params r;
  r.qpn = 1u << 24;
  EXPECT_THROW((void)rst2init_qp_in(r), std::out_of_range);
  c = cq_params{};
  c.log_cq_size = 31;  // fits 5 bits
  EXPECT_NO_THROW((void)create_cq_in(c));
}

// ---- commands, byte for byte -------------------------------------------------------------------

TEST(Mlx5Prm, QueryHcaCapIn) {
  for (std::uint16_t group : {cap_general, cap_atomic, cap_roce}) {
    bytes ref(kernel_bytes("query_hca_cap_in"), 0);
    ref_set(ref, "query_hca_cap_in.opcode", kernel_value("MLX5_CMD_OP_QUERY_HCA_CAP"));
    ref_set(ref, "query_hca_cap_in.op_mod", static_cast<std::uint64_t>(group) << 1 | 1u);  // current values
    EXPECT_SAME_BYTES(query_hca_cap_in(group), ref);
  }
}

TEST(Mlx5Prm, CreateCqIn) {
  values v(2);
  for (int i = 0; i < iterations; ++i) {
    cq_params p;
    p.log_cq_size = v.of32("create_cq_in.cq_context.log_cq_size");
    p.uar_page = v.of32("create_cq_in.cq_context.uar_page");
    p.eqn = v.of32("create_cq_in.cq_context.c_eqn_or_apu_element");
    p.log_page_size = v.of32("create_cq_in.cq_context.log_page_size");
    p.ring_umem_id = v.of32("create_cq_in.cq_umem_id");
    p.ring_umem_offset = v.of("create_cq_in.cq_umem_offset");
    p.dbr_umem_id = v.of32("create_cq_in.cq_context.dbr_umem_id");
    p.dbr_offset = v.of("create_cq_in.cq_context.dbr_addr");
    p.overrun_ignore = v.flip();

    bytes ref(kernel_bytes("create_cq_in"), 0);
    ref_set(ref, "create_cq_in.opcode", kernel_value("MLX5_CMD_OP_CREATE_CQ"));
    ref_set(ref, "create_cq_in.cq_context.dbr_umem_valid", 1);
    ref_set(ref, "create_cq_in.cq_context.cqe_sz", 0);  // 64-byte CQEs
    ref_set(ref, "create_cq_in.cq_context.cc", 0);      // every CQE in its own slot
    ref_set(ref, "create_cq_in.cq_context.oi", p.overrun_ignore);
    ref_set(ref, "create_cq_in.cq_context.cqe_comp_en", 0);
    ref_set(ref, "create_cq_in.cq_context.dbr_umem_id", p.dbr_umem_id);
    ref_set(ref, "create_cq_in.cq_context.log_cq_size", p.log_cq_size);
    ref_set(ref, "create_cq_in.cq_context.uar_page", p.uar_page);
    ref_set(ref, "create_cq_in.cq_context.c_eqn_or_apu_element", p.eqn);
    ref_set(ref, "create_cq_in.cq_context.log_page_size", p.log_page_size);
    ref_set(ref, "create_cq_in.cq_context.dbr_addr", p.dbr_offset);
    ref_set(ref, "create_cq_in.cq_umem_offset", p.ring_umem_offset);
    ref_set(ref, "create_cq_in.cq_umem_id", p.ring_umem_id);
    ref_set(ref, "create_cq_in.cq_umem_valid", 1);
    EXPECT_SAME_BYTES(create_cq_in(p), ref);
    if (HasFailure()) break;
  }
}

TEST(Mlx5Prm, CreateQpIn) {
  values v(3);
  for (int i = 0; i < iterations; ++i) {
    qp_params p;
    p.pd = v.of32("create_qp_in.qpc.pd");
    p.uar_page = v.of32("create_qp_in.qpc.uar_page");
    p.cqn = v.of32("create_qp_in.qpc.cqn_snd");
    p.log_sq_size = v.of32("create_qp_in.qpc.log_sq_size");
    p.user_index = v.of32("create_qp_in.qpc.user_index");
    p.ts_format = v.of32("create_qp_in.qpc.ts_format");
    p.log_page_size = v.of32("create_qp_in.qpc.log_page_size");
    p.wq_umem_id = v.of32("create_qp_in.wq_umem_id");
    p.wq_umem_offset = v.of("create_qp_in.wq_umem_offset");
    p.dbr_umem_id = v.of32("create_qp_in.qpc.dbr_umem_id");
    p.dbr_offset = v.of("create_qp_in.qpc.dbr_addr");

    bytes ref(kernel_bytes("create_qp_in"), 0);
    ref_set(ref, "create_qp_in.opcode", kernel_value("MLX5_CMD_OP_CREATE_QP"));
    ref_set(ref, "create_qp_in.qpc.st", kernel_value("MLX5_QPC_ST_RC"));
    ref_set(ref, "create_qp_in.qpc.pm_state", kernel_value("MLX5_QPC_PM_STATE_MIGRATED"));
    ref_set(ref, "create_qp_in.qpc.pd", p.pd);
    ref_set(ref, "create_qp_in.qpc.log_rq_size", 0);
    ref_set(ref, "create_qp_in.qpc.no_sq", 0);
    ref_set(ref, "create_qp_in.qpc.log_sq_size", p.log_sq_size);
    ref_set(ref, "create_qp_in.qpc.ts_format", p.ts_format);
    ref_set(ref, "create_qp_in.qpc.uar_page", p.uar_page);
    ref_set(ref, "create_qp_in.qpc.user_index", p.user_index);
    ref_set(ref, "create_qp_in.qpc.log_page_size", p.log_page_size);
    ref_set(ref, "create_qp_in.qpc.cqn_snd", p.cqn);
    ref_set(ref, "create_qp_in.qpc.cqn_rcv", p.cqn);  // one CQ for both
    ref_set(ref, "create_qp_in.qpc.dbr_addr", p.dbr_offset);
    ref_set(ref, "create_qp_in.qpc.rq_type", 3);  // MLX5_ZERO_LEN_RQ (linux/mlx5/qp.h, not includable here)
    ref_set(ref, "create_qp_in.qpc.dbr_umem_valid", 1);
    ref_set(ref, "create_qp_in.qpc.dbr_umem_id", p.dbr_umem_id);
    ref_set(ref, "create_qp_in.wq_umem_offset", p.wq_umem_offset);
    ref_set(ref, "create_qp_in.wq_umem_id", p.wq_umem_id);
    ref_set(ref, "create_qp_in.wq_umem_valid", 1);
    EXPECT_SAME_BYTES(create_qp_in(p), ref);
    if (HasFailure()) break;
  }
}

TEST(Mlx5Prm, Rst2InitQpIn) {
  values v(4);
  const std::string c = "rst2init_qp_in.";
  for (int i = 0; i < iterations; ++i) {
    rst2init_params p;
    p.qpn = v.of32(c + "qpn");
    p.port = v.of32(c + "qpc.primary_address_path.vhca_port_num");
    p.pkey_index = v.of32(c + "qpc.primary_address_path.pkey_index");
    p.atomic_mode = v.of32(c + "qpc.atomic_mode");

    bytes ref(kernel_bytes("rst2init_qp_in"), 0);
    ref_set(ref, c + "opcode", kernel_value("MLX5_CMD_OP_RST2INIT_QP"));
    ref_set(ref, c + "qpn", p.qpn);
    ref_set(ref, c + "qpc.pm_state", kernel_value("MLX5_QPC_PM_STATE_MIGRATED"));
    ref_set(ref, c + "qpc.counter_set_id", 0);
    ref_set(ref, c + "qpc.rre", 1);
    ref_set(ref, c + "qpc.rwe", 1);
    ref_set(ref, c + "qpc.rae", 1);
    ref_set(ref, c + "qpc.atomic_mode", p.atomic_mode);
    ref_set(ref, c + "qpc.primary_address_path.vhca_port_num", p.port);
    ref_set(ref, c + "qpc.primary_address_path.pkey_index", p.pkey_index);
    EXPECT_SAME_BYTES(rst2init_qp_in(p), ref);
    if (HasFailure()) break;
  }
  // The default atomic mode is the kernel's UP_TO_8B (gio's 4- and 8-byte atomics).
  EXPECT_EQ(rst2init_params{}.atomic_mode, kernel_value("MLX5_QPC_ATOMIC_MODE_UP_TO_8B"));
}

// One INIT2RTR per link-layer case: InfiniBand in the subnet, InfiniBand with a GRH, RoCE.
enum class link_case { ib, ib_grh, roce };

void init2rtr_case(link_case which, std::uint32_t seed) {
  values v(seed);
  const std::string c = "init2rtr_qp_in.", ads = c + "qpc.primary_address_path.";
  for (int i = 0; i < iterations; ++i) {
    init2rtr_params p;
    p.qpn = v.of32(c + "qpn");
    p.mtu = v.of32(c + "qpc.mtu");
    p.log_msg_max = v.of32(c + "qpc.log_msg_max");
    p.remote_qpn = v.of32(c + "qpc.remote_qpn");
    p.next_rcv_psn = v.of32(c + "qpc.next_rcv_psn");
    p.log_rra_max = v.of32(c + "qpc.log_rra_max");
    p.min_rnr_nak = v.of32(c + "qpc.min_rnr_nak");
    path_params& a = p.path;
    a.roce = which == link_case::roce;
    a.global = which != link_case::ib;
    a.port = v.of32(ads + "vhca_port_num");
    a.rlid = v.of32(ads + "rlid");
    a.sl = v.of32(a.roce ? ads + "eth_prio" : ads + "sl");
    for (auto& b : a.rgid) b = v.byte();
    a.src_addr_index = v.of32(ads + "src_addr_index");
    a.hop_limit = v.of32(ads + "hop_limit");
    a.tclass = v.of32(ads + "tclass");
    for (auto& b : a.rmac) b = v.byte();
    a.udp_sport = v.of32(ads + "udp_sport");

    bytes ref(kernel_bytes("init2rtr_qp_in"), 0);
    ref_set(ref, c + "opcode", kernel_value("MLX5_CMD_OP_INIT2RTR_QP"));
    ref_set(ref, c + "qpn", p.qpn);
    ref_set(ref, c + "qpc.mtu", p.mtu);
    ref_set(ref, c + "qpc.log_msg_max", p.log_msg_max);
    ref_set(ref, c + "qpc.remote_qpn", p.remote_qpn);
    ref_set(ref, c + "qpc.next_rcv_psn", p.next_rcv_psn);
    ref_set(ref, c + "qpc.log_rra_max", p.log_rra_max);
    ref_set(ref, c + "qpc.min_rnr_nak", p.min_rnr_nak);
    ref_set(ref, ads + "vhca_port_num", a.port);
    if (which == link_case::ib || which == link_case::ib_grh) {
      ref_set(ref, ads + "rlid", a.rlid);
      ref_set(ref, ads + "sl", a.sl);
    }
    if (which == link_case::ib_grh) ref_set(ref, ads + "grh", 1);
    if (which != link_case::ib) {
      ref_set_raw(ref, ads + "rgid_rip", a.rgid.data(), 16);
      ref_set(ref, ads + "src_addr_index", a.src_addr_index);
      ref_set(ref, ads + "hop_limit", a.hop_limit);
      ref_set(ref, ads + "tclass", a.tclass);
    }
    if (which == link_case::roce) {
      ref_set_raw(ref, ads + "rmac_47_32", a.rmac.data(), 6);  // no GRH bit, no LID on Ethernet
      ref_set(ref, ads + "udp_sport", a.udp_sport);
      ref_set(ref, ads + "dscp", a.tclass >> 2);
      ref_set(ref, ads + "eth_prio", a.sl);
    }
    EXPECT_SAME_BYTES(init2rtr_qp_in(p), ref);
    if (::testing::Test::HasFailure()) break;
  }
}

TEST(Mlx5Prm, Init2RtrQpInInfiniBand) { init2rtr_case(link_case::ib, 5); }
TEST(Mlx5Prm, Init2RtrQpInInfiniBandWithGrh) { init2rtr_case(link_case::ib_grh, 6); }
TEST(Mlx5Prm, Init2RtrQpInRoce) { init2rtr_case(link_case::roce, 7); }

TEST(Mlx5Prm, Rtr2RtsQpIn) {
  values v(8);
  const std::string c = "rtr2rts_qp_in.";
  for (int i = 0; i < iterations; ++i) {
    rtr2rts_params p;
    p.qpn = v.of32(c + "qpn");
    p.next_send_psn = v.of32(c + "qpc.next_send_psn");
    p.log_sra_max = v.of32(c + "qpc.log_sra_max");
    p.retry_count = v.of32(c + "qpc.retry_count");
    p.rnr_retry = v.of32(c + "qpc.rnr_retry");
    p.ack_timeout = v.of32(c + "qpc.primary_address_path.ack_timeout");

    bytes ref(kernel_bytes("rtr2rts_qp_in"), 0);
    ref_set(ref, c + "opcode", kernel_value("MLX5_CMD_OP_RTR2RTS_QP"));
    ref_set(ref, c + "qpn", p.qpn);
    ref_set(ref, c + "qpc.log_ack_req_freq", 0);
    ref_set(ref, c + "qpc.log_sra_max", p.log_sra_max);
    ref_set(ref, c + "qpc.retry_count", p.retry_count);
    ref_set(ref, c + "qpc.rnr_retry", p.rnr_retry);
    ref_set(ref, c + "qpc.next_send_psn", p.next_send_psn);
    ref_set(ref, c + "qpc.primary_address_path.ack_timeout", p.ack_timeout);
    EXPECT_SAME_BYTES(rtr2rts_qp_in(p), ref);
    if (HasFailure()) break;
  }
}

// ---- outboxes ----------------------------------------------------------------------------------

TEST(Mlx5Prm, ParseOutboxes) {
  values v(9);
  for (const char* cmd : {"create_cq_out", "create_qp_out", "rst2init_qp_out", "init2rtr_qp_out", "rtr2rts_qp_out"}) {
    const std::string c = cmd;
    const bool creates = c == "create_cq_out" || c == "create_qp_out";
    const std::string id = c == "create_cq_out" ? "create_cq_out.cqn" : "create_qp_out.qpn";
    for (int i = 0; i < iterations / 4; ++i) {
      bytes out(kernel_bytes(c));
      for (auto& b : out) b = v.byte();
      const outbox o = parse_out(out.data(), out.size());
      EXPECT_EQ(o.status, ref_get(out, kernel(c + ".status"))) << c;
      EXPECT_EQ(o.syndrome, ref_get(out, kernel(c + ".syndrome"))) << c;
      if (creates) EXPECT_EQ(o.object_id, ref_get(out, kernel(id))) << c;
    }
  }
  bytes short_out(8);
  EXPECT_THROW((void)parse_out(short_out.data(), short_out.size()), std::logic_error);
}

TEST(Mlx5Prm, ParseCapabilities) {
  values v(10);
  const std::string p = "query_hca_cap_out.capability.cmd_hca_cap.";
  for (int i = 0; i < 256; ++i) {
    bytes out(kernel_bytes("query_hca_cap_out"));
    for (auto& b : out) b = v.byte();
    ASSERT_EQ(out.size(), query_hca_cap_out_bytes);
    const hca_caps c = parse_general_caps(out.data());
    auto k = [&](const char* name) { return ref_get(out, kernel(p + name)); };
    EXPECT_EQ(c.log_max_qp_sz, k("log_max_qp_sz"));
    EXPECT_EQ(c.log_max_qp, k("log_max_qp"));
    EXPECT_EQ(c.log_max_cq_sz, k("log_max_cq_sz"));
    EXPECT_EQ(c.log_max_ra_req_qp, k("log_max_ra_req_qp"));
    EXPECT_EQ(c.log_max_ra_res_qp, k("log_max_ra_res_qp"));
    EXPECT_EQ(c.port_type, k("port_type"));
    EXPECT_EQ(c.num_ports, k("num_ports"));
    EXPECT_EQ(c.log_max_msg, k("log_max_msg"));
    EXPECT_EQ(c.cqe_version, k("cqe_version"));
    EXPECT_EQ(c.roce, k("roce"));
    EXPECT_EQ(c.atomic, k("atomic"));
    EXPECT_EQ(c.cq_oi, k("cq_oi"));
    EXPECT_EQ(c.rc, k("rc"));
    EXPECT_EQ(c.uar_4k, k("uar_4k"));
    EXPECT_EQ(c.uar_sz, k("uar_sz"));
    EXPECT_EQ(c.umem_uid_0, k("umem_uid_0"));
    EXPECT_EQ(c.log_pg_sz, k("log_pg_sz"));
    EXPECT_EQ(c.bf, k("bf"));
    EXPECT_EQ(c.log_bf_reg_size, k("log_bf_reg_size"));
    EXPECT_EQ(c.sq_ts_format, k("sq_ts_format"));
    EXPECT_EQ(parse_roce_qp_ts_format(out.data()),
              ref_get(out, kernel("query_hca_cap_out.capability.roce_cap.qp_ts_format")));
    const atomic_caps a = parse_atomic_caps(out.data());
    EXPECT_EQ(a.operations, ref_get(out, kernel("query_hca_cap_out.capability.atomic_caps.atomic_operations")));
    EXPECT_EQ(a.size_qp, ref_get(out, kernel("query_hca_cap_out.capability.atomic_caps.atomic_size_qp")));
  }
}

// The kernel's mlx5_get_qp_default_ts: free-running only where that is the only format.
TEST(Mlx5Prm, QpTimestampFormatFollowsTheDevice) {
  EXPECT_EQ(qp_ts_format(static_cast<std::uint32_t>(kernel_value("MLX5_TIMESTAMP_FORMAT_CAP_FREE_RUNNING"))),
            static_cast<std::uint32_t>(kernel_value("MLX5_TIMESTAMP_FORMAT_FREE_RUNNING")));
  for (std::uint32_t cap : {1u, 2u})  // real time only; both
    EXPECT_EQ(qp_ts_format(cap), static_cast<std::uint32_t>(kernel_value("MLX5_TIMESTAMP_FORMAT_DEFAULT")));
}

TEST(Mlx5Prm, FloorLog2) {
  EXPECT_EQ(floor_log2(0), 0u);
  EXPECT_EQ(floor_log2(1), 0u);
  EXPECT_EQ(floor_log2(2), 1u);
  EXPECT_EQ(floor_log2(16), 4u);
  EXPECT_EQ(floor_log2(17), 4u);
  EXPECT_EQ(floor_log2(0xffffffffu), 31u);
}

}  // namespace
}  // namespace gio::transports::gda::prm
