// Topology from hwloc: which NUMA node a GPU hangs off, and the NICs with their distance to it
// (GDA picks the closest NIC; gio-info prints it all): the host runtime's one topology module.
// Private to the host runtime.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace gio {

// How near a PCI device is to the GPU; higher is nearer. same_switch: the lowest common ancestor
// of the two is a PCI-to-PCI bridge (a PCIe switch or a shared root port: traffic need not cross
// the root complex); same_host_bridge: a host bridge (same root complex); same_numa / other_numa:
// by the CPU-side ancestors' NUMA nodes. unknown: no GPU bus id, or either is not in hwloc's view.
enum class pci_proximity : int { unknown = 0, other_numa = 1, same_numa = 2, same_host_bridge = 3, same_switch = 4 };

inline const char* to_string(pci_proximity p) {
  switch (p) {
    case pci_proximity::same_switch: return "same PCIe switch";
    case pci_proximity::same_host_bridge: return "same PCIe host bridge";
    case pci_proximity::same_numa: return "same NUMA node";
    case pci_proximity::other_numa: return "other NUMA node";
    case pci_proximity::unknown: break;
  }
  return "position unknown";
}

struct nic_info {
  std::string name;      // "mlx5_0" (OpenFabrics) or an Ethernet interface
  std::string pci_bus_id;
  int numa_node = -1;
  pci_proximity proximity = pci_proximity::unknown;  // to the GPU
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
