// The lower-triangular matrix every part of the SpTS app shares (reader, generators, partitioning,
// reference solve, GPU upload), and what is computed from it on the host: levels, statistics,
// the right-hand side, the serial solve and the residual. Plain C++: no GPU headers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace spts {

// L = D + S: D diagonal (every entry non-zero), S strictly lower in CSR with increasing column
// indices per row. Keeping D apart means every stored entry of a row is a dependency, so the
// solve kernels and the level analysis never search a row for its diagonal.
struct lower_matrix {
  std::int32_t n = 0;
  std::vector<std::int64_t> row_ptr{0};  // n + 1 offsets into col/val
  std::vector<std::int32_t> col;
  std::vector<double> val;
  std::vector<double> diag;

  std::int64_t strict_nnz() const { return row_ptr.back(); }
  // Stored entries of L, diagonal included (what Table 1 of the GIO paper counts).
  std::int64_t nnz() const { return strict_nnz() + n; }
  std::int64_t row_length(std::int32_t row) const { return row_ptr[row + 1] - row_ptr[row]; }
};

// Values for matrices that come without them (generators, pattern files): off-diagonal entries
// in +-[0.1, 1), a pure function of (seed, row, col). make_diagonal_dominant then sets
// diag = 1 + sum |l_ij| per row, which keeps x bounded by b (no growth along long dependency
// chains) so that the solve's rounding error stays far below the residual tolerance.
double generated_value(std::uint64_t seed, std::int32_t row, std::int32_t col);
void make_diagonal_dominant(lower_matrix& L);

// Throws std::invalid_argument naming the first broken invariant of lower_matrix (sizes, order
// and range of column indices, zero or non-finite values). Readers and generators call it last.
void check_structure(const lower_matrix& L);

// Level of each row: 0 without dependencies, else 1 + the highest level among the rows it reads.
// Rows of one level are independent: level-set solvers run one level per step, and the number of
// levels bounds any solver's critical path.
std::vector<std::int32_t> row_levels(const lower_matrix& L);

struct matrix_stats {
  std::int32_t rows = 0;
  std::int64_t nnz = 0;  // diagonal included
  std::int32_t levels = 0;
  double parallelism = 0;           // rows / levels: rows per level on average
  std::int64_t max_row_nnz = 0;     // diagonal included
  std::int64_t max_column_nnz = 0;  // strictly lower entries of the densest column (a hub's readers)
};
matrix_stats analyse(const lower_matrix& L);

// The exact solution the right-hand side is made from: varied, O(1) values, so that a wrong,
// shifted or missing x[i] changes the residual.
double exact_solution(std::int32_t row);
// b = L * x with x = exact_solution.
std::vector<double> make_rhs(const lower_matrix& L);

// Serial forward substitution: the reference every variant is checked against.
std::vector<double> solve_serial(const lower_matrix& L, const std::vector<double>& b);

// (L x - b)_row, with x indexed by global row (only the columns row reads are accessed).
double row_residual(const lower_matrix& L, const double* x, const double* b, std::int32_t row);

// Squared norms summed over some rows; PEs add theirs up before dividing.
struct residual_sums {
  double residual_sq = 0;
  double rhs_sq = 0;
  double relative() const;  // sqrt(residual_sq / rhs_sq); 0 for b == 0 and a zero residual
};
residual_sums residual_over_all_rows(const lower_matrix& L, const std::vector<double>& x, const std::vector<double>& b);

// The tolerance of the issue: ||L x - b|| / ||b|| must not exceed it.
inline constexpr double residual_tolerance = 1e-10;

}  // namespace spts
