// The NIC model's only vendor switch: the GPU-runtime calls its host side needs (device and
// pinned memory, IPC, streams, launch checks). The engine kernel uses gio::platform only.
// Private to tests/nicmodel; failures throw std::runtime_error naming the call.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define GIO_NICMODEL_RT(name) cuda##name
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define GIO_NICMODEL_RT(name) hip##name
#else
#error "tests/nicmodel/nic_model.cpp must be compiled by nvcc (CUDA) or hipcc (HIP)"
#endif

namespace gio_test::nicmodel::rt {

using error_t = GIO_NICMODEL_RT(Error_t);
using stream_t = GIO_NICMODEL_RT(Stream_t);
using ipc_handle = GIO_NICMODEL_RT(IpcMemHandle_t);

inline const char* error_string(error_t err) { return GIO_NICMODEL_RT(GetErrorString)(err); }
inline bool ok(error_t err) { return err == GIO_NICMODEL_RT(Success); }

inline void check(error_t err, const std::string& what) {
  if (!ok(err)) throw std::runtime_error(what + ": " + error_string(err));
}

inline void set_device(int ordinal) {
  check(GIO_NICMODEL_RT(SetDevice)(ordinal), "set device " + std::to_string(ordinal));
}
inline int current_device() {
  int d = 0;
  check(GIO_NICMODEL_RT(GetDevice)(&d), "get device");
  return d;
}

// Device memory the engine and the GPU's own threads share at system scope (fine-grained on AMD,
// as the library's heap), zero-filled.
inline void* device_alloc(std::size_t bytes) {
  void* p = nullptr;
#if defined(__HIPCC__)
  check(hipExtMallocWithFlags(&p, bytes, hipDeviceMallocFinegrained), "device malloc");
#else
  check(cudaMalloc(&p, bytes), "device malloc");
#endif
  const error_t err = GIO_NICMODEL_RT(Memset)(p, 0, bytes);
  if (!ok(err)) {
    (void)GIO_NICMODEL_RT(Free)(p);
    check(err, "device memset");
  }
  check(GIO_NICMODEL_RT(DeviceSynchronize)(), "device memset (sync)");
  return p;
}
inline void device_free(void* p) noexcept { (void)GIO_NICMODEL_RT(Free)(p); }
inline void to_device(void* dst, const void* src, std::size_t bytes) {
  check(GIO_NICMODEL_RT(Memcpy)(dst, src, bytes, GIO_NICMODEL_RT(MemcpyHostToDevice)), "copy to device");
}

// Pinned, mapped, portable host memory, zero-filled: the same pointer on the CPU and the GPU.
inline void* host_alloc(std::size_t bytes) {
  void* p = nullptr;
#if defined(__HIPCC__)
  check(hipHostMalloc(&p, bytes, hipHostMallocMapped | hipHostMallocPortable), "pinned host malloc");
#else
  check(cudaHostAlloc(&p, bytes, cudaHostAllocMapped | cudaHostAllocPortable), "pinned host malloc");
#endif
  void* on_device = nullptr;
  const error_t err = GIO_NICMODEL_RT(HostGetDevicePointer)(&on_device, p, 0);
  if (!ok(err) || on_device != p) {
#if defined(__HIPCC__)
    (void)hipHostFree(p);
#else
    (void)cudaFreeHost(p);
#endif
    check(err, "pinned host memory's device pointer");
    throw std::runtime_error("pinned host memory has another address on the GPU (no unified addressing)");
  }
  __builtin_memset(p, 0, bytes);
  return p;
}
inline void host_free(void* p) noexcept {
#if defined(__HIPCC__)
  (void)hipHostFree(p);
#else
  (void)cudaFreeHost(p);
#endif
}

inline ipc_handle ipc_export(void* base) {
  ipc_handle h;
  check(GIO_NICMODEL_RT(IpcGetMemHandle)(&h, base), "IPC handle of the registered memory");
  return h;
}
inline void* ipc_import(const ipc_handle& h) {
  void* p = nullptr;
  check(GIO_NICMODEL_RT(IpcOpenMemHandle)(&p, h, GIO_NICMODEL_RT(IpcMemLazyEnablePeerAccess)),
        "opening a peer's IPC handle");
  return p;
}
inline void ipc_close(void* p) noexcept { (void)GIO_NICMODEL_RT(IpcCloseMemHandle)(p); }

// A non-blocking stream at the highest priority, so that the engine's next slice is scheduled
// ahead of other waiting work when an SM frees up.
inline stream_t stream_create_urgent() {
  int least = 0, greatest = 0;
  check(GIO_NICMODEL_RT(DeviceGetStreamPriorityRange)(&least, &greatest), "stream priority range");
  stream_t s;
  check(GIO_NICMODEL_RT(StreamCreateWithPriority)(&s, GIO_NICMODEL_RT(StreamNonBlocking), greatest), "stream create");
  return s;
}
inline void stream_destroy(stream_t s) noexcept { (void)GIO_NICMODEL_RT(StreamDestroy)(s); }
inline error_t stream_sync(stream_t s) { return GIO_NICMODEL_RT(StreamSynchronize)(s); }
// Any-to-host copy ordered on `s` (the engine thread's diagnostics, between slices).
inline void to_host_on(void* dst, const void* src, std::size_t bytes, stream_t s) {
  check(GIO_NICMODEL_RT(MemcpyAsync)(dst, src, bytes, GIO_NICMODEL_RT(MemcpyDefault), s), "copy to host");
  check(GIO_NICMODEL_RT(StreamSynchronize)(s), "copy to host (sync)");
}
// Loads a kernel's code now: a lazily loaded kernel's first launch waits for the GPU's running
// work, which may be waiting for this very engine.
inline void load_kernel(const void* kernel) {
  GIO_NICMODEL_RT(FuncAttributes) attributes;
  check(GIO_NICMODEL_RT(FuncGetAttributes)(&attributes, kernel), "loading the engine kernel");
}
inline error_t last_error() { return GIO_NICMODEL_RT(GetLastError)(); }

}  // namespace gio_test::nicmodel::rt

#undef GIO_NICMODEL_RT
