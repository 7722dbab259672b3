// Facts about the MPI job that the variants and the report need: where a PE sits on its node, and
// how many distinct devices the job uses (the weak-scaling unit).
#pragma once
#include <mpi.h>

namespace jacobi {

struct node_place {
  int rank;  // among the PEs of this node
  int size;  // PEs on this node
};
// Collective.
node_place place_on_node(MPI_Comm comm);

// Collective. The sum of `value` over the PEs of this node that use `device` (the PEs sharing one
// GPU), for this PE.
double sum_over_device_sharers(MPI_Comm comm, int device, double value);

// Collective. Distinct (node, device) pairs over the PEs; with device < 0 on every PE (CPU
// variants) the number of PEs.
int count_devices(MPI_Comm comm, int device);

}  // namespace jacobi
