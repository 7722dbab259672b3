// The HDP flush decision of the gda setup (host/transports/gda/gda_setup.cpp, use_hdp): AMD's HDP
// flushes are used only when every PE published a registered register, the same answer on every
// PE; otherwise the reason names the first PE that lacks one, and GIO_GDA_HDP=on makes it an error.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "transports/gda/gda_setup.hpp"

namespace {

namespace gda = gio::transports::gda;
using gda::hdp_card;
using gda::hdp_state;

std::vector<hdp_card> registered(int n) {
  std::vector<hdp_card> cards;
  for (int pe = 0; pe < n; ++pe) cards.push_back({0x7f00'0000'0000ull + 0x1000ull * pe, 0x100u + pe, hdp_state::registered});
  return cards;
}

TEST(GdaHdp, UsedWhenEveryPeRegisteredOne) {
  std::string why = "unchanged";
  for (const char* setting : {"auto", "on"}) {
    EXPECT_TRUE(gda::use_hdp(setting, registered(4), 2, "", &why)) << setting;
  }
  EXPECT_EQ(why, "unchanged");
}

TEST(GdaHdp, OffNeverFlushes) {
  std::string why;
  EXPECT_FALSE(gda::use_hdp("off", registered(2), 0, "", &why));
  EXPECT_EQ(why, "GIO_GDA_HDP=off");
}

// When one PE has no register, the others do not register theirs (`present`): the PE named is the
// one without, wherever it stands.
TEST(GdaHdp, AutoNamesThePeWithoutOne) {
  std::vector<hdp_card> cards(4);
  for (auto& card : cards) card.state = hdp_state::present;
  cards[2].state = hdp_state::absent;
  std::string why;
  EXPECT_FALSE(gda::use_hdp("auto", cards, 0, "", &why));
  EXPECT_EQ(why, "PE 2 has no HDP flush register");
  // Seen from PE 2, its own reason is added.
  EXPECT_FALSE(gda::use_hdp("auto", cards, 2, "NVIDIA GPUs have no HDP", &why));
  EXPECT_EQ(why, "PE 2 has no HDP flush register (NVIDIA GPUs have no HDP)");
}

// Every PE has one, but a NIC refused to register it: that PE is named, with its reason where known.
TEST(GdaHdp, AutoNamesThePeWhoseNicRefused) {
  auto cards = registered(4);
  cards[3].state = hdp_state::refused;
  cards[1].state = hdp_state::refused;
  std::string why;
  EXPECT_FALSE(gda::use_hdp("auto", cards, 0, "", &why));
  EXPECT_EQ(why, "PE 1 could not register its HDP flush register with the NIC");
  EXPECT_FALSE(gda::use_hdp("auto", cards, 1, "ibv_reg_mr: Bad address", &why));
  EXPECT_EQ(why, "PE 1 could not register its HDP flush register with the NIC (ibv_reg_mr: Bad address)");
}

TEST(GdaHdp, OnFailsSayingWhy) {
  auto cards = registered(2);
  cards[0].state = hdp_state::absent;
  std::string why;
  try {
    gda::use_hdp("on", cards, 0, "the software NIC model does not model an HDP", &why);
    FAIL() << "GIO_GDA_HDP=on without a register on PE 0 must throw";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "GIO_GDA_HDP=on, but PE 0 has no HDP flush register (the software NIC model does not model an HDP)");
  }
}

}  // namespace
