// The host runtime's private GPU-runtime wrapper: CUDA and HIP runtime APIs have the same shape,
// so one token-pasting name maps both (GIO_RT(Malloc) is cudaMalloc or hipMalloc). Only the host
// runtime's GPU sources include this; it never reaches a public header.
#pragma once
#include <cstdint>
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

// Device memory whose loads and stores bypass the GPU's L2 (GIO paper 5.1.2: network buffers on a
// GPU whose L2 is not coherent with the NIC), or false with `why` where there is none.
inline bool allocate_uncached(void** ptr, std::size_t bytes, std::string* why) {
#if defined(__HIPCC__) && defined(hipDeviceMallocUncached)
  const rt_error status = hipExtMallocWithFlags(ptr, bytes, hipDeviceMallocUncached);
  if (status == hipSuccess) return true;
  *why = std::string("hipExtMallocWithFlags(hipDeviceMallocUncached) failed: ") + hipGetErrorString(status);
  return false;
#elif defined(__HIPCC__)
  (void)ptr;
  (void)bytes;
  *why = "this HIP runtime cannot allocate uncached device memory (hipDeviceMallocUncached came with ROCm 5.3)";
  return false;
#else
  (void)ptr;
  (void)bytes;
  *why = "NVIDIA GPUs have no uncached device memory, and need none: their L2 sits on the memory side, so the "
         "NIC's PCIe reads and writes of GPU memory pass through it (docs/decisions.md, uncached network buffers)";
  return false;
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

// A dma-buf file descriptor for device memory [base, base + bytes) (both host-page aligned), for
// the NIC to register without a peer-memory kernel module; -1 with `why` where there is none. CUDA:
// the driver's cuMemGetHandleForAddressRange, reached through the runtime's entry-point query so
// that libgio does not link libcuda. This HIP has no export (its hipMemGetHandleForAddressRange
// came later), so the NIC falls back to peer memory there.
inline int export_dmabuf(void* base, std::size_t bytes, std::string* why) {
#if defined(__HIPCC__)
  (void)base;
  (void)bytes;
  *why = "this HIP runtime has no dma-buf export";
  return -1;
#else
  // The driver's signature, without cuda.h: CUresult (void*, CUdeviceptr, size_t, CUmemRangeHandleType, flags).
  using get_handle_fn = int (*)(void* handle, unsigned long long dptr, std::size_t size, int type,
                                unsigned long long flags);
  constexpr int handle_type_dma_buf_fd = 1;  // CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const rt_error looked = cudaGetDriverEntryPointByVersion("cuMemGetHandleForAddressRange", &entry, 11070,
                                                           cudaEnableDefault, &found);
  if (looked != cudaSuccess || found != cudaDriverEntryPointSuccess || entry == nullptr) {
    *why = "the driver has no cuMemGetHandleForAddressRange (CUDA 11.7+)";
    return -1;
  }
  int fd = -1;
  const int status = reinterpret_cast<get_handle_fn>(entry)(&fd, reinterpret_cast<unsigned long long>(base), bytes,
                                                             handle_type_dma_buf_fd, 0);
  if (status != 0 || fd < 0) {
    *why = "cuMemGetHandleForAddressRange(DMA_BUF_FD) returned CUresult " + std::to_string(status) +
           (status == 801 ? " (not supported: needs the open kernel module and dma-buf support in the kernel)" : "");
    return -1;
  }
  return fd;
#endif
}

// The GPU's HDP (host data path) flush register, one 32-bit word that the CPU and the GPU both
// address at the returned pointer (ROCr maps its MMIO page at one address for both); nullptr with
// `why` where there is none. HIP's attribute query writes a whole pointer through its int*
// argument, so the storage given to it must be pointer-sized. NVIDIA GPUs have no HDP: the NIC's
// writes into their memory follow the GPUDirect RDMA ordering rules (docs/memory-model.md).
inline std::uint32_t* hdp_flush_register(int ordinal, std::string* why) {
#if defined(__HIPCC__)
  unsigned int* reg = nullptr;
  const rt_error status = hipDeviceGetAttribute(reinterpret_cast<int*>(&reg), hipDeviceAttributeHdpMemFlushCntl, ordinal);
  if (status != hipSuccess) {
    *why = std::string("hipDeviceGetAttribute(HdpMemFlushCntl): ") + hipGetErrorString(status);
    return nullptr;
  }
  if (reg == nullptr) *why = "this ROCm runtime gives no HDP flush register address";
  return reg;
#else
  (void)ordinal;
  *why = "NVIDIA GPUs have no HDP";
  return nullptr;
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
