#include "generators.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace spts {
namespace {

TEST(GeneratorSpec, ParsesNameAndScale) {
  const generator_spec full = parse_generator_spec("road_usa");
  EXPECT_EQ(full.id, matrix_class::road_usa);
  EXPECT_EQ(full.scale, 1.0);
  EXPECT_EQ(full.rows(), 23947347);
  EXPECT_EQ(full.target_nnz(), 52801659);
  const generator_spec small = parse_generator_spec("nlpkkt160:0.001");
  EXPECT_EQ(small.id, matrix_class::nlpkkt160);
  EXPECT_EQ(small.rows(), 8346);
  EXPECT_EQ(to_string(small), "nlpkkt160:0.001");
  EXPECT_EQ(to_string(full), "road_usa");
}

TEST(GeneratorSpec, RejectsBadSpecs) {
  for (const char* bad : {"road", "road_usa:", "road_usa:0", "road_usa:-1", "road_usa:x", "road_usa:1e9", ""}) {
    EXPECT_THROW(parse_generator_spec(bad), std::invalid_argument) << bad;
  }
  try {
    parse_generator_spec("roads");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("road_usa, road_central, wiki_talk, asic_320ks, nlpkkt160"),
              std::string::npos);
  }
}

// Table 1 of the GIO paper counts nnz(L) with the diagonal: for the road networks that is half of
// the symmetric matrix's entries (no self-loops) plus one per row.
TEST(GeneratorSpec, TargetsAreTable1) {
  EXPECT_EQ(info(matrix_class::road_central).nnz, 33866826 / 2 + 14081816);
  EXPECT_EQ(info(matrix_class::road_usa).nnz, 57708624 / 2 + 23947347);
  EXPECT_EQ(info(matrix_class::nlpkkt160).nnz, 118931856);
  EXPECT_EQ(info(matrix_class::wiki_talk).rows, 2394385);
  EXPECT_EQ(info(matrix_class::asic_320ks).rows, 321671);
}

struct class_case {
  const char* spec;
  double nnz_tolerance;  // small versions lose a few entries at the map's edges and to duplicates
};

void PrintTo(const class_case& c, std::ostream* out) { *out << c.spec; }

class EveryClass : public ::testing::TestWithParam<class_case> {};

TEST_P(EveryClass, SizesStructureAndDeterminism) {
  const generator_spec spec = parse_generator_spec(GetParam().spec);
  const lower_matrix L = generate(spec, 11, 1);
  EXPECT_EQ(L.n, spec.rows());
  EXPECT_NO_THROW(check_structure(L));  // strictly lower, sorted, dominant non-zero diagonal
  EXPECT_NEAR(static_cast<double>(L.nnz()), static_cast<double>(spec.target_nnz()),
              GetParam().nnz_tolerance * static_cast<double>(spec.target_nnz()));
  for (std::int32_t row = 0; row < L.n; row += 97) {
    double sum = 1;
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) sum += std::fabs(L.val[k]);
    EXPECT_DOUBLE_EQ(L.diag[row], sum);
  }
  const lower_matrix threaded = generate(spec, 11, 3);
  EXPECT_EQ(threaded.row_ptr, L.row_ptr);
  EXPECT_EQ(threaded.col, L.col);
  EXPECT_EQ(threaded.val, L.val);
  const lower_matrix reseeded = generate(spec, 12, 1);
  EXPECT_NE(reseeded.val, L.val);  // the KKT pattern keeps every neighbour at this size: values differ
}

INSTANTIATE_TEST_SUITE_P(Generators, EveryClass,
                         ::testing::Values(class_case{"road_usa:0.001", 0.01}, class_case{"road_central:0.001", 0.01},
                                           class_case{"wiki_talk:0.01", 0.05}, class_case{"asic_320ks:0.05", 0.02},
                                           class_case{"nlpkkt160:0.002", 0.08}),
                         [](const auto& p) {
                           std::string name = p.param.spec;
                           return name.substr(0, name.find(':'));
                         });

TEST(Generators, RoadNetworksAreSparseAndLocal) {
  const lower_matrix L = generate(parse_generator_spec("road_central:0.002"), 5);
  const matrix_stats s = analyse(L);
  EXPECT_LE(s.max_row_nnz, 5);  // at most four neighbours, plus the diagonal
  EXPECT_LE(s.max_column_nnz, 4);
  EXPECT_GT(s.levels, 20);  // traced numbering: chains along roads
  EXPECT_GT(s.parallelism, 50);
}

TEST(Generators, PowerLawHasHubColumnsAndFewLevels) {
  const lower_matrix L = generate(parse_generator_spec("wiki_talk:0.05"), 5);
  const matrix_stats s = analyse(L);
  EXPECT_GT(s.max_column_nnz, 100);  // mean entries per column is 0.28
  EXPECT_GT(s.max_row_nnz, 100);
  EXPECT_LE(s.levels, 12);
}

TEST(Generators, CircuitHasHubs) {
  const lower_matrix L = generate(parse_generator_spec("asic_320ks:0.05"), 5);
  const matrix_stats s = analyse(L);
  EXPECT_GT(s.max_column_nnz, 10 * (L.strict_nnz() / L.n + 1));
  EXPECT_LE(s.max_row_nnz, 12);
}

TEST(Generators, KktHasTwoLevels) {
  const lower_matrix L = generate(parse_generator_spec("nlpkkt160:0.001"), 5);
  const matrix_stats s = analyse(L);
  EXPECT_EQ(s.levels, 2);
  EXPECT_LE(s.max_row_nnz, 28);  // 27 neighbours and the diagonal
  for (std::int32_t row = 0; row < (L.n + 1) / 2; ++row) ASSERT_EQ(L.row_length(row), 0) << row;
}

}  // namespace
}  // namespace spts
