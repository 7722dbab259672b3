#include "uts_trees.hpp"

namespace worksteal::uts {

namespace {

tree_params geometric(geo_shape shape, std::int32_t gen_mx, double b0, std::int32_t seed) {
  tree_params p;
  p.type = tree_type::geometric;
  p.shape = shape;
  p.gen_mx = gen_mx;
  p.b0 = b0;
  p.root_seed = seed;
  return p;
}

tree_params binomial(double b0, double nonleaf_prob, std::int32_t nonleaf_bf, std::int32_t seed) {
  tree_params p;
  p.type = tree_type::binomial;
  p.b0 = b0;
  p.nonleaf_prob = nonleaf_prob;
  p.nonleaf_bf = nonleaf_bf;
  p.root_seed = seed;
  return p;
}

// T4's options: "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4 -r 1"; -f is left at its default 0.5.
tree_params t4() {
  tree_params p = geometric(geo_shape::linear, 16, 6.0, 1);
  p.type = tree_type::hybrid;
  p.nonleaf_prob = 0.234375;
  p.nonleaf_bf = 4;
  return p;
}

}  // namespace

// The options and statistics are the UTS distribution's sample workloads script's comments.
const std::vector<named_tree>& all_trees() {
  static const std::vector<named_tree> trees = {
      {"T1", geometric(geo_shape::fixed, 10, 4.0, 19), 4130071, 3305118, 10},
      {"T2", geometric(geo_shape::cyclic, 16, 6.0, 502), 4117769, 2342762, 81},
      {"T3", binomial(2000.0, 0.124875, 8, 42), 4112897, 3599034, 1572},
      {"T4", t4(), 4132453, 3108986, 134},
      {"T5", geometric(geo_shape::linear, 20, 4.0, 34), 4147582, 2181318, 20},
      {"T1L", geometric(geo_shape::fixed, 13, 4.0, 29), 102181082, 81746377, 13},
      {"T2L", geometric(geo_shape::cyclic, 23, 7.0, 220), 96793510, 53791152, 67},
      {"T3L", binomial(2000.0, 0.200014, 5, 7), 111345631, 89076904, 17844},
      {"T1XL", geometric(geo_shape::fixed, 15, 4.0, 29), 1635119272, 1308100063, 15},
  };
  return trees;
}

const named_tree* find_tree(const std::string& name) {
  for (const named_tree& tree : all_trees())
    if (name == tree.name) return &tree;
  return nullptr;
}

std::string tree_names() {
  std::string names;
  for (const named_tree& tree : all_trees()) {
    if (!names.empty()) names += ", ";
    names += tree.name;
  }
  return names;
}

}  // namespace worksteal::uts
