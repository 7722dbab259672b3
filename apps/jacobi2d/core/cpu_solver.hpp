// The cpu variant: the relaxation on the host, OpenMP over rows within a PE and MPI between PEs.
#pragma once
#include <memory>

#include "core/solver.hpp"

namespace jacobi {

std::unique_ptr<solver> make_cpu_solver(const solver_setup& setup);

}  // namespace jacobi
