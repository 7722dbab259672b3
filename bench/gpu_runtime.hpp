// The few GPU runtime calls the benchmark host code makes, for whichever vendor compiles it.
// The only vendor switch in bench/: everything else calls bench::gpu::*. Every call checks its
// status and throws bench::gpu::error naming the call, so main() can report it and abort all PEs.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define BENCH_GPU_API(name) cuda##name
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define BENCH_GPU_API(name) hip##name
#else
#error "bench/gpu_runtime.hpp must be compiled by nvcc (CUDA) or hipcc (HIP)"
#endif

namespace bench::gpu {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using status_t = BENCH_GPU_API(Error_t);

inline void check(status_t status, const char* call) {
  if (status != BENCH_GPU_API(Success))
    throw error(std::string(call) + " failed: " + BENCH_GPU_API(GetErrorString)(status));
}

inline int device_count() {
  int count = 0;
  check(BENCH_GPU_API(GetDeviceCount)(&count), "GetDeviceCount");
  return count;
}
inline void set_device(int device) { check(BENCH_GPU_API(SetDevice)(device), "SetDevice"); }
inline int current_device() {
  int device = -1;
  check(BENCH_GPU_API(GetDevice)(&device), "GetDevice");
  return device;
}
// Creates the device's context now, so that later measurements do not include it.
inline void create_context() { check(BENCH_GPU_API(Free)(nullptr), "Free(nullptr)"); }

inline std::size_t free_memory() {
  std::size_t free_bytes = 0, total_bytes = 0;
  check(BENCH_GPU_API(MemGetInfo)(&free_bytes, &total_bytes), "MemGetInfo");
  return free_bytes;
}

inline int multiprocessor_count() {
  int count = 0;
#if defined(__CUDACC__)
  check(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, current_device()), "DeviceGetAttribute");
#else
  check(hipDeviceGetAttribute(&count, hipDeviceAttributeMultiprocessorCount, current_device()), "DeviceGetAttribute");
#endif
  return count;
}

inline void* malloc_device(std::size_t bytes) {
  void* ptr = nullptr;
  check(BENCH_GPU_API(Malloc)(&ptr, bytes), "Malloc");
  return ptr;
}
inline void free_device(void* ptr) { check(BENCH_GPU_API(Free)(ptr), "Free"); }

// Page-locked host memory: the staging buffers of the Inter-K baselines (MPI is not GPU-aware).
inline void* malloc_pinned(std::size_t bytes) {
  void* ptr = nullptr;
#if defined(__CUDACC__)
  check(cudaMallocHost(&ptr, bytes), "MallocHost");
#else
  check(hipHostMalloc(&ptr, bytes, hipHostMallocDefault), "HostMalloc");
#endif
  return ptr;
}
inline void free_pinned(void* ptr) {
#if defined(__CUDACC__)
  check(cudaFreeHost(ptr), "FreeHost");
#else
  check(hipHostFree(ptr), "HostFree");
#endif
}

inline void copy_to_host(void* dst, const void* src, std::size_t bytes) {
  check(BENCH_GPU_API(Memcpy)(dst, src, bytes, BENCH_GPU_API(MemcpyDeviceToHost)), "Memcpy D2H");
}
inline void copy_to_device(void* dst, const void* src, std::size_t bytes) {
  check(BENCH_GPU_API(Memcpy)(dst, src, bytes, BENCH_GPU_API(MemcpyHostToDevice)), "Memcpy H2D");
}
inline void fill(void* dst, int byte, std::size_t bytes) {
  check(BENCH_GPU_API(Memset)(dst, byte, bytes), "Memset");
}
inline void synchronize() { check(BENCH_GPU_API(DeviceSynchronize)(), "DeviceSynchronize"); }
// After a kernel launch: reports a bad launch configuration at once (a fault shows at sync).
inline void check_launch(const char* kernel) { check(BENCH_GPU_API(GetLastError)(), kernel); }

}  // namespace bench::gpu

#undef BENCH_GPU_API
