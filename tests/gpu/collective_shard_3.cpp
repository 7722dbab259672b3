// Typed reduction families for rows [3/4, 4/4) of gio::types::reduce_types (see collective_families.hpp).
#include "collective_families.hpp"

namespace gio_test {
std::vector<coll_family> collective_shard_3() { return reduce_families_of_rows<reduce_rows * 3 / 4, reduce_rows>(); }
}  // namespace gio_test
