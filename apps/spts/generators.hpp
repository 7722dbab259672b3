// Generators for the five matrix classes of the GIO paper's Table 1, at the paper's sizes or
// scaled down. Each makes L directly (strictly lower entries, dominant diagonal) with the rows and
// nnz(L) of the real matrix: Table 1's NNZ is nnz(L) with the diagonal, e.g. road_central's
// 31.02M = 33,866,826 / 2 (its symmetric pattern's lower half) + 14,081,816 (a diagonal entry per
// row). docs/spts.md describes each model and how its levels compare with the real matrix.
//
// A matrix is a pure function of (class, scale, seed): each row's entries come from counter-based
// random numbers keyed by the row, so any number of threads gives the same matrix.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace spts {

enum class matrix_class { road_usa, road_central, wiki_talk, asic_320ks, nlpkkt160 };

struct class_info {
  matrix_class id;
  const char* name;   // as --gen spells it (the SuiteSparse name, lower case)
  std::int32_t rows;  // of the real matrix
  std::int64_t nnz;   // nnz(L), diagonal included, of the real matrix (Table 1)
  const char* model;  // one line: what the generator builds
};
const std::vector<class_info>& matrix_classes();
const class_info& info(matrix_class id);

struct generator_spec {
  matrix_class id = matrix_class::road_usa;
  double scale = 1.0;  // rows and nnz(L) are the real matrix's times `scale`
  std::int32_t rows() const;
  std::int64_t target_nnz() const;
};
// "road_usa" or "road_usa:0.01"; throws std::invalid_argument naming the classes on a bad spec.
generator_spec parse_generator_spec(const std::string& text);
std::string to_string(const generator_spec& spec);  // "road_usa:0.01"

// threads = 0: std::thread::hardware_concurrency().
lower_matrix generate(const generator_spec& spec, std::uint64_t seed, unsigned threads = 0);

}  // namespace spts
