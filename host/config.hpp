// Configuration: one table of GIO_* environment variables drives parsing, defaults, validation
// and gio-info's listing (Sandia OpenSHMEM style). Private to the host runtime.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "transports/gda/gda_settings.hpp"

namespace gio::config {

enum class kind { size, duration, integer, choice, text };

struct variable {
  const char* name;           // "GIO_SYMMETRIC_SIZE"
  kind type;
  const char* default_value;  // as the user would write it: "1G", "10s", "0", "mpi"
  const char* choices;        // kind::choice: "a|b|c"; otherwise nullptr (kind::text: any string)
  const char* help;           // one line for gio-info and docs
};

// Every variable gio reads, in the order gio-info prints them.
const std::vector<variable>& table();

// Parsed, validated values.
struct settings {
  std::size_t symmetric_size;    // GIO_SYMMETRIC_SIZE (bytes)
  std::uint64_t wait_timeout_ns; // GIO_WAIT_TIMEOUT (checked builds; 0 = unbounded)
  int num_gpus;                  // GIO_NUM_GPUS (0 = every visible GPU)
  int max_teams;                 // GIO_MAX_TEAMS (team table entries, >= 2)
  std::string atomics;           // GIO_ATOMICS: native | cas
  std::string bootstrap;         // GIO_BOOTSTRAP: mpi | single
  std::string debug;             // GIO_DEBUG: off | info
  std::string transport;         // GIO_TRANSPORT: auto | gda | ikn
  transports::gda::settings gda;  // GIO_GDA_*: the gda transport's rows (transports/gda/gda_config.cpp)
  std::string net_buffers;       // GIO_NET_BUFFERS: cached | uncached (the heap and gda's GPU rings; GIO 5.1.2)
};

// Thrown for a malformed value: what() names the variable, the value and what was expected.
struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using env_lookup = std::function<const char*(const char*)>;  // like ::getenv

// Reads every variable of table() through `lookup` (default: the process environment).
settings load(const env_lookup& lookup = {});

// One row per variable: name, effective value, default, whether it was set, help.
struct effective_value {
  const variable* var;
  std::string value;
  bool from_environment;
};
std::vector<effective_value> describe(const env_lookup& lookup = {});

// "4096", "64K", "2M", "2G", "1T" (binary units, optional trailing 'B'/"iB"); nullopt if malformed
// or overflowing.
std::optional<std::size_t> parse_size(const std::string& text);
// "10s", "500ms", "20us", "100ns", "2m", plain number = seconds; "0" = unbounded. nullopt if malformed.
std::optional<std::uint64_t> parse_duration_ns(const std::string& text);

// A kind::choice row's choices, "a|b|c" -> {a, b, c}.
std::vector<std::string_view> split_choices(const char* choices);
std::string format_size(std::size_t bytes);  // "1 GiB", "512 MiB", "4096 B"

}  // namespace gio::config
