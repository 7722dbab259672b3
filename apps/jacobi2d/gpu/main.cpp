// jacobi2d of a GPU build: the gio variant (the persistent kernel over gio), the same kernel
// with every other PE through the NIC (gda, and its IKN baseline ikn), the Inter-K baselines, and
// the cpu variant. Compiled as CUDA or HIP (gio_gpu_sources).
#include <cstdlib>

#include "core/cpu_solver.hpp"
#include "core/driver.hpp"
#include "gpu/comm_gio.hpp"
#include "gpu/inter_k.hpp"
#include "gpu/persistent_solver.hpp"

namespace {
// The gio kernel with gio's transport to the other PEs chosen before gio starts.
template <const char* Transport> std::unique_ptr<jacobi::solver> over_network(const jacobi::solver_setup& setup) {
  ::setenv("GIO_TRANSPORT", Transport, 1);
  return jacobi::make_persistent_solver<jacobi::gio_comm>(setup);
}
constexpr char gda[] = "gda";
constexpr char ikn[] = "ikn";
}  // namespace

int main(int argc, char** argv) {
  return jacobi::run_program(argc, argv,
                             {{"gio", jacobi::make_persistent_solver<jacobi::gio_comm>},
                              {"gda", over_network<gda>},
                              {"ikn", over_network<ikn>},
                              {"inter-k", jacobi::make_inter_k_solver},
                              {"inter-k-overlap", jacobi::make_inter_k_overlap_solver},
                              {"cpu", jacobi::make_cpu_solver}});
}
