// The GPU tests' runtime calls, under the short names the tests use: support/gpu_runtime.hpp's
// (the one vendor switch of the programs and tests), with the tests' own rules on top: copies and
// fills are complete on return (tests compare host bytes right after, and a peer may write the
// buffer once the next barrier passes), and what destructors call does not throw. Kernels use
// gio::platform only. Every failure throws support::gpu::error (a std::runtime_error) naming the call.
#pragma once
#include <cstddef>

#include "support/gpu_runtime.hpp"

namespace gio_test::gpu {

using support::gpu::current_device;
using support::gpu::device_count;
using stream_t = support::gpu::stream_t;

inline void* alloc(std::size_t bytes) { return support::gpu::malloc_device(bytes); }
inline void dealloc(void* p) noexcept {
  try {
    support::gpu::free_device(p);
  } catch (const support::gpu::error&) {  // a destructor's: the fault that caused it is reported on its own
  }
}

inline void to_device(void* dst, const void* src, std::size_t bytes) { support::gpu::copy_to_device(dst, src, bytes); }
inline void to_host(void* dst, const void* src, std::size_t bytes) { support::gpu::copy_to_host(dst, src, bytes); }
inline void fill(void* dst, unsigned char byte, std::size_t bytes) {
  support::gpu::fill(dst, byte, bytes);
  support::gpu::synchronize();
}

// After a <<<>>> launch: reports a bad launch configuration, then waits for the kernel and
// reports what it hit (a trap, a fault).
inline void finish_launch(const char* kernel) {
  support::gpu::check_launch(kernel);
  support::gpu::synchronize();
}

inline stream_t stream_create() { return support::gpu::create_stream(); }
inline void stream_destroy(stream_t s) noexcept {
  try {
    support::gpu::destroy_stream(s);
  } catch (const support::gpu::error&) {
  }
}
inline void stream_sync(stream_t s) { support::gpu::synchronize(s); }

inline int sm_count() { return support::gpu::multiprocessor_count(); }

}  // namespace gio_test::gpu
