// The host relaxation against a naive one written from the definition (a plain 2D array with the
// boundary around it), the schedule, the layout, the halo copies, and the bitwise comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "core/host_relax.hpp"
#include "core/problem.hpp"

namespace jacobi {
namespace {

// (nx + 2) x (ny + 2) values, boundary included, from the definition of the problem.
struct naive_grid {
  std::int64_t nx, ny;
  std::vector<double> v;
  double& at(std::int64_t x, std::int64_t y) { return v[(y + 1) * (nx + 2) + (x + 1)]; }
};

naive_grid naive_initial(extent e) {
  naive_grid g{e.nx, e.ny, std::vector<double>((e.nx + 2) * (e.ny + 2))};
  for (std::int64_t y = -1; y <= e.ny; ++y)
    for (std::int64_t x = -1; x <= e.nx; ++x) g.at(x, y) = initial_value(e, x, y);
  return g;
}

// Iterates the 5-point update `iterations` times; returns the last iteration's largest change.
double naive_relax(naive_grid& g, std::int64_t iterations) {
  double largest = 0;
  for (std::int64_t t = 0; t < iterations; ++t) {
    naive_grid next = g;
    largest = 0;
    for (std::int64_t y = 0; y < g.ny; ++y)
      for (std::int64_t x = 0; x < g.nx; ++x) {
        next.at(x, y) = 0.25 * ((g.at(x, y - 1) + g.at(x, y + 1)) + (g.at(x - 1, y) + g.at(x + 1, y)));
        largest = std::max(largest, std::fabs(next.at(x, y) - g.at(x, y)));
      }
    g = next;
  }
  return largest;
}

TEST(Problem, InitialValuesAreAsDocumented) {
  const extent e{10, 8};
  EXPECT_EQ(initial_value(e, 3, -1), 1.0);
  EXPECT_EQ(initial_value(e, 3, 8), 0.0);
  EXPECT_EQ(initial_value(e, 10, 3), 0.5);
  EXPECT_EQ(initial_value(e, -1, 3), 4.0 / 9.0);
  std::set<double> inside;
  for (std::int64_t y = 0; y < e.ny; ++y)
    for (std::int64_t x = 0; x < e.nx; ++x) {
      const double v = initial_value(e, x, y);
      EXPECT_GE(v, 0.0);
      EXPECT_LT(v, 1.0);
      inside.insert(v);
    }
  EXPECT_EQ(inside.size(), 80u) << "u_0 repeats values: a misplaced halo could go unnoticed";
}

TEST(Layout, RowsStartAlignedAndTheRingFits) {
  for (std::int64_t nx : {1, 31, 32, 33, 1000}) {
    const tile_layout l = make_layout(nx, 5);
    EXPECT_EQ(l.pitch % 32, 0);
    for (std::int64_t y = -1; y <= l.ny; ++y) {
      EXPECT_EQ(l.at(0, y) % 32, 0);
      EXPECT_GE(l.at(-1, y), y == -1 ? 0 : l.at(l.nx, y - 1) + 1);  // rows do not overlap
      EXPECT_LT(l.at(l.nx, y), (y + 2) * l.pitch);
    }
    EXPECT_LE(l.at(l.nx, l.ny), l.elements() - 1);
  }
}

TEST(Schedule, ResidualIterationsAndStopping) {
  const schedule fixed{10, 0, -1};
  for (std::int64_t t = 1; t < 10; ++t) EXPECT_FALSE(fixed.residual_due(t));
  EXPECT_TRUE(fixed.residual_due(10));
  EXPECT_FALSE(fixed.stops_at(0.0));
  const schedule converging{10, 3, 0.5};
  EXPECT_TRUE(converging.residual_due(3));
  EXPECT_TRUE(converging.residual_due(6));
  EXPECT_FALSE(converging.residual_due(7));
  EXPECT_TRUE(converging.residual_due(10));
  EXPECT_TRUE(converging.stops_at(0.5));
  EXPECT_FALSE(converging.stops_at(0.51));
}

TEST(Relax, UpdateHasTheDocumentedOrder) {
  // (n + s) + (w + e) differs from ((n + s) + w) + e here; the app promises the former.
  const double n = 1.0, s = 1e-16, w = 1e-16, e = -1.0;
  EXPECT_EQ(relax(n, s, w, e), 0.25 * ((n + s) + (w + e)));
  EXPECT_NE(relax(n, s, w, e), 0.25 * (((n + s) + w) + e));
}

TEST(Reference, EqualsTheNaiveRelaxationBitForBit) {
  for (const extent e : {extent{1, 1}, extent{7, 5}, extent{40, 33}}) {
    naive_grid g = naive_initial(e);
    const double largest = naive_relax(g, 25);
    const reference_solution r = solve_reference(e, {25, 0, -1});
    EXPECT_EQ(r.iterations, 25);
    EXPECT_EQ(r.residual, largest);
    EXPECT_FALSE(r.converged);
    for (std::int64_t y = 0; y < e.ny; ++y)
      for (std::int64_t x = 0; x < e.nx; ++x)
        ASSERT_EQ(r.grid[y * e.nx + x], g.at(x, y)) << to_string(e) << " at " << x << ", " << y;
  }
}

TEST(Reference, StopsAtTheFirstCheckedIterationWithinTolerance) {
  const extent e{24, 16};
  // The residual after each iteration, from the naive relaxation.
  naive_grid g = naive_initial(e);
  std::vector<double> residual{0};
  for (int t = 1; t <= 60; ++t) residual.push_back(naive_relax(g, 1));
  const double tolerance = residual[20];
  std::int64_t expected = 60;
  for (std::int64_t t = 7; t <= 60; t += 7)
    if (residual[t] <= tolerance) {
      expected = t;
      break;
    }
  const reference_solution r = solve_reference(e, {60, 7, tolerance});
  EXPECT_EQ(r.iterations, expected);
  EXPECT_EQ(r.residual, residual[expected]);
  EXPECT_TRUE(r.converged);
  const reference_solution never = solve_reference(e, {60, 7, 0.0});
  EXPECT_EQ(never.iterations, 60);
  EXPECT_FALSE(never.converged);
}

TEST(Halo, EdgesAndRingsOnEverySide) {
  const tile_layout l = make_layout(5, 3);
  std::vector<double> grid(static_cast<std::size_t>(l.elements()), 0.0);
  for (std::int64_t y = 0; y < l.ny; ++y)
    for (std::int64_t x = 0; x < l.nx; ++x) grid[l.at(x, y)] = 10.0 * y + x;
  std::vector<double> edge(5);
  copy_edge(l, grid.data(), north, edge.data());
  EXPECT_EQ(edge, (std::vector<double>{0, 1, 2, 3, 4}));
  copy_edge(l, grid.data(), south, edge.data());
  EXPECT_EQ(edge, (std::vector<double>{20, 21, 22, 23, 24}));
  edge.resize(3);
  copy_edge(l, grid.data(), west, edge.data());
  EXPECT_EQ(edge, (std::vector<double>{0, 10, 20}));
  copy_edge(l, grid.data(), east, edge.data());
  EXPECT_EQ(edge, (std::vector<double>{4, 14, 24}));
  const std::vector<double> halo{-1, -2, -3, -4, -5};
  copy_into_ring(l, grid.data(), north, halo.data());
  copy_into_ring(l, grid.data(), south, halo.data());
  copy_into_ring(l, grid.data(), west, halo.data());
  copy_into_ring(l, grid.data(), east, halo.data());
  for (std::int64_t x = 0; x < 5; ++x) {
    EXPECT_EQ(grid[l.at(x, -1)], halo[x]);
    EXPECT_EQ(grid[l.at(x, 3)], halo[x]);
  }
  for (std::int64_t y = 0; y < 3; ++y) {
    EXPECT_EQ(grid[l.at(-1, y)], halo[y]);
    EXPECT_EQ(grid[l.at(5, y)], halo[y]);
  }
  EXPECT_EQ(grid[l.at(2, 1)], 12.0);  // the tile is untouched
}

TEST(Assemble, PlacesTilesByPE) {
  const extent global{4, 4};
  // PE p's tile (2x2 each, 2x2 PE grid) holds 10p + i.
  std::vector<double> tiles;
  for (int pe = 0; pe < 4; ++pe)
    for (int i = 0; i < 4; ++i) tiles.push_back(10.0 * pe + i);
  const std::vector<double> whole = assemble(global, {2, 2}, tiles);
  EXPECT_EQ(whole, (std::vector<double>{0, 1, 10, 11, 2, 3, 12, 13, 20, 21, 30, 31, 22, 23, 32, 33}));
}

TEST(CompareBitwise, FindsTheFirstDifferenceEvenInTheLastBit) {
  const extent e{3, 2};
  const std::vector<double> expected{0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  EXPECT_EQ(compare_bitwise(e, expected, expected), "");
  std::vector<double> got = expected;
  got[4] = std::nextafter(got[4], 1.0);
  got[5] = -got[5];
  const std::string report = compare_bitwise(e, got, expected);
  EXPECT_NE(report.find("2 of 6 points differ"), std::string::npos) << report;
  EXPECT_NE(report.find("the first at (1, 1)"), std::string::npos) << report;
  // -0.0 and 0.0 compare equal as numbers but are different bits.
  EXPECT_NE(compare_bitwise({1, 1}, {-0.0}, {0.0}), "");
}

}  // namespace
}  // namespace jacobi
