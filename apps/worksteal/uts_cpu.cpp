#include "uts_cpu.hpp"

#include <vector>

namespace worksteal::uts {

tree_count count_subtree(const tree_params& params, const node& start) {
  tree_count count;
  std::vector<node> stack{start};
  while (!stack.empty()) {
    const node n = stack.back();
    stack.pop_back();
    ++count.nodes;
    if (n.height > count.depth) count.depth = n.height;
    const int children = num_children(params, n);
    if (children == 0) ++count.leaves;
    for (int i = 0; i < children; ++i) stack.push_back(child(n, i));
  }
  return count;
}

tree_count count_tree(const tree_params& params) { return count_subtree(params, root(params)); }

}  // namespace worksteal::uts
