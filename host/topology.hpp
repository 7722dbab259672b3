// Topology from hwloc: which NUMA node a GPU hangs off, and the NICs with their distance to it
// (GDA picks the closest NIC; gio-info prints it all). Private to the host runtime.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace gio {

struct nic_info {
  std::string name;      // "mlx5_0" (OpenFabrics) or an Ethernet interface
  std::string pci_bus_id;
  int numa_node = -1;
  std::string relation;  // to the GPU: "same PCIe switch", "same NUMA node", "other NUMA node"
};

struct topology_report {
  int numa_nodes = 0;
  int cores = 0;
  std::string gpu_pci_bus_id;
  int gpu_numa_node = -1;     // -1: unknown, or no GPU
  std::vector<nic_info> nics;
  std::string note;           // why something is unknown, if it is
};

// gpu_pci_bus_id may be empty (no GPU).
topology_report discover_topology(const std::string& gpu_pci_bus_id);

// CUDA's Multi-Process Service on this node: its control daemon listens on the pipe `control` in
// CUDA_MPS_PIPE_DIRECTORY (default /tmp/nvidia-mps), and a CUDA program that finds it runs its
// kernels beside other processes' (nvidia-cuda-mps-control(1)).
struct mps_state {
  bool active = false;
  int thread_percentage = 0;  // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE when it is a number in 1-100, else 0
  std::string pipe_directory;
};
// `env` reads a variable like ::getenv (default: the process environment).
mps_state discover_mps(const std::function<const char*(const char*)>& env = {});

}  // namespace gio
