// worksteal: the work-stealing runtime over gio, every variant but nvshmem (driver.hpp).
// Compiled as CUDA or HIP; the GPU-less build is cpu_main.cpp.
#include "app_gio.hpp"
#include "driver.hpp"

int main(int argc, char** argv) { return worksteal::run_program<worksteal::gio_app>(argc, argv); }
