// What the harness needs to know about a comm shim's library, and what its init() reports.
#pragma once
#include <cstddef>

namespace support {

struct shim_traits {
  const char* system;              // the CSV's system column
  const char* heap_size_variable;  // the environment variable sizing the symmetric heap
  bool needs_gpu_per_pe;           // several PEs on one GPU only under MPS (else the harness skips)
  bool runs_host_baselines;        // runs Inter-K by default (one binary does, so a merged CSV has them once)
};

struct library_init_report {
  int gpu;                     // the GPU the library chose for this PE, -1 if it does not say
  double reported_seconds;     // the library's own init time, < 0 if it does not say
  std::size_t reported_bytes;  // device memory the library says it holds, 0 if it does not say
  // The CSV's system column when it is not the shim's name: the path the PEs talk over where one
  // library has several (gio over gda or ikn; "-model": the test-only software NIC, whose figures
  // are never NIC figures). nullptr = traits.system.
  const char* system = nullptr;
};

// identity<T>::type: a parameter of this type takes no part in template argument deduction (the
// shims' launch_collective deduces a kernel's parameters from the kernel alone).
template <class T> struct identity {
  using type = T;
};

}  // namespace support
