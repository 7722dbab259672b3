// The software NIC model's engine (test-only, never linked into the library): executes the mlx5
// send WQEs of RC QPs as a ConnectX NIC would and writes their CQEs. The same code serves the
// rings from a GPU kernel (nic_model.cpp) and runs on the CPU in the unit test
// (tests/unit/nic_model_engine_test.cpp): every memory access goes through a policy `Mem`:
//
//   static T    load(const T*)              T = u8, u16, u32, u64: a strong relaxed load (never a
//                                           stale cache line: the SQ and the heaps are written
//                                           by other agents)
//   static u32  load_acquire(const u32*)    the doorbell record
//   static void store(T*, T)                a strong relaxed store
//   static T    fetch_add(T*, T)            T = u32, u64: atomic, returns the old value
//   static T    cas(T*, T expected, T desired)  atomic, returns the old value
//   static void fence()                     sequentially consistent, system scope
//
// One WQE in three phases, so that a warp can share the data movement:
//   begin  (one thread)   poll the doorbell record; read, check and decode the next WQE -> work
//   move   (every thread) the copy of an RDMA write / read, split by rank over `count` threads;
//                         each thread fences after its part
//   finish (one thread)   the atomic, the fetched value, a fence, the CQE; the QP moves on
// step() runs the three on one thread.
//
// Semantics (tests/nicmodel/README.md has the list): WQEs of a QP run strictly in order, each
// complete (memory effects fenced at system scope) before its CQE and before the next WQE, so
// every fence mode holds. Memory values and fetched results are little-endian (the "host
// endianness" atomic mode); WQE operands are big-endian. Checks: a bad WQE index, QPN, opcode,
// opmod or DS -> local_qp_op_err; bad byte counts -> local_length_err; lkey / local range ->
// local_prot_err; rkey (a region of the connected peer) / remote range -> remote_access_err; a
// misaligned remote atomic -> remote_inval_req_err. After an error the QP is in error: every later
// WQE completes with wr_flush_err (a CQE each, signaled or not) and has no effect.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/platform/host_device.hpp"
#include "gio/templates/endian.hpp"
#include "gio/templates/mlx5_wire.hpp"

