// RMA binding families for rows [1/4, 2/4) of gio::types::rma_types (see rma_families.hpp).
#include "rma_families.hpp"

namespace gio_test {
std::vector<family> rma_shard_1() { return families_of_rows<rma_rows * 1 / 4, rma_rows * 2 / 4>(); }
}  // namespace gio_test
