#include "config.hpp"

#include <cctype>
#include <climits>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <string_view>
#include <variant>

#include "config_rows.hpp"

namespace gio::config {
namespace {

// The runtime's own rows, before the transports' (a transport's rows live in its folder and are
// listed by transports/registry.cpp): adding a variable means a row here or there and a field
// in `settings` (or the transport's part of it).
const binding core_head[] = {
    {{"GIO_SYMMETRIC_SIZE", kind::size, "1G", nullptr,
      "per-PE symmetric heap (binary units: K, M, G, T)"},
     1, std::numeric_limits<std::size_t>::max(),
     [](settings& s, const parsed_value& v) { s.symmetric_size = static_cast<std::size_t>(number(v)); }},
    {{"GIO_WAIT_TIMEOUT", kind::duration, "10s", nullptr,
      "budget of every device wait in checked builds (ns, us, ms, s, m); 0 = unbounded"},
     0, no_limit,
     [](settings& s, const parsed_value& v) { s.wait_timeout_ns = number(v); }},
    {{"GIO_NUM_GPUS", kind::integer, "0", nullptr,
      "GPUs per node to use, 0 = all visible; more than visible is an init error"},
     0, INT_MAX,
     [](settings& s, const parsed_value& v) { s.num_gpus = static_cast<int>(number(v)); }},
    {{"GIO_MAX_TEAMS", kind::integer, "32", nullptr,
      "teams that can exist at once, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED included"},
     2, 4096,
     [](settings& s, const parsed_value& v) { s.max_teams = static_cast<int>(number(v)); }},
    {{"GIO_ATOMICS", kind::choice, "native", "native|cas",
      "device atomics: native where the link has them, or cas (compare-and-swap loops for every peer)"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.atomics = std::get<std::string>(v); }},
    {{"GIO_BOOTSTRAP", kind::choice, "mpi", "mpi|single",
      "how PEs find each other: mpi (launched by mpirun), single (one PE without a launcher)"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.bootstrap = std::get<std::string>(v); }},
    {{"GIO_DEBUG", kind::choice, "off", "off|info",
      "diagnostic output: off, or info (what init found, on stderr)"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.debug = std::get<std::string>(v); }},
    {{"GIO_TRANSPORT", kind::choice, "auto", "auto|gda|ikn",
      "other PEs: auto (load/store where mapped, gda to other nodes), gda or ikn (every other PE through the NIC)"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.transport = std::get<std::string>(v); }},
};
const binding core_tail[] = {
    {{"GIO_NET_BUFFERS", kind::choice, "cached", "cached|uncached",
      "GPU memory the NIC reads and writes (the symmetric heap, gda's rings in GPU memory): cached by the GPU's "
      "L2, or uncached (GIO paper 5.1.2: loads and stores bypass the L2, for a GPU whose L2 the NIC does not "
      "see; AMD with ROCm 5.3+ only, and every access to the heap pays for it)"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.net_buffers = std::get<std::string>(v); }},
};

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

// Leading decimal digits of `text` as a number; consumes them. nullopt if none or overflowing.
std::optional<std::uint64_t> take_digits(std::string_view& text) {
  std::size_t count = 0;
  std::uint64_t value = 0;
  while (count < text.size() && std::isdigit(static_cast<unsigned char>(text[count]))) {
    const std::uint64_t digit = static_cast<std::uint64_t>(text[count] - '0');
    if (value > (no_limit - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    ++count;
  }
  if (count == 0) return std::nullopt;
  text.remove_prefix(count);
  return value;
}

std::optional<std::uint64_t> parse_integer(std::string_view text) {
  text = trim(text);
  const auto value = take_digits(text);
  if (!value || !text.empty()) return std::nullopt;
  return value;
}

// The "expected ..." half of a config_error message.
std::string expectation(const binding& row) {
  switch (row.var.type) {
    case kind::size:
      return row.minimum > 0 ? "expected a nonzero size such as 512M or 2G" : "expected a size such as 512M or 2G";
    case kind::duration:
      return "expected a duration such as 10s, 500ms or 20us (0 = unbounded)";
    case kind::integer:
      return "expected an integer from " + std::to_string(row.minimum) + " to " + std::to_string(row.maximum);
    case kind::text:
      return "expected text";
    case kind::choice: {
      std::string text = "expected one of";
      const char* separator = " ";
      for (auto choice : split_choices(row.var.choices)) {
        text.append(separator).append(choice);
        separator = ", ";
      }
      return text;
    }
  }
  return {};
}

std::optional<parsed_value> parse_value(const binding& row, const std::string& text) {
  std::optional<std::uint64_t> n;
  switch (row.var.type) {
    case kind::size: n = parse_size(text); break;
    case kind::duration: n = parse_duration_ns(text); break;
    case kind::integer: n = parse_integer(text); break;
    case kind::choice:
      for (auto choice : split_choices(row.var.choices)) {
        if (trim(text) == choice) return parsed_value{std::string(choice)};
      }
      return std::nullopt;
    case kind::text:
      return parsed_value{std::string(trim(text))};
  }
  if (!n || *n < row.minimum || *n > row.maximum) return std::nullopt;
  return parsed_value{*n};
}

// Unset and empty both mean "use the default" (so `GIO_X= prog` clears a setting).
const char* lookup_value(const env_lookup& lookup, const char* name) {
  const char* value = lookup ? lookup(name) : std::getenv(name);
  return (value != nullptr && *value != '\0') ? value : nullptr;
}

// Every row, in gio-info's order: the runtime's, the network transports', then the heap's.
const std::vector<binding>& bindings() {
  static const std::vector<binding> rows = [] {
    std::vector<binding> out(std::begin(core_head), std::end(core_head));
    for (const binding& row : transports::network_config_rows()) out.push_back(row);
    out.insert(out.end(), std::begin(core_tail), std::end(core_tail));
    return out;
  }();
  return rows;
}

}  // namespace

std::vector<std::string_view> split_choices(const char* choices) {
  std::vector<std::string_view> out;
  std::string_view rest = choices;
  for (std::size_t bar; (bar = rest.find('|')) != std::string_view::npos; rest.remove_prefix(bar + 1))
    out.push_back(rest.substr(0, bar));
  out.push_back(rest);
  return out;
}

const std::vector<variable>& table() {
  static const std::vector<variable> variables = [] {
    std::vector<variable> out;
    for (const auto& row : bindings()) out.push_back(row.var);
    return out;
  }();
  return variables;
}

settings load(const env_lookup& lookup) {
  settings result{};
  for (const auto& row : bindings()) {
    const char* from_env = lookup_value(lookup, row.var.name);
    const std::string text = from_env ? from_env : row.var.default_value;
    const auto value = parse_value(row, text);
    if (!value) {
      throw config_error(std::string(row.var.name) + "=\"" + text + "\": " + expectation(row));
    }
    row.store(result, *value);
  }
  return result;
}

std::vector<effective_value> describe(const env_lookup& lookup) {
  std::vector<effective_value> rows;
  const auto& variables = table();
  for (const auto& var : variables) {
    const char* from_env = lookup_value(lookup, var.name);
    rows.push_back({&var, from_env ? from_env : var.default_value, from_env != nullptr});
  }
  return rows;
}

std::optional<std::size_t> parse_size(const std::string& input) {
  std::string_view text = trim(input);
  const auto count = take_digits(text);
  if (!count) return std::nullopt;

  // Unit letter (optional), then an optional "B" or "iB" ("iB" only after a unit letter).
  static constexpr std::string_view units = "KMGT";
  unsigned shift = 0;
  if (!text.empty()) {
    const auto unit = units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(text.front()))));
    if (unit != std::string_view::npos) {
      shift = 10 * static_cast<unsigned>(unit + 1);
      text.remove_prefix(1);
      if (iequals(text, "ib")) text = {};
    }
  }
  if (iequals(text, "b")) text = {};
  if (!text.empty()) return std::nullopt;

