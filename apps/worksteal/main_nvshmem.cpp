// worksteal-nvshmem: the `nvshmem` variant, the same runtime, protocol and programs as
// worksteal's `ws` over NVSHMEM (comm_nvshmem.hpp), for side-by-side figures. CUDA only; built
// when NVSHMEM is found (cmake/GioNvshmem.cmake).
#include "app_nvshmem.hpp"
#include "driver.hpp"

int main(int argc, char** argv) { return worksteal::run_program<worksteal::nvshmem_app>(argc, argv); }
