// jacobi2d of a GPU build: the gio variant (the persistent kernel over gio), the Inter-K
// baselines, and the cpu variant. Compiled as CUDA or HIP (gio_gpu_sources).
#include "core/cpu_solver.hpp"
#include "core/driver.hpp"
#include "gpu/comm_gio.hpp"
#include "gpu/inter_k.hpp"
#include "gpu/persistent_solver.hpp"

int main(int argc, char** argv) {
  return jacobi::run_program(argc, argv,
                             {{"gio", jacobi::make_persistent_solver<jacobi::gio_comm>},
                              {"inter-k", jacobi::make_inter_k_solver},
                              {"inter-k-overlap", jacobi::make_inter_k_overlap_solver},
                              {"cpu", jacobi::make_cpu_solver}});
}
