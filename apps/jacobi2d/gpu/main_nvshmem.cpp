// jacobi2d-nvshmem: the gio variant's persistent kernel, the same source, over NVSHMEM, for
// side-by-side numbers. CUDA only; built when NVSHMEM is found (cmake/GioNvshmem.cmake).
#include "core/driver.hpp"
#include "gpu/comm_nvshmem.hpp"
#include "gpu/persistent_solver.hpp"

int main(int argc, char** argv) {
  return jacobi::run_program(argc, argv, {{"nvshmem", jacobi::make_persistent_solver<jacobi::nvshmem_comm>}});
}
