// gio-bench-nvshmem: the same kernels and harness as gio-bench, over NVSHMEM, for side-by-side
// numbers. CUDA only; built when NVSHMEM is found (bench/CMakeLists.txt, GIO_BENCH_NVSHMEM).
#include "harness.hpp"
#include "support/shim_nvshmem.hpp"

int main(int argc, char** argv) { return bench::main_for<support::nvshmem_shim>(argc, argv); }
