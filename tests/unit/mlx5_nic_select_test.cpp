// The mlx5 NIC's pure decisions (host/transports/gda/mlx5_nic_select.hpp): GIO_GDA_NIC /
// GIO_GDA_NIC_EXCLUDE parsing, RoCE GID choice, proximity order, SQ sizing retries, and the QP
// address two PEs exchange. The rdma-core and hwloc calls around them need a NIC (none here).
#include "transports/gda/mlx5_nic_select.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace gio::transports::gda::mlx5_select {
namespace {

TEST(Mlx5Select, SplitNames) {
  EXPECT_TRUE(split_names("").empty());
  EXPECT_TRUE(split_names(" , ,").empty());
  EXPECT_EQ(split_names("mlx5_0"), (std::vector<std::string>{"mlx5_0"}));
  EXPECT_EQ(split_names(" mlx5_0 ,mlx5_3,,\tmlx5_1 "), (std::vector<std::string>{"mlx5_0", "mlx5_3", "mlx5_1"}));
  EXPECT_EQ(split_names("mlx5_0,"), (std::vector<std::string>{"mlx5_0"}));
}

TEST(Mlx5Select, IncludeAndExclude) {
  const std::vector<std::string> none, inc{"mlx5_0", "mlx5_1"}, exc{"mlx5_1"};
  EXPECT_EQ(filter_reason("mlx5_7", none, none), "");
  EXPECT_EQ(filter_reason("mlx5_0", inc, none), "");
  EXPECT_EQ(filter_reason("mlx5_2", inc, none), "not listed in GIO_GDA_NIC");
  EXPECT_EQ(filter_reason("mlx5_1", none, exc), "excluded by GIO_GDA_NIC_EXCLUDE");
  EXPECT_EQ(filter_reason("mlx5_1", inc, exc), "excluded by GIO_GDA_NIC_EXCLUDE");  // exclude wins
  EXPECT_EQ(filter_reason("mlx5_10", inc, exc), "not listed in GIO_GDA_NIC");      // whole names only
}

gid_entry entry(int index, gid_type type, bool ipv4, bool valid = true) {
  gid_entry e;
  e.index = index;
  e.type = type;
  e.valid = valid;
  if (!valid) return e;
  if (ipv4) {
    e.gid[10] = e.gid[11] = 0xff;
    e.gid[12] = 10;
    e.gid[15] = static_cast<std::uint8_t>(index);
  } else {
    e.gid[0] = 0xfe;
    e.gid[1] = 0x80;
    e.gid[15] = static_cast<std::uint8_t>(index);
  }
  return e;
}

TEST(Mlx5Select, GidPredicates) {
  EXPECT_TRUE(is_zero(gid_bytes{}));
  EXPECT_TRUE(is_ipv4_mapped(entry(1, gid_type::roce_v2, true).gid));
  EXPECT_FALSE(is_ipv4_mapped(entry(1, gid_type::roce_v2, false).gid));
  gid_bytes g{};
  g[10] = 0xff;  // only one of the two 0xff bytes
  EXPECT_FALSE(is_ipv4_mapped(g));
}

TEST(Mlx5Select, GidPrefersRoceV2Ipv4) {
  const std::vector<gid_entry> table{entry(0, gid_type::roce_v1, false), entry(1, gid_type::roce_v2, false),
                                     entry(2, gid_type::roce_v1, true), entry(3, gid_type::roce_v2, true)};
  EXPECT_EQ(choose_gid(table, -1).index, 3);
}

TEST(Mlx5Select, GidFallsBackToFirstRoceV2) {
  const std::vector<gid_entry> table{entry(0, gid_type::roce_v1, false), entry(1, gid_type::roce_v1, true),
                                     entry(2, gid_type::roce_v2, false), entry(3, gid_type::roce_v2, false)};
  EXPECT_EQ(choose_gid(table, -1).index, 2);
}

TEST(Mlx5Select, GidSkipsEmptyEntries) {
  const std::vector<gid_entry> table{entry(0, gid_type::roce_v2, true, false), entry(1, gid_type::roce_v2, true)};
  EXPECT_EQ(choose_gid(table, -1).index, 1);
}

TEST(Mlx5Select, GidNeverPicksRoceV1Unasked) {
  const std::vector<gid_entry> table{entry(0, gid_type::roce_v1, false), entry(1, gid_type::roce_v1, true),
                                     entry(2, gid_type::unknown, true)};
  const gid_choice c = choose_gid(table, -1);
  EXPECT_EQ(c.index, -1);
  EXPECT_NE(c.why.find("no RoCE v2 GID among 3"), std::string::npos) << c.why;
  EXPECT_NE(c.why.find("GIO_GDA_GID_INDEX"), std::string::npos) << c.why;
}

TEST(Mlx5Select, GidEmptyTable) {
  const std::vector<gid_entry> table{entry(0, gid_type::roce_v2, false, false)};
  const gid_choice c = choose_gid(table, -1);
  EXPECT_EQ(c.index, -1);
  EXPECT_NE(c.why.find("no GID configured"), std::string::npos) << c.why;
}

TEST(Mlx5Select, GidRequestedIndex) {
  const std::vector<gid_entry> table{entry(0, gid_type::roce_v1, false), entry(1, gid_type::roce_v2, true),
                                     entry(2, gid_type::roce_v2, true, false)};
  EXPECT_EQ(choose_gid(table, 0).index, 0);  // asked for: any type
  EXPECT_EQ(choose_gid(table, 1).index, 1);
  const gid_choice empty = choose_gid(table, 2);
  EXPECT_EQ(empty.index, -1);
  EXPECT_NE(empty.why.find("GID index 2 (GIO_GDA_GID_INDEX) is empty"), std::string::npos) << empty.why;
  const gid_choice beyond = choose_gid(table, 7);
  EXPECT_EQ(beyond.index, -1);
  EXPECT_NE(beyond.why.find("beyond"), std::string::npos) << beyond.why;
}

TEST(Mlx5Select, ProximityOrderIsStable) {
  const std::vector<proximity> p{proximity::other_numa, proximity::same_switch, proximity::unknown,
                                 proximity::same_numa, proximity::same_switch, proximity::same_host_bridge};
  EXPECT_EQ(order_by_proximity(p), (std::vector<std::size_t>{1, 4, 5, 3, 0, 2}));
  EXPECT_TRUE(order_by_proximity({}).empty());
  EXPECT_EQ(order_by_proximity(std::vector<proximity>(3, proximity::unknown)), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_STREQ(to_string(proximity::same_switch), "same PCIe switch");
  EXPECT_STREQ(to_string(proximity::unknown), "position unknown");
}

// rdma-core's mlx5 sizing: roundup_pow2(wr * wqe_size) / 64 WQEBBs.
std::uint32_t mlx5_sq_wqebbs(std::uint32_t wr, std::uint32_t wqe_size) {
  std::uint64_t bytes = static_cast<std::uint64_t>(wr) * wqe_size, p = 64;
  while (p < bytes) p <<= 1;
  return static_cast<std::uint32_t>(p / 64);
}

TEST(Mlx5Select, SendWrRetryConverges) {
  for (std::uint32_t wqe_size : {64u, 128u, 192u, 256u, 320u})
    for (std::uint32_t log_sq = 2; log_sq <= 15; ++log_sq) {
      const std::uint32_t target = 1u << log_sq;
      std::uint32_t wr = target;
      int tries = 0;
      std::uint32_t got = mlx5_sq_wqebbs(wr, wqe_size);
      while (got != target) {
        const std::uint32_t next = next_send_wr(wr, got, target);
        if (next == 0) break;
        ASSERT_LT(next, wr);
        wr = next;
        got = mlx5_sq_wqebbs(wr, wqe_size);
        ASSERT_LE(++tries, 8);
      }
      // Reachable exactly when one WR's WQE fits the target: then the retry must find it.
      if (mlx5_sq_wqebbs(1, wqe_size) <= target)
        EXPECT_EQ(got, target) << "wqe_size " << wqe_size << " log_sq " << log_sq;
      else
        EXPECT_NE(got, target);
      EXPECT_LE(tries, 2) << "wqe_size " << wqe_size << " log_sq " << log_sq;
    }
  EXPECT_EQ(next_send_wr(16, 16, 64), 0u);  // smaller than wanted: no smaller request helps
  EXPECT_EQ(next_send_wr(1, 4, 2), 0u);     // already at one WR
  EXPECT_EQ(next_send_wr(2, 8, 2), 1u);
  EXPECT_EQ(next_send_wr(64, 256, 64), 16u);
}

TEST(Mlx5Select, AddressRoundTrip) {
  peer_address a;
  a.qpn = 0xabcdef;
  a.psn = 0x123456;
  a.lid = 0xbeef;
  a.port = 2;
  a.link_layer = link_ethernet;
  a.mtu = 3;
  a.max_dest_rd_atomic = 16;
  a.gid_index = 7;
  for (int i = 0; i < 16; ++i) a.gid[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(0xa0 + i);
  const qp_address wire = encode_address(a);
  EXPECT_EQ(wire.bytes[0], 'g');
  EXPECT_EQ(wire.bytes[3], '5');
  EXPECT_EQ(wire.bytes[4], 0xef);  // little-endian QPN
  for (std::size_t i = address_bytes; i < sizeof wire.bytes; ++i) EXPECT_EQ(wire.bytes[i], 0) << i;
  peer_address b;
  std::string why;
  ASSERT_TRUE(decode_address(wire, &b, &why)) << why;
  EXPECT_EQ(b.qpn, a.qpn);
  EXPECT_EQ(b.psn, a.psn);
  EXPECT_EQ(b.lid, a.lid);
  EXPECT_EQ(b.port, a.port);
  EXPECT_EQ(b.link_layer, a.link_layer);
  EXPECT_EQ(b.mtu, a.mtu);
  EXPECT_EQ(b.max_dest_rd_atomic, a.max_dest_rd_atomic);
  EXPECT_EQ(b.gid_index, a.gid_index);
  EXPECT_EQ(b.gid, a.gid);
}

TEST(Mlx5Select, AddressRejectsGarbage) {
  peer_address good;
  good.qpn = 5;
  good.link_layer = link_ib;
  good.mtu = mtu_4096;
  peer_address out;
  std::string why;

  qp_address zero{};
  EXPECT_FALSE(decode_address(zero, &out, &why));
  EXPECT_NE(why.find("magic"), std::string::npos) << why;

  qp_address w = encode_address(good);
  w.bytes[15] = 9;  // link layer
  EXPECT_FALSE(decode_address(w, &out, &why));
  EXPECT_NE(why.find("link layer"), std::string::npos) << why;

  w = encode_address(good);
  w.bytes[16] = 6;  // MTU code beyond 4096
  EXPECT_FALSE(decode_address(w, &out, &why));
  EXPECT_NE(why.find("MTU"), std::string::npos) << why;

  peer_address no_qp = good;
  no_qp.qpn = 0;
  EXPECT_FALSE(decode_address(encode_address(no_qp), &out, &why));
  peer_address wide_psn = good;
  wide_psn.psn = 0x1000000;
  EXPECT_FALSE(decode_address(encode_address(wide_psn), &out, &why));
  EXPECT_TRUE(decode_address(encode_address(good), &out, &why)) << why;
}

TEST(Mlx5Select, PathMtu) {
  EXPECT_EQ(path_mtu(5, 3), 3);
  EXPECT_EQ(path_mtu(1, 5), 1);
  EXPECT_EQ(path_mtu(5, 5), 5);
  EXPECT_EQ(mtu_bytes(1), 256);
  EXPECT_EQ(mtu_bytes(3), 1024);
  EXPECT_EQ(mtu_bytes(5), 4096);
  EXPECT_EQ(mtu_bytes(0), 0);
  EXPECT_EQ(mtu_bytes(6), 0);
}

TEST(Mlx5Select, RoceUdpSourcePort) {
  std::vector<std::uint16_t> seen;
  for (std::uint32_t local = 0x100; local < 0x140; ++local) {
    const std::uint16_t port = roce_udp_sport(local, 0x2345);
    EXPECT_GE(port, 0xc000u);
    EXPECT_EQ(port, roce_udp_sport(local, 0x2345));  // one QP, one port: its packets stay in order
    if (std::find(seen.begin(), seen.end(), port) == seen.end()) seen.push_back(port);
  }
  EXPECT_GT(seen.size(), 48u);  // 64 QPs of one NIC pair spread over many ports (ECMP)
  EXPECT_NE(roce_udp_sport(0x100, 0x2345), roce_udp_sport(0x100, 0x2346));
}

}  // namespace
}  // namespace gio::transports::gda::mlx5_select
