// jacobi2d of a build without a GPU (GIO_GPU=none): the cpu variant alone, with the same options,
// checks and output as the GPU builds' jacobi2d, so CI runs the whole driver under mpirun.
#include "core/cpu_solver.hpp"
#include "core/driver.hpp"

int main(int argc, char** argv) { return jacobi::run_program(argc, argv, {{"cpu", jacobi::make_cpu_solver}}); }
