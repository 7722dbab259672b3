// The pure decisions behind the mlx5 NIC (mlx5_nic.cpp), apart from rdma-core so that a CPU unit
// test can check them (tests/unit/mlx5_nic_select_test.cpp): the GIO_GDA_NIC / _EXCLUDE lists,
// the RoCE GID choice, the NIC-to-GPU proximity order, the SQ sizing retry, and the fixed-size
// address two QPs exchange to connect. No verbs types here: values that mirror rdma-core enums
// are static_assert'ed against verbs.h in mlx5_nic.cpp. Private to the host runtime.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "topology.hpp"
#include "transports/gda/nic.hpp"

namespace gio::transports::gda::mlx5_select {

// ---- device name lists -----------------------------------------------------------------------

// "mlx5_0, mlx5_2,," -> {"mlx5_0", "mlx5_2"}: comma-separated, blanks around names ignored.
inline std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    std::size_t a = begin, b = end;
    while (a < b && (list[a] == ' ' || list[a] == '\t')) ++a;
    while (b > a && (list[b - 1] == ' ' || list[b - 1] == '\t')) --b;
    if (b > a) names.push_back(list.substr(a, b - a));
    begin = end + 1;
  }
  return names;
}

inline bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Why `name` may not be used under the include/exclude lists; empty when it may.
// An empty include list means "any"; exclude wins over include.
inline std::string filter_reason(const std::string& name, const std::vector<std::string>& include,
                                 const std::vector<std::string>& exclude) {
  if (contains(exclude, name)) return "excluded by GIO_GDA_NIC_EXCLUDE";
  if (!include.empty() && !contains(include, name)) return "not listed in GIO_GDA_NIC";
  return {};
}

// ---- RoCE GID choice ------------------------------------------------------------------------

using gid_bytes = std::array<std::uint8_t, 16>;

enum class gid_type : std::uint8_t { unknown = 0, ib, roce_v1, roce_v2 };

struct gid_entry {
  int index = -1;
  gid_bytes gid{};
  gid_type type = gid_type::unknown;
  bool valid = false;  // the table slot is populated (query succeeded, GID not all zero)
};

inline bool is_zero(const gid_bytes& g) {
  return std::all_of(g.begin(), g.end(), [](std::uint8_t b) { return b == 0; });
}

// ::ffff:a.b.c.d (the GID of an IPv4 address on a RoCE v2 port).
inline bool is_ipv4_mapped(const gid_bytes& g) {
  for (int i = 0; i < 10; ++i)
    if (g[i] != 0) return false;
  return g[10] == 0xff && g[11] == 0xff;
}

struct gid_choice {
  int index = -1;   // -1: none, `why` says why
  std::string why;
};

// `requested` >= 0 (GIO_GDA_GID_INDEX): that entry, whatever its type, if it is populated.
// Otherwise the first RoCE v2 GID that maps an IPv4 address, else the first RoCE v2 GID. RoCE v1
// (layer-2 only, not routable) is never picked on its own: it must be asked for by index.
inline gid_choice choose_gid(const std::vector<gid_entry>& table, int requested) {
  gid_choice choice;
  if (requested >= 0) {
    for (const gid_entry& e : table)
      if (e.index == requested) {
        if (e.valid)
          choice.index = requested;
        else
          choice.why = "GID index " + std::to_string(requested) + " (GIO_GDA_GID_INDEX) is empty";
        return choice;
      }
    choice.why = "GID index " + std::to_string(requested) + " (GIO_GDA_GID_INDEX) is beyond the port's table of " +
                 std::to_string(table.size());
    return choice;
  }
  for (const gid_entry& e : table)
    if (e.valid && e.type == gid_type::roce_v2 && is_ipv4_mapped(e.gid)) {
      choice.index = e.index;
      return choice;
    }
  for (const gid_entry& e : table)
    if (e.valid && e.type == gid_type::roce_v2) {
      choice.index = e.index;
      return choice;
    }
  int populated = 0;
  for (const gid_entry& e : table) populated += e.valid ? 1 : 0;
  choice.why = populated == 0 ? "no GID configured (no IP address on the port's netdev?)"
                              : "no RoCE v2 GID among " + std::to_string(populated) +
                                    " populated entries (set GIO_GDA_GID_INDEX to use another)";
  return choice;
}

// ---- NIC-to-GPU proximity ---------------------------------------------------------------------

// The topology module's measure (topology.hpp), higher nearer.
using proximity = pci_proximity;
using gio::to_string;

// Indexes of `candidates` nearest first; equals keep their order (rdma-core's device order).
inline std::vector<std::size_t> order_by_proximity(const std::vector<proximity>& candidates) {
  std::vector<std::size_t> order(candidates.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return static_cast<int>(candidates[a]) > static_cast<int>(candidates[b]);
  });
  return order;
}

// ---- send queue sizing --------------------------------------------------------------------------

// rdma-core's mlx5 provider sizes an SQ as roundup_pow2(max_send_wr * max WQE size) / 64 WQEBBs,
// where the max WQE size of an RC QP covers UMR/memory-window WQEs (several basic blocks). gio
// posts only one-basic-block WQEs and needs exactly `target` WQEBBs, so max_send_wr is scaled
// down by the ratio seen and the QP created again. Returns the next max_send_wr to try, or 0 when
// no smaller request can help (got < target, or already at 1).
inline std::uint32_t next_send_wr(std::uint32_t tried_wr, std::uint32_t got_wqebbs, std::uint32_t target_wqebbs) {
  if (got_wqebbs <= target_wqebbs || tried_wr <= 1 || target_wqebbs == 0) return 0;
  // got > target, so this is < tried_wr: every retry asks for fewer WRs and the loop ends.
  const std::uint64_t next = static_cast<std::uint64_t>(tried_wr) * target_wqebbs / got_wqebbs;
  return next == 0 ? 1 : static_cast<std::uint32_t>(next);
}

