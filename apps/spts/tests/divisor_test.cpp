#include "divisor.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace spts {
namespace {

// Every quotient the kernels can ask for is n / d with 0 <= n < 2^31: near multiples of d (where
// a wrong rounding shows), the largest n, and a spread of others, for small, power-of-two,
// odd, the layouts' usual (16384, n / 16 PEs) and the largest divisors.
TEST(Divisor, QuotientsMatchIntegerDivision) {
  constexpr std::int32_t biggest = std::numeric_limits<std::int32_t>::max();
  std::vector<std::int32_t> divisors;
  for (std::int32_t d = 1; d <= 300; ++d) divisors.push_back(d);
  for (int l = 9; l <= 30; ++l) {
    divisors.push_back(1 << l);
    divisors.push_back((1 << l) - 1);
    divisors.push_back((1 << l) + 1);
  }
  for (std::int32_t d : {5000, 10052, 440056, 748354, 1496709, 1073741825, biggest - 1, biggest}) divisors.push_back(d);
  for (const std::int32_t d : divisors) {
    const divisor by(d);
    EXPECT_EQ(by.value(), d);
    std::vector<std::int64_t> numerators{0, 1, biggest, biggest - 1, biggest - d, biggest / 2};
    for (std::int64_t k = 1; k * d < biggest && k < 2000; k = k * 3 + 1)
      for (std::int64_t n : {k * d - 1, k * d, k * d + 1}) numerators.push_back(n);
    for (std::int64_t n = 7; n < biggest; n = n * 5 + 3) numerators.push_back(n);
    for (const std::int64_t wide : numerators) {
      if (wide < 0 || wide > biggest) continue;
      const auto n = static_cast<std::int32_t>(wide);
      ASSERT_EQ(by.quotient(n), n / d) << n << " / " << d;
      ASSERT_EQ(by.remainder(n), n % d) << n << " % " << d;
    }
  }
}

TEST(Divisor, RejectsNonPositive) {
  EXPECT_THROW(divisor(0), std::invalid_argument);
  EXPECT_THROW(divisor(-3), std::invalid_argument);
}

}  // namespace
}  // namespace spts
