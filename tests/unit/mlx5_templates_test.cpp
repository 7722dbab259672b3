// Conformance of gio's mlx5 packet templates (templates/, <gio/templates/...>) with rdma-core:
// every template, prefilled once per slot and then patched per operation as the device does, is
// compared byte for byte with the WQE rdma-core's mlx5 provider builds for the same work request
// (mlx5dv_set_ctrl_seg, mlx5dv_set_data_seg, and the mlx5dv.h segment structs filled with htobe*
// as providers/mlx5/qp.c does), over edge values and a seeded random sweep. CQE decoding is
// checked on golden CQEs built from struct mlx5_cqe64 / struct mlx5_err_cqe.
#include <gtest/gtest.h>
#include <infiniband/mlx5dv.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gio/templates/mlx5.hpp"

namespace {

namespace t = gio::templates;
namespace m = gio::templates::mlx5;

// ---- constants and layouts against mlx5dv.h ----------------------------------------------------

static_assert(m::opcode::nop == MLX5_OPCODE_NOP);
static_assert(m::opcode::rdma_write == MLX5_OPCODE_RDMA_WRITE);
static_assert(m::opcode::rdma_write_imm == MLX5_OPCODE_RDMA_WRITE_IMM);
static_assert(m::opcode::send == MLX5_OPCODE_SEND);
static_assert(m::opcode::rdma_read == MLX5_OPCODE_RDMA_READ);
static_assert(m::opcode::atomic_cs == MLX5_OPCODE_ATOMIC_CS);
static_assert(m::opcode::atomic_fa == MLX5_OPCODE_ATOMIC_FA);
static_assert(m::opcode::atomic_masked_cs == MLX5_OPCODE_ATOMIC_MASKED_CS);
static_assert(m::opcode::atomic_masked_fa == MLX5_OPCODE_ATOMIC_MASKED_FA);
static_assert(m::ctrl_flags::cq_update == MLX5_WQE_CTRL_CQ_UPDATE);
static_assert(m::ctrl_flags::solicited == MLX5_WQE_CTRL_SOLICITED);
static_assert(m::ctrl_flags::fm_fence_and_small == MLX5_WQE_CTRL_FENCE);
static_assert(m::ctrl_flags::fm_initiator_small == MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE);
static_assert(m::send_wqe_bb == MLX5_SEND_WQE_BB && m::send_wqe_shift == MLX5_SEND_WQE_SHIFT);
static_assert(m::inline_seg == MLX5_INLINE_SEG);
static_assert(m::snd_dbr == MLX5_SND_DBR && m::rcv_dbr == MLX5_RCV_DBR);  // MLX5_CQ_SET_CI (0) is provider-private
static_assert(m::cqe_owner_mask == MLX5_CQE_OWNER_MASK);
static_assert(m::cqe_opcode::req == MLX5_CQE_REQ && m::cqe_opcode::resp_wr_imm == MLX5_CQE_RESP_WR_IMM &&
              m::cqe_opcode::resp_send == MLX5_CQE_RESP_SEND && m::cqe_opcode::resp_send_imm == MLX5_CQE_RESP_SEND_IMM &&
              m::cqe_opcode::resp_send_inv == MLX5_CQE_RESP_SEND_INV && m::cqe_opcode::resize_cq == MLX5_CQE_RESIZE_CQ &&
              m::cqe_opcode::no_packet == MLX5_CQE_NO_PACKET && m::cqe_opcode::sig_err == MLX5_CQE_SIG_ERR &&
              m::cqe_opcode::req_err == MLX5_CQE_REQ_ERR && m::cqe_opcode::resp_err == MLX5_CQE_RESP_ERR &&
              m::cqe_opcode::invalid == MLX5_CQE_INVALID);
static_assert(m::cqe_syndrome::local_length_err == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR &&
              m::cqe_syndrome::local_qp_op_err == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR &&
              m::cqe_syndrome::local_prot_err == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
              m::cqe_syndrome::wr_flush_err == MLX5_CQE_SYNDROME_WR_FLUSH_ERR &&
              m::cqe_syndrome::mw_bind_err == MLX5_CQE_SYNDROME_MW_BIND_ERR &&
              m::cqe_syndrome::bad_resp_err == MLX5_CQE_SYNDROME_BAD_RESP_ERR &&
              m::cqe_syndrome::local_access_err == MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR &&
              m::cqe_syndrome::remote_inval_req_err == MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR &&
              m::cqe_syndrome::remote_access_err == MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR &&
              m::cqe_syndrome::remote_op_err == MLX5_CQE_SYNDROME_REMOTE_OP_ERR &&
              m::cqe_syndrome::transport_retry_exc_err == MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR &&
              m::cqe_syndrome::rnr_retry_exc_err == MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR &&
              m::cqe_syndrome::remote_aborted_err == MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR);

#define GIO_SAME_FIELD(ours, theirs, of, tf) \
  static_assert(offsetof(ours, of) == offsetof(theirs, tf) && sizeof(ours::of) == sizeof(theirs::tf))
static_assert(sizeof(m::ctrl_seg) == sizeof(mlx5_wqe_ctrl_seg));
GIO_SAME_FIELD(m::ctrl_seg, mlx5_wqe_ctrl_seg, opmod_idx_opcode_be, opmod_idx_opcode);
GIO_SAME_FIELD(m::ctrl_seg, mlx5_wqe_ctrl_seg, qpn_ds_be, qpn_ds);
GIO_SAME_FIELD(m::ctrl_seg, mlx5_wqe_ctrl_seg, signature, signature);
GIO_SAME_FIELD(m::ctrl_seg, mlx5_wqe_ctrl_seg, dci_stream_channel_id_be, dci_stream_channel_id);
GIO_SAME_FIELD(m::ctrl_seg, mlx5_wqe_ctrl_seg, fm_ce_se, fm_ce_se);
GIO_SAME_FIELD(m::ctrl_seg, mlx5_wqe_ctrl_seg, imm_be, imm);
static_assert(sizeof(m::raddr_seg) == sizeof(mlx5_wqe_raddr_seg));
GIO_SAME_FIELD(m::raddr_seg, mlx5_wqe_raddr_seg, raddr_be, raddr);
GIO_SAME_FIELD(m::raddr_seg, mlx5_wqe_raddr_seg, rkey_be, rkey);
GIO_SAME_FIELD(m::raddr_seg, mlx5_wqe_raddr_seg, reserved, reserved);
static_assert(sizeof(m::data_seg) == sizeof(mlx5_wqe_data_seg));
GIO_SAME_FIELD(m::data_seg, mlx5_wqe_data_seg, byte_count_be, byte_count);
GIO_SAME_FIELD(m::data_seg, mlx5_wqe_data_seg, lkey_be, lkey);
GIO_SAME_FIELD(m::data_seg, mlx5_wqe_data_seg, addr_be, addr);
static_assert(sizeof(m::inl_data_seg) == sizeof(mlx5_wqe_inl_data_seg));
static_assert(sizeof(m::atomic_seg) == sizeof(mlx5_wqe_atomic_seg));
GIO_SAME_FIELD(m::atomic_seg, mlx5_wqe_atomic_seg, swap_add_be, swap_add);
GIO_SAME_FIELD(m::atomic_seg, mlx5_wqe_atomic_seg, compare_be, compare);
static_assert(sizeof(m::cqe64) == sizeof(mlx5_cqe64));
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, srqn_uidx_be, srqn_uidx);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, imm_inval_pkey_be, imm_inval_pkey);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, app, app);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, app_op, app_op);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, app_info_be, app_info);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, byte_cnt_be, byte_cnt);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, timestamp_be, timestamp);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, sop_drop_qpn_be, sop_drop_qpn);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, wqe_counter_be, wqe_counter);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, signature, signature);
GIO_SAME_FIELD(m::cqe64, mlx5_cqe64, op_own, op_own);
static_assert(sizeof(m::err_cqe) == sizeof(mlx5_err_cqe));
GIO_SAME_FIELD(m::err_cqe, mlx5_err_cqe, srqn_be, srqn);
GIO_SAME_FIELD(m::err_cqe, mlx5_err_cqe, vendor_err_synd, vendor_err_synd);
GIO_SAME_FIELD(m::err_cqe, mlx5_err_cqe, syndrome, syndrome);
GIO_SAME_FIELD(m::err_cqe, mlx5_err_cqe, s_wqe_opcode_qpn_be, s_wqe_opcode_qpn);
GIO_SAME_FIELD(m::err_cqe, mlx5_err_cqe, wqe_counter_be, wqe_counter);
GIO_SAME_FIELD(m::err_cqe, mlx5_err_cqe, signature, signature);
GIO_SAME_FIELD(m::err_cqe, mlx5_err_cqe, op_own, op_own);
#undef GIO_SAME_FIELD

