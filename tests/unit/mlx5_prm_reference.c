/* The reference for tests/unit/mlx5_prm_test.cpp: bit offsets and widths of the PRM fields gio's
 * DevX encoder (host/transports/gda/mlx5_prm.hpp) writes or reads, taken from the Linux kernel's
 * own layout header, include/linux/mlx5/mlx5_ifc.h (from Debian's linux-headers-*-common package,
 * fetched by scripts/install-deps.sh into GIO_MLX5_IFC_DIR).
 *
 * The kernel describes each PRM structure as `struct mlx5_ifc_X_bits { u8 field[bits]; ... }`:
 * one byte per bit, so offsetof() of a member is its bit offset and sizeof() its width. That is
 * why this file is C (the header has flexible array members C++ rejects) and why nothing here
 * computes a layout by hand, apart from the marked fields the kernel leaves unnamed.
 *
 * The kernel is built with its own types and macros; a user-space compile needs the few below. */
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint32_t __be32;
typedef uint64_t __be64;
#ifndef __packed
#define __packed __attribute__((packed))
#endif
#ifndef BIT
#define BIT(n) (1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n) (1ULL << (n))
#endif
/* linux/stddef.h's, used by newer headers (6.12) for a flexible array inside a union. */
#ifndef DECLARE_FLEX_ARRAY
#define DECLARE_FLEX_ARRAY(TYPE, NAME) \
  struct {                             \
    struct {                           \
    } __empty_##NAME;                  \
    TYPE NAME[];                       \
  }
#endif

#include <linux/mlx5/mlx5_ifc.h>

#include "mlx5_prm_reference.h"

/* A member's bit offset and width, by its path inside struct mlx5_ifc_<cmd>_bits. */
#define BITS_OF(cmd, path) ((unsigned)sizeof(((struct mlx5_ifc_##cmd##_bits*)0)->path))
#define FIELD(cmd, path) {#cmd "." #path, (unsigned)offsetof(struct mlx5_ifc_##cmd##_bits, path), BITS_OF(cmd, path)}

/* The fields every modify-QP command (RST2INIT, INIT2RTR, RTR2RTS) may set, per command. */
#define MODIFY_QP_FIELDS(cmd)                                                                      \
  FIELD(cmd, opcode), FIELD(cmd, uid), FIELD(cmd, op_mod), FIELD(cmd, qpn), FIELD(cmd, opt_param_mask), \
      FIELD(cmd, qpc.pm_state), FIELD(cmd, qpc.mtu), FIELD(cmd, qpc.log_msg_max),                   \
      FIELD(cmd, qpc.counter_set_id), FIELD(cmd, qpc.remote_qpn), FIELD(cmd, qpc.log_ack_req_freq), \
      FIELD(cmd, qpc.log_sra_max), FIELD(cmd, qpc.retry_count), FIELD(cmd, qpc.rnr_retry),          \
      FIELD(cmd, qpc.next_send_psn), FIELD(cmd, qpc.log_rra_max), FIELD(cmd, qpc.atomic_mode),      \
      FIELD(cmd, qpc.rre), FIELD(cmd, qpc.rwe), FIELD(cmd, qpc.rae), FIELD(cmd, qpc.min_rnr_nak),   \
      FIELD(cmd, qpc.next_rcv_psn), FIELD(cmd, qpc.primary_address_path.fl),                        \
      FIELD(cmd, qpc.primary_address_path.pkey_index), FIELD(cmd, qpc.primary_address_path.grh),    \
      FIELD(cmd, qpc.primary_address_path.mlid), FIELD(cmd, qpc.primary_address_path.rlid),         \
      FIELD(cmd, qpc.primary_address_path.ack_timeout),                                             \
      FIELD(cmd, qpc.primary_address_path.src_addr_index),                                          \
      FIELD(cmd, qpc.primary_address_path.stat_rate), FIELD(cmd, qpc.primary_address_path.hop_limit), \
      FIELD(cmd, qpc.primary_address_path.tclass), FIELD(cmd, qpc.primary_address_path.flow_label), \
      FIELD(cmd, qpc.primary_address_path.rgid_rip), FIELD(cmd, qpc.primary_address_path.dscp),     \
      FIELD(cmd, qpc.primary_address_path.udp_sport), FIELD(cmd, qpc.primary_address_path.eth_prio), \
      FIELD(cmd, qpc.primary_address_path.sl), FIELD(cmd, qpc.primary_address_path.vhca_port_num),  \
      FIELD(cmd, qpc.primary_address_path.rmac_47_32), FIELD(cmd, qpc.primary_address_path.rmac_31_0)

