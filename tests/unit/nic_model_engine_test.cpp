// The software NIC model's engine (tests/nicmodel/engine.hpp) on the CPU: WQEs built with the
// library's own templates (<gio/templates/mlx5_wqe.hpp>) are rung on host-memory rings, executed
// by the same engine code the model's GPU kernel runs (here with a CPU memory policy), and their
// memory effects, fetched values and CQEs are checked, the CQEs decoded with the library's
// decode_cqe / cqe_ready. The remote heaps are registered at addresses other than where this
// process reaches them, so every remote access also checks the address translation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gio/templates/mlx5.hpp"
#include "nicmodel/engine.hpp"
#include "nicmodel/fault_spec.hpp"

namespace {

namespace m = gio::templates::mlx5;
namespace nm = gio_test::nicmodel;
using gio::templates::to_be32;

// engine.hpp's memory policy on the CPU.
struct cpu_memory {
  template <class T> static T load(const T* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
  template <class T> static T load_acquire(const T* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
  template <class T> static void store(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
  template <class T> static T fetch_add(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
  template <class T> static T cas(T* p, T expected, T desired) {
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
  }
  static void fence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
};

// The same, logging every store, atomic and fence: for the order of memory effects and CQE bytes.
struct mem_event {
  enum kind_t { store, rmw, fence } kind;
  std::uintptr_t addr;
  unsigned size;
};
std::vector<mem_event> g_events;
struct recording_memory : cpu_memory {
  template <class T> static void store(T* p, T v) {
    g_events.push_back({mem_event::store, reinterpret_cast<std::uintptr_t>(p), sizeof(T)});
    cpu_memory::store(p, v);
  }
  template <class T> static T fetch_add(T* p, T v) {
    g_events.push_back({mem_event::rmw, reinterpret_cast<std::uintptr_t>(p), sizeof(T)});
    return cpu_memory::fetch_add(p, v);
  }
  template <class T> static T cas(T* p, T expected, T desired) {
    g_events.push_back({mem_event::rmw, reinterpret_cast<std::uintptr_t>(p), sizeof(T)});
    return cpu_memory::cas(p, expected, desired);
  }
  static void fence() {
    g_events.push_back({mem_event::fence, 0, 0});
    cpu_memory::fence();
  }
};

constexpr std::int32_t my_pe = 0;
constexpr std::int32_t peer_pe = 1;
constexpr std::int32_t other_pe = 2;
constexpr std::size_t heap_bytes = 4096;
constexpr std::uint64_t peer_heap_va = 0x00007f0000000000ull;   // where PE 1 registered its heap
constexpr std::uint64_t peer_heap2_va = 0x00007f0010000000ull;  // PE 1's second region
constexpr std::uint32_t local_key = (1u << 16) | my_pe;
constexpr std::uint32_t peer_key = (1u << 16) | peer_pe;
constexpr std::uint32_t peer_key2 = (2u << 16) | peer_pe;
constexpr std::uint32_t other_key = (1u << 16) | other_pe;  // PE 2's heap, at the same VA as PE 1's
constexpr unsigned char sentinel = 0xee;

struct alignas(64) heap {
  unsigned char bytes[heap_bytes];
};

// One QP's rings in host memory, as the library's device code drives them.
struct test_qp {
  std::vector<m::wqe_bb> sq;
  std::vector<m::cqe64> cq;
  std::uint32_t dbrec[2] = {0, 0};
  std::uint64_t uar = 0;  // the doorbell register
  std::uint32_t cq_dbrec = 0;
  std::uint32_t qpn;
  std::uint32_t log_sq, log_cq;
  std::int32_t peer;
  std::uint32_t pi = 0;  // WQEs posted
  std::uint32_t ci = 0;  // CQEs consumed

  test_qp(std::uint32_t qpn_, std::uint32_t log_sq_, std::uint32_t log_cq_, std::int32_t peer_)
      : sq(std::size_t{1} << log_sq_), cq(std::size_t{1} << log_cq_), qpn(qpn_), log_sq(log_sq_), log_cq(log_cq_),
        peer(peer_) {
    std::memset(static_cast<void*>(sq.data()), 0, sq.size() * sizeof(m::wqe_bb));
    std::memset(static_cast<void*>(cq.data()), 0, cq.size() * sizeof(m::cqe64));
    for (auto& c : cq) c.op_own = m::cqe_opcode::invalid << 4;  // as rdma-core initialises a CQ
  }
  m::wqe_bb& next_slot() { return sq[m::slot_of(pi, log_sq)]; }
  std::uint16_t next_index() const { return static_cast<std::uint16_t>(pi); }
  // The doorbell record, then the doorbell naming the last WQE (as the device's publish does).
  void ring() {
    dbrec[m::snd_dbr] = m::sq_dbrec_be(pi);
    ring_doorbell_only(pi);
  }
  void ring_doorbell_only(std::uint32_t up_to) { uar = m::uar_doorbell(sq[m::slot_of(up_to - 1, log_sq)].ctrl); }
  m::wqe_static statics(bool signaled = true, std::uint32_t lkey = local_key, std::uint32_t rkey = peer_key) const {
    return m::wqe_static{qpn, lkey, rkey, signaled ? m::ctrl_flags::cq_update : std::uint8_t{0}};
  }
  // The next CQE if software owns it (rdma-core's get_sw_cqe), consumed and acknowledged.
  std::optional<m::cqe_info> poll() {
    const m::cqe64& c = cq[ci & ((1u << log_cq) - 1u)];
    if (!m::cqe_ready(c.op_own, ci, log_cq)) return std::nullopt;
    const m::cqe_info info = m::decode_cqe(c);
    ++ci;
    cq_dbrec = m::cq_dbrec_be(ci);
    return info;
  }
};

class NicModelEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    for (heap* h : {&local_, &remote_, &remote2_, &other_}) std::memset(h->bytes, sentinel, heap_bytes);
    regions_ = {
        {addr(local_), heap_bytes, addr(local_), local_key, my_pe},
        {peer_heap_va, heap_bytes, addr(remote_), peer_key, peer_pe},
        {peer_heap2_va, heap_bytes, addr(remote2_), peer_key2, peer_pe},
        {peer_heap_va, heap_bytes, addr(other_), other_key, other_pe},
    };
  }

  static std::uint64_t addr(heap& h) { return reinterpret_cast<std::uint64_t>(h.bytes); }
  std::uint64_t laddr(std::size_t off) { return addr(local_) + off; }
  static std::uint64_t raddr(std::size_t off) { return peer_heap_va + off; }

  test_qp& add_qp(std::uint32_t qpn, std::uint32_t log_sq = 4, std::uint32_t log_cq = 4, std::int32_t peer = peer_pe) {
    qps_.push_back(std::make_unique<test_qp>(qpn, log_sq, log_cq, peer));
    states_.push_back(nm::qp_state{});
    return *qps_.back();
  }

  nm::engine_view view() {
    descs_.clear();
    for (auto& q : qps_) {
      descs_.push_back(nm::qp_desc{q->sq.data(), q->dbrec, &q->uar, q->cq.data(), &q->cq_dbrec, q->log_sq, q->log_cq,
                                   q->qpn, q->peer});
    }
    nm::engine_view v{};
    v.qps = descs_.data();
    v.states = states_.data();
    v.n_qps = static_cast<std::uint32_t>(descs_.size());
    v.n_regions = static_cast<std::uint32_t>(regions_.size());
    v.regions = regions_.data();
    v.executed = &executed_;
    v.stall_report = &stall_report_;
    v.my_pe = my_pe;
    v.fault_at = fault_.at;
    v.fault_syndrome = fault_.syndrome;
    v.atomic_lock = atomic_lock_;
    return v;
  }

  // Steps every QP until none has work; returns the WQEs executed.
  template <class Mem = cpu_memory> unsigned run() {
    const nm::engine_view v = view();
    unsigned done = 0;
    for (bool progress = true; progress;) {
      progress = false;
      for (std::uint32_t q = 0; q < v.n_qps; ++q) {
        while (nm::step<Mem>(v, q)) {
          ++done;
          progress = true;
        }
      }
    }
    return done;
  }
  // One WQE of QP q.
  bool step(std::uint32_t q) { return nm::step<cpu_memory>(view(), q); }

  // Posts and rings one WQE of template Wqe (templates/mlx5_wqe.hpp): prefill, then patch with
  // `operands` after the WQE index.
  template <class Wqe, class... Operands> void post(test_qp& q, const m::wqe_static& statics, Operands... operands) {
    m::wqe_bb& slot = q.next_slot();
    Wqe::prefill(slot, statics);
    Wqe::patch(slot, q.next_index(), operands...);
    ++q.pi;
    q.ring();
  }
  void post_write(test_qp& q, std::uint64_t la, std::uint64_t ra, std::uint32_t len, bool signaled = true,
                  std::uint32_t lkey = local_key, std::uint32_t rkey = peer_key) {
    post<m::rdma_write>(q, q.statics(signaled, lkey, rkey), la, ra, len);
  }
  // `len` bytes from remote `ra` to local `la`.
  void post_read(test_qp& q, std::uint64_t la, std::uint64_t ra, std::uint32_t len) {
    post<m::rdma_read>(q, q.statics(), la, ra, len);
  }
  // A 64-bit fetch-add of `add` at remote `ra`, the old value to local `la`.
  void post_fetch_add(test_qp& q, std::uint64_t la, std::uint64_t ra, std::uint64_t add) {
    post<m::fetch_add64>(q, q.statics(), la, ra, add);
  }

  void expect_success(const std::optional<m::cqe_info>& c, const test_qp& q, std::uint16_t counter,
                      std::uint32_t byte_count) {
    ASSERT_TRUE(c.has_value()) << "no CQE for WQE " << counter;
    EXPECT_EQ(c->opcode, m::cqe_opcode::req) << m::to_string(*c);
    EXPECT_EQ(c->wqe_counter, counter);
    EXPECT_EQ(c->qpn, q.qpn);
    EXPECT_EQ(c->byte_count, byte_count);
    EXPECT_EQ(c->format, 0);
  }
  void expect_error(const std::optional<m::cqe_info>& c, const test_qp& q, std::uint16_t counter, std::uint8_t syndrome,
                    std::uint8_t wqe_opcode, std::uint8_t vendor) {
    ASSERT_TRUE(c.has_value()) << "no CQE for WQE " << counter;
    EXPECT_EQ(c->opcode, m::cqe_opcode::req_err) << m::to_string(*c);
    EXPECT_EQ(c->syndrome, syndrome) << m::to_string(*c);
    EXPECT_EQ(c->vendor_syndrome, vendor) << m::to_string(*c);
    EXPECT_EQ(c->wqe_opcode, wqe_opcode) << m::to_string(*c);
    EXPECT_EQ(c->wqe_counter, counter);
    EXPECT_EQ(c->qpn, q.qpn);
  }
  // Every byte of h outside [off, off + len) still holds the sentinel.
  static void expect_untouched(const heap& h, std::size_t off = 0, std::size_t len = 0, const char* name = "heap") {
    for (std::size_t i = 0; i < heap_bytes; ++i) {
      if (i >= off && i < off + len) continue;
      ASSERT_EQ(h.bytes[i], sentinel) << name << " byte " << i << " changed";
    }
  }
  template <class T> static T read(const heap& h, std::size_t off) {
    T v;
    std::memcpy(&v, h.bytes + off, sizeof(T));
    return v;
  }
  template <class T> static void write(heap& h, std::size_t off, T v) { std::memcpy(h.bytes + off, &v, sizeof(T)); }

  heap local_, remote_, remote2_, other_;
  std::vector<nm::region> regions_;
  std::vector<std::unique_ptr<test_qp>> qps_;
  std::vector<nm::qp_desc> descs_;
  std::vector<nm::qp_state> states_;
  std::uint32_t executed_ = 0;
  std::uint32_t stall_report_ = 0;
  nm::fault_spec fault_{};
  std::uint64_t* atomic_lock_ = nullptr;  // GIO_NIC_MODEL_ATOMICS=pcie's lock word, when set
};

// ---- RDMA write / read ---------------------------------------------------------------------------

TEST_F(NicModelEngine, WriteCopiesToTheTranslatedRemoteAddress) {
  test_qp& q = add_qp(0x123);
  const std::uint32_t lens[] = {1, 3, 4, 7, 8, 9, 15, 16, 63, 64, 100, 1000};
  const std::size_t offs[][2] = {{0, 0}, {8, 16}, {3, 11}, {4, 8}, {5, 6}, {1, 2}};  // local, remote
  std::uint16_t counter = 0;
  for (std::uint32_t len : lens) {
    for (const auto& o : offs) {
      SetUp();
      for (std::uint32_t i = 0; i < len; ++i) local_.bytes[o[0] + i] = static_cast<unsigned char>(i * 7 + len);
      post_write(q, laddr(o[0]), raddr(o[1]), len);
      ASSERT_EQ(run(), 1u);
      for (std::uint32_t i = 0; i < len; ++i)
        ASSERT_EQ(remote_.bytes[o[1] + i], static_cast<unsigned char>(i * 7 + len)) << "len " << len << " byte " << i;
      expect_untouched(remote_, o[1], len, "remote");
      expect_untouched(remote2_, 0, 0, "remote2");
      expect_untouched(other_, 0, 0, "PE 2's heap");
      expect_success(q.poll(), q, counter++, 0);  // writes report byte count 0
      EXPECT_FALSE(q.poll().has_value());
    }
  }
}

TEST_F(NicModelEngine, CooperativeCopyCoversEveryByteOnce) {
  // move() splits a copy over a warp's lanes; run rank 0..count-1 one after another.
  for (unsigned count : {1u, 2u, 3u, 32u, 64u}) {
    for (std::size_t so : {0, 1, 3, 4, 8}) {
      for (std::size_t d_o : {0, 2, 4, 5, 8}) {
        for (std::uint32_t len : {0u, 1u, 5u, 8u, 31u, 257u, 2000u}) {
          SetUp();
          for (std::uint32_t i = 0; i < len; ++i) local_.bytes[so + i] = static_cast<unsigned char>(i ^ 0x5a);
          std::vector<unsigned> hits(heap_bytes, 0);
          g_events.clear();
          for (unsigned r = 0; r < count; ++r) {
            nm::copy<recording_memory>(addr(remote_) + d_o, laddr(so), len, r, count);
          }
          for (const mem_event& e : g_events) {
            if (e.kind != mem_event::store) continue;
            for (unsigned b = 0; b < e.size; ++b) ++hits[e.addr + b - addr(remote_)];
          }
          for (std::uint32_t i = 0; i < len; ++i) {
            ASSERT_EQ(remote_.bytes[d_o + i], static_cast<unsigned char>(i ^ 0x5a));
            ASSERT_EQ(hits[d_o + i], 1u) << "count " << count << " src+" << so << " dst+" << d_o << " len " << len;
          }
          expect_untouched(remote_, d_o, len, "remote");
        }
      }
    }
  }
}

TEST_F(NicModelEngine, InlineWriteCopiesThePayloadOnly) {
  test_qp& q = add_qp(0x123);
  // A slot reused with a shorter payload keeps the old bytes after it: the NIC reads only len.
  for (std::uint32_t len = m::inline_write::max_len + 1; len-- > 0;) {
    SetUp();
    unsigned char payload[32];
    for (std::uint32_t i = 0; i < sizeof(payload); ++i) payload[i] = static_cast<unsigned char>(0x40 + i + len);
    const bool signaled = len % 2 == 0;
    m::wqe_bb& slot = q.sq[0];  // log_sq 4, but reuse slot 0 by moving the ring by whole laps
    q.pi = (q.pi + 15u) & ~15u;
    states_[0].sq_ci = q.pi;
    ASSERT_EQ(&slot, &q.next_slot());
    if (len == m::inline_write::max_len) m::inline_write::prefill(slot, q.statics(true));
    slot.ctrl.fm_ce_se = signaled ? m::ctrl_flags::cq_update : 0;
    m::inline_write::patch(slot, q.next_index(), raddr(100 + len), payload, len);
    ++q.pi;
    q.ring();
    ASSERT_EQ(run(), 1u);
    for (std::uint32_t i = 0; i < len; ++i) ASSERT_EQ(remote_.bytes[100 + len + i], payload[i]) << "len " << len;
    expect_untouched(remote_, 100 + len, len, "remote");
    if (signaled) {
      expect_success(q.poll(), q, static_cast<std::uint16_t>(q.pi - 1), 0);
    }
    EXPECT_FALSE(q.poll().has_value()) << "an unsignaled inline write wrote a CQE (len " << len << ")";
  }
}

TEST_F(NicModelEngine, ReadCopiesFromTheRemoteAndReportsItsLength) {
  test_qp& q = add_qp(0x123);
  for (std::uint32_t len : {1u, 8u, 13u, 256u, 4096u - 64u}) {
    SetUp();
    for (std::uint32_t i = 0; i < len; ++i) remote_.bytes[64 + i] = static_cast<unsigned char>(i * 3 + 1);
    post_read(q, laddr(5), raddr(64), len);
    ASSERT_EQ(run(), 1u);
    for (std::uint32_t i = 0; i < len; ++i) ASSERT_EQ(local_.bytes[5 + i], static_cast<unsigned char>(i * 3 + 1));
    expect_untouched(local_, 5, len, "local");
    expect_success(q.poll(), q, static_cast<std::uint16_t>(q.pi - 1), len);
  }
}

TEST_F(NicModelEngine, WriteMayEndExactlyAtTheRegionEnd) {
  test_qp& q = add_qp(0x123);
  post_write(q, laddr(heap_bytes - 16), raddr(heap_bytes - 16), 16);
  ASSERT_EQ(run(), 1u);
  expect_success(q.poll(), q, 0, 0);
}

TEST_F(NicModelEngine, NothingRunsBeforeTheDoorbellRecordSaysSo) {
  test_qp& q = add_qp(0x123);
  m::wqe_bb& slot = q.next_slot();
  m::rdma_write::prefill(slot, q.statics());
  m::rdma_write::patch(slot, 0, laddr(0), raddr(0), 8);
  ++q.pi;  // posted but not rung
  EXPECT_EQ(run(), 0u);
  expect_untouched(remote_);
  q.dbrec[m::snd_dbr] = 1;  // a little-endian 1 is producer index 0x0100 << 16 >> 16 = 0 to the NIC
  EXPECT_EQ(run(), 0u);
  expect_untouched(remote_);
  q.dbrec[m::snd_dbr] = m::sq_dbrec_be(1);
  EXPECT_EQ(run(), 0u) << "ran on the record alone, without a doorbell";
  expect_untouched(remote_);
  q.ring_doorbell_only(1);
  EXPECT_EQ(run(), 1u);
  EXPECT_EQ(run(), 0u);
}

// A doorbell allows the WQEs up to the one it names, however far the record is: the GPU's
// publish and the CPU-assisted relay (GIO_GDA_DOORBELL=cpu) must ring with the last one.
TEST_F(NicModelEngine, RunsUpToTheWqeTheDoorbellNames) {
  test_qp& q = add_qp(0x123);
  for (std::uint32_t i = 0; i < 3; ++i) {
    write<std::uint64_t>(local_, 8 * i, 0x1000 + i);
    m::wqe_bb& slot = q.next_slot();
    m::rdma_write::prefill(slot, q.statics());
    m::rdma_write::patch(slot, q.next_index(), laddr(8 * i), raddr(8 * i), 8);
    ++q.pi;
  }
  q.dbrec[m::snd_dbr] = m::sq_dbrec_be(3);
  EXPECT_EQ(run(), 0u) << "no doorbell yet";
  q.ring_doorbell_only(2);  // names WQE 1
  EXPECT_EQ(run(), 2u);
  EXPECT_EQ(read<std::uint64_t>(remote_, 8), 0x1001u);
  EXPECT_EQ(remote_.bytes[16], sentinel) << "WQE 2 ran before its doorbell";
  q.ring_doorbell_only(3);
  EXPECT_EQ(run(), 1u);
  EXPECT_EQ(read<std::uint64_t>(remote_, 16), 0x1002u);
  // Around the 16-bit wrap of WQE indices: a QP whose engine state stands at 0xfffe.
  test_qp& w = add_qp(0x124);
  states_.back().sq_ci = 0xfffe;
  states_.back().rung = 0xfffe;  // its last doorbell allowed up to there
  w.pi = 0xfffe;
  for (std::uint32_t i = 0; i < 3; ++i) {
    m::wqe_bb& slot = w.next_slot();
    m::rdma_write::prefill(slot, w.statics(false));
    m::rdma_write::patch(slot, w.next_index(), laddr(0), raddr(64 + 8 * i), 8);
    ++w.pi;
  }
  w.dbrec[m::snd_dbr] = m::sq_dbrec_be(w.pi);
  w.ring_doorbell_only(0xffff);  // names WQE 0xfffe
  EXPECT_EQ(run(), 1u);
  w.ring_doorbell_only(0x10001);  // names WQE 0 (the third)
  EXPECT_EQ(run(), 2u);
}

TEST_F(NicModelEngine, SecondRegionAndLoopback) {
  test_qp& q = add_qp(0x123);
  test_qp& loop = add_qp(0x124, 4, 4, my_pe);
  write<std::uint64_t>(local_, 0, 0x1122334455667788ull);
  post_write(q, laddr(0), peer_heap2_va + 40, 8, true, local_key, peer_key2);
  // Loopback: the peer is this PE, the rkey this PE's own key, the address its own.
  post_write(loop, laddr(0), laddr(200), 8, true, local_key, local_key);
  ASSERT_EQ(run(), 2u);
  EXPECT_EQ(read<std::uint64_t>(remote2_, 40), 0x1122334455667788ull);
  EXPECT_EQ(read<std::uint64_t>(local_, 200), 0x1122334455667788ull);
  expect_untouched(remote_);
  expect_success(q.poll(), q, 0, 0);
  expect_success(loop.poll(), loop, 0, 0);
}

// ---- atomics ----------------------------------------------------------------------------------------

TEST_F(NicModelEngine, FetchAdd64) {
  test_qp& q = add_qp(0x123);
  write<std::uint64_t>(remote_, 16, 0xfffffffffffffff0ull);
  for (std::size_t fetch_off : {std::size_t{8}, std::size_t{3}}) {  // the fetch address may be unaligned
    const std::uint64_t before = read<std::uint64_t>(remote_, 16);
    post_fetch_add(q, laddr(fetch_off), raddr(16), 0x20);
    ASSERT_EQ(run(), 1u);
    EXPECT_EQ(read<std::uint64_t>(local_, fetch_off), before);  // little-endian old value
    EXPECT_EQ(read<std::uint64_t>(remote_, 16), before + 0x20);
    expect_success(q.poll(), q, static_cast<std::uint16_t>(q.pi - 1), 8);
  }
  EXPECT_EQ(read<std::uint64_t>(remote_, 16), 0x30u);  // wrapped
  expect_untouched(remote_, 16, 8, "remote");
}

TEST_F(NicModelEngine, CompareSwap64) {
  test_qp& q = add_qp(0x123);
  write<std::uint64_t>(remote_, 64, 0xabcdef0123456789ull);
  struct { std::uint64_t compare, swap, expect_old, expect_new; } cases[] = {
      {0xabcdef0123456789ull, 0x1111ull, 0xabcdef0123456789ull, 0x1111ull},  // matches: swapped
      {0xabcdef0123456789ull, 0x2222ull, 0x1111ull, 0x1111ull},              // no match: unchanged
      {0x1111ull, 0ull, 0x1111ull, 0ull},
  };
  for (const auto& c : cases) {
    m::wqe_bb& slot = q.next_slot();
    m::compare_swap64::prefill(slot, q.statics());
    m::compare_swap64::patch(slot, q.next_index(), laddr(0), raddr(64), c.compare, c.swap);
    ++q.pi;
    q.ring();
    ASSERT_EQ(run(), 1u);
    EXPECT_EQ(read<std::uint64_t>(local_, 0), c.expect_old);
    EXPECT_EQ(read<std::uint64_t>(remote_, 64), c.expect_new);
    expect_success(q.poll(), q, static_cast<std::uint16_t>(q.pi - 1), 8);
  }
}

TEST_F(NicModelEngine, FetchAdd32TouchesFourBytes) {
  test_qp& q = add_qp(0x123);
  write<std::uint32_t>(remote_, 36, 0xfffffffeu);
  m::wqe_bb& slot = q.next_slot();
  m::fetch_add32::prefill(slot, q.statics());
  m::fetch_add32::patch(slot, q.next_index(), laddr(4), raddr(36), 5);
  ++q.pi;
  q.ring();
  ASSERT_EQ(run(), 1u);
  EXPECT_EQ(read<std::uint32_t>(remote_, 36), 3u);  // wraps within 32 bits
  EXPECT_EQ(read<std::uint32_t>(local_, 4), 0xfffffffeu);
  expect_untouched(remote_, 36, 4, "remote");  // no carry into the next word
  expect_untouched(local_, 4, 4, "local");     // a 4-byte result
  expect_success(q.poll(), q, 0, 4);
}

TEST_F(NicModelEngine, CompareSwap32AndSwap32) {
  test_qp& q = add_qp(0x123);
  write<std::uint32_t>(remote_, 8, 7u);
  auto cs = [&](std::uint32_t compare, std::uint32_t swap) {
    m::wqe_bb& slot = q.next_slot();
    m::compare_swap32::prefill(slot, q.statics());
    m::compare_swap32::patch(slot, q.next_index(), laddr(0), raddr(8), compare, swap);
    ++q.pi;
    q.ring();
  };
  cs(7u, 9u);  // matches
  ASSERT_EQ(run(), 1u);
  EXPECT_EQ(read<std::uint32_t>(local_, 0), 7u);
  EXPECT_EQ(read<std::uint32_t>(remote_, 8), 9u);
  cs(7u, 11u);  // no match
  ASSERT_EQ(run(), 1u);
  EXPECT_EQ(read<std::uint32_t>(local_, 0), 9u);
  EXPECT_EQ(read<std::uint32_t>(remote_, 8), 9u);
  // swap32: compare mask 0, always swaps.
  m::wqe_bb& slot = q.next_slot();
  m::swap32::prefill(slot, q.statics());
  m::swap32::patch(slot, q.next_index(), laddr(0), raddr(8), 0xdeadbeefu);
  ++q.pi;
  q.ring();
  ASSERT_EQ(run(), 1u);
  EXPECT_EQ(read<std::uint32_t>(local_, 0), 9u);
  EXPECT_EQ(read<std::uint32_t>(remote_, 8), 0xdeadbeefu);
  expect_untouched(remote_, 8, 4, "remote");
  for (std::uint16_t i = 0; i < 3; ++i) expect_success(q.poll(), q, i, 4);
}

TEST_F(NicModelEngine, MaskedCompareSwap32HonoursBothMasks) {
  test_qp& q = add_qp(0x123);
  auto post = [&](std::uint32_t compare, std::uint32_t swap, std::uint32_t swap_mask, std::uint32_t compare_mask) {
    m::wqe_bb& slot = q.next_slot();
    m::compare_swap32::prefill(slot, q.statics());
    m::compare_swap32::patch(slot, q.next_index(), laddr(0), raddr(8), compare, swap);
    auto* seg = reinterpret_cast<m::masked_cs32_seg*>(reinterpret_cast<unsigned char*>(&slot) + 32);
    seg->swap_mask_be = to_be32(swap_mask);
    seg->compare_mask_be = to_be32(compare_mask);
    ++q.pi;
    q.ring();
  };
  write<std::uint32_t>(remote_, 8, 0xaabbccddu);
  post(0xaa000000u, 0x11223344u, 0x0000ffffu, 0xff000000u);  // top byte matches: low half replaced
  ASSERT_EQ(run(), 1u);
  EXPECT_EQ(read<std::uint32_t>(local_, 0), 0xaabbccddu);
  EXPECT_EQ(read<std::uint32_t>(remote_, 8), 0xaabb3344u);
  post(0x00000000u, 0x11223344u, 0xffff0000u, 0xff000000u);  // top byte differs: unchanged
  ASSERT_EQ(run(), 1u);
  EXPECT_EQ(read<std::uint32_t>(local_, 0), 0xaabb3344u);
  EXPECT_EQ(read<std::uint32_t>(remote_, 8), 0xaabb3344u);
}

// GIO_NIC_MODEL_ATOMICS=pcie: every atomic is a read and a later write under the job's lock word
// (engine.hpp, locked_rmw); the values are those of the atomic RMWs, and the lock is free after.
TEST_F(NicModelEngine, PcieAtomicsGiveTheSameValuesAndFreeTheLock) {
  std::uint64_t lock = 0;
  atomic_lock_ = &lock;
  test_qp& q = add_qp(0x123);
  // One WQE of template Op (its patch's operands after the index), run alone.
  auto post = [&](auto op, auto... operands) {
    m::wqe_bb& slot = q.next_slot();
    decltype(op)::prefill(slot, q.statics());
    decltype(op)::patch(slot, q.next_index(), operands...);
    ++q.pi;
    q.ring();
    ASSERT_EQ(run(), 1u);
    EXPECT_EQ(lock, 0u) << "the lock is released after the atomic";
  };
  write<std::uint64_t>(remote_, 16, 40);
  post(m::fetch_add64{}, laddr(0), raddr(16), std::uint64_t{2});
  EXPECT_EQ(read<std::uint64_t>(local_, 0), 40u);
  EXPECT_EQ(read<std::uint64_t>(remote_, 16), 42u);
  for (std::uint64_t compare : {std::uint64_t{41}, std::uint64_t{42}}) {  // no match, then a match
    post(m::compare_swap64{}, laddr(0), raddr(16), compare, std::uint64_t{7});
    EXPECT_EQ(read<std::uint64_t>(local_, 0), 42u);
    EXPECT_EQ(read<std::uint64_t>(remote_, 16), compare == 42 ? 7u : 42u);
  }
  write<std::uint32_t>(remote_, 36, 0xfffffffeu);
  post(m::fetch_add32{}, laddr(4), raddr(36), 5u);
  EXPECT_EQ(read<std::uint32_t>(local_, 4), 0xfffffffeu);
  EXPECT_EQ(read<std::uint32_t>(remote_, 36), 3u);
  post(m::compare_swap32{}, laddr(0), raddr(36), 3u, 9u);
  EXPECT_EQ(read<std::uint32_t>(local_, 0), 3u);
  EXPECT_EQ(read<std::uint32_t>(remote_, 36), 9u);
  for (std::uint16_t i = 0; i < 5; ++i) expect_success(q.poll(), q, i, i < 3 ? 8 : 4);
}

// ---- put with signal -----------------------------------------------------------------------------

TEST_F(NicModelEngine, PutSignalSetAndAdd) {
  for (m::signal_kind kind : {m::signal_kind::set, m::signal_kind::add}) {
    SetUp();
    qps_.clear();
    states_.clear();
    test_qp& q = add_qp(0x123);
    for (unsigned i = 0; i < 100; ++i) local_.bytes[256 + i] = static_cast<unsigned char>(i + 1);
    write<std::uint64_t>(remote_, 2048, 5);
    m::wqe_bb& put = q.sq[m::slot_of(q.pi, q.log_sq)];
    m::wqe_bb& sig = q.sq[m::slot_of(q.pi + 1, q.log_sq)];
    m::put_signal::prefill(put, sig, q.statics(false), q.statics(true), kind);
    m::put_signal::patch(put, sig, q.next_index(), kind, laddr(256), raddr(512), 100, raddr(2048), 42, laddr(8));
    q.pi += 2;
    q.ring();
    ASSERT_EQ(run(), 2u);
    for (unsigned i = 0; i < 100; ++i) ASSERT_EQ(remote_.bytes[512 + i], static_cast<unsigned char>(i + 1));
    if (kind == m::signal_kind::set) {
      EXPECT_EQ(read<std::uint64_t>(remote_, 2048), 42u);
      expect_success(q.poll(), q, 1, 0);  // only the signal is signaled
    } else {
      EXPECT_EQ(read<std::uint64_t>(remote_, 2048), 47u);
      EXPECT_EQ(read<std::uint64_t>(local_, 8), 5u);
      expect_success(q.poll(), q, 1, 8);
    }
    EXPECT_FALSE(q.poll().has_value());
  }
}

// ---- GIO_NIC_MODEL_HDP=reorder: a peer GPU's HDP (engine_view::hdp_reorder) ----------------------

class NicModelHdp : public NicModelEngine {
 protected:
  static constexpr std::uint64_t hdp_va = 0x00007f0020000000ull;  // where PE 1 registered its register
  static constexpr std::uint32_t hdp_key = (3u << 16) | peer_pe;
  void SetUp() override {
    NicModelEngine::SetUp();
    hdp_word_ = 0;
    regions_.push_back({hdp_va, sizeof(std::uint32_t), reinterpret_cast<std::uint64_t>(&hdp_word_), hdp_key, peer_pe, 1, 0});
  }
  nm::engine_view hdp_view() {
    nm::engine_view v = view();
    v.hdp_reorder = 1;
    return v;
  }
  // Posts and rings one signaled inline write of `len` bytes of `value` to remote address `ra`.
  void post_inline(test_qp& q, std::uint64_t ra, unsigned char value, std::uint32_t len = 8, std::uint32_t rkey = peer_key) {
    unsigned char payload[32];
    std::memset(payload, value, sizeof payload);
    m::wqe_bb& slot = q.next_slot();
    m::inline_write::prefill(slot, q.statics(true, local_key, rkey));
    m::inline_write::patch(slot, q.next_index(), ra, payload, len);
    ++q.pi;
    q.ring();
  }
  void post_flush(test_qp& q) { post_inline(q, hdp_va, 1, sizeof(std::uint32_t), hdp_key); }
  // One WQE (or an idle poll) of QP 0 through the HDP model, recording the memory effects.
  bool step_hdp() { return nm::step<recording_memory>(hdp_view(), 0); }
  // Index in g_events of the first store to remote_'s byte `off`, or g_events.size().
  static std::size_t first_store(std::uintptr_t at) {
    for (std::size_t i = 0; i < g_events.size(); ++i)
      if (g_events[i].kind == mem_event::store && g_events[i].addr == at) return i;
    return g_events.size();
  }
  std::uintptr_t remote_at(std::size_t off) { return static_cast<std::uintptr_t>(addr(remote_) + off); }
  std::uint32_t hdp_word_ = 0;
};

// Data then a flag with no flush between: the flag lands first, and the data only once the QP has
// been idle for a while (or something else follows).
TEST_F(NicModelHdp, AWriteWithoutAFlushIsPassedByTheNext) {
  test_qp& q = add_qp(0x123);
  post_inline(q, raddr(0), 0x11);   // data
  post_inline(q, raddr(64), 0x22);  // flag
  post_inline(q, raddr(128), 0x33);  // another
  g_events.clear();
  ASSERT_TRUE(step_hdp());
  EXPECT_EQ(remote_.bytes[0], sentinel) << "the data landed although nothing followed it";
  expect_success(q.poll(), q, 0, 0);  // complete as far as the requester can tell
  ASSERT_TRUE(step_hdp());
  ASSERT_TRUE(step_hdp());
  EXPECT_EQ(remote_.bytes[64], 0x22);
  EXPECT_EQ(remote_.bytes[128], 0x33);
  EXPECT_EQ(remote_.bytes[0], sentinel) << "the data should still be held";
  for (std::uint32_t i = 0; i < nm::detail::hdp_drain_after; ++i) ASSERT_FALSE(step_hdp());
  EXPECT_EQ(remote_.bytes[0], 0x11);
  EXPECT_LT(first_store(remote_at(64)), first_store(remote_at(0))) << "the flag should land before the data";
  expect_success(q.poll(), q, 1, 0);
}

// With a write to the HDP register between them the data lands before the flush, the flush
// before the flag.
TEST_F(NicModelHdp, AFlushLetsTheHeldWriteLandFirst) {
  test_qp& q = add_qp(0x123);
  post_inline(q, raddr(0), 0x11);
  post_flush(q);
  post_inline(q, raddr(64), 0x22);
  g_events.clear();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(step_hdp());
  const std::size_t data = first_store(remote_at(0));
  const std::size_t flush = first_store(reinterpret_cast<std::uintptr_t>(&hdp_word_));
  ASSERT_LT(data, g_events.size());
  EXPECT_LT(data, flush);
  EXPECT_EQ(hdp_word_, 0x01010101u);
  EXPECT_EQ(remote_.bytes[64], sentinel) << "the flag, last, is held until something follows it";
  // Nothing follows: it lands after hdp_drain_after polls without work, not before.
  for (std::uint32_t i = 0; i + 1 < nm::detail::hdp_drain_after; ++i) ASSERT_FALSE(step_hdp());
  EXPECT_EQ(remote_.bytes[64], sentinel);
  ASSERT_FALSE(step_hdp());
  EXPECT_EQ(remote_.bytes[64], 0x22);
}

// Writes to the same bytes stay in order (a later one never lands under an older one); reads,
// atomics and copies let the held write land first.
TEST_F(NicModelHdp, OverlapsReadsAtomicsAndCopiesDoNotPass) {
  test_qp& q = add_qp(0x123);
  post_inline(q, raddr(0), 0x11);
  post_inline(q, raddr(4), 0x22);  // overlaps bytes 4..7 of the first
  g_events.clear();
  ASSERT_TRUE(step_hdp());
  ASSERT_TRUE(step_hdp());
  EXPECT_EQ(remote_.bytes[0], 0x11);
  EXPECT_EQ(remote_.bytes[7], 0x22) << "the older write landed over the newer one";
  EXPECT_EQ(remote_.bytes[11], 0x22);
  EXPECT_LT(first_store(remote_at(0)), first_store(remote_at(8)));
  // A read of held bytes sees them.
  post_inline(q, raddr(4), 0x55);
  ASSERT_TRUE(step_hdp());
  EXPECT_EQ(remote_.bytes[4], 0x22) << "held";
  post_read(q, laddr(0), raddr(4), 8);
  ASSERT_TRUE(step_hdp());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(local_.bytes[i], 0x55) << "byte " << i;
  // An atomic and a copy likewise: a write held at `off`, then `other`, and the write has landed.
  const auto lands_before = [&](std::size_t off, unsigned char value, const char* what, auto other) {
    post_inline(q, raddr(off), value);
    ASSERT_TRUE(step_hdp());
    EXPECT_EQ(remote_.bytes[off], sentinel) << "held";
    other();
    ASSERT_TRUE(step_hdp());
    EXPECT_EQ(remote_.bytes[off], value) << what;
  };
  lands_before(128, 0x33, "an atomic", [&] { post_fetch_add(q, laddr(256), raddr(256), 1); });
  lands_before(512, 0x44, "a copy", [&] { post_write(q, laddr(0), raddr(1024), 8); });
}

// The HDP drains by itself: after hdp_drain_after polls without work in a row (a WQE taken starts
// the count again), or once hdp_drain_after writes have passed the held one.
TEST_F(NicModelHdp, AHeldWriteLandsAfterABoundedTime) {
  test_qp& q = add_qp(0x123, 7, 7);
  post_inline(q, raddr(0), 0x11);
  ASSERT_TRUE(step_hdp());
  for (std::uint32_t i = 0; i + 1 < nm::detail::hdp_drain_after; ++i) ASSERT_FALSE(step_hdp());
  post_inline(q, raddr(64), 0x22);  // passes it, and the idle count starts again
  ASSERT_TRUE(step_hdp());
  for (std::uint32_t i = 0; i + 1 < nm::detail::hdp_drain_after; ++i) ASSERT_FALSE(step_hdp());
  EXPECT_EQ(remote_.bytes[0], sentinel);
  ASSERT_FALSE(step_hdp());
  EXPECT_EQ(remote_.bytes[0], 0x11);
  // A stream of writes to other bytes: the held one lands after hdp_drain_after of them.
  post_inline(q, raddr(8), 0x33);
  ASSERT_TRUE(step_hdp());
  for (std::uint32_t i = 1; i < nm::detail::hdp_drain_after; ++i) {
    post_inline(q, raddr(16 + (i % 4) * 8), static_cast<unsigned char>(i));
    ASSERT_TRUE(step_hdp());
  }
  EXPECT_EQ(remote_.bytes[8], sentinel);
  post_inline(q, raddr(56), 0x44);
  ASSERT_TRUE(step_hdp());
  EXPECT_EQ(remote_.bytes[8], 0x33);
}

// Off (the default), an inline write lands at once.
TEST_F(NicModelHdp, OffWritesLandAtOnce) {
  test_qp& q = add_qp(0x123);
  post_inline(q, raddr(0), 0x11);
  ASSERT_TRUE(step(0));
  EXPECT_EQ(remote_.bytes[0], 0x11);
}

TEST_F(NicModelEngine, NopCompletes) {
  test_qp& q = add_qp(0x123);
  m::wqe_bb& slot = q.next_slot();
  std::memset(static_cast<void*>(&slot), 0, sizeof(slot));
  slot.ctrl.opmod_idx_opcode_be = m::opmod_idx_opcode_be(0, q.next_index(), m::opcode::nop);
  slot.ctrl.qpn_ds_be = m::qpn_ds_be(q.qpn, 1);
  slot.ctrl.fm_ce_se = m::ctrl_flags::cq_update;
  ++q.pi;
  q.ring();
  ASSERT_EQ(run(), 1u);
  expect_success(q.poll(), q, 0, 0);
}

// ---- rings: wrap, owner phases, CQ space -----------------------------------------------------------

TEST_F(NicModelEngine, CqOwnerPhaseAcrossWraps) {
  test_qp& q = add_qp(0x123, /*log_sq=*/2, /*log_cq=*/2);
  for (std::uint32_t n = 0; n < 19; ++n) {
    write<std::uint32_t>(local_, 0, n);
    post_write(q, laddr(0), raddr(4 * n), 4);
    // Before the engine runs, the entry at ci is still the previous lap's (or invalid).
    const m::cqe64& entry = q.cq[q.ci & 3u];
    EXPECT_FALSE(m::cqe_ready(entry.op_own, q.ci, q.log_cq)) << "CQE " << q.ci << " ready before the WQE ran";
    ASSERT_EQ(run(), 1u);
    EXPECT_EQ(entry.op_own & 1u, (q.ci >> 2) & 1u) << "owner bit of CQE " << q.ci;
    expect_success(q.poll(), q, static_cast<std::uint16_t>(n), 0);
    EXPECT_EQ(read<std::uint32_t>(remote_, 4 * n), n);
  }
}

TEST_F(NicModelEngine, WqeIndexWrapsAt16Bits) {
  test_qp& q = add_qp(0x123, 3, 3);
  q.pi = 0xfffdu;
  states_[0].sq_ci = 0xfffdu;
  for (unsigned n = 0; n < 6; ++n) {
    write<std::uint8_t>(local_, n, static_cast<std::uint8_t>(n + 1));
    post_write(q, laddr(n), raddr(n), 1);
  }
  ASSERT_EQ(run(), 6u);
  const std::uint16_t expect[] = {0xfffd, 0xfffe, 0xffff, 0, 1, 2};
  for (unsigned n = 0; n < 6; ++n) {
    expect_success(q.poll(), q, expect[n], 0);
    EXPECT_EQ(remote_.bytes[n], n + 1);
  }
}

TEST_F(NicModelEngine, WaitsForCqSpaceButNotForUnsignaledWork) {
  test_qp& q = add_qp(0x123, 4, 2);  // 16 SQ slots, 4 CQEs
  for (unsigned n = 0; n < 4; ++n) post_write(q, laddr(0), raddr(0), 1);
  ASSERT_EQ(run(), 4u);  // the CQ is full now (nothing consumed)
  write<std::uint8_t>(local_, 1, 0x77);
  post_write(q, laddr(1), raddr(1), 1, /*signaled=*/false);  // needs no CQE: runs
  post_write(q, laddr(1), raddr(2), 1, /*signaled=*/true);   // needs one: waits
  post_write(q, laddr(1), raddr(3), 1, /*signaled=*/false);  // behind it, in order
  EXPECT_EQ(run(), 1u);
  EXPECT_EQ(remote_.bytes[1], 0x77);
  EXPECT_EQ(remote_.bytes[2], sentinel);
  EXPECT_EQ(stall_report_, 1u);  // QP 0 + 1
  EXPECT_EQ(states_[0].sq_ci, 5u);
  EXPECT_EQ(run(), 0u);
  // Consuming one CQE (and saying so in the CQ doorbell record) makes room.
  expect_success(q.poll(), q, 0, 0);
  EXPECT_EQ(run(), 2u);
  EXPECT_EQ(remote_.bytes[2], 0x77);
  EXPECT_EQ(remote_.bytes[3], 0x77);
  for (std::uint16_t i : {1, 2, 3, 5}) expect_success(q.poll(), q, i, 0);
  EXPECT_FALSE(q.poll().has_value());
}

TEST_F(NicModelEngine, EffectsAreFencedBeforeTheCqeAndOpOwnIsLast) {
  test_qp& q = add_qp(0x123);
  const auto in = [](const mem_event& e, std::uintptr_t lo, std::size_t n) {
    return e.kind != mem_event::fence && e.addr >= lo && e.addr < lo + n;
  };
  auto check = [&](std::uintptr_t effect_lo, std::size_t effect_n, const char* what) {
    const auto cqe_lo = reinterpret_cast<std::uintptr_t>(&q.cq[(states_[0].cq_pi - 1) & 15u]);
    std::size_t last_effect = 0, first_cqe = g_events.size(), op_own = g_events.size();
    bool any_effect = false;
    for (std::size_t i = 0; i < g_events.size(); ++i) {
      if (in(g_events[i], effect_lo, effect_n)) {
        last_effect = i;
        any_effect = true;
      }
      if (in(g_events[i], cqe_lo, 64) && first_cqe == g_events.size()) first_cqe = i;
      if (g_events[i].kind == mem_event::store && g_events[i].addr == cqe_lo + 63) op_own = i;
    }
    ASSERT_TRUE(any_effect) << what;
    ASSERT_LT(first_cqe, g_events.size()) << what;
    ASSERT_EQ(op_own, g_events.size() - 1) << what << ": op_own must be the last store";
    EXPECT_LT(last_effect, first_cqe) << what;
    EXPECT_TRUE(std::any_of(g_events.begin() + static_cast<std::ptrdiff_t>(last_effect),
                            g_events.begin() + static_cast<std::ptrdiff_t>(first_cqe),
                            [](const mem_event& e) { return e.kind == mem_event::fence; }))
        << what << ": no fence between the memory effects and the CQE";
    EXPECT_EQ(g_events[op_own - 1].kind, mem_event::fence) << what << ": no fence before op_own";
    for (std::size_t i = first_cqe; i < op_own; ++i) {
      EXPECT_TRUE(in(g_events[i], cqe_lo, 63) || g_events[i].kind == mem_event::fence) << what << ": event " << i;
    }
  };
  post_write(q, laddr(0), raddr(0), 100);
  g_events.clear();
  ASSERT_EQ(run<recording_memory>(), 1u);
  check(addr(remote_), 100, "write");
  post_fetch_add(q, laddr(128), raddr(128), 1);
  g_events.clear();
  ASSERT_EQ(run<recording_memory>(), 1u);
  check(laddr(128), 8, "fetch-add's fetched value");
  check(addr(remote_) + 128, 8, "fetch-add's target");
}

TEST_F(NicModelEngine, EveryLaneFencesItsPartOfTheCopy) {
  // On the GPU the lanes of a warp share a copy and lane 0 alone writes the CQE: each lane's
  // stores must be fenced by that lane before the barrier that precedes the CQE.
  nm::work w{};
  w.act = nm::action::copy;
  w.src = laddr(0);
  w.dst = addr(remote_);
  w.len = 40;
  nm::work inl = w;
  inl.act = nm::action::write_inline;
  inl.len = 5;
  for (const nm::work* work : {&w, &inl}) {
    for (unsigned r = 0; r < 32; ++r) {  // lanes past the data still fence
      g_events.clear();
      nm::move<recording_memory>(*work, r, 32);
      ASSERT_FALSE(g_events.empty());
      EXPECT_EQ(g_events.back().kind, mem_event::fence) << "lane " << r;
    }
  }
}

// ---- errors ---------------------------------------------------------------------------------------

struct error_case {
  const char* name;
  std::uint8_t syndrome;
  std::uint8_t vendor;
  std::uint8_t opcode;
  // Builds the bad WQE in slot for index idx (the fixture's helpers are passed in).
  void (*build)(m::wqe_bb& slot, std::uint16_t idx, std::uint32_t qpn, std::uint64_t local, std::uint64_t remote);
};

// ctest lists each case by name, not by its bytes.
void PrintTo(const error_case& c, std::ostream* os) { *os << c.name; }

m::wqe_static statics(std::uint32_t qpn, std::uint32_t lkey = local_key, std::uint32_t rkey = peer_key) {
  return m::wqe_static{qpn, lkey, rkey, 0};  // unsignaled: errors complete anyway
}
void write_wqe(m::wqe_bb& s, std::uint16_t idx, const m::wqe_static& st, std::uint64_t la, std::uint64_t ra,
               std::uint32_t len) {
  m::rdma_write::prefill(s, st);
  m::rdma_write::patch(s, idx, la, ra, len);
}
unsigned char* bytes_of(m::wqe_bb& s) { return reinterpret_cast<unsigned char*>(&s); }

namespace syn = m::cqe_syndrome;
namespace vs = nm::vendor_syndrome;
const error_case error_cases[] = {
    {"bad_lkey", syn::local_prot_err, vs::bad_lkey, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn, local_key + (1u << 16)), l, r, 8);
     }},
    {"lkey_of_another_pe", syn::local_prot_err, vs::bad_lkey, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn, peer_key), peer_heap_va, r, 8);
     }},
    {"local_range_end", syn::local_prot_err, vs::local_range, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn), l + heap_bytes - 7, r, 8);
     }},
    {"local_below_start", syn::local_prot_err, vs::local_range, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn), l - 1, r, 8);
     }},
    {"bad_rkey", syn::remote_access_err, vs::bad_rkey, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn, local_key, 0x12345678u), l, r, 8);
     }},
    {"rkey_of_a_pe_not_connected", syn::remote_access_err, vs::bad_rkey, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn, local_key, other_key), l, r, 8);
     }},
    {"remote_range_end", syn::remote_access_err, vs::remote_range, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn), l, r + heap_bytes - 10, 11);
     }},
    {"remote_below_start", syn::remote_access_err, vs::remote_range, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn), l, r - 8, 8);
     }},
    {"remote_address_wraps", syn::remote_access_err, vs::remote_range, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t) {
       write_wqe(s, i, statics(qpn), l, ~std::uint64_t{0} - 3, 8);
     }},
    {"inline_bad_rkey", syn::remote_access_err, vs::bad_rkey, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t, std::uint64_t r) {
       const std::uint64_t v = 1;
       m::inline_write::prefill(s, statics(qpn, local_key, 0x999u));
       m::inline_write::patch(s, i, r, &v, 8);
     }},
    {"inline_longer_than_ds", syn::local_length_err, vs::bad_byte_count, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t, std::uint64_t r) {
       const std::uint64_t v[2] = {1, 2};
       m::inline_write::prefill(s, statics(qpn));
       m::inline_write::patch(s, i, r, v, 16);
       bytes_of(s)[7] = 3;  // DS for 12 payload bytes at most
     }},
    {"read_bad_lkey", syn::local_prot_err, vs::bad_lkey, m::opcode::rdma_read,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::rdma_read::prefill(s, statics(qpn, 7u));
       m::rdma_read::patch(s, i, l, r, 8);
     }},
    {"read_remote_range", syn::remote_access_err, vs::remote_range, m::opcode::rdma_read,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::rdma_read::prefill(s, statics(qpn));
       m::rdma_read::patch(s, i, l, r + 8, heap_bytes);
     }},
    {"fetch_add64_bad_rkey", syn::remote_access_err, vs::bad_rkey, m::opcode::atomic_fa,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::fetch_add64::prefill(s, statics(qpn, local_key, peer_key + 1));
       m::fetch_add64::patch(s, i, l, r, 1);
     }},
    {"fetch_add64_fetch_outside", syn::local_prot_err, vs::local_range, m::opcode::atomic_fa,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::fetch_add64::prefill(s, statics(qpn));
       m::fetch_add64::patch(s, i, l + heap_bytes - 4, r, 1);
     }},
    {"fetch_add64_misaligned", syn::remote_inval_req_err, vs::misaligned_atomic, m::opcode::atomic_fa,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::fetch_add64::prefill(s, statics(qpn));
       m::fetch_add64::patch(s, i, l, r + 4, 1);
     }},
    {"compare_swap32_misaligned", syn::remote_inval_req_err, vs::misaligned_atomic, m::opcode::atomic_masked_cs,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::compare_swap32::prefill(s, statics(qpn));
       m::compare_swap32::patch(s, i, l, r + 2, 0, 1);
     }},
    {"atomic_byte_count", syn::local_length_err, vs::bad_byte_count, m::opcode::atomic_cs,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::compare_swap64::prefill(s, statics(qpn));
       m::compare_swap64::patch(s, i, l, r, 0, 1);
       reinterpret_cast<m::data_seg*>(bytes_of(s) + 48)->byte_count_be = to_be32(4);
     }},
    {"fetch_add32_field_boundary", syn::local_qp_op_err, vs::field_boundary, m::opcode::atomic_masked_fa,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::fetch_add32::prefill(s, statics(qpn));
       m::fetch_add32::patch(s, i, l, r, 1);
       reinterpret_cast<m::masked_fa32_seg*>(bytes_of(s) + 32)->field_boundary_be = to_be32(0x8000u);
     }},
    {"fetch_add32_without_ext_opmod", syn::local_qp_op_err, vs::bad_opmod, m::opcode::atomic_masked_fa,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::fetch_add32::prefill(s, statics(qpn));
       m::fetch_add32::patch(s, i, l, r, 1);
       s.ctrl.opmod_idx_opcode_be = m::opmod_idx_opcode_be(m::opmod::none, i, m::opcode::atomic_masked_fa);
     }},
    {"masked_cs_8byte_opmod", syn::local_qp_op_err, vs::bad_opmod, m::opcode::atomic_masked_cs,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::compare_swap32::prefill(s, statics(qpn));
       m::compare_swap32::patch(s, i, l, r, 0, 1);
       s.ctrl.opmod_idx_opcode_be = m::opmod_idx_opcode_be(m::opmod::ext_atomic_8byte, i, m::opcode::atomic_masked_cs);
     }},
    {"fetch_add64_with_ext_opmod", syn::local_qp_op_err, vs::bad_opmod, m::opcode::atomic_fa,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       m::fetch_add64::prefill(s, statics(qpn));
       m::fetch_add64::patch(s, i, l, r, 1);
       s.ctrl.opmod_idx_opcode_be = m::opmod_idx_opcode_be(m::opmod::ext_atomic_4byte, i, m::opcode::atomic_fa);
     }},
    {"unsupported_opcode_send", syn::local_qp_op_err, vs::bad_opcode, m::opcode::send,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn), l, r, 8);
       s.ctrl.opmod_idx_opcode_be = m::opmod_idx_opcode_be(0, i, m::opcode::send);
     }},
    {"wrong_wqe_index", syn::local_qp_op_err, vs::bad_wqe_index, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, static_cast<std::uint16_t>(i + 16), statics(qpn), l, r, 8);
     }},
    {"wrong_qpn", syn::local_qp_op_err, vs::bad_qpn, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn + 1), l, r, 8);
     }},
    {"ds_zero", syn::local_qp_op_err, vs::bad_ds, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn), l, r, 8);
       bytes_of(s)[7] = 0;
     }},
    {"ds_two_blocks", syn::local_qp_op_err, vs::bad_ds, m::opcode::rdma_write,
     [](m::wqe_bb& s, std::uint16_t i, std::uint32_t qpn, std::uint64_t l, std::uint64_t r) {
       write_wqe(s, i, statics(qpn), l, r, 8);
       bytes_of(s)[7] = 5;
     }},
};