// ---- rdma-core reference encoders (providers/mlx5/qp.c's way of building a WQE) -------------

struct alignas(64) ref_wqe {
  unsigned char bytes[2 * MLX5_SEND_WQE_BB] = {};
  template <class Seg> Seg* at(unsigned off) { return reinterpret_cast<Seg*>(bytes + off); }
  mlx5_wqe_ctrl_seg* ctrl(unsigned bb = 0) { return at<mlx5_wqe_ctrl_seg>(bb * MLX5_SEND_WQE_BB); }
};
void ref_raddr(mlx5_wqe_raddr_seg* seg, uint64_t raddr, uint32_t rkey) {  // set_raddr_seg
  seg->raddr = htobe64(raddr);
  seg->rkey = htobe32(rkey);
  seg->reserved = 0;
}
void ref_rdma(ref_wqe& w, unsigned bb, uint8_t opcode, uint16_t idx, uint32_t qpn, uint8_t flags, uint32_t lkey,
              uint32_t rkey, uint64_t laddr, uint64_t raddr, uint32_t len) {
  const unsigned base = bb * MLX5_SEND_WQE_BB;
  mlx5dv_set_ctrl_seg(w.ctrl(bb), idx, opcode, 0, qpn, flags, 3, 0, 0);
  ref_raddr(w.at<mlx5_wqe_raddr_seg>(base + 16), raddr, rkey);
  mlx5dv_set_data_seg(w.at<mlx5_wqe_data_seg>(base + 32), len, lkey, laddr);
}
void ref_inline(ref_wqe& w, unsigned bb, uint16_t idx, uint32_t qpn, uint8_t flags, uint32_t rkey, uint64_t raddr,
                const void* src, uint32_t len) {
  const unsigned base = bb * MLX5_SEND_WQE_BB;
  unsigned ds = 2;  // set_data_inl_seg: no inline segment for an empty payload
  if (len != 0) {
    w.at<mlx5_wqe_inl_data_seg>(base + 32)->byte_count = htobe32(len | MLX5_INLINE_SEG);
    std::memcpy(w.bytes + base + 32 + sizeof(mlx5_wqe_inl_data_seg), src, len);
    ds += (len + sizeof(mlx5_wqe_inl_data_seg) + 15) / 16;
  }
  mlx5dv_set_ctrl_seg(w.ctrl(bb), idx, MLX5_OPCODE_RDMA_WRITE, 0, qpn, flags, ds, 0, 0);
  ref_raddr(w.at<mlx5_wqe_raddr_seg>(base + 16), raddr, rkey);
}
// 64-bit atomics: set_atomic_seg (fetch-add writes swap_add only).
void ref_atomic64(ref_wqe& w, unsigned bb, uint8_t opcode, uint16_t idx, uint32_t qpn, uint8_t flags, uint32_t lkey,
                  uint32_t rkey, uint64_t laddr, uint64_t raddr, uint64_t swap_or_add, uint64_t compare) {
  const unsigned base = bb * MLX5_SEND_WQE_BB;
  mlx5dv_set_ctrl_seg(w.ctrl(bb), idx, opcode, 0, qpn, flags, 4, 0, 0);
  ref_raddr(w.at<mlx5_wqe_raddr_seg>(base + 16), raddr, rkey);
  auto* a = w.at<mlx5_wqe_atomic_seg>(base + 32);
  a->swap_add = htobe64(swap_or_add);
  if (opcode == MLX5_OPCODE_ATOMIC_CS) a->compare = htobe64(compare);
  mlx5dv_set_data_seg(w.at<mlx5_wqe_data_seg>(base + 48), 8, lkey, laddr);
}
// 32-bit extended atomics: mlx5dv.h has no struct for the masked operand segment; its fields are
// written at their PRM offsets (the layout NVSHMEM IBGDA uses), independently of m::masked_*_seg.
void put_be32_at(ref_wqe& w, unsigned off, uint32_t v) {
  const uint32_t be = htobe32(v);
  std::memcpy(w.bytes + off, &be, 4);
}
void ref_atomic32(ref_wqe& w, uint8_t opcode, uint16_t idx, uint32_t qpn, uint8_t flags, uint32_t lkey, uint32_t rkey,
                  uint64_t laddr, uint64_t raddr, uint32_t swap_or_add, uint32_t compare,
                  uint32_t compare_mask = 0xffffffffu) {
  mlx5dv_set_ctrl_seg(w.ctrl(), idx, opcode, /*opmod: 4-byte extended atomic*/ 0x08, qpn, flags, 4, 0, 0);
  ref_raddr(w.at<mlx5_wqe_raddr_seg>(16), raddr, rkey);
  if (opcode == MLX5_OPCODE_ATOMIC_MASKED_FA) {
    put_be32_at(w, 32, swap_or_add);  // add; field boundary (36) 0; 40..47 reserved
  } else {
    put_be32_at(w, 32, swap_or_add);  // swap
    put_be32_at(w, 36, compare);
    put_be32_at(w, 40, 0xffffffffu);  // swap mask
    put_be32_at(w, 44, compare_mask);  // 0: unconditional swap
  }
  mlx5dv_set_data_seg(w.at<mlx5_wqe_data_seg>(48), 4, lkey, laddr);
}

