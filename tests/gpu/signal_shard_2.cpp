// put-with-signal binding families for rows [2/3, 3/3) of gio::types::rma_types (see signal_families.hpp).
#include "signal_families.hpp"

namespace gio_test {
std::vector<signal_family> signal_shard_2() { return signal_families_of_rows<signal_rows * 2 / 3, signal_rows>(); }
}  // namespace gio_test
