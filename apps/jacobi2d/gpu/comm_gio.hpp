// The persistent kernel's comm shim for gio: support/shim_gio.hpp (the benchmarks' names) plus what
// the Jacobi kernel needs beyond them: shmem_p of a double, wait_until(GE), the double max
// reduction at workgroup scope, and a collective launch with dynamic shared memory.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/device.hpp"
#include "gio/launch.hpp"
#include "support/shim_gio.hpp"

namespace jacobi {

struct gio_comm : support::gio_shim {
  // Device memory gio takes beyond the symmetric heap (its tables; README: 1028 MiB for a 1 GiB
  // heap), rounded up generously for the memory check.
  static constexpr std::size_t library_bytes = std::size_t(64) << 20;
  // Room in the symmetric heap beyond the kernel's allocation: gio keeps its team sync areas there.
  static constexpr std::size_t heap_slack_bytes = std::size_t(8) << 20;

  static GIO_DEVICE void p_double(const ctx& c, double* dst, double value, int pe) { gio::shmem_p(c, dst, value, pe); }
  static GIO_DEVICE void wait_until_ge(const ctx& c, std::uint64_t* ivar, std::uint64_t value) {
    gio::shmem_wait_until(c, ivar, gio::SHMEM_CMP_GE, value);
  }
  static GIO_DEVICE void max_reduce_wg(const ctx& c, double* dst, const double* src, std::size_t count) {
    gio::shmem_double_max_reduce_wg(c, gio::SHMEM_TEAM_WORLD, dst, src, count);
  }

  // Workgroups of `kernel` that can be co-resident on this GPU.
  template <class... Params>
  static int max_coresident(void (*kernel)(Params...), unsigned threads, std::size_t shared_bytes) {
    return gio::max_coresident_wgs(kernel, threads, shared_bytes);
  }
  // Every PE launches; every workgroup co-resident; the default stream.
  template <class... Params>
  static void launch(void (*kernel)(Params...), unsigned workgroups, unsigned threads, std::size_t shared_bytes,
                     typename support::identity<Params>::type... args) {
    gio::launch_collective(kernel, dim3(workgroups), dim3(threads), shared_bytes, gio::stream_t{}, args...);
  }
};

}  // namespace jacobi
