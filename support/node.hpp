// Where a PE sits on its node and which PEs share its GPU, as the programs (bench/, apps/) count
// them before or beside a library that knows it itself (gio: shmem_runtime_report()): node-local
// rank r uses GPU r mod the GPUs, as gio and the NVSHMEM shims choose.
#pragma once
#include <mpi.h>

namespace support {

struct node_place {
  int rank;  // among the PEs of this node
  int size;  // PEs on this node
};
// Collective.
node_place place_on_node(MPI_Comm comm);

// Collective. The sum of `value` over the PEs of this node that use `device` (the PEs sharing one
// GPU), for this PE.
double sum_over_device_sharers(MPI_Comm comm, int device, double value);

// The CUDA MPS control daemon serves this node: its pipe exists (CUDA_MPS_PIPE_DIRECTORY, else
// the default), so several processes' kernels share a GPU side by side. What gio finds out at init.
bool mps_daemon_running();

// Collective, the same answer on every PE: some node of the job runs more PEs than the `devices`
// GPUs it sees, without MPS. A library that needs a GPU per PE (NVSHMEM) cannot run there.
bool gpus_shared_without_mps(MPI_Comm comm, int devices);

// Collective. Distinct (node, device) pairs over the PEs; with device < 0 on every PE (CPU
// variants) the number of PEs (the weak-scaling unit of jacobi2d's report).
int count_devices(MPI_Comm comm, int device);

}  // namespace support
