// Small matrices the tests share, built by hand so that their properties are known exactly.
#pragma once
#include <initializer_list>
#include <utility>
#include <vector>

#include "matrix.hpp"

namespace spts::testing {

// Rows given as {column, value} lists (strictly lower, increasing columns) and a diagonal.
inline lower_matrix from_rows(const std::vector<std::vector<std::pair<int, double>>>& rows,
                              const std::vector<double>& diag) {
  lower_matrix L;
  L.n = static_cast<std::int32_t>(rows.size());
  for (const auto& row : rows) {
    for (const auto& [c, v] : row) L.col.push_back(c), L.val.push_back(v);
    L.row_ptr.push_back(static_cast<std::int64_t>(L.col.size()));
  }
  L.diag = diag;
  return L;
}

// The GIO paper's Figure 9 (also tests/data/figure9.mtx): rows 0 and 1 independent, rows 2 and 3
// read x0, row 4 reads x1 and x3. Levels 0, 0, 1, 1, 2.
inline lower_matrix figure9() {
  return from_rows({{}, {}, {{0, -1.0}}, {{0, 0.5}}, {{1, -0.25}, {3, 1.5}}}, {2.0, 4.0, 3.0, 2.0, 5.0});
}

// A chain: row i reads row i - 1. n levels, parallelism 1.
inline lower_matrix bidiagonal(int n) {
  std::vector<std::vector<std::pair<int, double>>> rows(static_cast<std::size_t>(n));
  for (int i = 1; i < n; ++i) rows[i] = {{i - 1, -0.5}};
  return from_rows(rows, std::vector<double>(static_cast<std::size_t>(n), 2.0));
}

}  // namespace spts::testing
