#include "matrix.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_matrices.hpp"

namespace spts {
namespace {

using testing::bidiagonal;
using testing::figure9;
using testing::from_rows;

TEST(Matrix, CountsIncludeTheDiagonal) {
  const lower_matrix L = figure9();
  EXPECT_EQ(L.strict_nnz(), 4);
  EXPECT_EQ(L.nnz(), 9);
  EXPECT_EQ(L.row_length(4), 2);
}

TEST(Matrix, CheckStructureAcceptsAWellFormedMatrix) { EXPECT_NO_THROW(check_structure(figure9())); }

TEST(Matrix, CheckStructureFindsEachBrokenInvariant) {
  auto broken = [](auto edit) {
    lower_matrix L = figure9();
    edit(L);
    return L;
  };
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.diag[2] = 0; })), std::invalid_argument);
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.diag[1] = NAN; })), std::invalid_argument);
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.col[0] = 2; })), std::invalid_argument);  // diagonal
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.col[2] = 3; })), std::invalid_argument);  // order
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.val[3] = INFINITY; })), std::invalid_argument);
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.diag.pop_back(); })), std::invalid_argument);
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.row_ptr[3] = 3; })), std::invalid_argument);
  EXPECT_THROW(check_structure(broken([](lower_matrix& L) { L.val.pop_back(); })), std::invalid_argument);
}

TEST(Levels, OfTheFigure9Example) {
  EXPECT_EQ(row_levels(figure9()), (std::vector<std::int32_t>{0, 0, 1, 1, 2}));
  const matrix_stats s = analyse(figure9());
  EXPECT_EQ(s.rows, 5);
  EXPECT_EQ(s.nnz, 9);
  EXPECT_EQ(s.levels, 3);
  EXPECT_DOUBLE_EQ(s.parallelism, 5.0 / 3.0);
  EXPECT_EQ(s.max_row_nnz, 3);     // row 4: two entries and the diagonal
  EXPECT_EQ(s.max_column_nnz, 2);  // column 0: rows 2 and 3
}

TEST(Levels, DiagonalMatrixHasOneLevel) {
  const matrix_stats s = analyse(from_rows({{}, {}, {}, {}}, {1, 1, 1, 1}));
  EXPECT_EQ(s.levels, 1);
  EXPECT_DOUBLE_EQ(s.parallelism, 4.0);
}

TEST(Levels, ChainHasOneLevelPerRow) {
  const matrix_stats s = analyse(bidiagonal(7));
  EXPECT_EQ(s.levels, 7);
  EXPECT_DOUBLE_EQ(s.parallelism, 1.0);
}

TEST(Levels, TakeTheDeepestDependency) {
  // Row 3 reads row 0 (level 0) and row 2 (level 2, through row 1): level 3.
  const lower_matrix L = from_rows({{}, {{0, 1}}, {{1, 1}}, {{0, 1}, {2, 1}}}, {1, 1, 1, 1});
  EXPECT_EQ(row_levels(L), (std::vector<std::int32_t>{0, 1, 2, 3}));
}

TEST(ReferenceSolve, RecoversTheExactSolution) {
  for (const lower_matrix& L : {figure9(), bidiagonal(50)}) {
    const std::vector<double> b = make_rhs(L);
    const std::vector<double> x = solve_serial(L, b);
    for (std::int32_t i = 0; i < L.n; ++i) EXPECT_NEAR(x[i], exact_solution(i), 1e-13) << "row " << i;
    EXPECT_LE(residual_over_all_rows(L, x, b).relative(), 1e-15);
  }
}

TEST(ReferenceSolve, Figure9ByHand) {
  // b = L * (1, 1, 1, 1, 1), worked out by hand.
  const lower_matrix L = figure9();
  const std::vector<double> b{2.0, 4.0, 2.0, 2.5, 6.25};
  const std::vector<double> x = solve_serial(L, b);
  for (double xi : x) EXPECT_DOUBLE_EQ(xi, 1.0);
}

TEST(Residual, DetectsAWrongSolution) {
  const lower_matrix L = bidiagonal(20);
  const std::vector<double> b = make_rhs(L);
  std::vector<double> x = solve_serial(L, b);
  x[7] += 1e-6;
  EXPECT_GT(residual_over_all_rows(L, x, b).relative(), residual_tolerance);
  x[7] = NAN;
  EXPECT_FALSE(residual_over_all_rows(L, x, b).relative() <= residual_tolerance);
}

TEST(Residual, RowResidualReadsOnlyTheRowsColumns) {
  const lower_matrix L = figure9();
  const std::vector<double> b{2.0, 4.0, 2.0, 2.5, 6.25};
  std::vector<double> x{1.0, 1.0, NAN, 1.0, 1.0};  // row 4 does not read x2
  EXPECT_DOUBLE_EQ(row_residual(L, x.data(), b.data(), 4), 0.0);
}

TEST(Residual, ZeroRightHandSide) {
  EXPECT_EQ((residual_sums{0, 0}.relative()), 0.0);
  EXPECT_TRUE(std::isinf(residual_sums{1, 0}.relative()));
}

TEST(GeneratedValues, AreDeterministicBoundedAndVaried) {
  int negative = 0;
  for (int i = 1; i < 200; ++i) {
    const double v = generated_value(7, i, i - 1);
    EXPECT_EQ(v, generated_value(7, i, i - 1));
    EXPECT_GE(std::fabs(v), 0.1);
    EXPECT_LT(std::fabs(v), 1.0);
    negative += v < 0;
  }
  EXPECT_GT(negative, 50);
  EXPECT_LT(negative, 150);
  EXPECT_NE(generated_value(7, 5, 3), generated_value(8, 5, 3));
}

TEST(GeneratedValues, DominantDiagonal) {
  lower_matrix L = figure9();
  make_diagonal_dominant(L);
  EXPECT_DOUBLE_EQ(L.diag[0], 1.0);
  EXPECT_DOUBLE_EQ(L.diag[4], 1.0 + 0.25 + 1.5);
}

}  // namespace
}  // namespace spts
