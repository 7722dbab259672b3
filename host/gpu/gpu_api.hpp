// The host runtime's private GPU-runtime wrapper: CUDA and HIP runtime APIs have the same shape,
// so one token-pasting name maps both (GIO_RT(Malloc) is cudaMalloc or hipMalloc). Only the host
// runtime's GPU sources include this; it never reaches a public header.
#pragma once
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define GIO_RT(name) cuda##name
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define GIO_RT(name) hip##name
#else
#error "host/gpu/gpu_api.hpp is for GPU sources compiled by nvcc or hipcc"
#endif

namespace gio::gpu {

using rt_error = GIO_RT(Error_t);
#if defined(__HIPCC__)
using device_properties = hipDeviceProp_t;
#else
using device_properties = cudaDeviceProp;
#endif

inline void check_rt(rt_error status, const char* what) {
  if (status != GIO_RT(Success))
    throw std::runtime_error(std::string(what) + " failed: " + GIO_RT(GetErrorString)(status));
}

// Heap memory must be coherent with peers at system scope: on AMD that is fine-grained memory
// (coarse-grained memory is only made coherent at kernel boundaries; GIO paper §4).
inline rt_error allocate_peer_coherent(void** ptr, std::size_t bytes) {
#if defined(__HIPCC__)
  return hipExtMallocWithFlags(ptr, bytes, hipDeviceMallocFinegrained);
#else
  return cudaMalloc(ptr, bytes);
#endif
}

// Pinned host memory mapped into the GPU's address space at the same pointer (UVA).
inline rt_error host_alloc_mapped(void** ptr, std::size_t bytes) {
#if defined(__HIPCC__)
  return hipHostMalloc(ptr, bytes, hipHostMallocMapped | hipHostMallocPortable);
#else
  return cudaHostAlloc(ptr, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
#endif
}

inline rt_error host_free_mapped(void* ptr) {
#if defined(__HIPCC__)
  return hipHostFree(ptr);
#else
  return cudaFreeHost(ptr);
#endif
}

}  // namespace gio::gpu
