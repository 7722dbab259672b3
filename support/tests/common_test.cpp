// Unit tests of the apps' shared utilities that need no MPI job: options, CSV files, progress line.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "support/csv.hpp"
#include "support/network_label.hpp"
#include "support/options.hpp"
#include "support/progress.hpp"

namespace {

struct parsed {
  bool verbose = false;
  std::int64_t count = 1;
  std::string name = "x";
};

support::option_parser make_parser(parsed& p) {
  support::option_parser parser("prog", "Does things.");
  parser.flag("--verbose", "say more", [&] { p.verbose = true; });
  parser.value("--count", "N", "how many\nsecond line", [&](const std::string& v) { p.count = support::parse_positive("--count", v); });
  parser.value("--name", "NAME", "a name", [&](const std::string& v) { p.name = v; });
  parser.epilogue("Exit status: 0.");
  return parser;
}

bool parse(const support::option_parser& parser, std::vector<const char*> args) {
  args.insert(args.begin(), "prog");
  return parser.parse(static_cast<int>(args.size()), args.data());
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const support::usage_error& e) {
    return e.what();
  }
  return "(no usage_error)";
}

TEST(OptionParser, FlagsAndBothValueForms) {
  parsed p;
  const auto parser = make_parser(p);
  EXPECT_TRUE(parse(parser, {"--verbose", "--count", "7", "--name=abc"}));
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.count, 7);
  EXPECT_EQ(p.name, "abc");
  EXPECT_TRUE(parse(parser, {"--count=3", "--count", "4"}));  // the later one wins
  EXPECT_EQ(p.count, 4);
}

TEST(OptionParser, HelpStopsParsing) {
  parsed p;
  const auto parser = make_parser(p);
  EXPECT_FALSE(parse(parser, {"--help", "--bogus"}));
  EXPECT_FALSE(parse(parser, {"-h"}));
}

TEST(OptionParser, ErrorsNameTheOption) {
  parsed p;
  const auto parser = make_parser(p);
  EXPECT_EQ(message_of([&] { parse(parser, {"--bogus"}); }), "unknown option '--bogus'");
  EXPECT_EQ(message_of([&] { parse(parser, {"--count"}); }), "--count needs a value (N)");
  EXPECT_EQ(message_of([&] { parse(parser, {"--verbose=1"}); }), "--verbose takes no value");
  EXPECT_EQ(message_of([&] { parse(parser, {"--count", "0"}); }), "--count: '0' is not a positive whole number");
}

TEST(OptionParser, HelpListsEveryOptionInOrder) {
  parsed p;
  const auto parser = make_parser(p);
  const std::string help = parser.help();
  std::size_t at = 0;
  for (const std::string& name : parser.names()) {
    const std::size_t found = help.find("  " + name, at);
    ASSERT_NE(found, std::string::npos) << name;
    at = found;
  }
  EXPECT_NE(help.find("Usage: prog [options]\nDoes things."), std::string::npos);
  EXPECT_NE(help.find("  --count N               how many\n                          second line\n"), std::string::npos) << help;
  EXPECT_NE(help.find("--help"), std::string::npos);
  EXPECT_NE(help.find("Exit status: 0.\n"), std::string::npos);
}

TEST(ValueParsers, WholeNumbersWithSuffixes) {
  EXPECT_EQ(support::parse_positive("-o", "12"), 12);
  EXPECT_EQ(support::parse_positive("-o", "4K"), 4096);
  EXPECT_EQ(support::parse_positive("-o", "2M"), 2 << 20);
  EXPECT_EQ(support::parse_non_negative("-o", "0"), 0);
  for (const char* bad : {"", "-1", " 3", "3x", "1.5", "K", "+4"})
    EXPECT_THROW(support::parse_positive("-o", bad), support::usage_error) << bad;
  EXPECT_THROW(support::parse_positive("-o", "0"), support::usage_error);
  EXPECT_THROW(support::parse_positive("-o", "99999999999999999999"), support::usage_error);
  EXPECT_THROW(support::parse_positive("-o", "9000000000G"), support::usage_error);
}

TEST(ValueParsers, NumbersExtentsChoices) {
  EXPECT_DOUBLE_EQ(support::parse_number("-t", "1e-6"), 1e-6);
  EXPECT_THROW(support::parse_number("-t", "inf"), support::usage_error);
  EXPECT_THROW(support::parse_number("-t", "1e-6x"), support::usage_error);
  using extent = std::pair<std::int64_t, std::int64_t>;
  EXPECT_EQ(support::parse_extent("-s", "4Kx2K"), extent(4096, 2048));
  EXPECT_EQ(support::parse_extent("-s", "100"), extent(100, 100));
  for (const char* bad : {"x5", "5x", "5x5x5", "0x4"}) EXPECT_THROW(support::parse_extent("-s", bad), support::usage_error) << bad;
  EXPECT_EQ(support::parse_choice("-m", "p", {"signal", "p"}), "p");
  EXPECT_EQ(message_of([] { support::parse_choice("-m", "q", {"signal", "p"}); }), "-m: 'q' is not one of signal, p");
}

