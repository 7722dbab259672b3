// worksteal-steal-latency-nvshmem: one steal's cost over NVSHMEM (steal_latency.hpp), beside
// worksteal-steal-latency's over gio. CUDA only; built when NVSHMEM is found.
#include "app_nvshmem.hpp"
#include "steal_latency.hpp"

int main(int argc, char** argv) { return worksteal::steal_latency::run_program<worksteal::nvshmem_app>(argc, argv); }
