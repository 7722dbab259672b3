// The comm shim for gio: the benchmark kernels (kernels.hpp) and harness (harness.hpp) call
// these, and shim_nvshmem.hpp provides the same names for NVSHMEM.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <mpi.h>

#include "gio/device.hpp"
#include "gio/host.hpp"
#include "gio/launch.hpp"
#include "gio/ops.hpp"
#include "gio/team.hpp"
#include "support/network_label.hpp"
#include "support/shim_types.hpp"

namespace support {

struct gio_shim {
  // gio runs several PEs on one GPU (DESIGN.md decision 4); the Inter-K baselines run here. A
  // program built another way reports as its own system, so that its rows sit beside the default
  // build's in one table, and leaves the baselines to that one: "gio-library" linking
  // gio::device_library, "gio-rdc" compiled as relocatable device code without it.
#if defined(__CUDACC_RDC__)
  static constexpr bool relocatable = true;
#else
  static constexpr bool relocatable = false;
#endif
  static constexpr const char* system = gio::detail::calls_device_library ? "gio-library"
                                        : relocatable                      ? "gio-rdc"
                                                                           : "gio";
  static constexpr shim_traits traits{system, "GIO_SYMMETRIC_SIZE", false, !relocatable};

  // ---- host ----
  // Collective. MPI is already initialised by the harness; gio bootstraps over it.
  static library_init_report init(MPI_Comm) {
    gio::shmem_init();
    const gio::runtime_report report = gio::shmem_runtime_report();
    library_init_report out{report.gpu, report.init_seconds, report.gpu_memory_used};
    out.system = support::gio_network_label(report.network);  // "gio" over load/store
    return out;
  }
  static void finalize() { gio::shmem_finalize(); }
  static int my_pe() { return gio::shmem_my_pe(); }
  static int n_pes() { return gio::shmem_n_pes(); }
  static void* malloc(std::size_t bytes) { return gio::shmem_malloc(bytes); }
  static void free(void* ptr) { gio::shmem_free(ptr); }
  static void barrier_all() { gio::shmem_barrier_all(); }

  // ---- device ----
  using handle = gio::device_handle;
  using wg_storage = gio::ctx;
  using ctx = gio::ctx;
  static handle device_handle() { return gio::shmem_device_handle(); }

  static GIO_DEVICE const ctx& open_wg(const handle& h, wg_storage& storage) { return gio::ctx_create_wg(h, storage); }
  static GIO_DEVICE void put_thread(const ctx& c, void* dst, const void* src, std::size_t bytes, int pe) {
    gio::shmem_ctx_putmem(c, dst, src, bytes, pe);
  }
  static GIO_DEVICE void put_wave(const ctx& c, void* dst, const void* src, std::size_t bytes, int pe) {
    gio::shmem_ctx_putmem_wave(c, dst, src, bytes, pe);
  }
  static GIO_DEVICE void put_wg(const ctx& c, void* dst, const void* src, std::size_t bytes, int pe) {
    gio::shmem_ctx_putmem_wg(c, dst, src, bytes, pe);
  }
  static GIO_DEVICE void put_nbi_wg(const ctx& c, void* dst, const void* src, std::size_t bytes, int pe) {
    gio::shmem_ctx_putmem_nbi_wg(c, dst, src, bytes, pe);
  }
  static GIO_DEVICE void p(const ctx& c, std::uint64_t* dst, std::uint64_t value, int pe) {
    gio::shmem_p(c, dst, value, pe);
  }
  static GIO_DEVICE void fence(const ctx& c) { gio::shmem_fence(c); }
  static GIO_DEVICE void quiet(const ctx& c) { gio::shmem_quiet(c); }
  static GIO_DEVICE void wait_until_eq(const ctx& c, std::uint64_t* ivar, std::uint64_t value) {
    gio::shmem_wait_until(c, ivar, gio::SHMEM_CMP_EQ, value);
  }

  // Put-with-signal (signal SET) and its wait.
  static GIO_DEVICE void put_signal_thread(const ctx& c, void* dst, const void* src, std::size_t bytes,
                                           std::uint64_t* signal, std::uint64_t value, int pe) {
    gio::shmem_ctx_putmem_signal(c, dst, src, bytes, signal, value, gio::SHMEM_SIGNAL_SET, pe);
  }
  static GIO_DEVICE void put_signal_wave(const ctx& c, void* dst, const void* src, std::size_t bytes,
                                         std::uint64_t* signal, std::uint64_t value, int pe) {
    gio::shmem_ctx_putmem_signal_wave(c, dst, src, bytes, signal, value, gio::SHMEM_SIGNAL_SET, pe);
  }
  static GIO_DEVICE void put_signal_wg(const ctx& c, void* dst, const void* src, std::size_t bytes,
                                       std::uint64_t* signal, std::uint64_t value, int pe) {
    gio::shmem_ctx_putmem_signal_wg(c, dst, src, bytes, signal, value, gio::SHMEM_SIGNAL_SET, pe);
  }
  static GIO_DEVICE std::uint64_t signal_wait_ge(const ctx& c, std::uint64_t* signal, std::uint64_t value) {
    return gio::shmem_signal_wait_until(c, signal, gio::SHMEM_CMP_GE, value);
  }