// ---- case generation ------------------------------------------------------------------------------

constexpr int kRandomCases = 20000;  // per template kind, on top of the edge cases

struct wqe_case {
  uint16_t idx;
  uint32_t qpn;  // 24 bits
  uint8_t flags;
  uint32_t lkey, rkey;
  uint64_t laddr, raddr, a, b;
  uint32_t len;
};

std::string describe(const wqe_case& c) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "idx=%u qpn=0x%x flags=0x%x lkey=0x%x rkey=0x%x laddr=0x%llx raddr=0x%llx a=0x%llx b=0x%llx len=%u",
                c.idx, c.qpn, c.flags, c.lkey, c.rkey, static_cast<unsigned long long>(c.laddr),
                static_cast<unsigned long long>(c.raddr), static_cast<unsigned long long>(c.a),
                static_cast<unsigned long long>(c.b), c.len);
  return buf;
}

// Every fm_ce_se value gio may prefill: each fence mode with and without CQ update / solicited.
std::vector<uint8_t> all_flags() {
  std::vector<uint8_t> out;
  for (uint8_t fm = 0; fm <= 4; ++fm)
    for (uint8_t ce : {uint8_t{0}, uint8_t{MLX5_WQE_CTRL_CQ_UPDATE}})
      for (uint8_t se : {uint8_t{0}, uint8_t{MLX5_WQE_CTRL_SOLICITED}})
        out.push_back(static_cast<uint8_t>((fm << 5) | ce | se));
  return out;
}

