// Launching kernels whose workgroups wait for one another. A device-side team sync, barrier or
// collective called by several workgroups of one grid (or a workgroup spinning on a flag that
// another workgroup of the grid sets) only finishes if every workgroup of the grid is resident
// on the GPU at the same time: otherwise the waiting ones can hold the GPU while the awaited ones
// never start. An ordinary launch promises nothing about that; these helpers do.
//
//   gio::launch_collective(kernel, grid, block, shmem_bytes, stream, args...);
//
// launches cooperatively (all workgroups co-resident, or the launch fails) after checking the
// grid against the occupancy of `kernel` on the current GPU, in this PE's share of it when MPS
// runs several PEs' kernels there side by side (gpu_share, gio/host.hpp), and throws gio::error
// otherwise:
//   "gio: PE <n>: launch_collective: a grid of G workgroups cannot be co-resident on GPU k:
//    at most M (m per SM x S SMs at T threads, B bytes of shared memory)"
// max_coresident_wgs() answers the question beforehand, for sizing a grid (in the same share).
// A workgroup the kernel cannot have at all (more threads than its registers allow, more dynamic
// shared memory than it may use) is explained the same way, with the kernel's figures:
//   "... a workgroup of 1024 threads ... cannot run this kernel on GPU k: it uses R registers per
//    thread, so at most M threads per workgroup fit ..."
// Needs the GPU compiler (nvcc or hipcc); the vendor calls live in gio/platform/launch_*.hpp.
#pragma once
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gio/host.hpp"
#include "gio/platform/launch.hpp"