class NicModelErrors : public NicModelEngine, public ::testing::WithParamInterface<error_case> {};

TEST_P(NicModelErrors, ErrorCqeThenFlush) {
  const error_case& c = GetParam();
  test_qp& q = add_qp(0x123, 3, 3);
  // A good WQE first, then the bad one (unsignaled: errors complete anyway), then two good ones
  // (one signaled, one not) that the QP in error flushes.
  write<std::uint64_t>(local_, 0, 0x0102030405060708ull);
  post_write(q, laddr(0), raddr(0), 8, /*signaled=*/false);
  c.build(q.next_slot(), q.next_index(), q.qpn, laddr(0), raddr(0));
  ++q.pi;
  q.ring();
  post_write(q, laddr(0), raddr(16), 8, true);
  post_write(q, laddr(0), raddr(24), 8, false);
  ASSERT_EQ(run(), 4u);
  EXPECT_EQ(read<std::uint64_t>(remote_, 0), 0x0102030405060708ull);
  expect_untouched(remote_, 0, 8, "remote");  // the bad WQE and the flushed ones did nothing
  expect_untouched(local_, 0, 8, "local");
  expect_untouched(remote2_, 0, 0, "remote2");
  expect_untouched(other_, 0, 0, "PE 2's heap");
  expect_error(q.poll(), q, 1, c.syndrome, c.opcode, c.vendor);
  expect_error(q.poll(), q, 2, syn::wr_flush_err, m::opcode::rdma_write, vs::flushed);
  expect_error(q.poll(), q, 3, syn::wr_flush_err, m::opcode::rdma_write, vs::flushed);
  EXPECT_FALSE(q.poll().has_value());
  EXPECT_EQ(states_[0].error, c.syndrome);
  // Later doorbells are flushed too.
  post_write(q, laddr(0), raddr(32), 8, false);
  ASSERT_EQ(run(), 1u);
  expect_error(q.poll(), q, 4, syn::wr_flush_err, m::opcode::rdma_write, vs::flushed);
  expect_untouched(remote_, 0, 8, "remote");
}