// ---- the connection address -----------------------------------------------------------------

// Values mirror rdma-core (checked in mlx5_nic.cpp): IBV_LINK_LAYER_INFINIBAND / _ETHERNET and
// enum ibv_mtu (1 = 256 ... 5 = 4096).
inline constexpr std::uint8_t link_ib = 1;
inline constexpr std::uint8_t link_ethernet = 2;
inline constexpr std::uint8_t mtu_256 = 1;
inline constexpr std::uint8_t mtu_4096 = 5;

struct peer_address {
  std::uint32_t qpn = 0;
  std::uint32_t psn = 0;             // 24 bits: the peer's first send PSN = our expected receive PSN
  std::uint16_t lid = 0;             // InfiniBand
  std::uint8_t port = 0;
  std::uint8_t link_layer = 0;       // link_ib or link_ethernet
  std::uint8_t mtu = 0;              // the port's active MTU (enum ibv_mtu)
  std::uint8_t max_dest_rd_atomic = 0;  // reads/atomics the peer will accept in flight from us
  std::uint8_t gid_index = 0;        // informational (the sender's own sgid index)
  gid_bytes gid{};                   // RoCE: the peer's GID; InfiniBand: its port GID (subnet prefix)
};

// Layout in qp_address::bytes, little-endian fields (all PEs of a job share the host ABI):
//   0 magic "gio5" | 4 qpn | 8 psn | 12 lid (2) | 14 port | 15 link layer | 16 mtu |
//   17 max_dest_rd_atomic | 18 gid index | 19 reserved | 20 gid (16) | 36..63 zero
inline constexpr std::uint32_t address_magic = 0x356f6967;  // "gio5"
inline constexpr std::size_t address_bytes = 36;
static_assert(address_bytes <= sizeof(qp_address::bytes), "the mlx5 address must fit qp_address");

namespace detail {
template <typename T>
void put(std::uint8_t* at, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) at[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i));
}
template <typename T>
T get(const std::uint8_t* at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<std::uint64_t>(at[i]) << (8 * i);
  return static_cast<T>(v);
}
}  // namespace detail

inline qp_address encode_address(const peer_address& a) {
  qp_address out;
  std::memset(out.bytes, 0, sizeof out.bytes);
  detail::put<std::uint32_t>(out.bytes + 0, address_magic);
  detail::put<std::uint32_t>(out.bytes + 4, a.qpn);
  detail::put<std::uint32_t>(out.bytes + 8, a.psn);
  detail::put<std::uint16_t>(out.bytes + 12, a.lid);
  out.bytes[14] = a.port;
  out.bytes[15] = a.link_layer;
  out.bytes[16] = a.mtu;
  out.bytes[17] = a.max_dest_rd_atomic;
  out.bytes[18] = a.gid_index;
  std::memcpy(out.bytes + 20, a.gid.data(), 16);
  return out;
}

// False with `why` when the bytes are not an mlx5 address gio wrote (another transport's or NIC
// model's address, a different gio version, or garbage).
inline bool decode_address(const qp_address& in, peer_address* a, std::string* why) {
  if (detail::get<std::uint32_t>(in.bytes + 0) != address_magic) {
    *why = "not an mlx5 QP address of this gio version (magic mismatch)";
    return false;
  }
  peer_address r;
  r.qpn = detail::get<std::uint32_t>(in.bytes + 4);
  r.psn = detail::get<std::uint32_t>(in.bytes + 8);
  r.lid = detail::get<std::uint16_t>(in.bytes + 12);
  r.port = in.bytes[14];
  r.link_layer = in.bytes[15];
  r.mtu = in.bytes[16];
  r.max_dest_rd_atomic = in.bytes[17];
  r.gid_index = in.bytes[18];
  std::memcpy(r.gid.data(), in.bytes + 20, 16);
  if (r.link_layer != link_ib && r.link_layer != link_ethernet) {
    *why = "unknown link layer " + std::to_string(r.link_layer);
    return false;
  }
  if (r.mtu < mtu_256 || r.mtu > mtu_4096) {
    *why = "invalid MTU code " + std::to_string(r.mtu);
    return false;
  }
  if (r.qpn == 0 || r.qpn > 0xffffff || r.psn > 0xffffff) {
    *why = "QPN or PSN out of range";
    return false;
  }
  *a = r;
  return true;
}

// Path MTU of a connection: the smaller active MTU, at most 4096 (enum ibv_mtu codes).
inline std::uint8_t path_mtu(std::uint8_t mine, std::uint8_t theirs) {
  return std::min<std::uint8_t>(std::min(mine, theirs), mtu_4096);
}

// RoCEv2 UDP source port of a DevX QP (the verbs path leaves it to the kernel): a hash of the two
// QP numbers in 0xC000..0xFFFF, the range RoCEv2 reserves for it, so that the QPs of one pair of
// NICs spread over ECMP paths while each QP's packets keep one path (in order).
inline std::uint16_t roce_udp_sport(std::uint32_t local_qpn, std::uint32_t remote_qpn) {
  std::uint32_t h = local_qpn * 0x9e3779b1u ^ remote_qpn * 0x85ebca77u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 13;
  return static_cast<std::uint16_t>(0xc000u | (h & 0x3fffu));
}

inline int mtu_bytes(std::uint8_t code) { return code >= mtu_256 && code <= mtu_4096 ? 128 << code : 0; }

}  // namespace gio::transports::gda::mlx5_select
