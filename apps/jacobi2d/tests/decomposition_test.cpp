// The PE grid choice, the tiles and neighbours, and the persistent kernel's workgroup tiling.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "core/decomposition.hpp"

namespace jacobi {
namespace {

pe_grid chosen(int n, extent e) {
  const pe_grid_choice c = choose_pe_grid(n, e);
  EXPECT_EQ(c.error, "") << n << " PEs on " << to_string(e);
  return c.grid;
}

TEST(PeGrid, FewestHaloPointsThenSquarest) {
  EXPECT_EQ(to_string(chosen(1, {1024, 1024})), "1x1");
  EXPECT_EQ(to_string(chosen(2, {2048, 1024})), "2x1");  // cut of 1024 points, not 2048
  EXPECT_EQ(to_string(chosen(2, {1024, 2048})), "1x2");
  EXPECT_EQ(to_string(chosen(4, {2048, 1024})), "2x2");  // ties with 4x1 (3072 points): squarer wins
  EXPECT_EQ(to_string(chosen(4, {1024, 1024})), "2x2");
  EXPECT_EQ(to_string(chosen(2, {1024, 1024})), "2x1");  // a tie of 1x2 and 2x1: more PEs along x
  EXPECT_EQ(to_string(chosen(3, {99, 100})), "3x1");     // only 3x1 divides
  EXPECT_EQ(to_string(chosen(8, {4096, 4096})), "4x2");
}

TEST(PeGrid, RefusesGridsThatDoNotDivideAndTooManyPEs) {
  const pe_grid_choice none = choose_pe_grid(3, {64, 64});
  EXPECT_NE(none.error.find("no PE grid of 3 PEs divides the 64x64 grid"), std::string::npos) << none.error;
  const pe_grid_choice many = choose_pe_grid(4, {1, 3});
  EXPECT_NE(many.error.find("too many PEs: 4 PEs for a 1x3 grid"), std::string::npos) << many.error;
  EXPECT_EQ(check_pe_grid(2, {64, 64}, {2, 1}), "");
  EXPECT_NE(check_pe_grid(2, {64, 64}, {3, 1}).find("has 3 PEs, but the job has 2"), std::string::npos);
  EXPECT_NE(check_pe_grid(3, {64, 64}, {3, 1}).find("does not divide over a 3x1 PE grid"), std::string::npos);
}

TEST(Decomposition, TilesCoverTheGridOnceAndNeighboursAreMutual) {
  const extent global{96, 60};
  for (const pe_grid grid : {pe_grid{1, 1}, pe_grid{2, 1}, pe_grid{1, 3}, pe_grid{3, 2}, pe_grid{4, 5}}) {
    const int n = grid.px * grid.py;
    std::vector<int> owner(static_cast<std::size_t>(global.nx * global.ny), -1);
    for (int pe = 0; pe < n; ++pe) {
      const decomposition d = decompose(global, grid, pe);
      EXPECT_EQ(d.tile.nx * grid.px, global.nx);
      EXPECT_EQ(d.tile.ny * grid.py, global.ny);
      for (std::int64_t y = d.y0; y < d.y0 + d.tile.ny; ++y)
        for (std::int64_t x = d.x0; x < d.x0 + d.tile.nx; ++x) {
          EXPECT_EQ(owner[y * global.nx + x], -1) << "point owned twice";
          owner[y * global.nx + x] = pe;
        }
      for (int s = 0; s < side_count; ++s) {
        const int other = d.neighbour[s];
        if (other < 0) continue;
        const decomposition o = decompose(global, grid, other);
        EXPECT_EQ(o.neighbour[opposite(s)], pe) << "PE " << pe << " side " << s;
        // The neighbour's tile is the adjacent one.
        if (s == north) EXPECT_EQ(o.y0 + o.tile.ny, d.y0);
        if (s == south) EXPECT_EQ(d.y0 + d.tile.ny, o.y0);
        if (s == west) EXPECT_EQ(o.x0 + o.tile.nx, d.x0);
        if (s == east) EXPECT_EQ(d.x0 + d.tile.nx, o.x0);
      }
      // A side without a neighbour is on the global boundary.
      EXPECT_EQ(d.neighbour[north] < 0, d.y0 == 0);
      EXPECT_EQ(d.neighbour[south] < 0, d.y0 + d.tile.ny == global.ny);
      EXPECT_EQ(d.neighbour[west] < 0, d.x0 == 0);
      EXPECT_EQ(d.neighbour[east] < 0, d.x0 + d.tile.nx == global.nx);
    }
    for (int o : owner) ASSERT_GE(o, 0) << "point owned by nobody";
  }
}

TEST(WgTiling, SquareTilesOfWholeWarpsForTheH200Sizes) {
  const wg_tiling_choice k1 = choose_wg_tiling({1024, 1024}, 264, 2048);
  ASSERT_EQ(k1.error, "");
  EXPECT_EQ(k1.tiling.tx, 64);
  EXPECT_EQ(k1.tiling.ty, 64);
  EXPECT_EQ(k1.tiling.count(), 256);
  // 4K x 4K: 8 x 33 tiles of 512 x 125 use all 264 workgroups; the largest tile is within 1% of
  // an even share.
  const wg_tiling_choice k4 = choose_wg_tiling({4096, 4096}, 264, 2048);
  ASSERT_EQ(k4.error, "");
  EXPECT_EQ(k4.tiling.tx, 512);
  EXPECT_EQ(k4.tiling.ty, 125);
  EXPECT_EQ(k4.tiling.count(), 264);
  EXPECT_LT(double(k4.tiling.tx * k4.tiling.ty), 1.01 * 4096.0 * 4096.0 / 264.0);
}

TEST(WgTiling, CoversTheTileWithinTheLimits) {
  for (const extent tile : {extent{1, 1}, extent{31, 7}, extent{100, 60}, extent{1024, 512}, extent{4096, 4096},
                            extent{3000, 17}, extent{40, 5000}}) {
    for (const std::int64_t max_wgs : {1, 3, 7, 132, 264}) {
      const wg_tiling_choice c = choose_wg_tiling(tile, max_wgs, 2048);
      if (!c.error.empty()) {
        // Only when even max_wgs tiles of 2048 rows cannot hold it.
        EXPECT_GT(tile.ny, 2048) << c.error;
        continue;
      }
      const wg_tiling& k = c.tiling;
      EXPECT_LE(k.count(), max_wgs);
      EXPECT_LE(k.ty, 2048);
      EXPECT_TRUE(k.tx % 32 == 0 || k.tx == tile.nx) << k.tx;
      EXPECT_GE(k.wx * k.tx, tile.nx);
      EXPECT_LT((k.wx - 1) * k.tx, tile.nx);  // no empty column of tiles
      EXPECT_GE(k.wy * k.ty, tile.ny);
      EXPECT_LT((k.wy - 1) * k.ty, tile.ny);
    }
  }
}

TEST(WgTiling, RefusesWhatCannotFit) {
  const wg_tiling_choice c = choose_wg_tiling({64, 5000}, 2, 2048);
  EXPECT_NE(c.error.find("does not fit 2 co-resident workgroups of at most 2048 rows"), std::string::npos) << c.error;
  EXPECT_NE(choose_wg_tiling({64, 64}, 0, 2048).error, "");
}

}  // namespace
}  // namespace jacobi
