// The named sample trees of the UTS distribution (its sample workloads script), with the
// statistics published there for checking a traversal: node count, leaf count, depth.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "uts.hpp"

namespace worksteal::uts {

struct named_tree {
  const char* name;     // as the UTS script names it: "T1", "T3L", ...
  tree_params params;   // the script's options over uts.c's defaults
  std::uint64_t nodes;  // published statistics; 0 where not published
  std::uint64_t leaves;
  std::int32_t depth;   // the deepest node's height (the root's is 0)
};

// In the script's order: the small trees (~4M nodes), then the large (~100M), then T1XL (~1.6G).
const std::vector<named_tree>& all_trees();
// The tree of that exact name, or nullptr.
const named_tree* find_tree(const std::string& name);
// "T1, T2, ..." for error messages.
std::string tree_names();

}  // namespace worksteal::uts