  const std::uint64_t limit = std::numeric_limits<std::size_t>::max();
  if (*count > (limit >> shift)) return std::nullopt;
  return static_cast<std::size_t>(*count << shift);
}

std::optional<std::uint64_t> parse_duration_ns(const std::string& input) {
  std::string_view text = trim(input);

  // Whole and fractional parts kept apart so "1.5s" is exact and only the fraction rounds.
  const bool starts_with_point = !text.empty() && text.front() == '.';
  const std::optional<std::uint64_t> whole = starts_with_point ? std::optional<std::uint64_t>(0) : take_digits(text);
  if (!whole) return std::nullopt;
  std::string_view fraction;
  if (!text.empty() && text.front() == '.') {
    text.remove_prefix(1);
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    if (digits == 0) return std::nullopt;
    fraction = text.substr(0, digits);
    text.remove_prefix(digits);
  }

  struct unit_scale {
    std::string_view suffix;
    std::uint64_t ns;
  };
  static constexpr unit_scale scales[] = {
      {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {"m", 60000000000}, {"", 1000000000},
  };
  std::uint64_t scale = 0;
  for (const auto& candidate : scales) {
    if (text == candidate.suffix) {
      scale = candidate.ns;
      break;
    }
  }
  if (scale == 0) return std::nullopt;

  if (*whole > no_limit / scale) return std::nullopt;
  std::uint64_t ns = *whole * scale;
  long double fraction_value = 0;
  long double place = 0.1L;
  for (char digit : fraction) {
    fraction_value += static_cast<long double>(digit - '0') * place;
    place /= 10;
  }
  const auto fraction_ns = static_cast<std::uint64_t>(fraction_value * static_cast<long double>(scale) + 0.5L);
  if (fraction_ns > no_limit - ns) return std::nullopt;
  return ns + fraction_ns;
}

std::string format_size(std::size_t bytes) {
  // Whole MiB/GiB/TiB read well; anything else prints exactly, as allocation messages need.
  static constexpr struct {
    unsigned shift;
    const char* name;
  } units[] = {{40, "TiB"}, {30, "GiB"}, {20, "MiB"}};
  for (const auto& unit : units) {
    const std::size_t one = std::size_t{1} << unit.shift;
    if (bytes >= one && bytes % one == 0) return std::to_string(bytes >> unit.shift) + " " + unit.name;
  }
  return std::to_string(bytes) + " B";
}

}  // namespace gio::config