// Edge cases (every value of each edge list appears, combined round-robin) then random ones.
std::vector<wqe_case> make_cases(uint64_t seed) {
  const std::vector<uint16_t> idxs{0, 1, 2, 0x7fff, 0x8000, 0xfffe, 0xffff};
  const std::vector<uint32_t> qpns{0, 1, 0x123456, 0xfffffe, 0xffffff};
  const std::vector<uint32_t> keys{0, 1, 0x80000000u, 0xdeadbeefu, 0xffffffffu};
  const std::vector<uint64_t> addrs{0, 1, 0x00007f0012345678ull, 0x8000000000000000ull, 0xfffffffffffffff8ull,
                                    0xffffffffffffffffull};
  const std::vector<uint64_t> operands{0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
                                       0x0123456789abcdefull};
  const std::vector<uint32_t> lens{0, 1, 8, 28, 4096, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  const std::vector<uint8_t> flags = all_flags();
  std::vector<wqe_case> out;
  const size_t edge = 7 * 5 * 5 * 6;  // enough rounds to pair values across lists of coprime-ish sizes
  for (size_t i = 0; i < edge; ++i) {
    out.push_back({idxs[i % idxs.size()], qpns[i % qpns.size()], flags[i % flags.size()], keys[i % keys.size()],
                   keys[(i / 5) % keys.size()], addrs[i % addrs.size()], addrs[(i / 6) % addrs.size()],
                   operands[i % operands.size()], operands[(i / 6) % operands.size()], lens[i % lens.size()]});
  }
  std::mt19937_64 rng(seed);
  for (int i = 0; i < kRandomCases; ++i) {
    wqe_case c;
    c.idx = static_cast<uint16_t>(rng());
    c.qpn = static_cast<uint32_t>(rng()) & 0xffffffu;
    c.flags = flags[rng() % flags.size()];
    c.lkey = static_cast<uint32_t>(rng());
    c.rkey = static_cast<uint32_t>(rng());
    c.laddr = rng();
    c.raddr = rng();
    c.a = rng();
    c.b = rng();
    c.len = static_cast<uint32_t>(rng());
    out.push_back(c);
  }
  return out;
}

::testing::AssertionResult same_bytes(const void* ours, const void* ref, size_t n, const wqe_case& c) {
  const auto* a = static_cast<const unsigned char*>(ours);
  const auto* b = static_cast<const unsigned char*>(ref);
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "byte %zu: template 0x%02x, rdma-core 0x%02x; ", i, a[i], b[i]);
      return ::testing::AssertionFailure() << buf << describe(c);
    }
  }
  return ::testing::AssertionSuccess();
}

// A slot as the ring holds it before init: garbage, so prefill must write every static byte.
void poison(void* p, size_t n) { std::memset(p, 0xa5, n); }

// Each test prefills a slot once per static configuration, then patches it case after case
// (ring reuse: the patch must overwrite every per-operation byte of the previous operation).
// The static fields (qpn, flags, keys) change every `kReprefill` cases, forcing a fresh prefill.
constexpr size_t kReprefill = 37;

TEST(Mlx5Endian, MatchesHtobe) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = rng();
    ASSERT_EQ(t::to_be16(static_cast<uint16_t>(v)), htobe16(static_cast<uint16_t>(v)));
    ASSERT_EQ(t::to_be32(static_cast<uint32_t>(v)), htobe32(static_cast<uint32_t>(v)));
    ASSERT_EQ(t::to_be64(v), htobe64(v));
    ASSERT_EQ(t::from_be32(static_cast<uint32_t>(v)), be32toh(static_cast<uint32_t>(v)));
    ASSERT_EQ(t::from_be64(v), be64toh(v));
  }
}

TEST(Mlx5Ctrl, MatchesSetCtrlSeg) {
  // Every opcode gio uses, both opmods, every flag byte, all DS values 1..5, edge and random rest.
  const uint8_t opcodes[] = {MLX5_OPCODE_RDMA_WRITE, MLX5_OPCODE_RDMA_READ, MLX5_OPCODE_ATOMIC_CS,
                             MLX5_OPCODE_ATOMIC_FA, MLX5_OPCODE_ATOMIC_MASKED_CS, MLX5_OPCODE_ATOMIC_MASKED_FA,
                             MLX5_OPCODE_NOP};
  int n = 0;
  for (const auto& c : make_cases(2)) {
    for (uint8_t op : opcodes) {
      for (uint8_t opmod : {uint8_t{0}, uint8_t{0x08}, uint8_t{0x09}}) {
        const uint8_t ds = static_cast<uint8_t>(1 + (c.len % 5));
        mlx5_wqe_ctrl_seg ref{};
        mlx5dv_set_ctrl_seg(&ref, c.idx, op, opmod, c.qpn, c.flags, ds, 0, 0);
        m::ctrl_seg ours;
        poison(&ours, sizeof ours);
        ours.opmod_idx_opcode_be = m::opmod_idx_opcode_be(opmod, c.idx, op);
        ours.qpn_ds_be = m::qpn_ds_be(c.qpn, ds);
        ours.signature = 0;
        ours.dci_stream_channel_id_be[0] = ours.dci_stream_channel_id_be[1] = 0;
        ours.fm_ce_se = c.flags;
        ours.imm_be = 0;
        ASSERT_TRUE(same_bytes(&ours, &ref, sizeof ref, c));
        // The UAR doorbell value is the first 8 bytes of that ctrl segment, read or computed.
        uint64_t first8;
        std::memcpy(&first8, &ref, 8);
        ASSERT_EQ(m::uar_doorbell(ours), first8) << describe(c);
        ASSERT_EQ(m::uar_doorbell(opmod, c.idx, op, c.qpn, ds), first8) << describe(c);
        ++n;
      }
    }
  }
  RecordProperty("cases", n);
}