INSTANTIATE_TEST_SUITE_P(Bad, NicModelErrors, ::testing::ValuesIn(error_cases),
                         [](const ::testing::TestParamInfo<error_case>& info) { return std::string(info.param.name); });

TEST_F(NicModelEngine, UnconnectedQpFailsRemoteAccess) {
  test_qp& q = add_qp(0x123, 4, 4, /*peer=*/-1);
  post_write(q, laddr(0), raddr(0), 8);
  ASSERT_EQ(run(), 1u);
  expect_error(q.poll(), q, 0, syn::remote_access_err, m::opcode::rdma_write, vs::bad_rkey);
}

TEST_F(NicModelEngine, ZeroLengthWriteChecksNoKey) {
  test_qp& q = add_qp(0x123);
  post_write(q, laddr(0), raddr(0), 0, true, 0xbad, 0xbad);
  const std::uint64_t none = 0;
  m::wqe_bb& slot = q.next_slot();
  m::inline_write::prefill(slot, m::wqe_static{q.qpn, 0, 0xbad, m::ctrl_flags::cq_update});
  m::inline_write::patch(slot, q.next_index(), 0, &none, 0);
  ++q.pi;
  q.ring();
  ASSERT_EQ(run(), 2u);
  expect_success(q.poll(), q, 0, 0);
  expect_success(q.poll(), q, 1, 0);
  expect_untouched(remote_);
}

