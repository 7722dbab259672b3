// The IKN proxy (host/transports/ikn/proxy.cpp) on the CPU: commands written into a ring as the
// GPU writes them (payload words, then `ready` = index + 1) must become the WQEs build_wqe makes
// for them, slot by slot, posted strictly in index order, with the doorbell record and the
// doorbell register written as the direct (gda) mode writes them. And the doorbell relay of
// CPU-assisted gda (doorbell_relay.cpp): every new value the GPU leaves in a mailbox reaches that
// QP's UAR.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gio/device/transports/gda/wqe_builder.hpp"
#include "gio/gda.hpp"
#include "transports/gda/doorbell_relay.hpp"
#include "transports/ikn/proxy.hpp"

namespace {

namespace gda = gio::transports::gda;
namespace ikn = gio::transports::ikn;
namespace mlx5 = gio::templates::mlx5;

constexpr std::uint32_t log_depth = 4;  // 16 slots
constexpr std::uint32_t depth = 1u << log_depth;
constexpr std::uint32_t qpn = 0x1234, lkey = 0xabc, rkey = 0xdef, hdp_rkey = 0x5a5;

// One QP's rings as the proxy sees them, prefilled as the host initializer leaves them.
struct fake_qp {
  std::array<mlx5::wqe_bb, depth> sq{};
  alignas(8) std::uint32_t dbrec[2] = {0, 0};
  std::uint64_t uar = 0;
  std::vector<gio::gda_command> commands = std::vector<gio::gda_command>(depth);
  fake_qp() {
    for (auto& slot : sq) gda::prefill_kind(slot, gio::gda_kind_write, qpn, lkey, rkey);
  }
  ikn::proxy::queue queue() {
    return {sq.data(), dbrec, &uar, commands.data(), log_depth, qpn, lkey, rkey, hdp_rkey};
  }
};

// Command i of a mix of every kind, as a kernel would fill it.
gio::gda_command command(std::uint64_t i) {
  gio::gda_command c{};
  c.kind = static_cast<std::uint8_t>(i % (gio::gda_kind_hdp_flush + 1));
  c.raddr = 0x7000'0000'0000ull + i * 64;
  if (c.kind == gio::gda_kind_inline || c.kind == gio::gda_kind_signal_set || c.kind == gio::gda_kind_hdp_flush) {
    c.len = 1 + static_cast<std::uint32_t>(i % 8);
    for (unsigned b = 0; b < c.len; ++b) c.data[b] = static_cast<unsigned char>(i * 7 + b);
  } else {
    const bool moves_data = c.kind == gio::gda_kind_write || c.kind == gio::gda_kind_read;
    const bool narrow = c.kind == gio::gda_kind_fa32 || c.kind == gio::gda_kind_cs32 || c.kind == gio::gda_kind_swap32;
    c.len = moves_data ? 4096 : narrow ? 4 : 8;
    c.op.laddr = 0x6000'0000'0000ull + i * 8;
    c.op.operand = i * 3 + 1;
    c.op.compare = i * 5;
  }
  return c;
}

// Writes command i into its slot the way ring::write/publish do: the payload, then `ready`.
void publish(fake_qp& qp, std::uint64_t i) {
  gio::gda_command c = command(i);
  c.ready = 0;
  gio::gda_command& slot = qp.commands[i & (depth - 1)];
  std::memcpy(static_cast<void*>(&slot), &c, offsetof(gio::gda_command, ready));
  __atomic_store_n(&slot.ready, i + 1, __ATOMIC_RELEASE);
}

bool wait_posted(const ikn::proxy& p, std::uint64_t n) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (p.posted() < n)
    if (std::chrono::steady_clock::now() > until) return false;
  return true;
}

// The WQEs the direct mode would have written for commands [0, n): the expected SQ.
std::array<mlx5::wqe_bb, depth> expected_sq(std::uint64_t n) {
  std::array<mlx5::wqe_bb, depth> sq{};
  std::array<std::uint8_t, depth> kinds{};
  for (auto& slot : sq) gda::prefill_kind(slot, gio::gda_kind_write, qpn, lkey, rkey);
  kinds.fill(gio::gda_kind_write);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint32_t s = static_cast<std::uint32_t>(i) & (depth - 1);
    gda::build_wqe(sq[s], &kinds[s], static_cast<std::uint16_t>(i), command(i), qpn, lkey, rkey, hdp_rkey);
  }
  return sq;
}