namespace gio_test::nicmodel {

namespace mlx5 = gio::templates::mlx5;

// vendor_err_synd of the model's error CQEs: which check failed (a real NIC's are opaque).
namespace vendor_syndrome {
inline constexpr std::uint8_t bad_lkey = 0x01;
inline constexpr std::uint8_t local_range = 0x02;
inline constexpr std::uint8_t bad_rkey = 0x03;
inline constexpr std::uint8_t remote_range = 0x04;
inline constexpr std::uint8_t bad_opcode = 0x05;
inline constexpr std::uint8_t bad_opmod = 0x06;
inline constexpr std::uint8_t bad_wqe_index = 0x07;
inline constexpr std::uint8_t bad_qpn = 0x08;
inline constexpr std::uint8_t bad_ds = 0x09;
inline constexpr std::uint8_t bad_byte_count = 0x0a;
inline constexpr std::uint8_t field_boundary = 0x0b;  // masked fetch-add with more than one field
inline constexpr std::uint8_t misaligned_atomic = 0x0c;
inline constexpr std::uint8_t injected = 0x0d;         // GIO_NIC_MODEL_FAULT
inline constexpr std::uint8_t flushed = 0x00;
}  // namespace vendor_syndrome

// A registered range as this PE's engine reaches it.
struct region {
  std::uint64_t address;  // byte 0 as its owner registered it (the address WQEs name)
  std::uint64_t bytes;
  std::uint64_t mapped;   // byte 0 in this process (the owner's own pointer, or an IPC mapping)
  std::uint32_t key;      // lkey == rkey
  std::int32_t pe;        // owner
  std::uint32_t hdp;      // nonzero: an HDP flush register (engine_view::hdp_reorder)
  std::uint32_t pad;
};

// One QP's rings, read-only while the engine runs.
struct qp_desc {
  const mlx5::wqe_bb* sq;      // 2^log_sq basic blocks
  const std::uint32_t* dbrec;  // [snd_dbr]: be32 producer index (low 16 bits)
  const std::uint64_t* uar;    // the doorbell register's last value (0: never rung)
  mlx5::cqe64* cq;             // 2^log_cq entries
  const std::uint32_t* cq_dbrec;  // [cq_set_ci]: be32 consumer index (24 bits)
  std::uint32_t log_sq;
  std::uint32_t log_cq;
  std::uint32_t qpn;
  std::int32_t peer_pe;        // -1: not connected (every remote access fails)
};

// The engine's own per-QP state, kept between kernel launches (device memory, zero at start).
struct qp_state {
  std::uint32_t sq_ci;       // WQEs taken (free-running; the ring compares the low 16 bits)
  std::uint32_t cq_pi;       // CQEs written (free-running)
  std::uint32_t error;       // syndrome of the error that stopped the QP, 0 while healthy
  std::uint32_t cq_stalled;  // nonzero while a WQE waits for a free CQE
  std::uint32_t rung;        // low 16 bits of the producer index the last doorbell read allows
  // engine_view::hdp_reorder: the inline write the peer's HDP still holds (held_len 0: none), the
  // polls this QP has found no work since, and the writes that have passed the held one.
  std::uint32_t held_len;
  std::uint32_t idle;
  std::uint64_t held_dst;
  std::uint32_t passed;
  std::uint32_t pad;
  std::uint8_t held_data[32];
};

struct engine_view {
  const qp_desc* qps;
  qp_state* states;
  std::uint32_t n_qps;
  std::uint32_t n_regions;
  const region* regions;        // every PE's registered regions
  std::uint32_t* executed;      // WQEs taken by this PE's engine while a fault is armed
  std::uint32_t* stall_report;  // optional: set to qp + 1 when a QP starts waiting for CQ space
  std::int32_t my_pe;           // the PE this engine serves (lkeys name its regions)
  std::uint32_t fault_at;       // 0, or the N-th taken WQE (from 1, all QPs) fails
  std::uint8_t fault_syndrome;  // its syndrome
  // GIO_NIC_MODEL_HDP=reorder: the peer GPU's HDP (AMD's PCIe write path, GIO §4.2) as the model
  // shows it: an inline write is held back (one per QP), and later inline writes to other bytes
  // land before it; a write to an HDP flush register (a region with `hdp` set), a write to the held
  // bytes, any other WQE, hdp_drain_after writes passing it or as many polls without work let it
  // land. So data followed by a flag with no flush between them is seen flag first, for a while,
  // and a quiet without a flush may return before its last write has landed.
  std::uint8_t hdp_reorder;
  std::uint8_t pad[6];
  // nullptr: atomics are atomic RMWs. Else (GIO_NIC_MODEL_ATOMICS=pcie) the job's one lock word:
  // an atomic is a read and, a window later, a write of the target, atomic with respect to every
  // engine's atomics (they all hold this lock) but not to the GPUs' own atomics, as a real NIC's
  // atomics are executed as a PCIe read and write of GPU memory.
  std::uint64_t* atomic_lock;
};

namespace action {
inline constexpr std::uint8_t none = 0;
inline constexpr std::uint8_t copy = 1;          // len bytes src -> dst (data pointer segment)
inline constexpr std::uint8_t write_inline = 2;  // len bytes work::inline_data -> dst
inline constexpr std::uint8_t fetch_add64 = 3;
inline constexpr std::uint8_t cas64 = 4;
inline constexpr std::uint8_t fetch_add32 = 5;
inline constexpr std::uint8_t masked_cs32 = 6;
inline constexpr std::uint8_t write_held = 7;  // an inline write through the modelled HDP (finish())
}  // namespace action

// A decoded WQE: what begin() found and the other phases do.
struct work {
  std::uint64_t dst;       // copy / inline: destination; atomics: the target word (mapped)
  std::uint64_t src;       // copy: source (mapped)
  std::uint64_t fetch;     // atomics: where the old value lands (local)
  std::uint64_t operand;   // fetch-add: addend; compare-swap: swap value
  std::uint64_t compare;   // compare-swap: compare value
  std::uint32_t swap_mask;
  std::uint32_t compare_mask;
  std::uint32_t len;       // bytes copied, or the operand size of an atomic
  std::uint32_t byte_cnt;  // the success CQE's byte count
  std::uint8_t act;        // action::*
  std::uint8_t wqe_opcode;
  std::uint16_t wqe_counter;
  std::uint8_t cqe;        // nonzero: write a CQE (signaled, or any error)
  std::uint8_t syndrome;   // nonzero: an error CQE with this syndrome
  std::uint8_t vendor;     // vendor_syndrome::*
  std::uint8_t hdp_flush;  // an inline write to an HDP flush register
  std::uint8_t inline_data[32];
};

namespace detail {

GIO_HOST_DEVICE_INLINE bool in_region(const region& r, std::uint64_t addr, std::uint64_t len) {
  return addr >= r.address && len <= r.bytes && addr - r.address <= r.bytes - len;
}

GIO_HOST_DEVICE_INLINE const region* find_region(const engine_view& v, std::uint32_t key, std::int32_t pe) {
  for (std::uint32_t i = 0; i < v.n_regions; ++i) {
    if (v.regions[i].key == key && v.regions[i].pe == pe) return &v.regions[i];
  }
  return nullptr;
}

GIO_HOST_DEVICE_INLINE void fail(work& w, std::uint8_t syndrome, std::uint8_t vendor) {
  w.act = action::none;
  w.syndrome = syndrome;
  w.vendor = vendor;
  w.cqe = 1;
}

// The local side of a data segment: lkey names a region of this PE and [addr, addr + len) is in it.
GIO_HOST_DEVICE_INLINE bool local_ptr(const engine_view& v, std::uint32_t lkey, std::uint64_t addr,
                                      std::uint64_t len, work& w, std::uint64_t* out) {
  const region* r = find_region(v, lkey, v.my_pe);
  if (r == nullptr) {
    fail(w, mlx5::cqe_syndrome::local_prot_err, vendor_syndrome::bad_lkey);
    return false;
  }
  if (!in_region(*r, addr, len)) {
    fail(w, mlx5::cqe_syndrome::local_prot_err, vendor_syndrome::local_range);
    return false;
  }
  *out = r->mapped + (addr - r->address);
  return true;
}

// The remote side: rkey names a region of the QP's peer and [raddr, raddr + len) is in it.
// Returns that region, or nullptr (the WQE failed).
GIO_HOST_DEVICE_INLINE const region* remote_ptr(const engine_view& v, std::int32_t peer, std::uint32_t rkey,
                                                std::uint64_t raddr, std::uint64_t len, work& w, std::uint64_t* out) {
  const region* r = peer < 0 ? nullptr : find_region(v, rkey, peer);
  if (r == nullptr) {
    fail(w, mlx5::cqe_syndrome::remote_access_err, vendor_syndrome::bad_rkey);
    return nullptr;
  }
  if (!in_region(*r, raddr, len)) {
    fail(w, mlx5::cqe_syndrome::remote_access_err, vendor_syndrome::remote_range);
    return nullptr;
  }
  *out = r->mapped + (raddr - r->address);
  return r;
}

GIO_HOST_DEVICE_INLINE std::uint32_t be32_at(const unsigned char* wqe, unsigned off) {
  std::uint32_t v;
  __builtin_memcpy(&v, wqe + off, sizeof(v));
  return gio::templates::from_be32(v);
}
GIO_HOST_DEVICE_INLINE std::uint64_t be64_at(const unsigned char* wqe, unsigned off) {
  std::uint64_t v;
  __builtin_memcpy(&v, wqe + off, sizeof(v));
  return gio::templates::from_be64(v);
}

inline constexpr unsigned raddr_off = 16;   // raddr segment
inline constexpr unsigned second_off = 32;  // data / inline / atomic operand segment
inline constexpr unsigned third_off = 48;   // an atomic's data segment

}  // namespace detail

// Decodes and checks the WQE `wqe` taken at consumer index `ci` of a healthy QP. Pure: no memory
// access beyond the tables, so begin() may decode a WQE again after waiting for CQ space.
GIO_HOST_DEVICE_INLINE work decode(const engine_view& v, const qp_desc& d, std::uint32_t ci,
                                   const unsigned char* wqe) {
  using namespace detail;
  namespace syn = mlx5::cqe_syndrome;
  work w{};
  const std::uint32_t opmod_idx_opcode = be32_at(wqe, 0);
  const std::uint32_t qpn_ds = be32_at(wqe, 4);
  const auto op = static_cast<std::uint8_t>(opmod_idx_opcode & 0xffu);
  const auto idx = static_cast<std::uint16_t>((opmod_idx_opcode >> 8) & 0xffffu);
  const auto opmod = static_cast<std::uint8_t>(opmod_idx_opcode >> 24);
  const std::uint32_t qpn = qpn_ds >> 8;
  const std::uint32_t ds = qpn_ds & 0xffu;
  const std::uint8_t fm_ce_se = wqe[offsetof(mlx5::ctrl_seg, fm_ce_se)];
  w.wqe_opcode = op;
  w.wqe_counter = static_cast<std::uint16_t>(ci & 0xffffu);
  w.cqe = (fm_ce_se & mlx5::ctrl_flags::cq_update) != 0 ? 1 : 0;  // CQ_UPDATE, with or without EQE

  if (idx != w.wqe_counter) {
    fail(w, syn::local_qp_op_err, vendor_syndrome::bad_wqe_index);
    return w;
  }
  if (qpn != d.qpn) {
    fail(w, syn::local_qp_op_err, vendor_syndrome::bad_qpn);
    return w;
  }
  // gio's WQEs are single basic blocks: DS 1..4.
  if (ds == 0 || ds > mlx5::send_wqe_bb / mlx5::send_wqe_ds) {
    fail(w, syn::local_qp_op_err, vendor_syndrome::bad_ds);
    return w;
  }
  const std::uint64_t raddr = be64_at(wqe, raddr_off);
  const std::uint32_t rkey = be32_at(wqe, raddr_off + 8);

  switch (op) {
    case mlx5::opcode::nop: {
      if (opmod != mlx5::opmod::none) fail(w, syn::local_qp_op_err, vendor_syndrome::bad_opmod);
      return w;
    }
    case mlx5::opcode::rdma_write: {
      if (opmod != mlx5::opmod::none) {
        fail(w, syn::local_qp_op_err, vendor_syndrome::bad_opmod);
        return w;
      }
      if (ds < 2) {
        fail(w, syn::local_qp_op_err, vendor_syndrome::bad_ds);
        return w;
      }
      if (ds == 2) return w;  // a zero-length inline write: no data segment at all
      const std::uint32_t byte_count = be32_at(wqe, second_off);
      if ((byte_count & mlx5::inline_seg) != 0) {
        const std::uint32_t len = byte_count & 0x3ffu;
        // The inline header and data must fit the WQE's DS and its one basic block.
        if (sizeof(mlx5::inl_data_seg) + len > (ds - 2) * mlx5::send_wqe_ds) {
          fail(w, syn::local_length_err, vendor_syndrome::bad_byte_count);
          return w;
        }
        if (len == 0) return w;  // zero length: the rkey is not checked (IB)
        std::uint64_t dst = 0;
        const region* target = remote_ptr(v, d.peer_pe, rkey, raddr, len, w, &dst);
        if (target == nullptr) return w;
        for (std::uint32_t i = 0; i < len; ++i) w.inline_data[i] = wqe[second_off + sizeof(mlx5::inl_data_seg) + i];
        w.act = action::write_inline;
        w.hdp_flush = target->hdp != 0 ? 1 : 0;
        w.dst = dst;
        w.len = len;
        return w;
      }
      if (ds != 3) {  // ctrl, raddr, one data segment
        fail(w, syn::local_qp_op_err, vendor_syndrome::bad_ds);
        return w;
      }
      const std::uint32_t len = byte_count;
      if (len == 0) return w;  // nothing moves; neither key is checked (IB)
      const std::uint32_t lkey = be32_at(wqe, second_off + 4);
      const std::uint64_t laddr = be64_at(wqe, second_off + 8);
      std::uint64_t src = 0, dst = 0;
      if (!local_ptr(v, lkey, laddr, len, w, &src)) return w;
      if (!remote_ptr(v, d.peer_pe, rkey, raddr, len, w, &dst)) return w;
      w.act = action::copy;
      w.src = src;
      w.dst = dst;
      w.len = len;
      return w;
    }
    case mlx5::opcode::rdma_read: {
      if (opmod != mlx5::opmod::none) {
        fail(w, syn::local_qp_op_err, vendor_syndrome::bad_opmod);
        return w;
      }
      if (ds != 3) {
        fail(w, syn::local_qp_op_err, vendor_syndrome::bad_ds);
        return w;
      }
      const std::uint32_t len = be32_at(wqe, second_off);
      if ((len & mlx5::inline_seg) != 0) {  // no inline reads
        fail(w, syn::local_length_err, vendor_syndrome::bad_byte_count);
        return w;
      }
      w.byte_cnt = len;
      if (len == 0) return w;
      const std::uint32_t lkey = be32_at(wqe, second_off + 4);
      const std::uint64_t laddr = be64_at(wqe, second_off + 8);
      std::uint64_t src = 0, dst = 0;
      if (!local_ptr(v, lkey, laddr, len, w, &dst)) return w;
      if (!remote_ptr(v, d.peer_pe, rkey, raddr, len, w, &src)) return w;
      w.act = action::copy;
      w.src = src;
      w.dst = dst;
      w.len = len;
      return w;
    }
    case mlx5::opcode::atomic_fa:
    case mlx5::opcode::atomic_cs:
    case mlx5::opcode::atomic_masked_fa:
    case mlx5::opcode::atomic_masked_cs: {
      const bool masked = op == mlx5::opcode::atomic_masked_fa || op == mlx5::opcode::atomic_masked_cs;
      // 8-byte masked atomics (opmod 0x09) need two basic blocks for compare-swap: not modelled.
      if (opmod != (masked ? mlx5::opmod::ext_atomic_4byte : mlx5::opmod::none)) {
        fail(w, syn::local_qp_op_err, vendor_syndrome::bad_opmod);
        return w;
      }
      if (ds != 4) {  // ctrl, raddr, operands, data segment
        fail(w, syn::local_qp_op_err, vendor_syndrome::bad_ds);
        return w;
      }
      const std::uint32_t bytes = masked ? 4u : 8u;
      if (be32_at(wqe, third_off) != bytes) {
        fail(w, syn::local_length_err, vendor_syndrome::bad_byte_count);
        return w;
      }
      if (op == mlx5::opcode::atomic_masked_fa && be32_at(wqe, second_off + 4) != 0) {
        fail(w, syn::local_qp_op_err, vendor_syndrome::field_boundary);
        return w;
      }
      const std::uint32_t lkey = be32_at(wqe, third_off + 4);
      const std::uint64_t laddr = be64_at(wqe, third_off + 8);
      std::uint64_t fetch = 0, target = 0;
      if (!local_ptr(v, lkey, laddr, bytes, w, &fetch)) return w;
      if (!remote_ptr(v, d.peer_pe, rkey, raddr, bytes, w, &target)) return w;
      if ((raddr & (bytes - 1)) != 0 || (target & (bytes - 1)) != 0) {
        fail(w, syn::remote_inval_req_err, vendor_syndrome::misaligned_atomic);
        return w;
      }
      w.dst = target;
      w.fetch = fetch;
      w.len = bytes;
      w.byte_cnt = bytes;
      if (op == mlx5::opcode::atomic_fa) {
        w.act = action::fetch_add64;
        w.operand = be64_at(wqe, second_off);
      } else if (op == mlx5::opcode::atomic_cs) {
        w.act = action::cas64;
        w.operand = be64_at(wqe, second_off);
        w.compare = be64_at(wqe, second_off + 8);
      } else if (op == mlx5::opcode::atomic_masked_fa) {
        w.act = action::fetch_add32;
        w.operand = be32_at(wqe, second_off);
      } else {
        w.act = action::masked_cs32;
        w.operand = be32_at(wqe, second_off);
        w.compare = be32_at(wqe, second_off + 4);
        w.swap_mask = be32_at(wqe, second_off + 8);
        w.compare_mask = be32_at(wqe, second_off + 12);
      }
      return w;
    }
    default:
      fail(w, syn::local_qp_op_err, vendor_syndrome::bad_opcode);
      return w;
  }
}

namespace detail {
// Bytes [0, n) of an inline payload to dst (thread `rank` of `count` takes every count-th), fenced.
template <class Mem>
GIO_HOST_DEVICE_INLINE void store_payload(std::uint64_t dst, const std::uint8_t* data, std::uint32_t n, unsigned rank = 0,
                                          unsigned count = 1) {
  for (std::uint32_t i = rank; i < n; i += count) Mem::store(reinterpret_cast<std::uint8_t*>(dst + i), data[i]);
  Mem::fence();
}
// engine_view::hdp_reorder: the held write lands.
template <class Mem> GIO_HOST_DEVICE_INLINE void land_held(qp_state& s) {
  if (s.held_len == 0) return;
  store_payload<Mem>(s.held_dst, s.held_data, s.held_len);
  s.held_len = 0;
}
// An HDP drains by itself: the held write lands after this many polls of its QP in a row that
// found no work (or stalled on the CQ), or after this many writes have passed it.
inline constexpr std::uint32_t hdp_drain_after = 32;
// A poll that found no work (returns false, as begin() does then).
template <class Mem> GIO_HOST_DEVICE_INLINE bool idle_poll(qp_state& s) {
  if (s.held_len != 0 && ++s.idle >= hdp_drain_after) land_held<Mem>(s);
  return false;
}
}  // namespace detail

// The producer index (low 16 bits) a doorbell value allows: one past the WQE its ctrl segment's
// first 8 bytes name; 0 for a register never written (no WQE index 0xffff has been rung then).
GIO_HOST_DEVICE_INLINE std::uint32_t rung_index(std::uint64_t doorbell) {
  if (doorbell == 0) return 0;
  const std::uint32_t opmod_idx_opcode = gio::templates::from_be32(static_cast<std::uint32_t>(doorbell));
  return ((opmod_idx_opcode >> 8) + 1u) & 0xffffu;
}

// Phase 1 (one thread): the next WQE of QP q, if the doorbell record says there is one, a
// doorbell has rung for it, and the CQ has room for the CQE it may need. False: nothing to do now
// (nothing consumed). As on mlx5, a doorbell record that moved without a doorbell runs nothing.
template <class Mem>
GIO_HOST_DEVICE_INLINE bool begin(const engine_view& v, std::uint32_t q, work& w) {
  const qp_desc& d = v.qps[q];
  qp_state& s = v.states[q];
  const std::uint32_t pi = gio::templates::from_be32(Mem::load_acquire(d.dbrec + mlx5::snd_dbr)) & 0xffffu;
  if ((s.sq_ci & 0xffffu) == pi) return detail::idle_poll<Mem>(s);
  if ((s.sq_ci & 0xffffu) == s.rung) {  // the register is read only when the last doorbell is used up
    s.rung = rung_index(Mem::load_acquire(d.uar));
    if ((s.sq_ci & 0xffffu) == s.rung) return detail::idle_poll<Mem>(s);
  }

  // The WQE, read after the acquire of the doorbell record that published it.
  const std::uint32_t slot = s.sq_ci & ((1u << d.log_sq) - 1u);
  const auto* words = reinterpret_cast<const std::uint64_t*>(d.sq + slot);
  std::uint64_t raw[mlx5::send_wqe_bb / sizeof(std::uint64_t)];
  for (unsigned i = 0; i < mlx5::send_wqe_bb / sizeof(std::uint64_t); ++i) raw[i] = Mem::load(words + i);
  const auto* wqe = reinterpret_cast<const unsigned char*>(raw);

  if (s.error != 0) {
    w = work{};
    w.wqe_opcode = wqe[3];
    w.wqe_counter = static_cast<std::uint16_t>(s.sq_ci & 0xffffu);
    detail::fail(w, mlx5::cqe_syndrome::wr_flush_err, vendor_syndrome::flushed);
  } else {
    w = decode(v, d, s.sq_ci, wqe);
  }

  // Room for a CQE: never more than 2^log_cq ahead of the consumer index the CQ doorbell record
  // holds. A WQE that will not write one runs regardless; an armed fault may turn any WQE into an
  // error, so then every WQE waits for room.
  const bool armed = v.fault_at != 0 && s.error == 0 && Mem::load(v.executed) < v.fault_at;
  if (w.cqe != 0 || armed) {
    const std::uint32_t ci = gio::templates::from_be32(Mem::load(d.cq_dbrec + mlx5::cq_set_ci)) & 0xffffffu;
    if (((s.cq_pi - ci) & 0xffffffu) >= (1u << d.log_cq)) {
      if (s.cq_stalled == 0 && v.stall_report != nullptr) Mem::store(v.stall_report, q + 1u);
      s.cq_stalled = 1;
      return detail::idle_poll<Mem>(s);
    }
  }
  s.cq_stalled = 0;

  if (v.fault_at != 0 && s.error == 0) {
    const std::uint32_t n = Mem::fetch_add(v.executed, 1u) + 1u;
    if (n == v.fault_at && w.syndrome == 0) detail::fail(w, v.fault_syndrome, vendor_syndrome::injected);
  }
  s.idle = 0;
  if (v.hdp_reorder != 0) {
    // Only an inline write to other bytes than the held one's passes it; a flush, a read, an
    // atomic, a copy or an error lets the held write land first.
    const bool passes = w.act == action::write_inline && w.hdp_flush == 0 &&
                        (s.held_len == 0 || w.dst + w.len <= s.held_dst || s.held_dst + s.held_len <= w.dst);
    if (passes) w.act = action::write_held;
    else detail::land_held<Mem>(s);
  }
  return true;
}

// Copies bytes [0, n) from src to dst; thread `rank` of `count` takes every count-th unit.
// Aligned 8- (or 4-) byte units where src and dst agree modulo the unit, bytes otherwise.
template <class Mem>
GIO_HOST_DEVICE_INLINE void copy(std::uint64_t dst, std::uint64_t src, std::uint32_t n, unsigned rank, unsigned count) {
  auto bytes = [&](std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t i = from + rank; i < to; i += count) {
      Mem::store(reinterpret_cast<std::uint8_t*>(dst + i), Mem::load(reinterpret_cast<const std::uint8_t*>(src + i)));
    }
  };
  auto units = [&](auto unit_tag, std::uint32_t unit) {
    using U = decltype(unit_tag);
    std::uint32_t head = static_cast<std::uint32_t>((unit - (dst & (unit - 1))) & (unit - 1));
    if (head > n) head = n;
    const std::uint32_t whole = (n - head) / unit;
    bytes(0, head);
    for (std::uint32_t i = rank; i < whole; i += count) {
      const std::uint64_t off = head + std::uint64_t{i} * unit;
      Mem::store(reinterpret_cast<U*>(dst + off), Mem::load(reinterpret_cast<const U*>(src + off)));
    }
    bytes(head + whole * unit, n);
  };
  if (((dst ^ src) & 7u) == 0) {
    units(std::uint64_t{}, 8u);
  } else if (((dst ^ src) & 3u) == 0) {
    units(std::uint32_t{}, 4u);
  } else {
    bytes(0, n);
  }
}

