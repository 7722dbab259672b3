#include "matrix.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "counter_random.hpp"

namespace spts {

namespace {
[[noreturn]] void broken(const std::string& what) { throw std::invalid_argument("malformed lower_matrix: " + what); }
}  // namespace

double generated_value(std::uint64_t seed, std::int32_t row, std::int32_t col) {
  const std::uint64_t bits =
      hash3(seed ^ 0x5be0cd19137e2179ull, static_cast<std::uint64_t>(row), static_cast<std::uint64_t>(col));
  const double magnitude = 0.1 + 0.9 * to_unit(bits);
  return (bits & 1u) ? -magnitude : magnitude;
}

void make_diagonal_dominant(lower_matrix& L) {
  L.diag.assign(static_cast<std::size_t>(L.n), 1.0);
  for (std::int32_t row = 0; row < L.n; ++row)
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) L.diag[row] += std::fabs(L.val[k]);
}

void check_structure(const lower_matrix& L) {
  if (L.n < 0) broken("negative n");
  const auto n = static_cast<std::size_t>(L.n);
  if (L.row_ptr.size() != n + 1) broken("row_ptr has " + std::to_string(L.row_ptr.size()) + " entries, not n + 1");
  if (L.diag.size() != n) broken("diag has " + std::to_string(L.diag.size()) + " entries, not n");
  if (L.row_ptr[0] != 0) broken("row_ptr[0] != 0");
  if (L.col.size() != static_cast<std::size_t>(L.strict_nnz()) || L.val.size() != L.col.size())
    broken("col/val sizes differ from row_ptr[n]");
  for (std::int32_t row = 0; row < L.n; ++row) {
    const std::string where = "row " + std::to_string(row);
    if (L.row_ptr[row + 1] < L.row_ptr[row]) broken(where + ": row_ptr decreases");
    if (L.diag[row] == 0 || !std::isfinite(L.diag[row])) broken(where + ": zero or non-finite diagonal");
    std::int32_t previous = -1;
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) {
      if (L.col[k] <= previous) broken(where + ": column indices not increasing");
      if (L.col[k] >= row) broken(where + ": entry on or above the diagonal (column " + std::to_string(L.col[k]) + ")");
      if (!std::isfinite(L.val[k])) broken(where + ": non-finite value");
      previous = L.col[k];
    }
  }
}

std::vector<std::int32_t> row_levels(const lower_matrix& L) {
  std::vector<std::int32_t> level(static_cast<std::size_t>(L.n), 0);
  for (std::int32_t row = 0; row < L.n; ++row) {
    std::int32_t deepest = -1;
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) deepest = std::max(deepest, level[L.col[k]]);
    level[row] = deepest + 1;
  }
  return level;
}

matrix_stats analyse(const lower_matrix& L) {
  matrix_stats s;
  s.rows = L.n;
  s.nnz = L.nnz();
  const std::vector<std::int32_t> level = row_levels(L);
  s.levels = level.empty() ? 0 : *std::max_element(level.begin(), level.end()) + 1;
  s.parallelism = s.levels ? static_cast<double>(s.rows) / s.levels : 0.0;
  std::vector<std::int64_t> column_count(static_cast<std::size_t>(L.n), 0);
  for (std::int32_t row = 0; row < L.n; ++row) s.max_row_nnz = std::max(s.max_row_nnz, L.row_length(row) + 1);
  for (const std::int32_t c : L.col) ++column_count[c];
  if (!column_count.empty()) s.max_column_nnz = *std::max_element(column_count.begin(), column_count.end());
  return s;
}

double exact_solution(std::int32_t row) {
  return 0.25 + 0.125 * static_cast<double>((static_cast<std::int64_t>(row) * 7 + 3) % 13);
}

std::vector<double> make_rhs(const lower_matrix& L) {
  std::vector<double> b(static_cast<std::size_t>(L.n));
  for (std::int32_t row = 0; row < L.n; ++row) {
    double sum = L.diag[row] * exact_solution(row);
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) sum += L.val[k] * exact_solution(L.col[k]);
    b[row] = sum;
  }
  return b;
}

std::vector<double> solve_serial(const lower_matrix& L, const std::vector<double>& b) {
  std::vector<double> x(static_cast<std::size_t>(L.n));
  for (std::int32_t row = 0; row < L.n; ++row) {
    double sum = 0;
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) sum += L.val[k] * x[L.col[k]];
    x[row] = (b[row] - sum) / L.diag[row];
  }
  return x;
}

double row_residual(const lower_matrix& L, const double* x, const double* b, std::int32_t row) {
  double sum = L.diag[row] * x[row];
  for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) sum += L.val[k] * x[L.col[k]];
  return sum - b[row];
}

double residual_sums::relative() const {
  if (rhs_sq == 0) return residual_sq == 0 ? 0.0 : INFINITY;
  return std::sqrt(residual_sq / rhs_sq);
}

residual_sums residual_over_all_rows(const lower_matrix& L, const std::vector<double>& x,
                                     const std::vector<double>& b) {
  residual_sums sums;
  for (std::int32_t row = 0; row < L.n; ++row) {
    const double r = row_residual(L, x.data(), b.data(), row);
    sums.residual_sq += r * r;
    sums.rhs_sq += b[row] * b[row];
  }
  return sums;
}

}  // namespace spts
