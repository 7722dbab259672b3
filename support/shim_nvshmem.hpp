// The comm shim for NVSHMEM: the same names as shim_gio.hpp, so the kernels and harness are
// shared. CUDA only; needs -rdc and a device link with libnvshmem_device.a (bench/CMakeLists.txt).
// NVSHMEM keeps its state in device globals, so the handle and context are empty.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include "support/shim_types.hpp"

namespace support {

struct nvshmem_shim {
  // Several PEs on one GPU need MPS with NVSHMEM: without it the harness skips that layout.
  static constexpr shim_traits traits{"nvshmem", "NVSHMEM_SYMMETRIC_SIZE", true, false};

  // ---- host ----
  // Collective. UID bootstrap: PE 0 makes the id, MPI broadcasts it. Uses the current device.
  static library_init_report init(MPI_Comm comm) {
    configure_environment();
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
    if (rank == 0) check(nvshmemx_get_uniqueid(&id), "nvshmemx_get_uniqueid");
    MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, comm);
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    check(nvshmemx_set_attr_uniqueid_args(rank, size, &id, &attr), "nvshmemx_set_attr_uniqueid_args");
    check(nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr), "nvshmemx_init_attr");
    return {-1, -1.0, 0};
  }
  static void finalize() { nvshmem_finalize(); }
  static int my_pe() { return nvshmem_my_pe(); }
  static int n_pes() { return nvshmem_n_pes(); }
  static void* malloc(std::size_t bytes) { return nvshmem_malloc(bytes); }
  static void free(void* ptr) { nvshmem_free(ptr); }
  static void barrier_all() { nvshmem_barrier_all(); }

  // ---- device ----
  struct handle {};
  struct ctx {};
  using wg_storage = ctx;
  static handle device_handle() { return {}; }

  static __device__ __forceinline__ const ctx& open_wg(const handle&, wg_storage& storage) { return storage; }
  static __device__ __forceinline__ void put_thread(const ctx&, void* dst, const void* src, std::size_t bytes, int pe) {
    nvshmem_putmem(dst, src, bytes, pe);
  }
  static __device__ __forceinline__ void put_wave(const ctx&, void* dst, const void* src, std::size_t bytes, int pe) {
    nvshmemx_putmem_warp(dst, src, bytes, pe);
  }
  static __device__ __forceinline__ void put_wg(const ctx&, void* dst, const void* src, std::size_t bytes, int pe) {
    nvshmemx_putmem_block(dst, src, bytes, pe);
  }
  static __device__ __forceinline__ void put_nbi_wg(const ctx&, void* dst, const void* src, std::size_t bytes, int pe) {
    nvshmemx_putmem_nbi_block(dst, src, bytes, pe);
  }
  static __device__ __forceinline__ void p(const ctx&, std::uint64_t* dst, std::uint64_t value, int pe) {
    nvshmem_uint64_p(dst, value, pe);
  }
  static __device__ __forceinline__ void fence(const ctx&) { nvshmem_fence(); }
  static __device__ __forceinline__ void quiet(const ctx&) { nvshmem_quiet(); }
  static __device__ __forceinline__ void wait_until_eq(const ctx&, std::uint64_t* ivar, std::uint64_t value) {
    nvshmem_uint64_wait_until(ivar, NVSHMEM_CMP_EQ, value);
  }

  // Put-with-signal (signal SET) and its wait.
  static __device__ __forceinline__ void put_signal_thread(const ctx&, void* dst, const void* src, std::size_t bytes,
                                                           std::uint64_t* signal, std::uint64_t value, int pe) {
    nvshmem_putmem_signal(dst, src, bytes, signal, value, NVSHMEM_SIGNAL_SET, pe);
  }
  static __device__ __forceinline__ void put_signal_wave(const ctx&, void* dst, const void* src, std::size_t bytes,
                                                         std::uint64_t* signal, std::uint64_t value, int pe) {
    nvshmemx_putmem_signal_warp(dst, src, bytes, signal, value, NVSHMEM_SIGNAL_SET, pe);
  }
  static __device__ __forceinline__ void put_signal_wg(const ctx&, void* dst, const void* src, std::size_t bytes,
                                                       std::uint64_t* signal, std::uint64_t value, int pe) {
    nvshmemx_putmem_signal_block(dst, src, bytes, signal, value, NVSHMEM_SIGNAL_SET, pe);
  }
  static __device__ __forceinline__ std::uint64_t signal_wait_ge(const ctx&, std::uint64_t* signal, std::uint64_t value) {
    return nvshmem_signal_wait_until(signal, NVSHMEM_CMP_GE, value);
  }

  // Remote atomics on uint64.
  static __device__ __forceinline__ std::uint64_t atomic_fetch_add(const ctx&, std::uint64_t* dst, std::uint64_t value, int pe) {
    return nvshmem_uint64_atomic_fetch_add(dst, value, pe);
  }
  static __device__ __forceinline__ std::uint64_t atomic_compare_swap(const ctx&, std::uint64_t* dst, std::uint64_t cond,
                                                                      std::uint64_t value, int pe) {
    return nvshmem_uint64_atomic_compare_swap(dst, cond, value, pe);
  }
  static __device__ __forceinline__ void atomic_add(const ctx&, std::uint64_t* dst, std::uint64_t value, int pe) {
    nvshmem_uint64_atomic_add(dst, value, pe);
  }
  static __device__ __forceinline__ std::uint64_t atomic_fetch(const ctx&, const std::uint64_t* src, int pe) {
    return nvshmem_uint64_atomic_fetch(src, pe);
  }

  // Device barriers of all PEs: one caller (thread, warp or block) per PE.
  static __device__ __forceinline__ void barrier_all_thread(const ctx&) { nvshmem_barrier_all(); }
  static __device__ __forceinline__ void barrier_all_wave(const ctx&) { nvshmemx_barrier_all_warp(); }
  static __device__ __forceinline__ void barrier_all_wg(const ctx&) { nvshmemx_barrier_all_block(); }
  static __device__ __forceinline__ void sync_all_thread(const ctx&) { nvshmem_sync_all(); }
  static __device__ __forceinline__ void sync_all_wave(const ctx&) { nvshmemx_sync_all_warp(); }
  static __device__ __forceinline__ void sync_all_wg(const ctx&) { nvshmemx_sync_all_block(); }

  // Collectives over all PEs, one block per PE; byte counts as in the mem forms.
  static __device__ __forceinline__ void reduce_sum_wg(const ctx&, std::int64_t* dst, const std::int64_t* src, std::size_t count) {
    nvshmemx_int64_sum_reduce_block(NVSHMEM_TEAM_WORLD, dst, src, count);
  }
  static __device__ __forceinline__ void reduce_sum_wg(const ctx&, double* dst, const double* src, std::size_t count) {
    nvshmemx_double_sum_reduce_block(NVSHMEM_TEAM_WORLD, dst, src, count);
  }
  // The char form: NVSHMEM 3.4.5's host-pass declaration of nvshmemx_broadcastmem_block lacks
  // PE_root (its device definition has it), so the mem form does not compile; both run the same
  // nvshmemi_broadcast_threadgroup<char, block>.
  static __device__ __forceinline__ void broadcast_wg(const ctx&, void* dst, const void* src, std::size_t bytes, int root) {
    nvshmemx_char_broadcast_block(NVSHMEM_TEAM_WORLD, static_cast<char*>(dst), static_cast<const char*>(src), bytes, root);
  }
  static __device__ __forceinline__ void fcollect_wg(const ctx&, void* dst, const void* src, std::size_t bytes_per_pe) {
    nvshmemx_fcollectmem_block(NVSHMEM_TEAM_WORLD, dst, src, bytes_per_pe);
  }
  static __device__ __forceinline__ void alltoall_wg(const ctx&, void* dst, const void* src, std::size_t bytes_per_pe) {
    nvshmemx_alltoallmem_block(NVSHMEM_TEAM_WORLD, dst, src, bytes_per_pe);
  }

  // ---- host: launches of kernels that synchronise PEs (every PE launches) ----
  // NVSHMEM requires its collective launch for kernels that call barriers or collectives.
  template <class... Params>
  static void launch_collective(void (*kernel)(Params...), unsigned blocks, unsigned threads,
                                typename identity<Params>::type... args) {
    launch_collective_shared(kernel, blocks, threads, 0, args...);
  }
  // The same with `shared` bytes of dynamic shared memory per block.
  template <class... Params>
  static void launch_collective_shared(void (*kernel)(Params...), unsigned blocks, unsigned threads, std::size_t shared,
                                       typename identity<Params>::type... args) {
    void* arguments[] = {static_cast<void*>(&args)...};
    check(nvshmemx_collective_launch(reinterpret_cast<const void*>(kernel), dim3(blocks), dim3(threads), arguments, shared,
                                     nullptr),
          "nvshmemx_collective_launch");
  }

 private:
  static void check(int status, const char* call) {
    if (status != 0) throw std::runtime_error(std::string(call) + " returned " + std::to_string(status));
  }
  // Set before the first NVSHMEM call. The user's own settings win, except NVLink multicast,
  // which stays off: on the shared GPU hosts it can take the GPUs out of service.
  static void configure_environment() {
    setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
    // A wheel may ship the UID plugin under its versioned name only, which NVSHMEM's default
    // (unversioned) name would not find: point at the file CMake found.
#ifdef GIO_BENCH_NVSHMEM_UID_PLUGIN
    setenv("NVSHMEM_BOOTSTRAP_UID_PLUGIN", GIO_BENCH_NVSHMEM_UID_PLUGIN, 0);
#endif
    // One node: PEs reach each other over NVLink/PCIe peer mappings; no network transport.
    setenv("NVSHMEM_REMOTE_TRANSPORT", "none", 0);
  }
};

}  // namespace support
