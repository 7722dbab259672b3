// put-with-signal binding families for rows [0/3, 1/3) of gio::types::rma_types (see signal_families.hpp).
#include "signal_families.hpp"

namespace gio_test {
std::vector<signal_family> signal_shard_0() { return signal_families_of_rows<0, signal_rows * 1 / 3>(); }
}  // namespace gio_test
