// The work-stealing runtime's comm over NVSHMEM (the `nvshmem` variant, worksteal-nvshmem): the
// calls gio/device/ws/comm_gio.hpp lists, made with NVSHMEM's, so that the same runtime, queue
// protocol and programs run over either library. CUDA only; needs -rdc and NVSHMEM's device
// library (cmake/GioNvshmem.cmake). One node: every PE is reached over NVLink or PCIe.
#pragma once
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gio/host.hpp"
#include "support/gpu_runtime.hpp"
#include "support/node.hpp"
#include "support/shim_nvshmem.hpp"

namespace worksteal {

struct nvshmem_comm {
  // ---- device: NVSHMEM keeps its state in device globals, so handle and context are empty ----
  struct handle {};
  struct ctx {};
  using ctx_storage = ctx;
  static __device__ const ctx& open_wg(const handle&, ctx_storage& storage) { return storage; }
  static __device__ int my_pe(const ctx&) { return nvshmem_my_pe(); }
  static __device__ std::uint64_t fetch(const ctx&, std::uint64_t* w, int pe) { return nvshmem_uint64_atomic_fetch(w, pe); }
  static __device__ std::uint64_t fetch_add(const ctx&, std::uint64_t* w, std::uint64_t v, int pe) {
    return nvshmem_uint64_atomic_fetch_add(w, v, pe);
  }
  static __device__ std::uint64_t fetch_or(const ctx&, std::uint64_t* w, std::uint64_t v, int pe) {
    return nvshmem_uint64_atomic_fetch_or(w, v, pe);
  }
  static __device__ void add(const ctx&, std::uint64_t* w, std::uint64_t v, int pe) { nvshmem_uint64_atomic_add(w, v, pe); }
  static __device__ void set(const ctx&, std::uint64_t* w, std::uint64_t v, int pe) { nvshmem_uint64_atomic_set(w, v, pe); }
  static __device__ void get_wg(const ctx&, void* dst, const void* src, std::size_t bytes, int pe) {
    nvshmemx_getmem_block(dst, src, bytes, pe);
  }
  // This PE's words only: NVSHMEM does not say on the device whether its atomics on a peer it
  // maps are the GPU's own (a PCIe peer without native peer atomics takes them through its
  // proxy), so a thief reaches other PEs through NVSHMEM's calls.
  static __device__ std::uint64_t* direct_word(const ctx&, std::uint64_t* w, int pe) {
    return pe == nvshmem_my_pe() ? w : nullptr;
  }
  // nvshmem_fence is a system-scope fence over NVLink: the release the protocol needs.
  static __device__ void fence(const ctx&) { nvshmem_fence(); }

  // ---- host ----
  static constexpr bool host_placement = false;
  static int my_pe() { return nvshmem_my_pe(); }
  static int n_pes() { return nvshmem_n_pes(); }
  static void barrier_all() { nvshmem_barrier_all(); }
  static void* allocate(std::size_t bytes) { return nvshmem_align(4096, bytes); }
  static void release(void* p) { nvshmem_free(p); }
  // NVSHMEM's PEs are the MPI ranks of MPI_COMM_WORLD (the session bootstraps it so).
  static long long over_every_pe(long long mine, gio::reduce_op op) {
    long long all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, op == gio::reduce_op::min ? MPI_MIN : MPI_MAX, MPI_COMM_WORLD);
    return all;
  }
  static int distance(int pe) {
    if (pe == my_pe() || gpus()[pe] == gpus()[my_pe()]) return 0;
    return nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, pe, NVSHMEMX_TEAM_NODE) >= 0 ? 1 : 2;
  }
  static std::string unstealable(int pe) {
    return distance(pe) < 2 ? "" : "PE " + std::to_string(pe) + " on another node (the nvshmem variant runs on one node)";
  }
  static handle kernel_handle() { return {}; }
  static std::uint64_t wait_timeout_ns() { return 10'000'000'000ull; }  // gio's default GIO_WAIT_TIMEOUT
  template <class... Params>
  static int max_coresident(void (*kernel)(Params...), unsigned threads, std::size_t shared) {
    int per_sm = 0;
    support::gpu::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(threads), shared),
                        "OccupancyMaxActiveBlocksPerMultiprocessor");
    // Under MPS the PEs on this GPU run side by side: each gets an equal share, as gio's do.
    int sharers = 0;
    for (const std::string& gpu : gpus()) sharers += gpu == gpus()[my_pe()];
    const int share = support::mps_daemon_running() && sharers > 1 ? sharers : 1;
    return per_sm * (support::gpu::multiprocessor_count() / share);
  }
  // Every workgroup co-resident: NVSHMEM's collective launch (cooperative), through the shim.
  template <class... Params, class... Args>
  static void launch(void (*kernel)(Params...), unsigned wgs, unsigned threads, std::size_t shared, Args&&... args) {
    support::nvshmem_shim::launch_collective_shared(kernel, wgs, threads, shared, std::forward<Args>(args)...);
  }

  // Collective, once after NVSHMEM's init: which GPU every PE uses (this PE's 16-byte UUID in),
  // for distance() and the GPU's share.
  static void learn_gpus(const char* my_uuid) {
    gpus().assign(static_cast<std::size_t>(n_pes()), std::string(16, '\0'));
    std::vector<char> all(16 * gpus().size());
    MPI_Allgather(my_uuid, 16, MPI_CHAR, all.data(), 16, MPI_CHAR, MPI_COMM_WORLD);
    for (std::size_t pe = 0; pe < gpus().size(); ++pe) gpus()[pe].assign(all.data() + 16 * pe, 16);
  }

 private:
  static std::vector<std::string>& gpus() {
    static std::vector<std::string> uuids;
    return uuids;
  }
};

}  // namespace worksteal
