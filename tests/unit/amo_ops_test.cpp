// The atomics' properties (include/gio/ops.hpp): which return the value they found, which need
// an integer type, and the value each leaves (the CAS loops' and the GPU-less build's step),
// checked against each other for every operation.
#include <gtest/gtest.h>

#include <cstdint>

#include "gio/ops.hpp"

namespace gio {
namespace {

constexpr amo_op every_op[] = {amo_op::fetch,     amo_op::set,      amo_op::swap,   amo_op::compare_swap,
                               amo_op::fetch_inc, amo_op::inc,      amo_op::fetch_add, amo_op::add,
                               amo_op::fetch_and, amo_op::and_,     amo_op::fetch_or,  amo_op::or_,
                               amo_op::fetch_xor, amo_op::xor_};

TEST(AmoOps, FetchingFormsAreTheOnesThatReturnAValue) {
  int fetching = 0, bitwise = 0;
  for (amo_op op : every_op) {
    fetching += amo_fetches(op);
    bitwise += amo_bitwise(op);
  }
  EXPECT_EQ(fetching, 8);  // fetch, swap, compare_swap and the five fetch_ forms
  EXPECT_EQ(bitwise, 6);   // and, or, xor, fetching or not
  EXPECT_TRUE(amo_fetches(amo_op::compare_swap));
  EXPECT_FALSE(amo_fetches(amo_op::set));
  EXPECT_FALSE(amo_fetches(amo_op::xor_));
}

// A bitwise operation changes an integer word and leaves a floating-point one alone (the type
// check refuses it before it could run); every other operation treats both alike.
TEST(AmoOps, BitwiseOnesNeedIntegers) {
  for (amo_op op : every_op) {
    const std::uint64_t i = amo_new_value<std::uint64_t>(op, 0b1100, 0b1010, 0b1100);
    const double d = amo_new_value<double>(op, 12.0, 10.0, 12.0);
    if (amo_bitwise(op)) {
      EXPECT_NE(i, 0b1100u) << static_cast<int>(op);
      EXPECT_EQ(d, 12.0) << static_cast<int>(op);
    } else {
      EXPECT_EQ(static_cast<double>(i), d) << static_cast<int>(op);
    }
  }
}

}  // namespace
}  // namespace gio
