// vendor_solver in a HIP build without rocSPARSE: the `vendor` variant reports why it cannot run.
#include <stdexcept>

#include "vendor.hpp"

namespace spts {

struct vendor_solver::impl {};

vendor_solver::vendor_solver(const device_csr&, const double*, double*) {
  throw std::runtime_error(
      "the vendor variant is not available: rocSPARSE was not found when this build was configured "
      "(install librocsparse-dev, or run scripts/install-deps.sh --hip, and configure again)");
}
vendor_solver::~vendor_solver() = default;
void vendor_solver::solve() {}
double vendor_solver::analysis_ms() const { return 0; }
const char* vendor_solver::name() { return "none (rocSPARSE not found)"; }

}  // namespace spts