  // Remote atomics on uint64.
  static GIO_DEVICE std::uint64_t atomic_fetch_add(const ctx& c, std::uint64_t* dst, std::uint64_t value, int pe) {
    return gio::shmem_ctx_uint64_atomic_fetch_add(c, dst, value, pe);
  }
  static GIO_DEVICE std::uint64_t atomic_compare_swap(const ctx& c, std::uint64_t* dst, std::uint64_t cond,
                                                      std::uint64_t value, int pe) {
    return gio::shmem_ctx_uint64_atomic_compare_swap(c, dst, cond, value, pe);
  }
  static GIO_DEVICE void atomic_add(const ctx& c, std::uint64_t* dst, std::uint64_t value, int pe) {
    gio::shmem_ctx_uint64_atomic_add(c, dst, value, pe);
  }
  static GIO_DEVICE std::uint64_t atomic_fetch(const ctx& c, const std::uint64_t* src, int pe) {
    return gio::shmem_ctx_uint64_atomic_fetch(c, src, pe);
  }

  // Device barriers of all PEs: one caller (thread, wave or workgroup) per PE.
  static GIO_DEVICE void barrier_all_thread(const ctx& c) { gio::shmem_barrier_all(c); }
  static GIO_DEVICE void barrier_all_wave(const ctx& c) { gio::shmem_barrier_all_wave(c); }
  static GIO_DEVICE void barrier_all_wg(const ctx& c) { gio::shmem_barrier_all_wg(c); }
  static GIO_DEVICE void sync_all_thread(const ctx& c) { gio::shmem_sync_all(c); }
  static GIO_DEVICE void sync_all_wave(const ctx& c) { gio::shmem_sync_all_wave(c); }
  static GIO_DEVICE void sync_all_wg(const ctx& c) { gio::shmem_sync_all_wg(c); }

  // Collectives over all PEs, one workgroup per PE; byte counts as in the mem forms.
  static GIO_DEVICE void reduce_sum_wg(const ctx& c, std::int64_t* dst, const std::int64_t* src, std::size_t count) {
    gio::shmem_int64_sum_reduce_wg(c, gio::SHMEM_TEAM_WORLD, dst, src, count);
  }
  static GIO_DEVICE void reduce_sum_wg(const ctx& c, double* dst, const double* src, std::size_t count) {
    gio::shmem_double_sum_reduce_wg(c, gio::SHMEM_TEAM_WORLD, dst, src, count);
  }
  static GIO_DEVICE void broadcast_wg(const ctx& c, void* dst, const void* src, std::size_t bytes, int root) {
    gio::shmem_broadcastmem_wg(c, gio::SHMEM_TEAM_WORLD, dst, src, bytes, root);
  }
  static GIO_DEVICE void fcollect_wg(const ctx& c, void* dst, const void* src, std::size_t bytes_per_pe) {
    gio::shmem_fcollectmem_wg(c, gio::SHMEM_TEAM_WORLD, dst, src, bytes_per_pe);
  }
  static GIO_DEVICE void alltoall_wg(const ctx& c, void* dst, const void* src, std::size_t bytes_per_pe) {
    gio::shmem_alltoallmem_wg(c, gio::SHMEM_TEAM_WORLD, dst, src, bytes_per_pe);
  }

  // ---- host: launches of kernels that synchronise PEs (every PE launches) ----
  // Cooperative, as NVSHMEM's collective launch: every workgroup co-resident.
  template <class... Params>
  static void launch_collective(void (*kernel)(Params...), unsigned blocks, unsigned threads,
                                typename identity<Params>::type... args) {
    launch_collective_shared(kernel, blocks, threads, 0, args...);
  }
  // The same with `shared` bytes of dynamic shared memory per workgroup.
  template <class... Params>
  static void launch_collective_shared(void (*kernel)(Params...), unsigned blocks, unsigned threads, std::size_t shared,
                                       typename identity<Params>::type... args) {
    gio::launch_collective(kernel, dim3(blocks), dim3(threads), shared, gio::stream_t{}, args...);
  }
};

}  // namespace support