std::string temp_path(const char* name) { return ::testing::TempDir() + name; }

TEST(Csv, AppendsUnderOneHeaderAndQuotes) {
  const std::string path = temp_path("apps_common_append.csv");
  std::remove(path.c_str());
  {
    support::csv_appender out(path, {"a", "b"});
    out.row({"1", "x,y"});
  }
  {
    support::csv_appender out(path, {"a", "b"});  // an existing file: no second header
    out.row({"2", "say \"hi\""});
  }
  const support::csv_table table = support::read_csv(path);
  ASSERT_EQ(table.columns, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0], (std::vector<std::string>{"1", "x,y"}));
  EXPECT_EQ(table.rows[1], (std::vector<std::string>{"2", "say \"hi\""}));
  EXPECT_EQ(table.column("b"), 1);
  EXPECT_EQ(table.column("c"), -1);
}

TEST(Csv, ReplaceStartsTheFileAfresh) {
  const std::string path = temp_path("apps_common_replace.csv");
  std::ofstream(path) << "x,y,z\n1,2,3\n";  // other columns: replaced, not refused
  for (const char* value : {"1", "2"}) {
    support::csv_appender out(path, {"a", "b"}, support::csv_open::replace);
    out.row({value, "x"});
  }
  const support::csv_table table = support::read_csv(path);
  ASSERT_EQ(table.columns, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0], (std::vector<std::string>{"2", "x"}));
}

TEST(Csv, RefusesAFileWithOtherColumns) {
  const std::string path = temp_path("apps_common_other.csv");
  std::ofstream(path) << "x,y,z\n1,2,3\n";
  EXPECT_THROW(support::csv_appender(path, {"a", "b"}), std::runtime_error);
  EXPECT_TRUE(support::read_csv(temp_path("does_not_exist.csv")).columns.empty());
}

std::string progress_output(double silent_seconds, std::int64_t done) {
  std::FILE* file = std::tmpfile();
  {
    support::progress_line line("relax", 200, true, file, silent_seconds);
    line.update(done);
  }
  std::rewind(file);
  char buffer[256] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, file);
  std::fclose(file);
  return std::string(buffer, n);
}

TEST(ProgressLine, SilentForShortRunsThenShowsTheCount) {
  EXPECT_EQ(progress_output(1000.0, 50), "");
  const std::string shown = progress_output(0.0, 50);
  EXPECT_EQ(shown.rfind("relax: 50/200 (25%), ", 0), 0u) << shown;
  EXPECT_EQ(shown.back(), '\n');  // not a terminal: whole lines
}

TEST(ProgressLine, DisabledPrintsNothing) {
  std::FILE* file = std::tmpfile();
  {
    support::progress_line line("relax", 10, false, file, 0.0);
    line.update(5);
  }
  EXPECT_EQ(std::ftell(file), 0);
  std::fclose(file);
}

// The network lines gio-info printed on one GPU over the model (docs/results/session37/c3.log),
// and the ones of a job without a network transport.
TEST(NetworkLabel, NamesTheTransportThatIsOn) {
  const std::string model = " over software NIC model (test-only, GPU kernel engine), 8 contexts, SQ depth 256";
  EXPECT_STREQ(support::gio_network_label("gda (direct)" + model + "; ikn not used (GIO_TRANSPORT=ikn selects it)"),
               "gio-gda-model");
  EXPECT_STREQ(support::gio_network_label("gda not used (GIO_TRANSPORT=ikn); ikn (gda's queue pairs, WQEs posted by "
                                          "a CPU proxy)" + model),
               "gio-ikn-model");
  EXPECT_STREQ(support::gio_network_label("gda (direct) over mlx5_0 (ConnectX-7), 8 contexts"), "gio-gda");
  EXPECT_STREQ(support::gio_network_label("gda not used (GIO_TRANSPORT=ikn); ikn (gda's queue pairs) over mlx5_1"),
               "gio-ikn");
}

TEST(NetworkLabel, NoneWhenNoTransportIsOn) {
  EXPECT_EQ(support::gio_network_label(""), nullptr);
  EXPECT_EQ(support::gio_network_label("gda not needed (every PE on this node; GIO_TRANSPORT=gda forces it); ikn not "
                                       "used (GIO_TRANSPORT=ikn selects it)"),
            nullptr);
  EXPECT_EQ(support::gio_network_label("gda off: PE 1 has no usable RDMA device; ikn not used (GIO_TRANSPORT=ikn "
                                       "selects it)"),
            nullptr);
}

}  // namespace
