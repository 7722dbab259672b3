// Counter-based random numbers: a value is a pure function of (seed, stream, index), so that
// generators give the same matrix whatever the number of threads and the order rows are made in.
#pragma once
#include <cstdint>

#include "support/mix64.hpp"

namespace spts {

using support::mix64;

constexpr std::uint64_t hash3(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return mix64(mix64(mix64(seed) ^ a) ^ b);
}

// Uniform in [0, 1) with 53 random bits.
constexpr double to_unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// A stream of values for one (seed, key): draw i is hash3(seed, key, i).
class counter_stream {
 public:
  constexpr counter_stream(std::uint64_t seed, std::uint64_t key) : base_(mix64(mix64(seed) ^ key)) {}
  constexpr std::uint64_t next_bits() { return mix64(base_ ^ (++count_ * 0xd1342543de82ef95ull)); }
  constexpr double next_unit() { return to_unit(next_bits()); }
  // Uniform integer in [0, bound), bound > 0 (modulo bias below bound / 2^64: negligible here).
  constexpr std::uint64_t next_below(std::uint64_t bound) { return next_bits() % bound; }

 private:
  std::uint64_t base_;
  std::uint64_t count_ = 0;
};

}  // namespace spts
