#include "matrix_market.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "generators.hpp"
#include "test_matrices.hpp"

namespace spts {
namespace {

matrix_market_input parse(const std::string& text, const matrix_market_options& options = {}) {
  std::istringstream in(text);
  return parse_matrix_market(in, "test.mtx", options);
}

// Parsing `text` fails at `line` with a message containing `cause`.
void expect_error(const std::string& text, long long line, const std::string& cause,
                  const matrix_market_options& options = {}) {
  try {
    parse(text, options);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const input_error& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(cause), std::string::npos) << e.what();
    if (line > 0) EXPECT_EQ(std::string(e.what()).rfind("test.mtx:" + std::to_string(line) + ": ", 0), 0u) << e.what();
  }
}

const std::string general_header = "%%MatrixMarket matrix coordinate real general\n";

TEST(MatrixMarket, ReadsTheFigure9File) {
  const matrix_market_input in = read_matrix_market(std::string(SPTS_TEST_DATA) + "/figure9.mtx");
  const lower_matrix expected = testing::figure9();
  EXPECT_EQ(in.L.n, 5);
  EXPECT_EQ(in.L.row_ptr, expected.row_ptr);
  EXPECT_EQ(in.L.col, expected.col);
  EXPECT_EQ(in.L.val, expected.val);
  EXPECT_EQ(in.L.diag, expected.diag);
  EXPECT_EQ(in.field, "real");
  EXPECT_EQ(in.symmetry, "general");
  EXPECT_NE(in.origin.find("diagonal from the file"), std::string::npos);
}

TEST(MatrixMarket, ReadsTheGridPatternFile) {
  const matrix_market_input in = read_matrix_market(std::string(SPTS_TEST_DATA) + "/grid6x8_pattern_symmetric.mtx");
  const matrix_stats s = analyse(in.L);
  EXPECT_EQ(s.rows, 48);
  EXPECT_EQ(s.nnz, 82 + 48);  // the lower triangle plus a diagonal entry per row
  EXPECT_EQ(s.levels, 13);    // node (x, y) is at level x + y
  EXPECT_NE(in.origin.find("dominant diagonal"), std::string::npos);
}

TEST(MatrixMarket, EntriesInAnyOrderWithCommentsBlankLinesAndCrlf) {
  const auto in = parse(
      "%%MatrixMarket Matrix Coordinate Real General\r\n% comment\r\n\r\n3 3 5\r\n3 3 +4\r\n"
      "% between entries\n2 1 -1.5e0\n1 1 1\n2 2 2\n3 1 0.25\n");
  EXPECT_EQ(in.L.row_ptr, (std::vector<std::int64_t>{0, 0, 1, 2}));
  EXPECT_EQ(in.L.col, (std::vector<std::int32_t>{0, 0}));
  EXPECT_EQ(in.L.val, (std::vector<double>{-1.5, 0.25}));
  EXPECT_EQ(in.L.diag, (std::vector<double>{1, 2, 4}));
}

TEST(MatrixMarket, IntegerField) {
  const auto in = parse("%%MatrixMarket matrix coordinate integer general\n2 2 3\n1 1 3\n2 1 -2\n2 2 7\n");
  EXPECT_EQ(in.L.val, (std::vector<double>{-2}));
  EXPECT_EQ(in.L.diag, (std::vector<double>{3, 7}));
  expect_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3, "'1.5' is not an integer");
}

TEST(MatrixMarket, SymmetricGivesTheLowerTriangleWithADominantDiagonal) {
  // (1, 3) is stored above the diagonal: the same entry as (3, 1). The file's diagonal is unused.
  const auto in = parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 3 -0.5\n2 1 2\n2 2 0\n3 2 0.25\n");
  EXPECT_EQ(in.L.row_ptr, (std::vector<std::int64_t>{0, 0, 1, 3}));
  EXPECT_EQ(in.L.col, (std::vector<std::int32_t>{0, 0, 1}));
  EXPECT_EQ(in.L.val, (std::vector<double>{2, -0.5, 0.25}));
  EXPECT_EQ(in.L.diag, (std::vector<double>{1, 3, 1.75}));
  EXPECT_NE(in.origin.find("symmetric"), std::string::npos);
  EXPECT_NE(in.origin.find("dominant"), std::string::npos);
}

TEST(MatrixMarket, PatternGetsGeneratedValues) {
  matrix_market_options options;
  options.value_seed = 9;
  const auto in = parse("%%MatrixMarket matrix coordinate pattern general\n3 3 3\n2 1\n3 1\n3 2\n", options);
  EXPECT_EQ(in.L.val,
            (std::vector<double>{generated_value(9, 1, 0), generated_value(9, 2, 0), generated_value(9, 2, 1)}));
  EXPECT_DOUBLE_EQ(in.L.diag[2], 1 + std::fabs(in.L.val[1]) + std::fabs(in.L.val[2]));
  EXPECT_NE(in.origin.find("generated"), std::string::npos);
}

