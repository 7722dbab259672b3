// gio-info: the effective configuration (every GIO_* variable, its value and default), the
// topology (GPU, NUMA node, NICs and their distance), the predefined teams, and how this PE
// reaches every other PE.
// Run it like any gio program: `mpirun -np 2 gio-info` (or GIO_BOOTSTRAP=single gio-info).
#include <cstdio>
#include <string>

#include "config.hpp"
#include "gio/host.hpp"
#include "topology.hpp"

namespace {

const char* transport_name(gio::transport t) {
  switch (t) {
    case gio::transport::self: return "self";
    case gio::transport::p2p: return "p2p (load/store)";
    case gio::transport::gda: return "gda (RDMA)";
    case gio::transport::none: return "none";
  }
  return "?";
}

std::string capability_names(std::uint32_t caps) {
  std::string out;
  if (caps & gio::peer_load_store) out += "load/store ";
  // How the device library does atomics on this peer: natively, or by compare-and-swap loops
  // (the link lacks them, or GIO_ATOMICS=cas).
  if (caps & gio::peer_load_store) out += (caps & gio::peer_native_atomics) ? "atomics: native " : "atomics: cas ";
  if (caps & gio::peer_same_device) out += "same-GPU ";
  if (!(caps & gio::peer_load_store) && (caps & gio::peer_native_atomics)) out += "atomics: NIC ";
  return out.empty() ? "-" : out;
}

// A predefined team as world PEs: start, stride and size.
void print_team(const char* name, gio::shmem_team_t team) {
  const int size = gio::shmem_team_n_pes(team);
  const int start = gio::shmem_team_translate_pe(team, 0, gio::SHMEM_TEAM_WORLD);
  const int stride = size > 1 ? gio::shmem_team_translate_pe(team, 1, gio::SHMEM_TEAM_WORLD) - start : 1;
  std::printf("  team %-17s start %d, stride %d, size %d (this PE is %d)\n", name, start, stride, size,
              gio::shmem_team_my_pe(team));
}

void print_configuration() {
  std::printf("configuration (gio %s, GPU vendor %s):\n", GIO_VERSION_STRING, GIO_GPU_NAME);
  for (const auto& row : gio::config::describe())
    std::printf("  %-20s = %-10s (default %s%s)  %s\n", row.var->name, row.value.c_str(), row.var->default_value,
                row.from_environment ? ", from environment" : "", row.var->help);
}

void print_pe(const gio::runtime_report& rep) {
  std::printf("PE %d of %d (node-local %d of %d): GPU %d %s, heap %s, init %.3f s\n", rep.my_pe, rep.n_pes,
              rep.node_pe, rep.node_pes, rep.gpu, rep.gpu_name.empty() ? "(none)" : rep.gpu_name.c_str(),
              gio::config::format_size(rep.heap_size).c_str(), rep.init_seconds);
  // The topology is per PE: each PE may drive a different GPU.
  const gio::topology_report topo = gio::discover_topology(rep.gpu >= 0 ? rep.gpu_bus_id : std::string());
  std::printf("  topology: %d NUMA nodes, %d cores; GPU %s on NUMA node %d%s%s\n", topo.numa_nodes, topo.cores,
              topo.gpu_pci_bus_id.empty() ? "-" : topo.gpu_pci_bus_id.c_str(), topo.gpu_numa_node,
              topo.note.empty() ? "" : "; ", topo.note.c_str());
  if (topo.nics.empty()) std::printf("  NICs: none found\n");
  for (const auto& nic : topo.nics) {
    const std::string where = nic.proximity == gio::pci_proximity::unknown
                                  ? (topo.gpu_pci_bus_id.empty() ? "GPU position unknown" : "position unknown")
                              : nic.proximity == gio::pci_proximity::other_numa
                                  ? "other NUMA node"
                                  : std::string(gio::to_string(nic.proximity)) + " as the GPU";
    std::printf("  NIC %-10s %s NUMA %d: %s\n", nic.name.c_str(), nic.pci_bus_id.c_str(), nic.numa_node, where.c_str());
  }
  std::printf("  network: %s\n", rep.network.c_str());
  const gio::gpu_share share = gio::shmem_gpu_share();
  if (rep.gpu >= 0)
    std::printf("  GPU share: %s%s\n", share.describe().c_str(),
                share.limits() ? " (launch_collective sizes co-resident grids for this share)" : "");
  print_team("SHMEM_TEAM_WORLD", gio::SHMEM_TEAM_WORLD);
  print_team("SHMEM_TEAM_SHARED", gio::SHMEM_TEAM_SHARED);
  for (int pe = 0; pe < rep.n_pes; ++pe) {
    const gio::peer_report peer = gio::shmem_peer_report(pe);
    std::printf("  -> PE %d: %-17s GPU %2d  %s\n", pe, transport_name(peer.how), peer.gpu,
                capability_names(peer.caps).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--help") {
    std::printf("usage: mpirun -np N gio-info   (or GIO_BOOTSTRAP=single gio-info)\n"
                "Prints gio's configuration, each PE's GPU, topology and peer reachability.\n"
                "Variables (docs/tuning.md says when to change them):\n");
    for (const auto& var : gio::config::table())
      std::printf("  %-20s default %-7s %s\n", var.name, var.default_value, var.help);
    return 0;
  }
  try {
    gio::shmem_init();
    const gio::runtime_report rep = gio::shmem_runtime_report();
    if (rep.my_pe == 0) print_configuration();
    std::fflush(stdout);
    for (int pe = 0; pe < rep.n_pes; ++pe) {  // one PE at a time keeps the output readable
      gio::shmem_barrier_all();
      if (pe == rep.my_pe) print_pe(rep);
      std::fflush(stdout);
    }
    gio::shmem_finalize();
  } catch (const gio::error&) {
    return 1;  // gio has printed the failure on every PE
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gio-info: %s\n", e.what());
    return 1;
  }
  return 0;
}
