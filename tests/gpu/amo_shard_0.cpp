// Atomic binding families for rows [0, 1/2) of gio::types::amo_types (see amo_families.hpp).
#include "amo_families.hpp"

namespace gio_test {
std::vector<amo_family> amo_shard_0() { return amo_families_of_rows<0, amo_rows / 2>(); }
}  // namespace gio_test
