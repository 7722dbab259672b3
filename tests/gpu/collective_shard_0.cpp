// Typed reduction families for rows [0/4, 1/4) of gio::types::reduce_types (see collective_families.hpp).
#include "collective_families.hpp"

namespace gio_test {
std::vector<coll_family> collective_shard_0() { return reduce_families_of_rows<0, reduce_rows * 1 / 4>(); }
}  // namespace gio_test
