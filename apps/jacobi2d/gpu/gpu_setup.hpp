// The GPU side of a variant's setup, through support/gpu_runtime.hpp (the programs' one vendor
// switch): which GPU a PE uses, whether the problem fits in its memory, and owners of device and
// pinned memory. The checks are collective and fail every PE with the cause.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <string>

#include "support/gpu_runtime.hpp"

namespace jacobi {

struct gpu_choice {
  int device;         // node-local GPU ordinal
  bool shared;        // some GPU of the job runs several PEs
  int pes_on_device;  // PEs of this node on this PE's GPU, this one included
};

// Collective: GPU (node-local rank) mod (visible GPUs), made current, its context created. Every
// PE fails when a node has no GPU.
gpu_choice select_gpu(MPI_Comm comm);

// Collective: every PE fails (exit 2) when the PEs on one GPU together need more than it has free.
// `what` says what the bytes are, for the message.
void require_gpu_memory(MPI_Comm comm, const gpu_choice& gpu, std::size_t bytes_per_pe, const std::string& what);

// Owners of one allocation each (support/gpu_runtime.hpp's).
using device_buffer = support::gpu::device_memory;
using pinned_buffer = support::gpu::pinned_memory;

std::string gibibytes(double bytes);

}  // namespace jacobi
