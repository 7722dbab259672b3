#include "core/cpu_solver.hpp"

#include <array>

#include "core/host_relax.hpp"
#include "core/problem.hpp"

namespace jacobi {

namespace {

class cpu_solver final : public solver {
 public:
  explicit cpu_solver(const solver_setup& setup)
      : dec_(setup.dec), comm_(setup.comm), layout_(make_layout(dec_.tile.nx, dec_.tile.ny)),
        initial_(initial_tile(dec_, layout_)) {
    set_host_threads(setup.opt.threads);
  }

  run_result run(const run_request& request) override {
    grids_ = {initial_, initial_};
    const run_result result = relax_on_host(dec_, layout_, grids_, request, comm_);
    last_ = result.iterations;
    return result;
  }

  std::vector<double> tile() override { return interior_of(layout_, grids_[last_ % 2]); }
  int device() const override { return -1; }
  launch_shape shape() const override { return {0, host_threads(), ""}; }

 private:
  decomposition dec_;
  MPI_Comm comm_;
  tile_layout layout_;
  std::vector<double> initial_;
  std::array<std::vector<double>, 2> grids_;
  std::int64_t last_ = 0;
};

}  // namespace

std::unique_ptr<solver> make_cpu_solver(const solver_setup& setup) { return std::make_unique<cpu_solver>(setup); }

}  // namespace jacobi