// An HDP flush is the inline write's template with the peer's HDP register key, not its heap's;
// the next write in that slot goes back to the heap's key.
TEST(IknProxy, HdpFlushCarriesTheRegistersKey) {
  mlx5::wqe_bb slot{};
  std::uint8_t kind = gio::gda_kind_write;
  gda::prefill_kind(slot, kind, qpn, lkey, rkey);
  gio::gda_command flush{};
  flush.kind = gio::gda_kind_hdp_flush;
  flush.raddr = 0x7100'0000'0000ull;
  flush.len = 4;
  flush.data[0] = 1;
  gda::build_wqe(slot, &kind, 7, flush, qpn, lkey, rkey, hdp_rkey);
  mlx5::wqe_bb want{};
  mlx5::inline_write::prefill(want, {qpn, lkey, hdp_rkey, gda::flags_plain});
  mlx5::inline_write::patch(want, 7, flush.raddr, flush.data, flush.len);
  EXPECT_EQ(std::memcmp(&slot, &want, sizeof slot), 0);
  EXPECT_EQ(kind, gio::gda_kind_hdp_flush);
  gio::gda_command write{};
  write.kind = gio::gda_kind_inline;
  write.raddr = flush.raddr;
  write.len = 4;
  write.data[0] = 1;
  gda::build_wqe(slot, &kind, 8, write, qpn, lkey, rkey, hdp_rkey);
  mlx5::inline_write::prefill(want, {qpn, lkey, rkey, gda::flags_plain});
  mlx5::inline_write::patch(want, 8, write.raddr, write.data, write.len);
  EXPECT_EQ(std::memcmp(&slot, &want, sizeof slot), 0) << "a kind change must re-prefill with the heap's key";
}

TEST(IknProxy, BuildsTheDirectModesWqesAndRingsInOrder) {
  fake_qp qp;
  ikn::proxy p({qp.queue()}, false);
  constexpr std::uint64_t first = 12;  // every kind once, and one more
  for (std::uint64_t i = 0; i < first; ++i) publish(qp, i);
  ASSERT_TRUE(wait_posted(p, first)) << "posted " << p.posted() << " of " << first;
  const auto want = expected_sq(first);
  for (std::uint32_t s = 0; s < first; ++s)
    EXPECT_EQ(std::memcmp(&qp.sq[s], &want[s], sizeof(mlx5::wqe_bb)), 0)
        << "WQE " << s << " (kind " << int(command(s).kind) << ")";
  EXPECT_EQ(__atomic_load_n(&qp.dbrec[mlx5::snd_dbr], __ATOMIC_ACQUIRE), mlx5::sq_dbrec_be(first));
  EXPECT_EQ(__atomic_load_n(&qp.uar, __ATOMIC_ACQUIRE), gda::doorbell_of(want[first - 1]));
}

TEST(IknProxy, WrapsTheRingAndRePrefillsSlotsWhoseKindChanges) {
  fake_qp qp;
  ikn::proxy p({qp.queue()}, false);
  constexpr std::uint64_t total = 3 * depth + 5;  // slots reused with other kinds
  for (std::uint64_t i = 0; i < total; ++i) {
    // The GPU reuses a slot only once the WQE before it in that slot was posted (and completed).
    if (i >= depth) ASSERT_TRUE(wait_posted(p, i - depth + 1));
    publish(qp, i);
  }
  ASSERT_TRUE(wait_posted(p, total));
  const auto want = expected_sq(total);
  for (std::uint32_t s = 0; s < depth; ++s)
    EXPECT_EQ(std::memcmp(&qp.sq[s], &want[s], sizeof(mlx5::wqe_bb)), 0) << "slot " << s;
  EXPECT_EQ(__atomic_load_n(&qp.dbrec[mlx5::snd_dbr], __ATOMIC_ACQUIRE), mlx5::sq_dbrec_be(total));
}

