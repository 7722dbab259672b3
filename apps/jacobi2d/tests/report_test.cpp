// The CSV row, the weak-scaling baseline lookup and the breakdown arithmetic.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/report.hpp"

namespace jacobi {
namespace {

measurement sample(int devices, extent size, double us) {
  measurement m;
  m.variant = "gio";
  m.halo = "signal";
  m.parts = "all";
  m.size = size;
  m.pes = devices;
  m.devices = devices;
  m.grid = {devices, 1};
  m.shape = {256, 512, "16x16 tiles of 64x64"};
  m.iterations = 1000;
  m.residual = 0.125;
  m.reps = 3;
  m.us_per_iteration = us;
  m.us_min = us;
  m.us_max = us;
  return m;
}

TEST(Report, CsvRowHasOneFieldPerColumn) {
  const measurement m = sample(2, {2048, 1024}, 12.5);
  const std::vector<std::string> fields = csv_fields(m);
  ASSERT_EQ(fields.size(), csv_columns().size());
  const auto field = [&](const char* name) {
    for (std::size_t i = 0; i < csv_columns().size(); ++i)
      if (csv_columns()[i] == name) return fields[i];
    return std::string("(no column)");
  };
  EXPECT_EQ(field("points_per_device"), "1048576");
  EXPECT_EQ(field("pe_grid"), "2x1");
  EXPECT_EQ(field("us_per_iteration"), "12.5000");
  EXPECT_EQ(field("residual"), "0.125");
  EXPECT_EQ(field("efficiency"), "");
  EXPECT_EQ(field("check"), "-");
}

TEST(Report, BaselineIsTheLatestOneDeviceRowOfTheSameKind) {
  const std::string path = ::testing::TempDir() + "jacobi_baseline.csv";
  std::remove(path.c_str());
  {
    support::csv_appender out(path, csv_columns());
    out.row(csv_fields(sample(1, {1024, 1024}, 10.0)));
    out.row(csv_fields(sample(1, {2048, 2048}, 40.0)));  // other points per device
    measurement p = sample(1, {1024, 1024}, 11.0);
    p.halo = "p";  // other halo transfer
    out.row(csv_fields(p));
    out.row(csv_fields(sample(1, {1024, 1024}, 9.0)));   // the latest matching row
    out.row(csv_fields(sample(2, {2048, 1024}, 9.5)));   // not one device
  }
  const support::csv_table table = support::read_csv(path);
  const std::optional<double> baseline = find_baseline_us(table, sample(2, {2048, 1024}, 9.9));
  ASSERT_TRUE(baseline.has_value());
  EXPECT_DOUBLE_EQ(*baseline, 9.0);
  measurement other = sample(2, {2048, 1024}, 9.9);
  other.parts = "no-comm";
  EXPECT_FALSE(find_baseline_us(table, other).has_value());
  EXPECT_FALSE(find_baseline_us(support::csv_table{}, other).has_value());
}

TEST(Report, BreakdownOfTheFourRuns) {
  // Inter-K without overlap: the parts add up to the total.
  const breakdown serial = break_down(20.0, 12.0, 13.0, 5.0);
  EXPECT_DOUBLE_EQ(serial.compute, 7.0);
  EXPECT_DOUBLE_EQ(serial.comm, 8.0);
  EXPECT_DOUBLE_EQ(serial.overhead, 5.0);
  EXPECT_DOUBLE_EQ(serial.hidden, 0.0);
  // With overlap the total is less than the sum: the difference was hidden.
  EXPECT_DOUBLE_EQ(break_down(15.0, 12.0, 13.0, 5.0).hidden, 5.0);
}

TEST(Report, MedianAndPartsNames) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_STREQ(parts_name({true, true}), "all");
  EXPECT_STREQ(parts_name({true, false}), "no-comm");
  EXPECT_STREQ(parts_name({false, true}), "no-compute");
  EXPECT_STREQ(parts_name({false, false}), "none");
}

}  // namespace
}  // namespace jacobi
