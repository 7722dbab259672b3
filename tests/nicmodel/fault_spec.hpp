// GIO_NIC_MODEL_FAULT: error injection for the tests of gda's error reporting (host only).
//   remote_access:N   the N-th WQE (from 1, over all of this PE's QPs, in the order the engine
//                     takes them) completes with remote_access_err and has no effect; its QP then
//                     flushes every later WQE.
#pragma once
#include <cstdint>
#include <string>

#include "gio/templates/mlx5_wire.hpp"

namespace gio_test::nicmodel {

struct fault_spec {
  std::uint32_t at = 0;         // 0: no fault
  std::uint8_t syndrome = 0;
};

// Unset or empty: no fault. Anything else must be exactly "remote_access:N", 1 <= N < 2^32.
inline bool parse_fault_spec(const char* text, fault_spec* out, std::string* error) {
  *out = fault_spec{};
  if (text == nullptr || *text == '\0') return true;
  const std::string s(text);
  const std::string prefix = "remote_access:";
  auto bad = [&](const char* why) {
    *error = "GIO_NIC_MODEL_FAULT='" + s + "': " + why + " (expected remote_access:N, N >= 1)";
    return false;
  };
  if (s.compare(0, prefix.size(), prefix) != 0) return bad("unknown fault");
  const std::string digits = s.substr(prefix.size());
  if (digits.empty() || digits.size() > 10) return bad("N is not a 32-bit count");
  std::uint64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return bad("N is not a number");
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (n == 0 || n > 0xffffffffull) return bad("N out of range");
  out->at = static_cast<std::uint32_t>(n);
  out->syndrome = gio::templates::mlx5::cqe_syndrome::remote_access_err;
  return true;
}

}  // namespace gio_test::nicmodel
