// NVIDIA host-side launch primitives for gio/launch.hpp (nvcc): the CUDA runtime's occupancy
// query and cooperative launch, which guarantees every block of the grid is resident at once.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "gio/platform/kernel_resources.hpp"

namespace gio::platform {

using launch_status = cudaError_t;
using launch_stream = cudaStream_t;
inline constexpr const char* multiprocessor_name = "SM";  // how the vendor names its compute units

inline bool launch_ok(launch_status s) { return s == cudaSuccess; }
inline const char* launch_error_text(launch_status s) { return cudaGetErrorString(s); }
inline launch_status current_gpu(int* ordinal) { return cudaGetDevice(ordinal); }
inline launch_status multiprocessor_count(int ordinal, int* count) {
  return cudaDeviceGetAttribute(count, cudaDevAttrMultiProcessorCount, ordinal);
}
inline launch_status supports_cooperative_launch(int ordinal, int* yes) {
  return cudaDeviceGetAttribute(yes, cudaDevAttrCooperativeLaunch, ordinal);
}
inline launch_status resident_wgs_per_multiprocessor(int* count, const void* kernel, int threads_per_wg,
                                                     std::size_t dynamic_shmem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(count, kernel, threads_per_wg, dynamic_shmem);
}
// What the compiler gave a kernel: registers per thread, the most threads a workgroup of it can
// have with them, and its static shared memory (gio/launch.hpp explains failed launches with it).
inline launch_status kernel_resources_of(const void* kernel, kernel_resources* out) {
  cudaFuncAttributes a{};
  const launch_status s = cudaFuncGetAttributes(&a, kernel);
  if (launch_ok(s))
    *out = {a.numRegs, a.maxThreadsPerBlock, static_cast<std::size_t>(a.sharedSizeBytes),
            static_cast<std::size_t>(a.maxDynamicSharedSizeBytes)};
  return s;
}
// Raises the dynamic shared memory `kernel` may use to `bytes` (by default a launch may ask for
// at most 48 KiB, although the GPU's multiprocessors have more); fails beyond what the GPU has.
inline launch_status allow_dynamic_shared(const void* kernel, std::size_t bytes) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
}
inline launch_status launch_cooperative(const void* kernel, dim3 grid, dim3 block, void** args,
                                        std::size_t dynamic_shmem, launch_stream stream) {
  return cudaLaunchCooperativeKernel(kernel, grid, block, args, dynamic_shmem, stream);
}

// Device memory and mapped host memory for header-only host code built by the GPU compiler
// (the work-stealing runtime's host part, gio/ws.hpp).
inline launch_status gpu_malloc(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline launch_status gpu_free(void* p) { return cudaFree(p); }
inline launch_status gpu_copy(void* dst, const void* src, std::size_t bytes) {
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDefault);
}
inline launch_status gpu_fill(void* dst, int byte, std::size_t bytes) { return cudaMemset(dst, byte, bytes); }
inline launch_status gpu_synchronize() { return cudaDeviceSynchronize(); }
inline launch_status gpu_last_error() { return cudaGetLastError(); }
// Pins `bytes` of host memory at `p` and maps it into every GPU; *device is this GPU's address of it.
inline launch_status host_register_mapped(void* p, std::size_t bytes, void** device) {
  const cudaError_t s = cudaHostRegister(p, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable);
  return s != cudaSuccess ? s : cudaHostGetDevicePointer(device, p, 0);
}
inline launch_status host_unregister(void* p) { return cudaHostUnregister(p); }

}  // namespace gio::platform