// One template's run over the cases of `seed`: the slot is prefilled (after poisoning) every
// kReprefill cases, as a reused ring would be, and only patched in between; every patched slot
// must equal the WQE rdma-core's way of building it gives. patch(slot, c) and
// reference(ref, c, s) get the case and the statics of its run.
template <class Template, class Patch, class Reference>
void check_template(uint64_t seed, const Patch& patch, const Reference& reference) {
  const auto cases = make_cases(seed);
  m::wqe_bb slot;
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto& s = cases[i - i % kReprefill];  // the statics of this run of cases
    if (i % kReprefill == 0) {
      poison(&slot, sizeof slot);
      Template::prefill(slot, m::wqe_static{s.qpn, s.lkey, s.rkey, s.flags});
    }
    patch(slot, c);
    ref_wqe ref;
    reference(ref, c, s);
    ASSERT_TRUE(same_bytes(&slot, ref.bytes, sizeof slot, c));
  }
}

template <class Template> void check_rdma(uint8_t opcode, uint64_t seed) {
  check_template<Template>(
      seed, [](m::wqe_bb& slot, const wqe_case& c) { Template::patch(slot, c.idx, c.laddr, c.raddr, c.len); },
      [opcode](ref_wqe& ref, const wqe_case& c, const wqe_case& s) {
        ref_rdma(ref, 0, opcode, c.idx, s.qpn, s.flags, s.lkey, s.rkey, c.laddr, c.raddr, c.len);
      });
}
TEST(Mlx5Wqe, RdmaWrite) { check_rdma<m::rdma_write>(MLX5_OPCODE_RDMA_WRITE, 3); }
TEST(Mlx5Wqe, RdmaRead) { check_rdma<m::rdma_read>(MLX5_OPCODE_RDMA_READ, 4); }

TEST(Mlx5Wqe, InlineWrite) {
  static_assert(m::inline_write::max_len == 28);
  const auto cases = make_cases(5);
  m::wqe_bb slot;
  uint32_t prev_len = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto& s = cases[i - i % kReprefill];
    // Every length 0..max_len in turn, so each appears hundreds of times with varied fields.
    const uint32_t len = static_cast<uint32_t>(i % (m::inline_write::max_len + 1));
    unsigned char payload[m::inline_write::max_len];
    for (uint32_t k = 0; k < len; ++k) payload[k] = static_cast<unsigned char>(c.a >> (8 * (k % 8))) ^ static_cast<unsigned char>(k);
    const bool fresh = i % kReprefill == 0;
    if (fresh) {
      poison(&slot, sizeof slot);
      m::inline_write::prefill(slot, m::wqe_static{s.qpn, s.lkey, s.rkey, s.flags});
    }
    m::inline_write::patch(slot, c.idx, c.raddr, payload, len);
    ref_wqe ref;
    ref_inline(ref, 0, c.idx, s.qpn, s.flags, s.rkey, c.raddr, payload, len);
    // What the NIC reads: ctrl, raddr, and the inline header + payload. Padding after the payload
    // is ignored by the NIC; on reuse it may hold the previous payload, on a fresh slot it is 0.
    const size_t meaningful = len == 0 ? 32 : 32 + 4 + len;
    ASSERT_TRUE(same_bytes(&slot, ref.bytes, meaningful, c)) << " len=" << len;
    if (fresh || prev_len <= len) ASSERT_TRUE(same_bytes(&slot, ref.bytes, sizeof slot, c)) << " len=" << len;
    prev_len = fresh ? len : std::max(prev_len, len);
  }
}

TEST(Mlx5Wqe, FetchAdd64) {
  check_template<m::fetch_add64>(
      6, [](m::wqe_bb& slot, const wqe_case& c) { m::fetch_add64::patch(slot, c.idx, c.laddr, c.raddr, c.a); },
      [](ref_wqe& ref, const wqe_case& c, const wqe_case& s) {
        ref_atomic64(ref, 0, MLX5_OPCODE_ATOMIC_FA, c.idx, s.qpn, s.flags, s.lkey, s.rkey, c.laddr, c.raddr, c.a, 0);
      });
}

