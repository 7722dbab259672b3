// Matrix Market input and output (https://math.nist.gov/MatrixMarket/formats.html), coordinate
// format only: what the reader accepts, and how a file becomes a lower_matrix.
//
//   field    real, integer: values from the file;  pattern: generated_value() for every entry
//   symmetry general: must be lower triangular (an entry above the diagonal is an error unless
//            `lower_of_general` asks for the lower triangle); the diagonal comes from the file and
//            must be present and non-zero in every row.
//            symmetric: the lower triangle (an entry stored above the diagonal is read as its
//            mirror image). Its own diagonal is replaced by a dominant one, as for pattern files:
//            the lower triangle of a symmetric matrix (e.g. a KKT system's zero block, a graph
//            without self-loops) is often singular.
// complex, array format, skew-symmetric and hermitian files are rejected. Every error names the
// file and the line.
#pragma once
#include <iosfwd>
#include <stdexcept>
#include <string>

#include "matrix.hpp"

namespace spts {

// "<file>:<line>: <cause>" (line 0: the file as a whole, e.g. unreadable).
class input_error : public std::runtime_error {
 public:
  input_error(const std::string& file, long long line, const std::string& cause);
  long long line() const noexcept { return line_; }

 private:
  long long line_;
};

struct matrix_market_options {
  bool lower_of_general = false;  // take the lower triangle of a general matrix instead of rejecting it
  std::uint64_t value_seed = 1;   // values of pattern files
};

struct matrix_market_input {
  lower_matrix L;
  std::string field;               // real, integer or pattern
  std::string symmetry;            // general or symmetric
  std::string origin;              // how values and diagonal were obtained, for the program's output
  std::int64_t dropped_upper = 0;  // entries above the diagonal left out (lower_of_general)
};

matrix_market_input read_matrix_market(const std::string& path, const matrix_market_options& options = {});
// The same from a stream; `name` stands for the file in messages.
matrix_market_input parse_matrix_market(std::istream& in, const std::string& name,
                                        const matrix_market_options& options = {});

// L as "coordinate real general" (diagonal included), readable by read_matrix_market.
void write_matrix_market(const lower_matrix& L, std::ostream& out);
void write_matrix_market(const lower_matrix& L, const std::string& path);

}  // namespace spts
