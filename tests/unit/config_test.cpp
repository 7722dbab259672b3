// The GIO_* table: parsing of each kind, defaults, error messages, describe().
#include "config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gio::config {
namespace {

// An environment made of a map, so tests never depend on (or touch) the real one.
class fake_env {
 public:
  using entries = std::initializer_list<std::pair<const std::string, std::string>>;
  explicit fake_env(entries values) : values_(values) {}
  env_lookup lookup() const {
    return [this](const char* name) -> const char* {
      const auto it = values_.find(name);
      return it == values_.end() ? nullptr : it->second.c_str();
    };
  }

 private:
  std::map<std::string, std::string> values_;
};

std::string load_error(fake_env::entries values) {
  const fake_env env(values);
  try {
    load(env.lookup());
  } catch (const config_error& e) {
    return e.what();
  }
  return "(no error)";
}

constexpr std::size_t KiB = std::size_t{1} << 10;
constexpr std::size_t MiB = std::size_t{1} << 20;
constexpr std::size_t GiB = std::size_t{1} << 30;
constexpr std::size_t TiB = std::size_t{1} << 40;

TEST(ConfigParseSize, PlainBytes) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("4096B"), 4096u);
  EXPECT_EQ(parse_size(" 12 "), 12u);
}

TEST(ConfigParseSize, BinaryUnitsAnyCase) {
  EXPECT_EQ(parse_size("64K"), 64 * KiB);
  EXPECT_EQ(parse_size("64k"), 64 * KiB);
  EXPECT_EQ(parse_size("2M"), 2 * MiB);
  EXPECT_EQ(parse_size("2G"), 2 * GiB);
  EXPECT_EQ(parse_size("1T"), TiB);
  EXPECT_EQ(parse_size("512MB"), 512 * MiB);
  EXPECT_EQ(parse_size("512mb"), 512 * MiB);
  EXPECT_EQ(parse_size("512MiB"), 512 * MiB);
  EXPECT_EQ(parse_size("3gib"), 3 * GiB);
}

TEST(ConfigParseSize, RejectsMalformed) {
  for (const char* bad : {"", " ", "G", "12Q", "-1", "+5", "1.5G", "2 G", "2GG", "2iB", "0x10", "2GiBs", "1e3"}) {
    EXPECT_EQ(parse_size(bad), std::nullopt) << '"' << bad << '"';
  }
}

TEST(ConfigParseSize, RejectsOverflow) {
  EXPECT_EQ(parse_size("16777215T"), 16777215 * TiB);  // the largest whole TiB count in 64 bits
  EXPECT_EQ(parse_size("16777216T"), std::nullopt);
  EXPECT_EQ(parse_size("18446744073709551615"), std::size_t(-1));
  EXPECT_EQ(parse_size("18446744073709551616"), std::nullopt);
  EXPECT_EQ(parse_size("99999999999999999999999K"), std::nullopt);
}

