#include "topology.hpp"

#include <hwloc.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace gio {
namespace {

struct topology_deleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using topology_ptr = std::unique_ptr<hwloc_topology, topology_deleter>;

// The NUMA node of the closest CPU-side ancestor of an I/O object.
int numa_of(hwloc_topology_t topo, hwloc_obj_t obj) {
  hwloc_obj_t cpu_side = hwloc_get_non_io_ancestor_obj(topo, obj);
  if (!cpu_side || !cpu_side->nodeset) return -1;
  const int first = hwloc_bitmap_first(cpu_side->nodeset);
  return first < 0 ? -1 : first;
}

// By the lowest common ancestor of the two PCI devices, else their NUMA nodes (pci_proximity).
pci_proximity proximity_of(hwloc_topology_t topo, hwloc_obj_t gpu, hwloc_obj_t device) {
  std::vector<hwloc_obj_t> device_up;
  for (hwloc_obj_t o = device; o; o = o->parent) device_up.push_back(o);
  hwloc_obj_t common = nullptr;
  for (hwloc_obj_t o = gpu; o && !common; o = o->parent)
    if (std::find(device_up.begin(), device_up.end(), o) != device_up.end()) common = o;
  if (common && common->type == HWLOC_OBJ_BRIDGE)
    return common->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI ? pci_proximity::same_switch
                                                                      : pci_proximity::same_host_bridge;
  if (common && common->type == HWLOC_OBJ_PCI_DEVICE) return pci_proximity::same_switch;
  const int a = numa_of(topo, gpu), b = numa_of(topo, device);
  if (a >= 0 && a == b) return pci_proximity::same_numa;
  return a >= 0 && b >= 0 ? pci_proximity::other_numa : pci_proximity::unknown;
}

std::string bus_id_of(hwloc_obj_t pci) {
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", pci->attr->pcidev.domain, pci->attr->pcidev.bus,
                pci->attr->pcidev.dev, pci->attr->pcidev.func);
  return text;
}

}  // namespace

topology_report discover_topology(const std::string& gpu_pci_bus_id) {
  topology_report report;
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    report.note = "hwloc_topology_init failed";
    return report;
  }
  topology_ptr topo(raw);
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  if (hwloc_topology_load(raw) != 0) {
    report.note = "hwloc_topology_load failed";
    return report;
  }
  report.numa_nodes = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_NUMANODE);
  report.cores = hwloc_get_nbobjs_by_type(raw, HWLOC_OBJ_CORE);
  report.gpu_pci_bus_id = gpu_pci_bus_id;

  hwloc_obj_t gpu = nullptr;
  if (!gpu_pci_bus_id.empty()) {
    gpu = hwloc_get_pcidev_by_busidstring(raw, gpu_pci_bus_id.c_str());
    if (gpu)
      report.gpu_numa_node = numa_of(raw, gpu);
    else
      report.note = "the GPU's PCI device is not in hwloc's topology (virtualised machine?)";
  }

  for (hwloc_obj_t os = hwloc_get_next_osdev(raw, nullptr); os; os = hwloc_get_next_osdev(raw, os)) {
    const auto type = os->attr->osdev.type;
    if (type != HWLOC_OBJ_OSDEV_OPENFABRICS && type != HWLOC_OBJ_OSDEV_NETWORK) continue;
    hwloc_obj_t pci = os->parent;
    while (pci && pci->type != HWLOC_OBJ_PCI_DEVICE) pci = pci->parent;
    if (!pci) continue;  // virtual interfaces (lo, bridges) have no PCI device
    nic_info nic;
    nic.name = os->name ? os->name : "?";
    nic.pci_bus_id = bus_id_of(pci);
    nic.numa_node = numa_of(raw, pci);
    if (gpu) nic.proximity = proximity_of(raw, gpu, pci);
    report.nics.push_back(nic);
  }
  return report;
}

mps_state discover_mps(const std::function<const char*(const char*)>& env) {
  const auto read = [&](const char* name) -> const char* {
    const char* value = env ? env(name) : std::getenv(name);
    return value != nullptr && *value != '\0' ? value : nullptr;
  };
  mps_state mps;
  const char* directory = read("CUDA_MPS_PIPE_DIRECTORY");
  mps.pipe_directory = directory ? directory : "/tmp/nvidia-mps";
  struct stat info {};
  mps.active = ::stat((mps.pipe_directory + "/control").c_str(), &info) == 0;
  if (const char* percentage = read("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE")) {
    char* end = nullptr;
    const long value = std::strtol(percentage, &end, 10);
    if (end != percentage && *end == '\0' && value >= 1 && value <= 100) mps.thread_percentage = static_cast<int>(value);
  }
  return mps;
}

}  // namespace gio
