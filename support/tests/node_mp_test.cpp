// support/node.hpp across a real MPI job on one node (in the mp tests' binary, under mpirun with 2
// and 3 processes): every PE's node-local place, the distinct devices of the job, and sums over a
// device's sharers, with PE r "using" device r mod 2.
#include <gtest/gtest.h>
#include <mpi.h>

#include "support/node.hpp"

namespace {

int world(int (*query)(MPI_Comm, int*)) {
  int v = 0;
  query(MPI_COMM_WORLD, &v);
  return v;
}

TEST(NodePlace, OneNodeRanksAreWorldRanks) {
  const support::node_place place = support::place_on_node(MPI_COMM_WORLD);
  EXPECT_EQ(place.rank, world(MPI_Comm_rank));
  EXPECT_EQ(place.size, world(MPI_Comm_size));
}

TEST(NodePlace, DevicesAreDistinctNodeDevicePairs) {
  const int rank = world(MPI_Comm_rank), size = world(MPI_Comm_size);
  EXPECT_EQ(support::count_devices(MPI_COMM_WORLD, rank % 2), size < 2 ? size : 2);
  EXPECT_EQ(support::count_devices(MPI_COMM_WORLD, 0), 1);
  EXPECT_EQ(support::count_devices(MPI_COMM_WORLD, -1), size) << "CPU variants count PEs";
}

TEST(NodePlace, SumsOverTheSharersOfADevice) {
  const int rank = world(MPI_Comm_rank), size = world(MPI_Comm_size);
  int sharers = 0;
  for (int r = 0; r < size; ++r) sharers += r % 2 == rank % 2;
  EXPECT_EQ(support::sum_over_device_sharers(MPI_COMM_WORLD, rank % 2, 1.0), static_cast<double>(sharers));
  EXPECT_EQ(support::sum_over_device_sharers(MPI_COMM_WORLD, -1, 2.5), 2.5) << "no device: this PE's own value";
}

}  // namespace
