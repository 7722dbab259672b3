// Typed reduction families for rows [1/4, 2/4) of gio::types::reduce_types (see collective_families.hpp).
#include "collective_families.hpp"

namespace gio_test {
std::vector<coll_family> collective_shard_1() { return reduce_families_of_rows<reduce_rows * 1 / 4, reduce_rows * 2 / 4>(); }
}  // namespace gio_test