TEST(Mlx5Wqe, CompareSwap64) {
  check_template<m::compare_swap64>(
      7, [](m::wqe_bb& slot, const wqe_case& c) { m::compare_swap64::patch(slot, c.idx, c.laddr, c.raddr, /*compare*/ c.b, /*swap*/ c.a); },
      [](ref_wqe& ref, const wqe_case& c, const wqe_case& s) {
        ref_atomic64(ref, 0, MLX5_OPCODE_ATOMIC_CS, c.idx, s.qpn, s.flags, s.lkey, s.rkey, c.laddr, c.raddr, c.a, c.b);
      });
}

TEST(Mlx5Wqe, FetchAdd32Masked) {
  check_template<m::fetch_add32>(
      8, [](m::wqe_bb& slot, const wqe_case& c) { m::fetch_add32::patch(slot, c.idx, c.laddr, c.raddr, static_cast<uint32_t>(c.a)); },
      [](ref_wqe& ref, const wqe_case& c, const wqe_case& s) {
        ref_atomic32(ref, MLX5_OPCODE_ATOMIC_MASKED_FA, c.idx, s.qpn, s.flags, s.lkey, s.rkey, c.laddr, c.raddr,
                     static_cast<uint32_t>(c.a), 0);
      });
}

TEST(Mlx5Wqe, CompareSwap32Masked) {
  check_template<m::compare_swap32>(
      9,
      [](m::wqe_bb& slot, const wqe_case& c) {
        m::compare_swap32::patch(slot, c.idx, c.laddr, c.raddr, static_cast<uint32_t>(c.b), static_cast<uint32_t>(c.a));
      },
      [](ref_wqe& ref, const wqe_case& c, const wqe_case& s) {
        ref_atomic32(ref, MLX5_OPCODE_ATOMIC_MASKED_CS, c.idx, s.qpn, s.flags, s.lkey, s.rkey, c.laddr, c.raddr,
                     static_cast<uint32_t>(c.a), static_cast<uint32_t>(c.b));
      });
}

TEST(Mlx5Wqe, Swap32Masked) {
  check_template<m::swap32>(
      16, [](m::wqe_bb& slot, const wqe_case& c) { m::swap32::patch(slot, c.idx, c.laddr, c.raddr, static_cast<uint32_t>(c.a)); },
      [](ref_wqe& ref, const wqe_case& c, const wqe_case& s) {
        ref_atomic32(ref, MLX5_OPCODE_ATOMIC_MASKED_CS, c.idx, s.qpn, s.flags, s.lkey, s.rkey, c.laddr, c.raddr,
                     static_cast<uint32_t>(c.a), /*compare*/ 0, /*compare mask*/ 0);
      });
}

// put_signal: the write in the slot of idx, the signal (fence mode MLX5_WQE_CTRL_FENCE, or
// strong ordering) in the slot of idx + 1, which wraps 0xffff -> 0.
void check_put_signal(m::signal_kind kind, uint8_t fm, uint64_t seed) {
  const auto cases = make_cases(seed);
  m::wqe_bb slots[2];
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto& s = cases[i - i % kReprefill];
    const uint32_t sig_lkey = ~s.lkey;
    const uint8_t put_flags = static_cast<uint8_t>(s.flags & ~MLX5_WQE_CTRL_CQ_UPDATE);
    const uint8_t sig_flags = static_cast<uint8_t>((s.flags & ~(7 << 5)) | fm);
    if (i % kReprefill == 0) {
      poison(slots, sizeof slots);
      m::put_signal::prefill(slots[0], slots[1], m::wqe_static{s.qpn, s.lkey, s.rkey, put_flags},
                             m::wqe_static{s.qpn, sig_lkey, s.rkey, s.flags}, kind, fm);
    }
    const uint64_t sig_raddr = c.raddr ^ 0x5555;
    const uint64_t fetch = c.laddr ^ 0xaaaa;
    m::put_signal::patch(slots[0], slots[1], c.idx, kind, c.laddr, c.raddr, c.len, sig_raddr, c.a, fetch);
    ref_wqe ref;
    ref_rdma(ref, 0, MLX5_OPCODE_RDMA_WRITE, c.idx, s.qpn, put_flags, s.lkey, s.rkey, c.laddr, c.raddr, c.len);
    const auto next = static_cast<uint16_t>(c.idx + 1);
    if (kind == m::signal_kind::set) {
      ref_inline(ref, 1, next, s.qpn, sig_flags, s.rkey, sig_raddr, &c.a, 8);
    } else {
      ref_atomic64(ref, 1, MLX5_OPCODE_ATOMIC_FA, next, s.qpn, sig_flags, sig_lkey, s.rkey, fetch, sig_raddr, c.a, 0);
    }
    ASSERT_TRUE(same_bytes(slots, ref.bytes, sizeof slots, c));
  }
}
TEST(Mlx5Wqe, PutSignalSet) { check_put_signal(m::signal_kind::set, MLX5_WQE_CTRL_FENCE, 10); }
TEST(Mlx5Wqe, PutSignalAdd) { check_put_signal(m::signal_kind::add, MLX5_WQE_CTRL_FENCE, 11); }
TEST(Mlx5Wqe, PutSignalStrongOrdering) { check_put_signal(m::signal_kind::add, m::ctrl_flags::fm_strong_ordering, 12); }

