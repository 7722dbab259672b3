// The GPU tests' only vendor switch: the few runtime calls the host side of a test needs
// (device memory, copies, streams, launch checks, occupancy). Kernels use gio::platform only.
// Private to tests/gpu; every failure throws std::runtime_error naming the call.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define GIO_TEST_RT(name) cuda##name
#define GIO_TEST_RT_SM_COUNT cudaDevAttrMultiProcessorCount
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define GIO_TEST_RT(name) hip##name
#define GIO_TEST_RT_SM_COUNT hipDeviceAttributeMultiprocessorCount
#else
#error "tests/gpu sources must be compiled by nvcc (CUDA) or hipcc (HIP): mark them with gio_gpu_sources()"
#endif

namespace gio_test::gpu {

using stream_t = GIO_TEST_RT(Stream_t);
using error_t = GIO_TEST_RT(Error_t);

inline void check(error_t err, const char* what) {
  if (err != GIO_TEST_RT(Success))
    throw std::runtime_error(std::string(what) + ": " + GIO_TEST_RT(GetErrorString)(err));
}

inline void* alloc(std::size_t bytes) {
  void* p = nullptr;
  check(GIO_TEST_RT(Malloc)(&p, bytes), "device malloc");
  return p;
}
inline void dealloc(void* p) noexcept { (void)GIO_TEST_RT(Free)(p); }

// Every copy is synchronous: tests compare host bytes right after.
inline void to_device(void* dst, const void* src, std::size_t bytes) {
  check(GIO_TEST_RT(Memcpy)(dst, src, bytes, GIO_TEST_RT(MemcpyHostToDevice)), "copy to device");
}
inline void to_host(void* dst, const void* src, std::size_t bytes) {
  check(GIO_TEST_RT(Memcpy)(dst, src, bytes, GIO_TEST_RT(MemcpyDeviceToHost)), "copy to host");
}
inline void fill(void* dst, unsigned char byte, std::size_t bytes) {
  check(GIO_TEST_RT(Memset)(dst, byte, bytes), "device memset");
  check(GIO_TEST_RT(DeviceSynchronize)(), "device memset (sync)");
}

// After a <<<>>> launch: reports a bad launch configuration, then waits for the kernel and
// reports what it hit (a trap, a fault).
inline void finish_launch(const char* kernel) {
  check(GIO_TEST_RT(GetLastError)(), kernel);
  check(GIO_TEST_RT(DeviceSynchronize)(), kernel);
}

inline stream_t stream_create() {
  stream_t s;
  check(GIO_TEST_RT(StreamCreateWithFlags)(&s, GIO_TEST_RT(StreamNonBlocking)), "stream create");
  return s;
}
inline void stream_destroy(stream_t s) noexcept { (void)GIO_TEST_RT(StreamDestroy)(s); }
inline void stream_sync(stream_t s) { check(GIO_TEST_RT(StreamSynchronize)(s), "stream synchronize"); }

inline int current_device() {
  int device = -1;
  check(GIO_TEST_RT(GetDevice)(&device), "current device");
  return device;
}
inline int device_count() {
  int count = 0;
  check(GIO_TEST_RT(GetDeviceCount)(&count), "device count");
  return count;
}
inline int sm_count() {
  int device = 0, sms = 0;
  check(GIO_TEST_RT(GetDevice)(&device), "get device");
  check(GIO_TEST_RT(DeviceGetAttribute)(&sms, GIO_TEST_RT_SM_COUNT, device), "SM count");
  return sms;
}

// How many workgroups of `kernel` at `threads` threads this GPU runs at once. Litmus kernels
// whose workgroups wait on each other across PEs must not launch more than are co-resident.
template <class Kernel>
int coresident_wgs(Kernel kernel, int threads) {
  int device = 0, sms = 0, per_sm = 0;
  check(GIO_TEST_RT(GetDevice)(&device), "get device");
  check(GIO_TEST_RT(DeviceGetAttribute)(&sms, GIO_TEST_RT_SM_COUNT, device), "SM count");
  check(GIO_TEST_RT(OccupancyMaxActiveBlocksPerMultiprocessor)(&per_sm, kernel, threads, 0), "occupancy");
  return sms * per_sm;
}

}  // namespace gio_test::gpu

#undef GIO_TEST_RT
#undef GIO_TEST_RT_SM_COUNT
