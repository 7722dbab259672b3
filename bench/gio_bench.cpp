// gio-bench: the benchmarks of bench/harness.hpp over gio, plus the host-MPI baselines
// (Inter-K, Inter-K-Empty). Compiled as CUDA or HIP by the build (gio_gpu_sources).
#include "harness.hpp"
#include "support/shim_gio.hpp"

int main(int argc, char** argv) { return bench::main_for<support::gio_shim>(argc, argv); }
