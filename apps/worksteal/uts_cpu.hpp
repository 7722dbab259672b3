// Serial reference count of a UTS tree on the host: what a parallel traversal must reproduce.
#pragma once
#include <cstdint>

#include "uts.hpp"

namespace worksteal::uts {

struct tree_count {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;  // nodes without children
  std::int32_t depth = 0;    // the deepest node's height (absolute: the root's is 0)
};

// Depth-first with an explicit stack: binomial trees are thousands of levels deep.
tree_count count_subtree(const tree_params& params, const node& start);
tree_count count_tree(const tree_params& params);

}  // namespace worksteal::uts
