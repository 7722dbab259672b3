// RMA binding families for rows [3/4, 4/4) of gio::types::rma_types (see rma_families.hpp).
#include "rma_families.hpp"

namespace gio_test {
std::vector<family> rma_shard_3() { return families_of_rows<rma_rows * 3 / 4, rma_rows * 4 / 4>(); }
}  // namespace gio_test
