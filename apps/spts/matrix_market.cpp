#include "matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <istream>
#include <limits>
#include <numeric>
#include <ostream>
#include <string_view>
#include <vector>

namespace spts {

namespace {

std::string where(const std::string& file, long long line) {
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

std::string lowercase(std::string_view text) {
  std::string s(text);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

// The whole field must be the number (from_chars stops at the first character it cannot use).
template <class T>
bool parse_whole(std::string_view field, T& out) {
  const char* first = field.data();
  const char* last = field.data() + field.size();
  if (first != last && *first == '+') ++first;  // Matrix Market writers may print "+1.5"
  const auto [end, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && end == last;
}

// Lines of the file with their numbers; comments (%) and blank lines are skipped by next_data().
class line_reader {
 public:
  line_reader(std::istream& in, const std::string& name) : in_(in), name_(name) {}
  bool next_raw() {
    if (!std::getline(in_, text_)) return false;
    ++number_;
    if (!text_.empty() && text_.back() == '\r') text_.pop_back();  // files written on Windows
    return true;
  }
  bool next_data() {
    while (next_raw()) {
      const auto fields = split_fields(text_);
      if (!fields.empty() && fields[0][0] != '%') return true;
    }
    return false;
  }
  const std::string& text() const { return text_; }
  long long number() const { return number_; }
  [[noreturn]] void fail(const std::string& cause) const { throw input_error(name_, number_, cause); }
  [[noreturn]] void fail_after_end(const std::string& cause) const { throw input_error(name_, number_ + 1, cause); }

 private:
  std::istream& in_;
  const std::string& name_;
  std::string text_;
  long long number_ = 0;
};

struct banner {
  std::string field, symmetry;
};

banner read_banner(line_reader& lines) {
  if (!lines.next_raw())
    lines.fail_after_end("empty file: expected the banner '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  const auto fields = split_fields(lines.text());
  if (fields.empty() || lowercase(fields[0]) != "%%matrixmarket")
    lines.fail(
        "not a Matrix Market file: the first line must be '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  if (fields.size() != 5) lines.fail("the banner needs 4 words after %%MatrixMarket (object format field symmetry)");
  const std::string object = lowercase(fields[1]), format = lowercase(fields[2]);
  banner b{lowercase(fields[3]), lowercase(fields[4])};
  if (object != "matrix") lines.fail("unsupported object '" + object + "' (only 'matrix')");
  if (format == "array") lines.fail("dense 'array' format is not supported: a sparse 'coordinate' file is needed");
  if (format != "coordinate") lines.fail("unknown format '" + format + "' (expected 'coordinate')");
  if (b.field == "complex") lines.fail("complex values are not supported (real, integer or pattern)");
  if (b.field != "real" && b.field != "integer" && b.field != "pattern")
    lines.fail("unknown field '" + b.field + "' (expected real, integer or pattern)");
  if (b.symmetry == "skew-symmetric" || b.symmetry == "hermitian")
    lines.fail(b.symmetry + " matrices are not supported (general or symmetric)");
  if (b.symmetry != "general" && b.symmetry != "symmetric")
    lines.fail("unknown symmetry '" + b.symmetry + "' (expected general or symmetric)");
  return b;
}

struct entry_list {
  std::vector<std::int32_t> row, col;
  std::vector<double> val;
  std::vector<long long> line;
};

}  // namespace

input_error::input_error(const std::string& file, long long line, const std::string& cause)
    : std::runtime_error(where(file, line) + ": " + cause), line_(line) {}

matrix_market_input parse_matrix_market(std::istream& in, const std::string& name,
                                        const matrix_market_options& options) {
  line_reader lines(in, name);
  const banner b = read_banner(lines);
  const bool pattern = b.field == "pattern";
  const bool symmetric = b.symmetry == "symmetric";

  if (!lines.next_data()) lines.fail_after_end("file ends before the size line 'rows columns entries'");
  const auto size_fields = split_fields(lines.text());
  long long rows = 0, columns = 0, declared = 0;
  if (size_fields.size() != 3 || !parse_whole(size_fields[0], rows) || !parse_whole(size_fields[1], columns) ||
      !parse_whole(size_fields[2], declared))
    lines.fail("the size line must be three integers 'rows columns entries'");
  if (rows < 1 || columns < 1 || declared < 0) lines.fail("rows and columns must be positive and entries not negative");
  if (rows != columns)
    lines.fail("the matrix is not square (" + std::to_string(rows) + " x " + std::to_string(columns) +
               "): a triangular solve needs a square matrix");
  if (rows > std::numeric_limits<std::int32_t>::max() - 1)
    lines.fail("too many rows (" + std::to_string(rows) + "): at most 2^31 - 2");
  const auto n = static_cast<std::int32_t>(rows);

  matrix_market_input result;
  result.field = b.field;
  result.symmetry = b.symmetry;
  entry_list entries;
  std::vector<double> diag(static_cast<std::size_t>(n), 0.0);
  std::vector<long long> diag_line(static_cast<std::size_t>(n), 0);
  const std::size_t expected_fields = pattern ? 2 : 3;
  const long long reserve = std::min<long long>(declared, 1ll << 26);  // a bad header must not allocate terabytes
  entries.row.reserve(reserve), entries.col.reserve(reserve), entries.val.reserve(reserve),
      entries.line.reserve(reserve);

  for (long long k = 0; k < declared; ++k) {
    if (!lines.next_data())
      lines.fail_after_end("file ends after " + std::to_string(k) + " of the " + std::to_string(declared) +
                           " entries the size line declares");
    const auto fields = split_fields(lines.text());
    if (fields.size() != expected_fields)
      lines.fail(std::string("expected '") + (pattern ? "row column" : "row column value") + "', found " +
                 std::to_string(fields.size()) + " fields");
    long long i = 0, j = 0;
    if (!parse_whole(fields[0], i) || !parse_whole(fields[1], j)) lines.fail("row and column must be integers");
    if (i < 1 || i > n || j < 1 || j > n)
      lines.fail("entry (" + std::to_string(i) + ", " + std::to_string(j) + ") outside the matrix [1, " +
                 std::to_string(n) + "]");
    double value = 0;
    if (!pattern) {
      long long integer = 0;
      const bool parsed = b.field == "integer" ? parse_whole(fields[2], integer) : parse_whole(fields[2], value);
      if (!parsed)
        lines.fail("the value '" + std::string(fields[2]) + "' is not " +
                   (b.field == "integer" ? "an integer" : "a real number"));
      if (b.field == "integer") value = static_cast<double>(integer);
      if (!std::isfinite(value)) lines.fail("the value is not finite");
    }
    auto r = static_cast<std::int32_t>(i - 1), c = static_cast<std::int32_t>(j - 1);
    if (c > r) {
      if (symmetric) {
        std::swap(r, c);  // the same entry as (j, i)
      } else if (options.lower_of_general) {
        ++result.dropped_upper;
        continue;
      } else {
        lines.fail("entry (" + std::to_string(i) + ", " + std::to_string(j) +
                   ") lies above the diagonal: the matrix is not lower triangular (--tril takes the lower "
                   "triangle of a general matrix)");
      }
    }
    if (r == c) {
      if (diag_line[r] != 0)
        lines.fail("duplicate entry (" + std::to_string(r + 1) + ", " + std::to_string(r + 1) + "), first at line " +
                   std::to_string(diag_line[r]));
      diag_line[r] = lines.number();
      if (!pattern && !symmetric && value == 0)
        lines.fail("zero diagonal entry (" + std::to_string(i) + ", " + std::to_string(i) + "): L would be singular");
      diag[r] = value;
      continue;
    }
    entries.row.push_back(r), entries.col.push_back(c), entries.val.push_back(value),
        entries.line.push_back(lines.number());
  }
  if (lines.next_data()) lines.fail("more entries than the " + std::to_string(declared) + " the size line declares");

  // CSR by a counting sort on rows, then each row sorted by column, which exposes duplicates.
  lower_matrix& L = result.L;
  L.n = n;
  L.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const std::int32_t r : entries.row) ++L.row_ptr[r + 1];
  std::partial_sum(L.row_ptr.begin(), L.row_ptr.end(), L.row_ptr.begin());
  std::vector<std::int64_t> order(entries.row.size());
  {
    std::vector<std::int64_t> cursor(L.row_ptr.begin(), L.row_ptr.end() - 1);
    for (std::size_t e = 0; e < entries.row.size(); ++e) order[cursor[entries.row[e]]++] = static_cast<std::int64_t>(e);
  }
  L.col.resize(order.size());
  L.val.resize(order.size());
  for (std::int32_t r = 0; r < n; ++r) {
    const auto first = order.begin() + L.row_ptr[r], last = order.begin() + L.row_ptr[r + 1];
    // Stable: equal columns stay in file order, so a duplicate is reported at its later line.
    std::stable_sort(first, last, [&](std::int64_t a, std::int64_t b) { return entries.col[a] < entries.col[b]; });
    for (auto it = first; it != last; ++it) {
      const std::int64_t e = *it;
      if (it != first && entries.col[*(it - 1)] == entries.col[e])
        throw input_error(name, entries.line[e],
                          "duplicate entry (" + std::to_string(r + 1) + ", " + std::to_string(entries.col[e] + 1) +
                              "), first at line " + std::to_string(entries.line[*(it - 1)]));
      const std::size_t k = static_cast<std::size_t>(it - order.begin());
      L.col[k] = entries.col[e];
      L.val[k] = pattern ? generated_value(options.value_seed, r, entries.col[e]) : entries.val[e];
    }
  }

  if (pattern || symmetric) {
    make_diagonal_dominant(L);
    result.origin = std::string(pattern ? "pattern" : "symmetric") + " file: lower triangle, " +
                    (pattern ? "generated off-diagonal values, " : "values from the file, ") +
                    "dominant diagonal 1 + sum |l_ij| (the file's diagonal is not used)";
  } else {
    for (std::int32_t r = 0; r < n; ++r)
      if (diag_line[r] == 0)
        throw input_error(name, 0, "row " + std::to_string(r + 1) + " has no diagonal entry: L would be singular");
    L.diag = std::move(diag);
    result.origin = b.field + " general file: values and diagonal from the file";
    if (options.lower_of_general)
      result.origin +=
          ", lower triangle (" + std::to_string(result.dropped_upper) + " entries above the diagonal dropped)";
  }
  check_structure(L);
  return result;
}

matrix_market_input read_matrix_market(const std::string& path, const matrix_market_options& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path, 0, "cannot open the file for reading");
  return parse_matrix_market(in, path, options);
}

void write_matrix_market(const lower_matrix& L, std::ostream& out) {
  out << "%%MatrixMarket matrix coordinate real general\n";
  out << L.n << ' ' << L.n << ' ' << L.nnz() << '\n';
  char line[96];
  for (std::int32_t r = 0; r < L.n; ++r) {
    for (std::int64_t k = L.row_ptr[r]; k < L.row_ptr[r + 1]; ++k) {
      std::snprintf(line, sizeof line, "%d %d %.17g\n", r + 1, L.col[k] + 1, L.val[k]);
      out << line;
    }
    std::snprintf(line, sizeof line, "%d %d %.17g\n", r + 1, r + 1, L.diag[r]);
    out << line;
  }
}

void write_matrix_market(const lower_matrix& L, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw input_error(path, 0, "cannot open the file for writing");
  write_matrix_market(L, out);
  if (!out.flush()) throw input_error(path, 0, "write failed");
}

}  // namespace spts
