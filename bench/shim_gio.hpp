// The comm shim for gio: the benchmark kernels (kernels.hpp) and harness (harness.hpp) call
// these, and shim_nvshmem.hpp provides the same names for NVSHMEM.
#pragma once
#include <cstddef>
#include <cstdint>

#include <mpi.h>

#include "gio/device.hpp"
#include "gio/host.hpp"
#include "shim_types.hpp"

namespace bench {

struct gio_shim {
  // gio runs several PEs on one GPU (DESIGN.md decision 4); the Inter-K baselines run here.
  static constexpr shim_traits traits{"gio", "GIO_SYMMETRIC_SIZE", false, true};

  // ---- host ----
  // Collective. MPI is already initialised by the harness; gio bootstraps over it.
  static library_init_report init(MPI_Comm) {
    gio::shmem_init();
    const gio::runtime_report report = gio::shmem_runtime_report();
    return {report.gpu, report.init_seconds, report.gpu_memory_used};
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
};

}  // namespace bench
