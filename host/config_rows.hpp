// A row of the configuration table as the parser sees it (config.cpp), for the parts of the host
// runtime that register rows of their own: the network transports (transports/registry.cpp).
// Private to the host runtime.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "config.hpp"

namespace gio::config {

// A parsed value before it is stored: sizes, durations and integers as numbers, choices as text.
using parsed_value = std::variant<std::uint64_t, std::string>;

// One row of the table: the public description, the accepted range of numbers (kinds other than
// choice), and where the parsed value goes in `settings`.
struct binding {
  variable var;
  std::uint64_t minimum;
  std::uint64_t maximum;
  void (*store)(settings&, const parsed_value&);
};

inline std::uint64_t number(const parsed_value& v) { return std::get<std::uint64_t>(v); }

inline constexpr std::uint64_t no_limit = std::numeric_limits<std::uint64_t>::max();

}  // namespace gio::config

namespace gio::transports {
// The rows of every network transport, in the registry's order (transports/registry.cpp).
std::vector<config::binding> network_config_rows();
}  // namespace gio::transports