// Phase 2 (every thread of the group, rank of count): the data of a write or read, then a
// system-scope fence so that the group's stores are visible before finish() writes the CQE.
template <class Mem>
GIO_HOST_DEVICE_INLINE void move(const work& w, unsigned rank, unsigned count) {
  if (w.act == action::copy) {
    copy<Mem>(w.dst, w.src, w.len, rank, count);
    Mem::fence();
  } else if (w.act == action::write_inline) {
    detail::store_payload<Mem>(w.dst, w.inline_data, w.len, rank, count);
  }
}

namespace detail {
// The fetched value, little-endian, at a local address of any alignment.
template <class Mem, class T> GIO_HOST_DEVICE_INLINE void store_result(std::uint64_t addr, T value) {
  if ((addr & (sizeof(T) - 1)) == 0) {
    Mem::store(reinterpret_cast<T*>(addr), value);
  } else {
    for (unsigned i = 0; i < sizeof(T); ++i) {
      Mem::store(reinterpret_cast<std::uint8_t*>(addr + i), static_cast<std::uint8_t>(value >> (8 * i)));
    }
  }
}

// The CQE for w at the CQ's producer index: every byte but op_own, a fence, then op_own.
template <class Mem> GIO_HOST_DEVICE_INLINE void write_cqe(const qp_desc& d, qp_state& s, const work& w) {
  using gio::templates::to_be16;
  using gio::templates::to_be32;
  const std::uint32_t owner = (s.cq_pi >> d.log_cq) & 1u;
  std::uint32_t raw[16];
  std::uint8_t op_own = 0;
  if (w.syndrome != 0) {
    mlx5::err_cqe e{};
    e.syndrome = w.syndrome;
    e.vendor_err_synd = w.vendor;
    e.s_wqe_opcode_qpn_be = to_be32((std::uint32_t{w.wqe_opcode} << 24) | (d.qpn & 0xffffffu));
    e.wqe_counter_be = to_be16(w.wqe_counter);
    op_own = static_cast<std::uint8_t>((mlx5::cqe_opcode::req_err << 4) | owner);
    static_assert(sizeof(e) == sizeof(raw));
    __builtin_memcpy(raw, &e, sizeof(raw));
  } else {
    mlx5::cqe64 c{};
    c.byte_cnt_be = to_be32(w.byte_cnt);
    c.sop_drop_qpn_be = to_be32(d.qpn & 0xffffffu);
    c.wqe_counter_be = to_be16(w.wqe_counter);
    op_own = static_cast<std::uint8_t>((mlx5::cqe_opcode::req << 4) | owner);
    static_assert(sizeof(c) == sizeof(raw));
    __builtin_memcpy(raw, &c, sizeof(raw));
  }
  auto* entry = reinterpret_cast<unsigned char*>(d.cq + (s.cq_pi & ((1u << d.log_cq) - 1u)));
  for (unsigned i = 0; i < 15; ++i) Mem::store(reinterpret_cast<std::uint32_t*>(entry) + i, raw[i]);
  const auto* last = reinterpret_cast<const unsigned char*>(&raw[15]);  // wqe_counter, signature, op_own
  std::uint16_t counter;
  __builtin_memcpy(&counter, last, sizeof(counter));
  Mem::store(reinterpret_cast<std::uint16_t*>(entry + 60), counter);
  Mem::store(reinterpret_cast<std::uint8_t*>(entry + 62), last[2]);
  Mem::fence();
  Mem::store(reinterpret_cast<std::uint8_t*>(entry + 63), op_own);
  ++s.cq_pi;
}
}  // namespace detail

