// Atomic binding families for rows [1/2, 1) of gio::types::amo_types (see amo_families.hpp).
#include "amo_families.hpp"

namespace gio_test {
std::vector<amo_family> amo_shard_1() { return amo_families_of_rows<amo_rows / 2, amo_rows>(); }
}  // namespace gio_test