TEST(MatrixMarket, GeneralMustBeLowerTriangularUnlessAsked) {
  const std::string text = general_header + "2 2 3\n1 1 1\n1 2 5\n2 2 1\n";
  expect_error(text, 4, "entry (1, 2) lies above the diagonal");
  matrix_market_options options;
  options.lower_of_general = true;
  const auto in = parse(text, options);
  EXPECT_EQ(in.dropped_upper, 1);
  EXPECT_EQ(in.L.strict_nnz(), 0);
  EXPECT_NE(in.origin.find("1 entries above the diagonal dropped"), std::string::npos);
}

TEST(MatrixMarket, MalformedInputNamesTheLine) {
  expect_error("", 1, "empty file");
  expect_error("3 3 1\n", 1, "not a Matrix Market file");
  expect_error("%%MatrixMarket matrix coordinate real\n", 1, "needs 4 words");
  expect_error("%%MatrixMarket vector coordinate real general\n", 1, "unsupported object");
  expect_error("%%MatrixMarket matrix array real general\n2 2\n", 1, "'array' format is not supported");
  expect_error("%%MatrixMarket matrix coordinate complex general\n", 1, "complex values are not supported");
  expect_error("%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian matrices are not supported");
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n", 1, "skew-symmetric matrices");
  expect_error("%%MatrixMarket matrix coordinate real weird\n", 1, "unknown symmetry");
  expect_error(general_header + "% only comments\n", 3, "file ends before the size line");
  expect_error(general_header + "2 2\n", 2, "size line must be three integers");
  expect_error(general_header + "2 x 1\n", 2, "size line must be three integers");
  expect_error(general_header + "% c\n3 4 1\n", 3, "not square (3 x 4)");
  expect_error(general_header + "0 0 0\n", 2, "must be positive");
  expect_error(general_header + "2 2 2\n1 1 1\n2 2\n", 4, "expected 'row column value', found 2 fields");
  expect_error(general_header + "2 2 2\n1 1 1\n2 2 1 7\n", 4, "found 4 fields");
  expect_error(general_header + "2 2 1\n1.5 1 1\n", 3, "row and column must be integers");
  expect_error(general_header + "2 2 1\n3 1 1\n", 3, "entry (3, 1) outside the matrix [1, 2]");
  expect_error(general_header + "2 2 1\n1 0 1\n", 3, "outside the matrix");
  expect_error(general_header + "2 2 1\n1 1 abc\n", 3, "'abc' is not a real number");
  expect_error(general_header + "2 2 1\n1 1 inf\n", 3, "not finite");
  expect_error(general_header + "2 2 3\n1 1 1\n2 2 1\n", 5, "file ends after 2 of the 3 entries");
  expect_error(general_header + "2 2 2\n1 1 1\n2 2 1\n% trailing comment is fine\n2 1 1\n", 6,
               "more entries than the 2");
  expect_error(general_header + "3 3 5\n1 1 1\n3 1 1\n2 2 1\n3 1 2\n3 3 1\n", 6,
               "duplicate entry (3, 1), first at line 4");
  expect_error(general_header + "2 2 3\n1 1 1\n2 2 1\n1 1 1\n", 5, "duplicate entry (1, 1), first at line 3");
  expect_error(general_header + "2 2 2\n1 1 1\n2 2 0\n", 4, "zero diagonal entry (2, 2)");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", 3, "expected 'row column'");
}

TEST(MatrixMarket, MissingDiagonalOfAGeneralMatrix) {
  expect_error(general_header + "3 3 2\n1 1 1\n3 3 1\n", 0, "row 2 has no diagonal entry");
}

TEST(MatrixMarket, UnreadableFile) {
  try {
    read_matrix_market("/nonexistent/spts.mtx");
    ADD_FAILURE() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(std::string(e.what()), "/nonexistent/spts.mtx: cannot open the file for reading");
  }
}

TEST(MatrixMarket, WriteThenReadGivesTheSameMatrix) {
  const lower_matrix L = generate(parse_generator_spec("asic_320ks:0.002"), 3, 2);
  std::stringstream file;
  write_matrix_market(L, file);
  const matrix_market_input in = parse_matrix_market(file, "roundtrip");
  EXPECT_EQ(in.L.row_ptr, L.row_ptr);
  EXPECT_EQ(in.L.col, L.col);
  EXPECT_EQ(in.L.val, L.val);  // %.17g round-trips doubles exactly
  EXPECT_EQ(in.L.diag, L.diag);
}

}  // namespace
}  // namespace spts