TEST(Mlx5Doorbell, Records) {
  // rdma-core: qp->db[MLX5_SND_DBR] = htobe32(cur_post & 0xffff);
  //            cq->dbrec[MLX5_CQ_SET_CI] = htobe32(cons_index & 0xffffff).
  std::mt19937_64 rng(13);
  std::vector<uint32_t> values{0, 1, 0xffff, 0x10000, 0x10001, 0xffffff, 0x1000000, 0xffffffffu};
  for (int i = 0; i < 100000; ++i) values.push_back(static_cast<uint32_t>(rng()));
  for (uint32_t v : values) {
    ASSERT_EQ(m::sq_dbrec_be(v), htobe32(v & 0xffff)) << v;
    ASSERT_EQ(m::cq_dbrec_be(v), htobe32(v & 0xffffff)) << v;
  }
  EXPECT_EQ(m::slot_of(0x10005, 4), 5u);
  EXPECT_EQ(m::slot_of(0xffff, 8), 0xffu);
}

TEST(Mlx5Doorbell, MatchesPostedWqe) {
  // The ringing thread computes the doorbell from the fields; it must equal the first 8 bytes of
  // the WQE the template built (what rdma-core stores to the BlueFlame register).
  for (const auto& c : make_cases(14)) {
    m::wqe_bb slot;
    m::rdma_write::prefill(slot, m::wqe_static{c.qpn, c.lkey, c.rkey, c.flags});
    m::rdma_write::patch(slot, c.idx, c.laddr, c.raddr, c.len);
    uint64_t first8;
    std::memcpy(&first8, &slot, 8);
    ASSERT_EQ(m::uar_doorbell(0, c.idx, MLX5_OPCODE_RDMA_WRITE, c.qpn, m::rdma_write::ds), first8) << describe(c);
    ASSERT_EQ(m::uar_doorbell(slot.ctrl), first8) << describe(c);
  }
}

// ---- CQEs -----------------------------------------------------------------------------------------

// rdma-core's get_sw_cqe for a CQ of n entries.
bool ref_sw_owned(uint8_t op_own, uint32_t ci, uint32_t n) {
  return (op_own >> 4) != MLX5_CQE_INVALID && !((op_own & MLX5_CQE_OWNER_MASK) ^ !!(ci & n));
}

TEST(Mlx5Cqe, OwnerBitBothPhases) {
  for (unsigned log_size : {0u, 1u, 4u, 10u, 15u}) {
    const uint32_t n = 1u << log_size;
    for (uint32_t ci : {0u, 1u, n - 1, n, n + 1, 2 * n - 1, 2 * n, 3 * n + 1, 0xffffffffu - n, 0xffffffffu}) {
      for (unsigned op_own = 0; op_own < 256; ++op_own) {
        ASSERT_EQ(m::cqe_ready(static_cast<uint8_t>(op_own), ci, log_size),
                  ref_sw_owned(static_cast<uint8_t>(op_own), ci, n))
            << "log_size " << log_size << " ci " << ci << " op_own " << op_own;
      }
    }
    // First pass: hardware writes owner 0; second pass owner 1; a fresh (INVALID) entry never.
    EXPECT_TRUE(m::cqe_ready(MLX5_CQE_REQ << 4 | 0, 0, log_size));
    EXPECT_FALSE(m::cqe_ready(MLX5_CQE_REQ << 4 | 1, 0, log_size));
    EXPECT_TRUE(m::cqe_ready(MLX5_CQE_REQ << 4 | 1, n, log_size));
    EXPECT_FALSE(m::cqe_ready(MLX5_CQE_REQ << 4 | 0, n, log_size));
    EXPECT_FALSE(m::cqe_ready(MLX5_CQE_INVALID << 4 | 0, 0, log_size));
    EXPECT_FALSE(m::cqe_ready(MLX5_CQE_INVALID << 4 | 1, n, log_size));
  }
}