/* Fields the kernel leaves reserved but rdma-core / DPDK / NVSHMEM name (docs/devx-rings-plan.md
 * §5). Each is placed relative to a neighbour the kernel does name, so the check holds whether a
 * header names the span (6.12: wq_umem_offset, wq_umem_id) or not (6.1: reserved_at_800):
 *  - cqc.dbr_umem_id: the 32-bit word after the one holding cqe_sz (kernel 6.1/6.12: reserved_at_20);
 *  - cq_umem_offset, cq_umem_id: the 64 + 32 bits right before cq_umem_valid (reserved_at_280[0x60]);
 *  - qpc.dbr_umem_id: the last 32 bits of the QP context (inside reserved_at_684[0xbc]);
 *  - wq_umem_offset, wq_umem_id: the 64 + 32 bits right before wq_umem_valid. */
#define WORD_AFTER(cmd, path) ((unsigned)(offsetof(struct mlx5_ifc_##cmd##_bits, path) / 32 * 32 + 32))
#define BEFORE(cmd, path, back) ((unsigned)(offsetof(struct mlx5_ifc_##cmd##_bits, path) - (back)))

const struct gio_ifc_field gio_ifc_fields[] = {
    /* QUERY_HCA_CAP */
    FIELD(query_hca_cap_in, opcode),
    FIELD(query_hca_cap_in, op_mod),
    FIELD(query_hca_cap_in, other_function),
    FIELD(query_hca_cap_in, function_id),
    FIELD(query_hca_cap_out, status),
    FIELD(query_hca_cap_out, syndrome),
    FIELD(query_hca_cap_out, capability),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_max_qp_sz),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_max_qp),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_max_cq_sz),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_max_ra_req_qp),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_max_ra_res_qp),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.port_type),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.num_ports),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_max_msg),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.cqe_version),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.roce),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.atomic),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.cq_oi),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.rc),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.uar_4k),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.uar_sz),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.umem_uid_0),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_pg_sz),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.bf),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.log_bf_reg_size),
    FIELD(query_hca_cap_out, capability.cmd_hca_cap.sq_ts_format),
    FIELD(query_hca_cap_out, capability.roce_cap.qp_ts_format),
    FIELD(query_hca_cap_out, capability.atomic_caps.atomic_operations),
    FIELD(query_hca_cap_out, capability.atomic_caps.atomic_size_qp),

    /* CREATE_CQ */
    FIELD(create_cq_in, opcode),
    FIELD(create_cq_in, uid),
    FIELD(create_cq_in, op_mod),
    FIELD(create_cq_in, cq_context),
    FIELD(create_cq_in, cq_context.dbr_umem_valid),
    FIELD(create_cq_in, cq_context.cqe_sz),
    FIELD(create_cq_in, cq_context.cc),
    FIELD(create_cq_in, cq_context.oi),
    FIELD(create_cq_in, cq_context.cqe_comp_en),
    {"create_cq_in.cq_context.dbr_umem_id", WORD_AFTER(create_cq_in, cq_context.cqe_sz), 32},
    FIELD(create_cq_in, cq_context.page_offset),
    FIELD(create_cq_in, cq_context.log_cq_size),
    FIELD(create_cq_in, cq_context.uar_page),
    FIELD(create_cq_in, cq_context.c_eqn_or_apu_element),
    FIELD(create_cq_in, cq_context.log_page_size),
    FIELD(create_cq_in, cq_context.dbr_addr),
    {"create_cq_in.cq_umem_offset", BEFORE(create_cq_in, cq_umem_valid, 0x60), 64},
    {"create_cq_in.cq_umem_id", BEFORE(create_cq_in, cq_umem_valid, 0x20), 32},
    FIELD(create_cq_in, cq_umem_valid),
    FIELD(create_cq_out, status),
    FIELD(create_cq_out, syndrome),
    FIELD(create_cq_out, cqn),

    /* CREATE_QP */
    FIELD(create_qp_in, opcode),
    FIELD(create_qp_in, uid),
    FIELD(create_qp_in, op_mod),
    FIELD(create_qp_in, opt_param_mask),
    FIELD(create_qp_in, qpc),
    FIELD(create_qp_in, qpc.st),
    FIELD(create_qp_in, qpc.pm_state),
    FIELD(create_qp_in, qpc.pd),
    FIELD(create_qp_in, qpc.log_rq_size),
    FIELD(create_qp_in, qpc.log_rq_stride),
    FIELD(create_qp_in, qpc.no_sq),
    FIELD(create_qp_in, qpc.log_sq_size),
    FIELD(create_qp_in, qpc.ts_format),
    FIELD(create_qp_in, qpc.counter_set_id),
    FIELD(create_qp_in, qpc.uar_page),
    FIELD(create_qp_in, qpc.user_index),
    FIELD(create_qp_in, qpc.log_page_size),
    FIELD(create_qp_in, qpc.primary_address_path),
    FIELD(create_qp_in, qpc.cqn_snd),
    FIELD(create_qp_in, qpc.page_offset),
    FIELD(create_qp_in, qpc.cqn_rcv),
    FIELD(create_qp_in, qpc.dbr_addr),
    FIELD(create_qp_in, qpc.rq_type),
    FIELD(create_qp_in, qpc.srqn_rmpn_xrqn),
    FIELD(create_qp_in, qpc.cs_req),
    FIELD(create_qp_in, qpc.cs_res),
    FIELD(create_qp_in, qpc.dbr_umem_valid),
    {"create_qp_in.qpc.dbr_umem_id",
     (unsigned)(offsetof(struct mlx5_ifc_create_qp_in_bits, qpc) + sizeof(struct mlx5_ifc_qpc_bits) - 0x20), 32},
    {"create_qp_in.wq_umem_offset", BEFORE(create_qp_in, wq_umem_valid, 0x60), 64},
    {"create_qp_in.wq_umem_id", BEFORE(create_qp_in, wq_umem_valid, 0x20), 32},
    FIELD(create_qp_in, wq_umem_valid),
    FIELD(create_qp_out, status),
    FIELD(create_qp_out, syndrome),
    FIELD(create_qp_out, qpn),

    /* The transitions */
    MODIFY_QP_FIELDS(rst2init_qp_in),
    MODIFY_QP_FIELDS(init2rtr_qp_in),
    MODIFY_QP_FIELDS(rtr2rts_qp_in),
    FIELD(rst2init_qp_out, status),
    FIELD(rst2init_qp_out, syndrome),
    FIELD(init2rtr_qp_out, status),
    FIELD(init2rtr_qp_out, syndrome),
    FIELD(rtr2rts_qp_out, status),
    FIELD(rtr2rts_qp_out, syndrome),
};
const unsigned gio_ifc_field_count = sizeof gio_ifc_fields / sizeof gio_ifc_fields[0];

