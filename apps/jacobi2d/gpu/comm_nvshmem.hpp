// The persistent kernel's comm shim for NVSHMEM: support/shim_nvshmem.hpp plus the Jacobi kernel's
// extra calls (see comm_gio.hpp). CUDA only; the binary is built with -rdc (cmake/GioNvshmem.cmake).
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gio/platform/launch.hpp"
#include "support/shim_nvshmem.hpp"

namespace jacobi {

struct nvshmem_comm : support::nvshmem_shim {
  // Device memory NVSHMEM takes beyond the symmetric heap: README's measurement, 2274 MiB for a
  // 1 GiB heap, rounded up for the memory check.
  static constexpr std::size_t library_bytes = std::size_t(1280) << 20;
  // Room in the symmetric heap beyond the kernel's allocation for what NVSHMEM places there itself
  // (team and collective buffers); not measured, so generous.
  static constexpr std::size_t heap_slack_bytes = std::size_t(512) << 20;

  static __device__ __forceinline__ void p_double(const ctx&, double* dst, double value, int pe) {
    nvshmem_double_p(dst, value, pe);
  }
  static __device__ __forceinline__ void wait_until_ge(const ctx&, std::uint64_t* ivar, std::uint64_t value) {
    nvshmem_uint64_wait_until(ivar, NVSHMEM_CMP_GE, value);
  }
  static __device__ __forceinline__ void max_reduce_wg(const ctx&, double* dst, const double* src, std::size_t count) {
    nvshmemx_double_max_reduce_block(NVSHMEM_TEAM_WORLD, dst, src, count);
  }

  // Blocks per SM times SMs, as nvshmemx_collective_launch_query_gridsize computes it; asked of
  // the GPU runtime through gio's platform layer, because the tiling (and with it the heap size)
  // is chosen before NVSHMEM is initialised, and NVSHMEM's query needs an initialised NVSHMEM.
  template <class... Params>
  static int max_coresident(void (*kernel)(Params...), unsigned threads, std::size_t shared_bytes) {
    namespace platform = gio::platform;
    int gpu = 0, multiprocessors = 0, per_multiprocessor = 0;
    launch_status(platform::current_gpu(&gpu), "finding the current GPU");
    launch_status(platform::multiprocessor_count(gpu, &multiprocessors), "counting multiprocessors");
    launch_status(platform::resident_wgs_per_multiprocessor(&per_multiprocessor, reinterpret_cast<const void*>(kernel),
                                                            static_cast<int>(threads), shared_bytes),
                  "querying the kernel's occupancy");
    return per_multiprocessor * multiprocessors;
  }
  template <class... Params>
  static void launch(void (*kernel)(Params...), unsigned workgroups, unsigned threads, std::size_t shared_bytes,
                     typename support::identity<Params>::type... args) {
    void* arguments[] = {static_cast<void*>(&args)...};
    status(nvshmemx_collective_launch(reinterpret_cast<const void*>(kernel), dim3(workgroups), dim3(threads), arguments,
                                      shared_bytes, nullptr),
           "nvshmemx_collective_launch");
  }

 private:
  static void status(int code, const char* call) {
    if (code != 0) throw std::runtime_error(std::string(call) + " returned " + std::to_string(code));
  }
  static void launch_status(gio::platform::launch_status code, const char* what) {
    if (!gio::platform::launch_ok(code)) throw std::runtime_error(std::string(what) + ": " + gio::platform::launch_error_text(code));
  }
};

}  // namespace jacobi