// Loads of the target between an atomic's read and its write under GIO_NIC_MODEL_ATOMICS=pcie:
// the window in which a GPU's own atomic on the word is lost.
inline constexpr unsigned pcie_window_loads = 32;

// An atomic as GIO_NIC_MODEL_ATOMICS=pcie executes it (engine_view::atomic_lock): under the
// job's lock, a read, the window, then the write of next(old) unless it equals old (a compare
// that fails writes nothing). Returns the old value.
template <class Mem, class T, class Next>
GIO_HOST_DEVICE_INLINE T locked_rmw(const engine_view& v, T* target, Next next) {
  while (Mem::cas(v.atomic_lock, std::uint64_t{0}, std::uint64_t{1}) != 0) {
  }
  const T old = Mem::load(target);
  for (unsigned i = 0; i < pcie_window_loads; ++i) (void)Mem::load(target);
  const T value = next(old);
  if (value != old) Mem::store(target, value);
  Mem::fence();
  Mem::store(v.atomic_lock, std::uint64_t{0});
  return old;
}

// Phase 3 (one thread, after every thread's move): the atomic and its fetched value, a
// system-scope fence, the CQE; the QP moves to its next WQE.
template <class Mem>
GIO_HOST_DEVICE_INLINE void finish(const engine_view& v, std::uint32_t q, const work& w) {
  const qp_desc& d = v.qps[q];
  qp_state& s = v.states[q];
  const bool locked = v.atomic_lock != nullptr;
  switch (w.act) {
    case action::fetch_add64: {
      auto* target = reinterpret_cast<std::uint64_t*>(w.dst);
      const auto add = [&](std::uint64_t old) { return old + w.operand; };
      detail::store_result<Mem>(w.fetch, locked ? locked_rmw<Mem>(v, target, add) : Mem::fetch_add(target, w.operand));
      break;
    }
    case action::cas64: {
      auto* target = reinterpret_cast<std::uint64_t*>(w.dst);
      const auto swap = [&](std::uint64_t old) { return old == w.compare ? w.operand : old; };
      detail::store_result<Mem>(w.fetch, locked ? locked_rmw<Mem>(v, target, swap) : Mem::cas(target, w.compare, w.operand));
      break;
    }
    case action::fetch_add32: {
      auto* target = reinterpret_cast<std::uint32_t*>(w.dst);
      const auto operand = static_cast<std::uint32_t>(w.operand);
      const auto add = [&](std::uint32_t old) { return old + operand; };
      detail::store_result<Mem>(w.fetch, locked ? locked_rmw<Mem>(v, target, add) : Mem::fetch_add(target, operand));
      break;
    }
    case action::masked_cs32: {
      auto* target = reinterpret_cast<std::uint32_t*>(w.dst);
      const auto compare = static_cast<std::uint32_t>(w.compare);
      const auto swap = static_cast<std::uint32_t>(w.operand);
      const auto desired = [&](std::uint32_t old) { return (old & ~w.swap_mask) | (swap & w.swap_mask); };
      const auto matches = [&](std::uint32_t old) { return ((old ^ compare) & w.compare_mask) == 0; };
      std::uint32_t old;
      if (locked) {
        old = locked_rmw<Mem>(v, target, [&](std::uint32_t o) { return matches(o) ? desired(o) : o; });
      } else {
        old = Mem::load(target);
        while (matches(old)) {
          const std::uint32_t seen = Mem::cas(target, old, desired(old));
          if (seen == old) break;
          old = seen;
        }
      }
      detail::store_result<Mem>(w.fetch, old);
      break;
    }
    case action::write_held: {  // held, or, while another is held, landing before that one
      if (s.held_len != 0) {
        detail::store_payload<Mem>(w.dst, w.inline_data, w.len);
        if (++s.passed >= detail::hdp_drain_after) detail::land_held<Mem>(s);
      } else {
        s.held_dst = w.dst;
        s.held_len = w.len;
        s.passed = 0;
        for (std::uint32_t i = 0; i < w.len; ++i) s.held_data[i] = w.inline_data[i];
      }
      break;
    }
    default:
      break;
  }
  Mem::fence();
  if (w.cqe != 0) detail::write_cqe<Mem>(d, s, w);
  if (w.syndrome != 0 && s.error == 0) s.error = w.syndrome;
  ++s.sq_ci;
}

// One WQE of QP q on one thread. False: nothing to do now.
template <class Mem>
GIO_HOST_DEVICE_INLINE bool step(const engine_view& v, std::uint32_t q) {
  work w;
  if (!begin<Mem>(v, q, w)) return false;
  move<Mem>(w, 0, 1);
  finish<Mem>(v, q, w);
  return true;
}

}  // namespace gio_test::nicmodel
