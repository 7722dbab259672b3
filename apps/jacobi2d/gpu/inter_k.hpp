// The Inter-K baselines (GIO paper §6.1, §6.3): one kernel launch per iteration, halos moved by
// the host between kernels (device -> pinned host memory -> MPI -> pinned -> device; the GPU
// machines' Open MPI is not CUDA-aware), the residual by MPI_Allreduce.
//   inter-k:          one kernel over the whole tile, then the exchange.
//   inter-k-overlap:  the boundary strip's kernel on a high-priority stream, the interior's on
//                     another; the exchange (copies and non-blocking MPI) runs while the
//                     interior kernel does.
#pragma once
#include <memory>

#include "core/solver.hpp"

namespace jacobi {

std::unique_ptr<solver> make_inter_k_solver(const solver_setup& setup);
std::unique_ptr<solver> make_inter_k_overlap_solver(const solver_setup& setup);

}  // namespace jacobi