/* Whole-structure sizes in bits (flexible PAS arrays excluded) and enumeration values. */
#define SIZE_BITS(cmd) {"sizeof." #cmd, (unsigned long long)sizeof(struct mlx5_ifc_##cmd##_bits)}
#define VALUE(name) {#name, (unsigned long long)(name)}

const struct gio_ifc_value gio_ifc_values[] = {
    SIZE_BITS(query_hca_cap_in),
    SIZE_BITS(query_hca_cap_out),
    SIZE_BITS(create_cq_in),
    SIZE_BITS(create_cq_out),
    SIZE_BITS(create_qp_in),
    SIZE_BITS(create_qp_out),
    SIZE_BITS(rst2init_qp_in),
    SIZE_BITS(init2rtr_qp_in),
    SIZE_BITS(rtr2rts_qp_in),
    SIZE_BITS(rst2init_qp_out),
    SIZE_BITS(init2rtr_qp_out),
    SIZE_BITS(rtr2rts_qp_out),
    SIZE_BITS(cqc),
    SIZE_BITS(qpc),
    SIZE_BITS(ads),
    VALUE(MLX5_CMD_OP_QUERY_HCA_CAP),
    VALUE(MLX5_CMD_OP_CREATE_CQ),
    VALUE(MLX5_CMD_OP_CREATE_QP),
    VALUE(MLX5_CMD_OP_RST2INIT_QP),
    VALUE(MLX5_CMD_OP_INIT2RTR_QP),
    VALUE(MLX5_CMD_OP_RTR2RTS_QP),
    VALUE(MLX5_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE),
    VALUE(MLX5_SET_HCA_CAP_OP_MOD_ATOMIC),
    VALUE(MLX5_SET_HCA_CAP_OP_MOD_ROCE),
    VALUE(MLX5_TIMESTAMP_FORMAT_CAP_FREE_RUNNING),
    VALUE(MLX5_TIMESTAMP_FORMAT_FREE_RUNNING),
    VALUE(MLX5_TIMESTAMP_FORMAT_DEFAULT),
    VALUE(MLX5_QPC_ST_RC),
    VALUE(MLX5_QPC_PM_STATE_MIGRATED),
    VALUE(MLX5_QPC_ATOMIC_MODE_UP_TO_8B),
    VALUE(MLX5_QPC_MTU_256_BYTES),
    VALUE(MLX5_QPC_MTU_4K_BYTES),
    VALUE(MLX5_CMD_HCA_CAP_PORT_TYPE_IB),
    VALUE(MLX5_CMD_HCA_CAP_PORT_TYPE_ETHERNET),
};
const unsigned gio_ifc_value_count = sizeof gio_ifc_values / sizeof gio_ifc_values[0];