TEST(IknProxy, NeverPostsACommandBeforeTheOnesAheadOfIt) {
  fake_qp qp;
  ikn::proxy p({qp.queue()}, false);
  publish(qp, 1);  // index 1 ready, index 0 not yet
  publish(qp, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(p.posted(), 0u) << "the proxy posted past a command that was not ready";
  EXPECT_EQ(__atomic_load_n(&qp.dbrec[mlx5::snd_dbr], __ATOMIC_ACQUIRE), 0u);
  publish(qp, 0);
  ASSERT_TRUE(wait_posted(p, 3));
  EXPECT_EQ(__atomic_load_n(&qp.dbrec[mlx5::snd_dbr], __ATOMIC_ACQUIRE), mlx5::sq_dbrec_be(3));
}

TEST(IknProxy, ServesEveryQueue) {
  fake_qp a, b;
  ikn::proxy p({a.queue(), b.queue()}, false);
  for (std::uint64_t i = 0; i < 4; ++i) publish(b, i);
  for (std::uint64_t i = 0; i < 2; ++i) publish(a, i);
  ASSERT_TRUE(wait_posted(p, 6));
  EXPECT_EQ(__atomic_load_n(&a.dbrec[mlx5::snd_dbr], __ATOMIC_ACQUIRE), mlx5::sq_dbrec_be(2));
  EXPECT_EQ(__atomic_load_n(&b.dbrec[mlx5::snd_dbr], __ATOMIC_ACQUIRE), mlx5::sq_dbrec_be(4));
}

bool wait_relayed(const gda::doorbell_relay& p, std::uint64_t n) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (p.relayed() < n)
    if (std::chrono::steady_clock::now() > until) return false;
  return true;
}

TEST(DoorbellRelay, RingsEachNewDoorbellOfEveryMailboxOnItsOwnUar) {
  alignas(64) std::uint64_t mailbox[2][8] = {};
  alignas(64) std::uint64_t uar[2][8] = {};
  gda::doorbell_relay p({{mailbox[0], uar[0], 0x100}, {mailbox[1], uar[1], 0x101}}, false);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(p.relayed(), 0u) << "a mailbox still at 0 holds no doorbell";
  const auto sq = expected_sq(3);  // real doorbell values: the ctrl segments' first 8 bytes
  __atomic_store_n(&mailbox[1][0], gda::doorbell_of(sq[0]), __ATOMIC_RELEASE);
  ASSERT_TRUE(wait_relayed(p, 1));
  EXPECT_EQ(__atomic_load_n(&uar[1][0], __ATOMIC_ACQUIRE), gda::doorbell_of(sq[0]));
  EXPECT_EQ(__atomic_load_n(&uar[0][0], __ATOMIC_ACQUIRE), 0u) << "rung on the other QP's UAR";
  __atomic_store_n(&mailbox[0][0], gda::doorbell_of(sq[1]), __ATOMIC_RELEASE);
  ASSERT_TRUE(wait_relayed(p, 2));
  EXPECT_EQ(__atomic_load_n(&uar[0][0], __ATOMIC_ACQUIRE), gda::doorbell_of(sq[1]));
  // A later doorbell of the first QP replaces its first one.
  __atomic_store_n(&mailbox[1][0], gda::doorbell_of(sq[2]), __ATOMIC_RELEASE);
  ASSERT_TRUE(wait_relayed(p, 3));
  EXPECT_EQ(__atomic_load_n(&uar[1][0], __ATOMIC_ACQUIRE), gda::doorbell_of(sq[2]));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(p.relayed(), 3u) << "an unchanged mailbox was rung again";
}

// GIO_DEBUG=info: each thread prints its state every 3 s (a stuck ring shows its next command).
TEST(CpuThreads, ReportTheirStateWhenAsked) {
  fake_qp qp;
  alignas(64) std::uint64_t mailbox[8] = {}, uar[8] = {};
  testing::internal::CaptureStderr();
  {
    ikn::proxy p({qp.queue()}, true);
    gda::doorbell_relay r({{mailbox, uar, 0x100}}, true);
    publish(qp, 0);
    publish(qp, 1);
    ASSERT_TRUE(wait_posted(p, 2));
    __atomic_store_n(&mailbox[0], 0x77, __ATOMIC_RELEASE);
    ASSERT_TRUE(wait_relayed(r, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(4000));
  }
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find("gio ikn proxy: QP 0x1234: next command 2, its ready word 0, posted in all 2"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("gio doorbell relay: QP 0x100: mailbox 0x0000000000000077, last rung 0x0000000000000077, 1 rung in all"),
            std::string::npos)
      << printed;
}

}  // namespace
