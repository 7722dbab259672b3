// What the GPU compiler gave a kernel (the vendor layers' kernel_resources_of fills it), for
// gio/launch.hpp's explanation of a workgroup the kernel cannot have.
#pragma once
#include <cstddef>

namespace gio::platform {

struct kernel_resources {
  int registers_per_thread;
  int max_threads_per_wg;  // with those registers (and the kernel's launch bounds)
  std::size_t static_shared_bytes;
  std::size_t max_dynamic_shared_bytes;
};

}  // namespace gio::platform