TEST(Mlx5Cqe, DecodeSuccess) {
  std::mt19937_64 rng(15);
  for (int i = 0; i < 20000; ++i) {
    mlx5_cqe64 ref;
    for (auto& b : reinterpret_cast<unsigned char(&)[64]>(ref)) b = static_cast<unsigned char>(rng());
    const uint8_t op = (i % 2) ? MLX5_CQE_REQ : static_cast<uint8_t>(rng() % 13);  // 0..12: no error opcodes
    const uint16_t wqe = i < 4 ? static_cast<uint16_t>(0xfffe + i) : static_cast<uint16_t>(rng());
    const uint32_t qpn = static_cast<uint32_t>(rng()) & 0xffffff;
    const uint32_t bytes = static_cast<uint32_t>(rng());
    ref.op_own = static_cast<uint8_t>((op << 4) | (ref.op_own & 0x0f));
    ref.wqe_counter = htobe16(wqe);
    ref.sop_drop_qpn = htobe32((static_cast<uint32_t>(rng()) & 0xff000000u) | qpn);
    ref.byte_cnt = htobe32(bytes);
    m::cqe64 ours;
    std::memcpy(&ours, &ref, sizeof ours);
    const auto info = m::decode_cqe(ours);
    ASSERT_EQ(info.opcode, mlx5dv_get_cqe_opcode(&ref));
    ASSERT_EQ(info.owner, mlx5dv_get_cqe_owner(&ref));
    ASSERT_EQ(info.format, mlx5dv_get_cqe_format(&ref));
    ASSERT_EQ(info.wqe_counter, wqe);
    ASSERT_EQ(info.qpn, qpn);
    ASSERT_EQ(info.byte_count, bytes);
    ASSERT_FALSE(info.is_error());
    ASSERT_EQ(info.syndrome, 0);
    ASSERT_EQ(info.vendor_syndrome, 0);
  }
}

TEST(Mlx5Cqe, DecodeErrors) {
  const uint8_t syndromes[] = {
      MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,   MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
      MLX5_CQE_SYNDROME_WR_FLUSH_ERR,       MLX5_CQE_SYNDROME_MW_BIND_ERR,          MLX5_CQE_SYNDROME_BAD_RESP_ERR,
      MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR,   MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
      MLX5_CQE_SYNDROME_REMOTE_OP_ERR,      MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
      MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR,  MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR};
  const uint8_t wqe_ops[] = {MLX5_OPCODE_RDMA_WRITE, MLX5_OPCODE_RDMA_READ, MLX5_OPCODE_ATOMIC_CS,
                             MLX5_OPCODE_ATOMIC_FA, MLX5_OPCODE_ATOMIC_MASKED_CS, MLX5_OPCODE_ATOMIC_MASKED_FA};
  int n = 0;
  for (uint8_t cqe_op : {uint8_t{MLX5_CQE_REQ_ERR}, uint8_t{MLX5_CQE_RESP_ERR}}) {
    for (uint8_t owner : {0, 1}) {
      for (uint8_t syn : syndromes) {
        for (uint8_t wop : wqe_ops) {
          for (uint32_t qpn : {0u, 0x1234u, 0xffffffu}) {
            for (uint16_t wqe : {uint16_t{0}, uint16_t{17}, uint16_t{0xffff}}) {
              mlx5_err_cqe ref;
              std::memset(&ref, 0x5a, sizeof ref);  // reserved bytes are not zero in real CQEs either
              ref.syndrome = syn;
              ref.vendor_err_synd = static_cast<uint8_t>(0x80 | syn);
              ref.s_wqe_opcode_qpn = htobe32(uint32_t{wop} << 24 | qpn);
              ref.wqe_counter = htobe16(wqe);
              ref.op_own = static_cast<uint8_t>(cqe_op << 4 | owner);
              m::cqe64 ours;
              std::memcpy(&ours, &ref, sizeof ours);
              const auto info = m::decode_cqe(ours);
              ASSERT_TRUE(info.is_error());
              ASSERT_EQ(info.opcode, cqe_op);
              ASSERT_EQ(info.owner, owner);
              ASSERT_EQ(info.syndrome, syn);
              ASSERT_EQ(info.vendor_syndrome, 0x80 | syn);
              ASSERT_EQ(info.wqe_opcode, wop);
              ASSERT_EQ(info.qpn, qpn);
              ASSERT_EQ(info.wqe_counter, wqe);
              ASSERT_STRNE(m::cqe_syndrome_name(syn), "UNKNOWN_SYNDROME");
              ASSERT_STRNE(m::wqe_opcode_name(wop), "UNKNOWN_OPCODE");
              ++n;
            }
          }
        }
      }
    }
  }
  RecordProperty("cases", n);
}

TEST(Mlx5Cqe, ToString) {
  mlx5_err_cqe err{};
  err.syndrome = MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;
  err.vendor_err_synd = 0x88;
  err.s_wqe_opcode_qpn = htobe32(uint32_t{MLX5_OPCODE_RDMA_WRITE} << 24 | 0x1234);
  err.wqe_counter = htobe16(17);
  err.op_own = MLX5_CQE_REQ_ERR << 4 | 1;
  m::cqe64 ours;
  std::memcpy(&ours, &err, sizeof ours);
  EXPECT_EQ(m::to_string(m::decode_cqe(ours)),
            "REQ_ERR qpn 0x1234 wqe 17 opcode RDMA_WRITE syndrome REMOTE_ACCESS_ERR (0x13) vendor 0x88");

  mlx5_cqe64 ok{};
  ok.op_own = MLX5_CQE_REQ << 4;
  ok.wqe_counter = htobe16(65535);
  ok.sop_drop_qpn = htobe32(0xabcdef);
  ok.byte_cnt = htobe32(8);
  std::memcpy(&ours, &ok, sizeof ours);
  EXPECT_EQ(m::to_string(m::decode_cqe(ours)), "REQ qpn 0xabcdef wqe 65535 bytes 8");
}

}  // namespace
