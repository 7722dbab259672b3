// walk_tile (core/grid.hpp), the persistent kernel's traversal of a workgroup tile, run on the
// CPU for every thread of a workgroup: each point of the tile exactly once, by the thread that
// owns it, in the thread's order, loaded before it is updated, with its row and column.
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "core/grid.hpp"

namespace jacobi {
namespace {

struct tile_case {
  std::int64_t nx, ny;       // the PE's tile
  std::int64_t x0, y0;       // the workgroup tile's corner in it
  std::int32_t width, rows;  // the workgroup tile
  std::int32_t threads;
};

template <int batch> void walk_every_thread(const tile_case& tc) {
  SCOPED_TRACE(testing::Message() << "batch " << batch << ", tile " << tc.width << " x " << tc.rows << " at ("
                                  << tc.x0 << ", " << tc.y0 << "), " << tc.threads << " threads");
  const tile_layout l = make_layout(tc.nx, tc.ny);
  const std::int32_t points = tc.width * tc.rows;
  std::vector<int> visits(static_cast<std::size_t>(l.elements()), 0);
  for (std::int32_t me = 0; me < tc.threads; ++me) {
    std::int32_t next = me;  // the thread's next point, in row-major order over the tile
    std::int64_t loaded[batch];
    bool pending[batch] = {};
    walk_tile<batch>(
        l, tc.x0, tc.y0, tc.width, points, me, tc.threads,
        [&](int b, std::int64_t i) {
          ASSERT_GE(b, 0);
          ASSERT_LT(b, batch);
          EXPECT_FALSE(pending[b]) << "slot " << b << " loaded twice before its update";
          loaded[b] = i;
          pending[b] = true;
        },
        [&](int b, std::int64_t i, std::int32_t row, std::int32_t column) {
          ASSERT_TRUE(pending[b]) << "updated before it was loaded";
          EXPECT_EQ(loaded[b], i);
          pending[b] = false;
          ASSERT_LT(next, points) << "thread " << me << " walked past the tile";
          EXPECT_EQ(row, next / tc.width);
          EXPECT_EQ(column, next % tc.width);
          EXPECT_EQ(i, l.at(tc.x0 + column, tc.y0 + row));
          ++visits[static_cast<std::size_t>(i)];
          next += tc.threads;
        });
    EXPECT_GE(next, points) << "thread " << me << " stopped at point " << next << " of " << points;
  }
  for (std::int32_t row = 0; row < tc.rows; ++row)
    for (std::int32_t column = 0; column < tc.width; ++column)
      ASSERT_EQ(visits[static_cast<std::size_t>(l.at(tc.x0 + column, tc.y0 + row))], 1)
          << "point (" << column << ", " << row << ")";
  int total = 0;
  for (int v : visits) total += v;
  EXPECT_EQ(total, points) << "a point outside the workgroup tile was visited";
}

TEST(WalkTile, EveryPointOnceByItsThreadInOrder) {
  const tile_case cases[] = {
      {64, 64, 0, 0, 64, 64, 512},      // whole rows per step
      {100, 40, 0, 0, 100, 40, 512},    // steps of 5 rows and 12 columns
      {100, 40, 37, 3, 63, 37, 512},    // a corner tile
      {1000, 8, 0, 0, 1000, 8, 512},    // wider than the workgroup
      {7, 1, 0, 0, 7, 1, 512},          // fewer points than threads
      {33, 9, 0, 0, 33, 9, 1024},       // odd width, many threads
      {5, 5, 1, 1, 3, 3, 1},            // one thread
      {129, 17, 0, 0, 129, 17, 96},     // the leftover point of every thread
      {2048, 3, 1024, 0, 1024, 3, 1000}, // threads not a divisor of the width
      {100, 40, 0, 0, 100, 1, 512},     // the early transfer's strips: a row,
      {100, 40, 99, 1, 1, 38, 512},     // a column without its corners,
      {100, 40, 1, 1, 98, 38, 512}      // and what is inside them
  };
  for (const tile_case& tc : cases) {
    walk_every_thread<1>(tc);
    walk_every_thread<2>(tc);
    walk_every_thread<3>(tc);
  }
}

}  // namespace
}  // namespace jacobi