namespace gio {

namespace detail {

inline int launching_pe() { return shmem_initialized() ? shmem_my_pe() : -1; }

inline void check_launch(platform::launch_status status, const char* what) {
  if (platform::launch_ok(status)) return;
  static_cast<void>(platform::gpu_last_error());  // reported here, so not again by the caller's next check
  throw error(launching_pe(), std::string("launch_collective: ") + what + ": " + platform::launch_error_text(status));
}

// "" when a workgroup of `threads` threads and `dynamic_shmem` bytes can run `kernel` at all, else
// why not, with the kernel's figures and what to do.
inline std::string workgroup_misfit(const void* kernel, unsigned threads, std::size_t dynamic_shmem, int gpu) {
  platform::kernel_resources r{};
  check_launch(platform::kernel_resources_of(kernel, &r), "querying the kernel's resources");
  const std::string head = "a workgroup of " + std::to_string(threads) + " threads and " + std::to_string(dynamic_shmem) +
                           " bytes of dynamic shared memory cannot run this kernel on GPU " + std::to_string(gpu) + ": ";
  if (static_cast<long long>(threads) > r.max_threads_per_wg)
    return head + "it uses " + std::to_string(r.registers_per_thread) + " registers per thread, and with them and its " +
           "launch bounds at most " + std::to_string(r.max_threads_per_wg) + " threads per workgroup fit (launch fewer "
           "threads, declare __launch_bounds__ with the count you launch, link gio::device_library (the collectives and the network "
           "path out of line), or move heavy group calls into a kernel of their own: docs/collectives.md, docs/tuning.md)";
  if (dynamic_shmem > r.max_dynamic_shared_bytes)
    return head + "it may use at most " + std::to_string(r.max_dynamic_shared_bytes) + " bytes of dynamic shared memory " +
           "beside its " + std::to_string(r.static_shared_bytes) + " static bytes (ask for less, or raise the kernel's "
           "limit with the GPU runtime's function attribute for dynamic shared memory)";
  return "";
}

// How many workgroups of a kernel fit on the current GPU at once, in this PE's share of it.
struct coresidency {
  int gpu;
  int per_multiprocessor;
  int multiprocessors;  // this PE's share (gpu_share), less those reserved_multiprocessors() keeps
  int gpu_multiprocessors;
  std::string misfit;  // why not even one workgroup of this shape can run the kernel ("" if it can)
  long long total() const { return static_cast<long long>(per_multiprocessor) * multiprocessors; }
};

inline coresidency query_coresidency(const void* kernel, unsigned threads_per_wg, std::size_t dynamic_shmem) {
  coresidency c{};
  check_launch(platform::current_gpu(&c.gpu), "finding the current GPU");
  check_launch(platform::multiprocessor_count(c.gpu, &c.gpu_multiprocessors), "counting multiprocessors");
  c.multiprocessors = shmem_gpu_share().multiprocessors(c.gpu_multiprocessors);
  if (c.multiprocessors > reserved_multiprocessors()) c.multiprocessors -= reserved_multiprocessors();
  // The kernel's own limits first: CUDA's occupancy query counts a workgroup larger than the
  // kernel's launch bounds as resident, although the launch refuses it. Both limits are the ones
  // the launch enforces, so they never refuse a workgroup the runtime would run.
  c.misfit = workgroup_misfit(kernel, threads_per_wg, dynamic_shmem, c.gpu);
  if (!c.misfit.empty()) return c;  // per_multiprocessor stays 0
  check_launch(platform::resident_wgs_per_multiprocessor(&c.per_multiprocessor, kernel, static_cast<int>(threads_per_wg),
                                                         dynamic_shmem),
               "querying the kernel's occupancy");
  return c;
}

// Why a grid gets fewer multiprocessors than the GPU has, for launch_collective's error.
inline std::string share_note(const coresidency& fit) {
  const gpu_share share = shmem_gpu_share();
  if (!share.limits()) return "";
  return "; this PE's share of the GPU's " + std::to_string(fit.gpu_multiprocessors) + " " +
         platform::multiprocessor_name + "s: " + share.describe();
}

}  // namespace detail

// Workgroups of `kernel` (threads_per_wg threads and dynamic_shmem bytes of dynamic shared memory
// each) that can be resident on the current GPU at once; 0 if not even one fits.
template <class... Params>
int max_coresident_wgs(void (*kernel)(Params...), unsigned threads_per_wg, std::size_t dynamic_shmem = 0) {
  return static_cast<int>(
      detail::query_coresidency(reinterpret_cast<const void*>(kernel), threads_per_wg, dynamic_shmem).total());
}

// kernel<<<grid, block, dynamic_shmem, stream>>>(args...), with every workgroup co-resident.
// `args` convert to the kernel's parameter types, as in an ordinary launch. Throws gio::error
// naming the grid, the GPU and the limit when the grid cannot be co-resident, or when the launch
// fails.
template <class... Params, class... Args>
void launch_collective(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t dynamic_shmem, stream_t stream,
                       Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "launch_collective: one argument per kernel parameter");
  const void* entry = reinterpret_cast<const void*>(kernel);
  const unsigned threads = block.x * block.y * block.z;
  const long long wgs = static_cast<long long>(grid.x) * grid.y * grid.z;
  const detail::coresidency fit = detail::query_coresidency(entry, threads, dynamic_shmem);
  if (!fit.misfit.empty()) throw error(detail::launching_pe(), "launch_collective: " + fit.misfit);
  if (wgs > fit.total()) {
    throw error(detail::launching_pe(),
                "launch_collective: a grid of " + std::to_string(wgs) + " workgroups cannot be co-resident on GPU " +
                    std::to_string(fit.gpu) + ": at most " + std::to_string(fit.total()) + " (" +
                    std::to_string(fit.per_multiprocessor) + " per " + platform::multiprocessor_name + " x " +
                    std::to_string(fit.multiprocessors) + " " + platform::multiprocessor_name + "s at " +
                    std::to_string(threads) + " threads, " + std::to_string(dynamic_shmem) +
                    " bytes of shared memory" + detail::share_note(fit) + ")");
  }
  int cooperative = 0;
  detail::check_launch(platform::supports_cooperative_launch(fit.gpu, &cooperative), "querying cooperative launch");
  if (!cooperative)
    throw error(detail::launching_pe(),
                "launch_collective: GPU " + std::to_string(fit.gpu) + " does not support cooperative launches");
  // The runtime copies each argument from the address given, so they must have the parameter types.
  std::tuple<std::decay_t<Params>...> values(std::forward<Args>(args)...);
  std::apply(
      [&](auto&... value) {
        void* addresses[] = {static_cast<void*>(&value)..., nullptr};
        detail::check_launch(platform::launch_cooperative(entry, grid, block, addresses, dynamic_shmem, stream),
                             "cooperative launch");
      },
      values);
}

}  // namespace gio
