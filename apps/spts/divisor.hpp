// Division by a number fixed for a whole solve (the block of the block-cyclic layout), as one
// multiply and a shift: the kernels map a local row to its global one for every row they store,
// and an integer division there is ~20 dependent instructions on the round's critical path
// (session 17, round 5: 2% of gio's solve on road_central).
//
// For 0 <= n < 2^31 and 1 <= d < 2^31, with l = ceil(log2 d), s = 31 + l and m = ceil(2^s / d):
// n * m / 2^s = n / d + n * e / (d * 2^s) with 0 <= e < d, and the error term is below
// n / 2^s < 2^-l <= 1/d (equal only for d = 2^l, where e = 0), so floor(n * m / 2^s) = floor(n / d).
// m < 2^32, so the product fits 64 bits.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gio/platform/host_device.hpp"

namespace spts {

class divisor {
 public:
  divisor() = default;
  explicit divisor(std::int32_t d) : value_(d) {
    if (d < 1) throw std::invalid_argument("divisor " + std::to_string(d) + ": must be at least 1");
    int l = 0;
    while ((std::int64_t{1} << l) < d) ++l;
    shift_ = 31 + l;
    magic_ = static_cast<std::uint32_t>(((std::uint64_t{1} << shift_) + static_cast<std::uint64_t>(d) - 1) /
                                        static_cast<std::uint64_t>(d));
  }
  GIO_HOST_DEVICE_INLINE std::int32_t value() const { return value_; }
  // n >= 0.
  GIO_HOST_DEVICE_INLINE std::int32_t quotient(std::int32_t n) const {
    return static_cast<std::int32_t>((static_cast<std::uint64_t>(n) * magic_) >> shift_);
  }
  GIO_HOST_DEVICE_INLINE std::int32_t remainder(std::int32_t n) const { return n - quotient(n) * value_; }

 private:
  std::uint32_t magic_ = 1u << 31;  // d = 1
  std::int32_t shift_ = 31, value_ = 1;
};

}  // namespace spts
