// The network transports as the runtime sees them (host/transports/host_transport.hpp): what the
// registry makes, the configuration rows each registers and where they sit in the table, and the
// parts of gda's transport that need no NIC (the runtime's order, the peer entry, the report).
#include "transports/host_transport.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bootstrap.hpp"
#include "config.hpp"
#include "config_rows.hpp"
#include "transports/gda/gda_setup.hpp"

namespace gio::transports {
namespace {

config::settings defaults_with(const char* transport) {
  config::settings s = config::load([](const char*) -> const char* { return nullptr; });
  s.transport = transport;
  return s;
}

TEST(HostTransports, TheRegistryMakesGda) {
  const auto all = make_network_transports();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_STREQ(all[0]->name(), "gda");
  EXPECT_EQ(all[0]->kind(), gio::transport::gda);
  // The init error test (tests/mp) and users' logs name these stages.
  EXPECT_STREQ(all[0]->opening_stage(), "opening the NIC for gda");
  EXPECT_STREQ(all[0]->connecting_stage(), "connecting gda queue pairs");
}

TEST(HostTransports, APeerEntryRoutesThroughTheTransportWithNothingMapped) {
  const auto all = make_network_transports();
  const peer_info entry = all[0]->peer_entry();
  EXPECT_EQ(entry.heap_base, nullptr);
  EXPECT_EQ(entry.transport, static_cast<std::uint32_t>(gio::transport::gda));
  EXPECT_TRUE(entry.caps & peer_native_atomics);
  EXPECT_FALSE(entry.caps & peer_load_store);
}

TEST(HostTransports, GdaTakesEveryPeerOnlyWhenForced) {
  const auto all = make_network_transports();
  EXPECT_FALSE(all[0]->takes_every_peer(defaults_with("auto")));
  EXPECT_TRUE(all[0]->takes_every_peer(defaults_with("gda")));
  EXPECT_TRUE(all[0]->takes_every_peer(defaults_with("ikn")));
}

// One PE is never a network job, whatever GIO_TRANSPORT says: nothing to reach.
TEST(HostTransports, OnePeWantsNoNetwork) {
  const std::unique_ptr<bootstrap> one = make_bootstrap("single");
  const auto all = make_network_transports();
  for (const char* mode : {"auto", "gda", "ikn"}) EXPECT_FALSE(all[0]->wanted(defaults_with(mode), *one)) << mode;
}

// Its part of gio's heap area is gda's plan, whatever offset the runtime gives it.
TEST(HostTransports, GdaPlansItsHeapAreaFromTheSettingsAlone) {
  const auto all = make_network_transports();
  const config::settings s = defaults_with("gda");
  for (int pes : {2, 4, 64}) {
    const std::size_t bytes = all[0]->plan_heap_area(s, pes, 4096);
    EXPECT_EQ(bytes, gda::plan_heap_area(s, pes).bytes) << pes;
    EXPECT_EQ(bytes % 4096, 0u) << pes;
    EXPECT_GE(bytes, static_cast<std::size_t>(s.gda.contexts) * s.gda.bounce) << pes;
  }
}

TEST(HostTransports, GdaReportsWhyItIsOffOrNotNeeded) {
  const auto all = make_network_transports();
  const config::settings s = defaults_with("auto");
  transport_state state;
  EXPECT_EQ(all[0]->report(s, state), "gda not needed (every PE on this node; GIO_TRANSPORT=gda forces it)");
  state.wanted = true;
  state.off_reason = "PE 1 has no usable RDMA device";
  EXPECT_EQ(all[0]->report(s, state), "gda off: PE 1 has no usable RDMA device");
  EXPECT_STREQ(all[0]->missing_on_a_pe(), "has no usable RDMA device");
}

// The transports' rows sit in the table where gio-info has always listed them: after
// GIO_TRANSPORT, before GIO_NET_BUFFERS, in the registry's order.
TEST(HostTransports, TheirConfigurationRowsAreInTheTable) {
  const std::vector<config::binding> rows = network_config_rows();
  ASSERT_FALSE(rows.empty());
  for (const auto& row : rows) EXPECT_EQ(std::string(row.var.name).rfind("GIO_GDA_", 0), 0u) << row.var.name;
  const auto& table = config::table();
  const auto at = [&](const char* name) {
    return std::find_if(table.begin(), table.end(), [&](const config::variable& v) { return std::string(v.name) == name; }) -
           table.begin();
  };
  const auto first = at(rows.front().var.name);
  EXPECT_EQ(first, at("GIO_TRANSPORT") + 1);
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_STREQ(table[first + i].name, rows[i].var.name);
  EXPECT_EQ(at("GIO_NET_BUFFERS"), first + static_cast<std::ptrdiff_t>(rows.size()));
}

// A row the transport registers stores into its own part of the settings.
TEST(HostTransports, TheirRowsFillTheirSettings) {
  const config::settings s = config::load([](const char* name) -> const char* {
    const std::string n = name;
    return n == "GIO_GDA_CONTEXTS" ? "3" : n == "GIO_GDA_NIC" ? "mlx5_1" : nullptr;
  });
  EXPECT_EQ(s.gda.contexts, 3);
  EXPECT_EQ(s.gda.nic, "mlx5_1");
}

}  // namespace
}  // namespace gio::transports
