// Switchboard for the host-side launch primitives gio/launch.hpp needs (occupancy queries and
// cooperative launches): picks the layer of the GPU compiler in use.
#pragma once
#include <cstddef>

namespace gio::platform {
struct kernel_resources {
  int registers_per_thread;
  int max_threads_per_wg;          // with those registers (and the kernel's launch bounds)
  std::size_t static_shared_bytes;
  std::size_t max_dynamic_shared_bytes;
};
}  // namespace gio::platform

#if defined(__CUDACC__)
#include "gio/platform/launch_cuda.hpp"
#elif defined(__HIPCC__)
#include "gio/platform/launch_hip.hpp"
#else
#error "gio/launch.hpp must be compiled by nvcc (CUDA) or hipcc (HIP)"
#endif
