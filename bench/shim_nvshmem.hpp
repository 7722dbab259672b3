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

#include "shim_types.hpp"

namespace bench {

struct nvshmem_shim {
  // Several PEs on one GPU need MPS with NVSHMEM: the harness skips that layout with a message.
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

}  // namespace bench
