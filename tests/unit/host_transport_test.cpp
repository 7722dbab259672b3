// The network transports as the runtime sees them (host/transports/host_transport.hpp): what the
// registry makes, the configuration rows each registers and where they sit in the table, and the
// parts of gda's and ikn's transports that need no NIC (the runtime's order, the peer entry, who
// takes which job, the report).
#include "transports/host_transport.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bootstrap.hpp"
#include "config.hpp"
#include "config_rows.hpp"
#include "transports/gda/gda_setup.hpp"
#include "transports/ikn/ikn_setup.hpp"

namespace gio::transports {
namespace {

// A job's shape without a launcher: what `wanted` reads (sizes); nothing collective is called.
class shape_only : public bootstrap {
 public:
  shape_only(int pes, int node_pes) : pes_(pes), node_pes_(node_pes) {}
  int rank() const override { return 0; }
  int size() const override { return pes_; }
  int node_rank() const override { return 0; }
  int node_size() const override { return node_pes_; }
  int node_id() const override { return 0; }
  void allgather(const void*, void*, std::size_t) override { ADD_FAILURE() << "allgather"; }
  void barrier() override { ADD_FAILURE() << "barrier"; }
  [[noreturn]] void abort_job(int status) override { std::exit(status); }
  const char* name() const override { return "shape_only"; }
  std::unique_ptr<bootstrap> split(int, int) override { return nullptr; }

 private:
  int pes_, node_pes_;
};

config::settings defaults_with(std::string_view transport) {
  config::settings s = config::load([](const char*) -> const char* { return nullptr; });
  s.transport = std::string(transport);
  return s;
}

TEST(HostTransports, TheRegistryMakesGdaThenIkn) {
  const auto all = make_network_transports();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_STREQ(all[0]->name(), "gda");
  EXPECT_EQ(all[0]->kind(), gio::transport::gda);
  // The init error test (tests/mp) and users' logs name these stages.
  EXPECT_STREQ(all[0]->opening_stage(), "opening the NIC for gda");
  EXPECT_STREQ(all[0]->connecting_stage(), "connecting gda queue pairs");
  EXPECT_STREQ(all[1]->name(), "ikn");
  EXPECT_STREQ(all[1]->opening_stage(), "opening the NIC for ikn");
  EXPECT_STREQ(all[1]->connecting_stage(), "connecting ikn queue pairs");
  // Its peers are reached through gda's device tables (the proxy mode): the peer table says gda.
  EXPECT_EQ(all[1]->kind(), gio::transport::gda);
}

TEST(HostTransports, APeerEntryRoutesThroughTheTransportWithNothingMapped) {
  for (const auto& t : make_network_transports()) {
    const peer_info entry = t->peer_entry();
    EXPECT_EQ(entry.heap_base, nullptr) << t->name();
    EXPECT_EQ(entry.transport, static_cast<std::uint32_t>(gio::transport::gda)) << t->name();
    EXPECT_TRUE(entry.caps & peer_native_atomics) << t->name();
    EXPECT_FALSE(entry.caps & peer_load_store) << t->name();
  }
}

// GIO_TRANSPORT=gda forces gda, =ikn ikn, each over every other PE; auto lets load/store go first.
TEST(HostTransports, EachTakesEveryPeerOnlyWhenItIsForced) {
  const auto all = make_network_transports();
  EXPECT_FALSE(all[0]->takes_every_peer(defaults_with("auto")));
  EXPECT_TRUE(all[0]->takes_every_peer(defaults_with("gda")));
  EXPECT_FALSE(all[0]->takes_every_peer(defaults_with("ikn")));
  EXPECT_FALSE(all[1]->takes_every_peer(defaults_with("auto")));
  EXPECT_FALSE(all[1]->takes_every_peer(defaults_with("gda")));
  EXPECT_TRUE(all[1]->takes_every_peer(defaults_with("ikn")));
}

// One PE is never a network job, whatever GIO_TRANSPORT says: nothing to reach.
TEST(HostTransports, OnePeWantsNoNetwork) {
  const std::unique_ptr<bootstrap> one = make_bootstrap("single");
  for (const auto& t : make_network_transports())
    for (const char* mode : {"auto", "gda", "ikn"})
      EXPECT_FALSE(t->wanted(defaults_with(mode), *one)) << t->name() << " " << mode;
}

// The runtime runs one network transport at a time (the first that is on takes the peers, and
// each publishes its device tables): whatever GIO_TRANSPORT says and however the PEs sit on
// nodes, no two registered transports are wanted together.
TEST(HostTransports, NoTwoAreWantedTogether) {
  const auto all = make_network_transports();
  const auto& table = config::table();
  const auto row = std::find_if(table.begin(), table.end(),
                                [](const config::variable& v) { return std::string(v.name) == "GIO_TRANSPORT"; });
  ASSERT_NE(row, table.end());
  ASSERT_NE(row->choices, nullptr);
  const auto choices = config::split_choices(row->choices);
  EXPECT_GE(choices.size(), 3u) << row->choices;
  for (const std::string_view choice : choices)
    for (const auto& [pes, node_pes] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{4, 2}, std::pair{8, 1}}) {
      const shape_only boot(pes, node_pes);
      int wanted = 0;
      for (const auto& t : all) wanted += t->wanted(defaults_with(choice), boot) ? 1 : 0;
      EXPECT_LE(wanted, 1) << "GIO_TRANSPORT=" << choice << ", " << pes << " PEs, " << node_pes << " per node";
    }
}

// Which transport a job of several PEs wants: gda across nodes (auto) or when forced, ikn only
// when asked for.
TEST(HostTransports, AJobWantsGdaOrIkn) {
  const auto all = make_network_transports();
  struct job {
    int pes, node_pes;
  };
  for (const job j : {job{2, 2}, job{4, 2}}) {
    const shape_only boot(j.pes, j.node_pes);
    const bool across_nodes = j.node_pes != j.pes;
    EXPECT_EQ(all[0]->wanted(defaults_with("auto"), boot), across_nodes) << j.pes;
    EXPECT_FALSE(all[1]->wanted(defaults_with("auto"), boot)) << j.pes;
    EXPECT_TRUE(all[0]->wanted(defaults_with("gda"), boot)) << j.pes;
    EXPECT_FALSE(all[1]->wanted(defaults_with("gda"), boot)) << j.pes;
    EXPECT_FALSE(all[0]->wanted(defaults_with("ikn"), boot)) << j.pes;
    EXPECT_TRUE(all[1]->wanted(defaults_with("ikn"), boot)) << j.pes;
  }
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
  EXPECT_EQ(all[0]->report(defaults_with("ikn"), transport_state{}), "gda not used (GIO_TRANSPORT=ikn)");
}

TEST(HostTransports, IknReportsWhyItIsOffOrNotUsed) {
  const auto all = make_network_transports();
  transport_state state;
  EXPECT_EQ(all[1]->report(defaults_with("auto"), state), "ikn not used (GIO_TRANSPORT=ikn selects it)");
  EXPECT_EQ(all[1]->report(defaults_with("ikn"), state), "ikn not needed (one PE)");
  state.wanted = true;
  state.off_reason = "PE 0 has no usable RDMA device";
  EXPECT_EQ(all[1]->report(defaults_with("ikn"), state), "ikn off: PE 0 has no usable RDMA device");
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
