// worksteal's programs over NVSHMEM (driver.hpp's App): comm_nvshmem.hpp and a session that
// selects the GPU and starts NVSHMEM. CUDA only.
#pragma once
#include <mpi.h>

#include <exception>
#include <stdexcept>
#include <string>

#include "comm_nvshmem.hpp"
#include "reference.hpp"
#include "support/failure.hpp"
#include "support/gpu_runtime.hpp"
#include "support/node.hpp"
#include "support/shim_nvshmem.hpp"

namespace worksteal {

struct nvshmem_app {
  static constexpr const char* name = "nvshmem";
  using comm = nvshmem_comm;
  static constexpr build_kind kind = build_kind::nvshmem;
  // One GPU per PE by node-local rank (NVSHMEM uses the current device); several PEs on one GPU
  // only under MPS, which NVSHMEM needs for that.
  struct session {
    explicit session(MPI_Comm c) {
      const support::node_place place = support::place_on_node(c);
      node_pe = place.rank;
      node_pes = place.size;
      // First what each PE can check alone (every PE agrees before the collective init below).
      std::string cause;
      int devices = 0;
      cudaDeviceProp prop{};
      try {
        devices = support::gpu::device_count();
        if (devices == 0) throw std::runtime_error("no GPU visible");
        support::gpu::set_device(node_pe % devices);
        const cudaError_t status = cudaGetDeviceProperties(&prop, node_pe % devices);
        if (status != cudaSuccess) throw std::runtime_error(std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(status));
        gpu_name = prop.name;
      } catch (const std::exception& e) {
        cause = e.what();
      }
      support::agree(c, cause);
      // Skipped, as gio-bench-nvshmem and jacobi2d-nvshmem are there (exit status 77).
      support::agree(c, support::gpus_shared_without_mps(c, devices)
                            ? "skipped: " + std::to_string(node_pes) + " PEs on a node with " + std::to_string(devices) +
                                  " GPU(s) and no MPS: NVSHMEM needs a GPU per PE or MPS (docs/running.md)"
                            : "",
                        support::exit_skipped);
      // Collective from here on: a failure on one PE ends the job (run_mpi_main's abort) rather
      // than leave the others in NVSHMEM's or MPI's collectives.
      support::nvshmem_shim::init(c);
      started = true;
      nvshmem_comm::learn_gpus(prop.uuid.bytes);
    }
    ~session() {
      if (started) nvshmem_finalize();
    }
    session(const session&) = delete;
    session& operator=(const session&) = delete;
    int node_pe = 0, node_pes = 1;
    std::string gpu_name = "GPU";
    bool started = false;
  };
};

}  // namespace worksteal