TEST(ConfigParseDuration, Units) {
  EXPECT_EQ(parse_duration_ns("100ns"), 100u);
  EXPECT_EQ(parse_duration_ns("20us"), 20'000u);
  EXPECT_EQ(parse_duration_ns("500ms"), 500'000'000u);
  EXPECT_EQ(parse_duration_ns("10s"), 10'000'000'000u);
  EXPECT_EQ(parse_duration_ns("2m"), 120'000'000'000u);
}

TEST(ConfigParseDuration, PlainNumberIsSecondsAndZeroIsUnbounded) {
  EXPECT_EQ(parse_duration_ns("3"), 3'000'000'000u);
  EXPECT_EQ(parse_duration_ns("0"), 0u);
  EXPECT_EQ(parse_duration_ns("0s"), 0u);
}

TEST(ConfigParseDuration, Fractions) {
  EXPECT_EQ(parse_duration_ns("1.5s"), 1'500'000'000u);
  EXPECT_EQ(parse_duration_ns("0.25ms"), 250'000u);
  EXPECT_EQ(parse_duration_ns(".5"), 500'000'000u);
  EXPECT_EQ(parse_duration_ns("2.5us"), 2'500u);
  EXPECT_EQ(parse_duration_ns("1.0000000001s"), 1'000'000'000u);  // below a nanosecond rounds away
}

TEST(ConfigParseDuration, RejectsMalformedAndOverflow) {
  for (const char* bad : {"", "s", "ms", "1.", ".", "-1s", "1h", "10 s", "1S", "1.5.0s", "1sm", "1e3"}) {
    EXPECT_EQ(parse_duration_ns(bad), std::nullopt) << '"' << bad << '"';
  }
  EXPECT_EQ(parse_duration_ns("18446744073709551615ns"), std::uint64_t(-1));
  EXPECT_EQ(parse_duration_ns("18446744074s"), std::nullopt);
  EXPECT_EQ(parse_duration_ns("307445735m"), std::nullopt);
}

TEST(ConfigFormatSize, WholeUnitsOrExactBytes) {
  EXPECT_EQ(format_size(GiB), "1 GiB");
  EXPECT_EQ(format_size(512 * MiB), "512 MiB");
  EXPECT_EQ(format_size(3 * TiB), "3 TiB");
  EXPECT_EQ(format_size(4096), "4096 B");
  EXPECT_EQ(format_size(MiB + 256), std::to_string(MiB + 256) + " B");
  EXPECT_EQ(format_size(0), "0 B");
}

TEST(ConfigTable, EveryRowIsComplete) {
  std::set<std::string> names;
  for (const auto& var : table()) {
    SCOPED_TRACE(var.name);
    ASSERT_NE(var.name, nullptr);
    EXPECT_EQ(std::string(var.name).rfind("GIO_", 0), 0u);
    EXPECT_TRUE(names.insert(var.name).second) << "listed twice";
    ASSERT_NE(var.help, nullptr);
    EXPECT_GT(std::string(var.help).size(), 10u);
    ASSERT_NE(var.default_value, nullptr);
    EXPECT_EQ(var.choices != nullptr, var.type == kind::choice);
  }
  EXPECT_EQ(names, (std::set<std::string>{"GIO_SYMMETRIC_SIZE", "GIO_WAIT_TIMEOUT", "GIO_NUM_GPUS", "GIO_MAX_TEAMS",
                                          "GIO_ATOMICS", "GIO_BOOTSTRAP", "GIO_DEBUG", "GIO_TRANSPORT", "GIO_GDA_NIC",
                                          "GIO_GDA_NIC_EXCLUDE", "GIO_GDA_NIC_MODEL", "GIO_GDA_CONTEXTS",
                                          "GIO_GDA_SQ_DEPTH", "GIO_GDA_BOUNCE", "GIO_GDA_RINGS",
                                          "GIO_GDA_DOORBELL", "GIO_GDA_HDP", "GIO_NET_BUFFERS"}));
}

// The gda settings: defaults, free text for device lists and the model's path, and the ranges.
TEST(ConfigLoad, GdaSettings) {
  const fake_env empty({});
  const settings d = load(empty.lookup());
  EXPECT_EQ(d.transport, "auto");
  EXPECT_EQ(d.gda.nic, "");
  EXPECT_EQ(d.gda.nic_model, "");
  EXPECT_EQ(d.gda.contexts, 8);
  EXPECT_EQ(d.gda.sq_depth, 256u);
  EXPECT_EQ(d.gda.bounce, 64u * 1024u);
  EXPECT_EQ(d.gda.rings, "gpu");
  EXPECT_EQ(d.gda.doorbell, "auto");
  EXPECT_EQ(d.gda.hdp, "auto");
  const fake_env set({{"GIO_TRANSPORT", "ikn"}, {"GIO_GDA_NIC", " mlx5_0,mlx5_1 "}, {"GIO_GDA_NIC_MODEL", "/x/libm.so"},
                      {"GIO_GDA_CONTEXTS", "3"}, {"GIO_GDA_SQ_DEPTH", "1K"}, {"GIO_GDA_RINGS", "host"},
                      {"GIO_GDA_DOORBELL", "cpu"}, {"GIO_GDA_HDP", "off"}});
  const settings s = load(set.lookup());
  EXPECT_EQ(s.transport, "ikn");
  EXPECT_EQ(s.gda.nic, "mlx5_0,mlx5_1");
  EXPECT_EQ(s.gda.nic_model, "/x/libm.so");
  EXPECT_EQ(s.gda.contexts, 3);
  EXPECT_EQ(s.gda.sq_depth, 1024u);
  EXPECT_EQ(s.gda.rings, "host");
  EXPECT_EQ(s.gda.doorbell, "cpu");
  EXPECT_EQ(s.gda.hdp, "off");
  for (const auto& [name, value] : std::vector<std::pair<const char*, const char*>>{
           {"GIO_TRANSPORT", "nic"}, {"GIO_GDA_CONTEXTS", "0"}, {"GIO_GDA_SQ_DEPTH", "32"}, {"GIO_GDA_RINGS", "cpu"},
           {"GIO_GDA_DOORBELL", "host"}, {"GIO_GDA_HDP", "yes"}}) {
    const fake_env bad({{name, value}});
    EXPECT_THROW(load(bad.lookup()), config_error) << name << "=" << value;
  }
}

TEST(ConfigLoad, Defaults) {
  const fake_env empty({});
  const settings s = load(empty.lookup());
  EXPECT_EQ(s.symmetric_size, GiB);
  EXPECT_EQ(s.wait_timeout_ns, 10'000'000'000u);
  EXPECT_EQ(s.num_gpus, 0);
  EXPECT_EQ(s.max_teams, 32);
  EXPECT_EQ(s.atomics, "native");
  EXPECT_EQ(s.bootstrap, "mpi");
  EXPECT_EQ(s.debug, "off");
}

TEST(ConfigLoad, ReadsEveryVariable) {
  const fake_env env({{"GIO_SYMMETRIC_SIZE", "256M"},
                      {"GIO_WAIT_TIMEOUT", "1.5s"},
                      {"GIO_NUM_GPUS", "4"},
                      {"GIO_MAX_TEAMS", "2"},
                      {"GIO_ATOMICS", "cas"},
                      {"GIO_BOOTSTRAP", "single"},
                      {"GIO_DEBUG", "info"}});
  const settings s = load(env.lookup());
  EXPECT_EQ(s.symmetric_size, 256 * MiB);
  EXPECT_EQ(s.wait_timeout_ns, 1'500'000'000u);
  EXPECT_EQ(s.num_gpus, 4);
  EXPECT_EQ(s.max_teams, 2);
  EXPECT_EQ(s.atomics, "cas");
  EXPECT_EQ(s.bootstrap, "single");
  EXPECT_EQ(s.debug, "info");
}

TEST(ConfigLoad, EmptyValueMeansDefault) {
  const fake_env env({{"GIO_SYMMETRIC_SIZE", ""}, {"GIO_BOOTSTRAP", ""}});
  const settings s = load(env.lookup());
  EXPECT_EQ(s.symmetric_size, GiB);
  EXPECT_EQ(s.bootstrap, "mpi");
}

TEST(ConfigLoad, ErrorNamesVariableValueAndExpectation) {
  EXPECT_EQ(load_error({{"GIO_SYMMETRIC_SIZE", "12Q"}}),
            "GIO_SYMMETRIC_SIZE=\"12Q\": expected a nonzero size such as 512M or 2G");
  EXPECT_EQ(load_error({{"GIO_WAIT_TIMEOUT", "5h"}}),
            "GIO_WAIT_TIMEOUT=\"5h\": expected a duration such as 10s, 500ms or 20us (0 = unbounded)");
  EXPECT_EQ(load_error({{"GIO_BOOTSTRAP", "pmix"}}), "GIO_BOOTSTRAP=\"pmix\": expected one of mpi, single");
  EXPECT_EQ(load_error({{"GIO_DEBUG", "INFO"}}), "GIO_DEBUG=\"INFO\": expected one of off, info");
  EXPECT_EQ(load_error({{"GIO_ATOMICS", "fast"}}), "GIO_ATOMICS=\"fast\": expected one of native, cas");
  EXPECT_EQ(load_error({{"GIO_MAX_TEAMS", "1"}}), "GIO_MAX_TEAMS=\"1\": expected an integer from 2 to 4096");
}

TEST(ConfigLoad, ZeroHeapIsInvalid) {
  EXPECT_NE(load_error({{"GIO_SYMMETRIC_SIZE", "0"}}).find("GIO_SYMMETRIC_SIZE=\"0\""), std::string::npos);
  EXPECT_NE(load_error({{"GIO_SYMMETRIC_SIZE", "0G"}}).find("nonzero"), std::string::npos);
}

TEST(ConfigLoad, IntegersAreNonNegativeAndFitAnInt) {
  EXPECT_NE(load_error({{"GIO_NUM_GPUS", "-1"}}).find("GIO_NUM_GPUS=\"-1\": expected an integer"),
            std::string::npos);
  EXPECT_NE(load_error({{"GIO_NUM_GPUS", "2x"}}).find("GIO_NUM_GPUS=\"2x\""), std::string::npos);
  EXPECT_NE(load_error({{"GIO_NUM_GPUS", "2147483648"}}).find("GIO_NUM_GPUS"), std::string::npos);
  const fake_env largest({{"GIO_NUM_GPUS", "2147483647"}});
  EXPECT_EQ(load(largest.lookup()).num_gpus, 2147483647);
}

TEST(ConfigLoad, DefaultLookupReadsTheProcessEnvironment) {
  ASSERT_EQ(::setenv("GIO_NUM_GPUS", "7", 1), 0);
  const int from_process = load().num_gpus;
  ::unsetenv("GIO_NUM_GPUS");
  EXPECT_EQ(from_process, 7);
  EXPECT_EQ(load().num_gpus, 0);
}

TEST(ConfigDescribe, OneRowPerVariableWithSource) {
  const fake_env env({{"GIO_WAIT_TIMEOUT", "0"}, {"GIO_DEBUG", "info"}, {"UNRELATED", "x"}});
  const auto rows = describe(env.lookup());
  ASSERT_EQ(rows.size(), table().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    SCOPED_TRACE(row.var->name);
    EXPECT_EQ(row.var, &table()[i]) << "rows follow the table's order";
    const std::string name = row.var->name;
    if (name == "GIO_WAIT_TIMEOUT") {
      EXPECT_EQ(row.value, "0");
      EXPECT_TRUE(row.from_environment);
    } else if (name == "GIO_DEBUG") {
      EXPECT_EQ(row.value, "info");
      EXPECT_TRUE(row.from_environment);
    } else {
      EXPECT_EQ(row.value, row.var->default_value);
      EXPECT_FALSE(row.from_environment);
    }
  }
}

// docs/tuning.md is the user's page on these variables: a row added to the table must be
// explained there too.
TEST(ConfigTable, TuningPageNamesEveryVariable) {
  std::ifstream page(GIO_TUNING_DOC);
  ASSERT_TRUE(page) << "cannot read " << GIO_TUNING_DOC;
  const std::string text((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  for (const variable& var : table())
    EXPECT_NE(text.find(std::string("`") + var.name), std::string::npos) << var.name << " is not in docs/tuning.md";
}

}  // namespace
}  // namespace gio::config
