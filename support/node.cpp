#include "support/node.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace support {

namespace {
// The node's PEs, and the lowest world rank among them (names the node).
struct node_comm {
  MPI_Comm comm;
  int leader;
};
node_comm split_by_node(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  node_comm node{MPI_COMM_NULL, rank};
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node.comm);
  MPI_Allreduce(MPI_IN_PLACE, &node.leader, 1, MPI_INT, MPI_MIN, node.comm);
  return node;
}
}  // namespace

node_place place_on_node(MPI_Comm comm) {
  node_comm node = split_by_node(comm);
  node_place place{};
  MPI_Comm_rank(node.comm, &place.rank);
  MPI_Comm_size(node.comm, &place.size);
  MPI_Comm_free(&node.comm);
  return place;
}

bool mps_daemon_running() {
  const char* directory = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  const std::string pipe = std::string(directory && *directory ? directory : "/tmp/nvidia-mps") + "/control";
  struct stat info {};
  return ::stat(pipe.c_str(), &info) == 0;
}

bool gpus_shared_without_mps(MPI_Comm comm, int devices) {
  int shared = place_on_node(comm).size > devices && !mps_daemon_running() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_MAX, comm);
  return shared != 0;
}

double sum_over_device_sharers(MPI_Comm comm, int device, double value) {
  node_comm node = split_by_node(comm);
  MPI_Comm sharers = MPI_COMM_NULL;
  MPI_Comm_split(node.comm, device < 0 ? MPI_UNDEFINED : device, 0, &sharers);
  double sum = value;
  if (sharers != MPI_COMM_NULL) {
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, sharers);
    MPI_Comm_free(&sharers);
  }
  MPI_Comm_free(&node.comm);
  return sum;
}

int count_devices(MPI_Comm comm, int device) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  int uses_device = device >= 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &uses_device, 1, MPI_INT, MPI_MAX, comm);
  if (!uses_device) return size;
  node_comm node = split_by_node(comm);
  MPI_Comm_free(&node.comm);
  const int mine[2] = {node.leader, device};
  std::vector<int> all(2 * static_cast<std::size_t>(size));
  MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, comm);
  std::set<std::pair<int, int>> distinct;
  for (int pe = 0; pe < size; ++pe) distinct.insert({all[2 * pe], all[2 * pe + 1]});
  return static_cast<int>(distinct.size());
}

}  // namespace support