TEST_F(NicModelEngine, ErrorInOneQpLeavesTheOthersRunning) {
  test_qp& bad = add_qp(0x123);
  test_qp& good = add_qp(0x124);
  post_write(bad, laddr(0), raddr(0), 8, true, local_key, 0x1);
  post_write(good, laddr(0), raddr(8), 8);
  ASSERT_EQ(run(), 2u);
  expect_error(bad.poll(), bad, 0, syn::remote_access_err, m::opcode::rdma_write, vs::bad_rkey);
  expect_success(good.poll(), good, 0, 0);
  EXPECT_EQ(states_[1].error, 0u);
}

// ---- fault injection ------------------------------------------------------------------------------

TEST_F(NicModelEngine, InjectedFaultHitsTheNthWqeOverAllQps) {
  ASSERT_TRUE(nm::parse_fault_spec("remote_access:3", &fault_, nullptr));
  test_qp& a = add_qp(0x123);
  test_qp& b = add_qp(0x124);
  for (unsigned i = 0; i < 2; ++i) {
    post_write(a, laddr(0), raddr(8 * i), 8, /*signaled=*/false);
    post_write(b, laddr(0), raddr(64 + 8 * i), 8, /*signaled=*/false);
  }
  write<std::uint64_t>(local_, 0, 0xfeedull);
  ASSERT_TRUE(step(0));  // 1st: a's WQE 0
  ASSERT_TRUE(step(0));  // 2nd: a's WQE 1
  ASSERT_TRUE(step(1));  // 3rd: b's WQE 0 fails
  ASSERT_TRUE(step(1));  // b's WQE 1 is flushed
  EXPECT_EQ(run(), 0u);
  EXPECT_EQ(read<std::uint64_t>(remote_, 0), 0xfeedull);
  EXPECT_EQ(read<std::uint64_t>(remote_, 8), 0xfeedull);
  expect_untouched(remote_, 0, 16, "remote");
  EXPECT_FALSE(a.poll().has_value());
  expect_error(b.poll(), b, 0, syn::remote_access_err, m::opcode::rdma_write, vs::injected);
  expect_error(b.poll(), b, 1, syn::wr_flush_err, m::opcode::rdma_write, vs::flushed);
  // Only once: a keeps running.
  post_write(a, laddr(0), raddr(16), 8);
  ASSERT_EQ(run(), 1u);
  expect_success(a.poll(), a, 2, 0);
}

TEST(NicModelFaultSpec, Parses) {
  nm::fault_spec f;
  std::string why;
  EXPECT_TRUE(nm::parse_fault_spec(nullptr, &f, &why));
  EXPECT_EQ(f.at, 0u);
  EXPECT_TRUE(nm::parse_fault_spec("", &f, &why));
  EXPECT_EQ(f.at, 0u);
  EXPECT_TRUE(nm::parse_fault_spec("remote_access:1", &f, &why));
  EXPECT_EQ(f.at, 1u);
  EXPECT_EQ(f.syndrome, syn::remote_access_err);
  EXPECT_TRUE(nm::parse_fault_spec("remote_access:4294967295", &f, &why));
  EXPECT_EQ(f.at, 4294967295u);
  for (const char* bad : {"remote_access:0", "remote_access:", "remote_access:4294967296", "remote_access:12x",
                          "remote_access:-1", "remote_access", "local_prot:3", "bogus", " remote_access:1"}) {
    why.clear();
    EXPECT_FALSE(nm::parse_fault_spec(bad, &f, &why)) << bad;
    EXPECT_NE(why.find("GIO_NIC_MODEL_FAULT"), std::string::npos) << why;
    EXPECT_EQ(f.at, 0u);
  }
}

}  // namespace
