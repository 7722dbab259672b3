// gio::device_library (CUDA; docs/collectives.md, "Out of line"): a target that links it is
// compiled with GIO_DEVICE_LIBRARY=1, and its kernels then call the library's compiled entries for
// the collectives and the network path instead of compiling them in. The library compiles them
// once, with a register cap, so that a kernel calling them stays launchable at 1024 threads
// without launch bounds of its own. The entries' names carry the checks setting
// (GIO_LIBRARY_ENTRIES_NAMESPACE), so a checked target calls the checked ones.
#pragma once

#include "gio/device/checks.hpp"

// 1 where this translation unit calls the library's entries (for #if), else 0.
#if defined(GIO_DEVICE_LIBRARY) && GIO_DEVICE_LIBRARY
#define GIO_CALLS_DEVICE_LIBRARY 1
#if defined(__HIPCC__)
#error "gio::device_library (GIO_DEVICE_LIBRARY) is built for CUDA only (docs/collectives.md, \"Out of line\")"
#elif defined(__CUDACC__) && !defined(__CUDACC_RDC__)
#error "gio::device_library calls device code in a library: compile this target as relocatable device code (CMake: CUDA_SEPARABLE_COMPILATION ON; nvcc: -rdc=true)"
#endif
#else
#define GIO_CALLS_DEVICE_LIBRARY 0
#endif

namespace gio::detail {
inline constexpr bool calls_device_library = GIO_CALLS_DEVICE_LIBRARY != 0;
}  // namespace gio::detail

// The inline namespace around the library's entries: `inline namespace GIO_LIBRARY_ENTRIES_NAMESPACE { ... }`.
#if defined(GIO_CHECKS) && GIO_CHECKS
#define GIO_LIBRARY_ENTRIES_NAMESPACE checked
#else
#define GIO_LIBRARY_ENTRIES_NAMESPACE unchecked
#endif
