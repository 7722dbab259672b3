// AMD host-side launch primitives for gio/launch.hpp (hipcc): the HIP runtime's occupancy query
// and cooperative launch, which guarantees every workgroup of the grid is resident at once.
#pragma once
#include <hip/hip_runtime.h>

#include <cstddef>

#include "gio/platform/kernel_resources.hpp"

namespace gio::platform {

using launch_status = hipError_t;
using launch_stream = hipStream_t;
inline constexpr const char* multiprocessor_name = "CU";  // how the vendor names its compute units

inline bool launch_ok(launch_status s) { return s == hipSuccess; }
inline const char* launch_error_text(launch_status s) { return hipGetErrorString(s); }
inline launch_status current_gpu(int* ordinal) { return hipGetDevice(ordinal); }
inline launch_status multiprocessor_count(int ordinal, int* count) {
  return hipDeviceGetAttribute(count, hipDeviceAttributeMultiprocessorCount, ordinal);
}
inline launch_status supports_cooperative_launch(int ordinal, int* yes) {
  return hipDeviceGetAttribute(yes, hipDeviceAttributeCooperativeLaunch, ordinal);
}
inline launch_status resident_wgs_per_multiprocessor(int* count, const void* kernel, int threads_per_wg,
                                                     std::size_t dynamic_shmem) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(count, kernel, threads_per_wg, dynamic_shmem);
}
// What the compiler gave a kernel: registers per thread, the most threads a workgroup of it can
// have with them, and its static shared memory (gio/launch.hpp explains failed launches with it).
inline launch_status kernel_resources_of(const void* kernel, kernel_resources* out) {
  hipFuncAttributes a{};
  const launch_status s = hipFuncGetAttributes(&a, kernel);
  if (launch_ok(s))
    *out = {a.numRegs, a.maxThreadsPerBlock, static_cast<std::size_t>(a.sharedSizeBytes),
            static_cast<std::size_t>(a.maxDynamicSharedSizeBytes)};
  return s;
}
// Raises the dynamic shared memory `kernel` may use to `bytes` (by default a launch may ask for
// at most 48 KiB, although the GPU's multiprocessors have more); fails beyond what the GPU has.
inline launch_status allow_dynamic_shared(const void* kernel, std::size_t bytes) {
  return hipFuncSetAttribute(kernel, hipFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
}
inline launch_status launch_cooperative(const void* kernel, dim3 grid, dim3 block, void** args,
                                        std::size_t dynamic_shmem, launch_stream stream) {
  return hipLaunchCooperativeKernel(kernel, grid, block, args, static_cast<unsigned>(dynamic_shmem), stream);
}

// Device memory and mapped host memory for header-only host code built by the GPU compiler
// (the work-stealing runtime's host part, gio/ws.hpp).
inline launch_status gpu_malloc(void** p, std::size_t bytes) { return hipMalloc(p, bytes); }
inline launch_status gpu_free(void* p) { return hipFree(p); }
inline launch_status gpu_copy(void* dst, const void* src, std::size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyDefault);
}
inline launch_status gpu_fill(void* dst, int byte, std::size_t bytes) { return hipMemset(dst, byte, bytes); }
inline launch_status gpu_synchronize() { return hipDeviceSynchronize(); }
inline launch_status gpu_last_error() { return hipGetLastError(); }
// Pins `bytes` of host memory at `p` and maps it into every GPU; *device is this GPU's address of it.
inline launch_status host_register_mapped(void* p, std::size_t bytes, void** device) {
  const hipError_t s = hipHostRegister(p, bytes, hipHostRegisterMapped | hipHostRegisterPortable);
  return s != hipSuccess ? s : hipHostGetDevicePointer(device, p, 0);
}
inline launch_status host_unregister(void* p) { return hipHostUnregister(p); }

}  // namespace gio::platform
