// The few GPU runtime calls the programs' and tests' host code makes (bench/, apps/, tests/), for
// whichever vendor compiles it: their only vendor switch, everything else calls support::gpu::*.
// Every call checks its status and throws support::gpu::error naming the call, so main() can
// report it and end every PE.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define SUPPORT_GPU_API(name) cuda##name
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define SUPPORT_GPU_API(name) hip##name
#else
#error "support/gpu_runtime.hpp must be compiled by nvcc (CUDA) or hipcc (HIP)"
#endif

namespace support::gpu {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using status_t = SUPPORT_GPU_API(Error_t);

inline void check(status_t status, const char* call) {
  if (status != SUPPORT_GPU_API(Success))
    throw error(std::string(call) + " failed: " + SUPPORT_GPU_API(GetErrorString)(status));
}

inline int device_count() {
  int count = 0;
  check(SUPPORT_GPU_API(GetDeviceCount)(&count), "GetDeviceCount");
  return count;
}
inline void set_device(int device) { check(SUPPORT_GPU_API(SetDevice)(device), "SetDevice"); }
inline int current_device() {
  int device = -1;
  check(SUPPORT_GPU_API(GetDevice)(&device), "GetDevice");
  return device;
}

// Creates the device's context now, so that later measurements do not include it.
inline void create_context() { check(SUPPORT_GPU_API(Free)(nullptr), "Free(nullptr)"); }

inline std::size_t free_memory() {
  std::size_t free_bytes = 0, total_bytes = 0;
  check(SUPPORT_GPU_API(MemGetInfo)(&free_bytes, &total_bytes), "MemGetInfo");
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
  check(SUPPORT_GPU_API(Malloc)(&ptr, bytes), "Malloc");
  return ptr;
}
inline void free_device(void* ptr) { check(SUPPORT_GPU_API(Free)(ptr), "Free"); }

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

// Calls free(args...) from a destructor or a cleanup path: its error is dropped, since these run
// while unwinding from a GPU fault, which is reported on its own.
template <class Free, class... Args>
void release(Free free, Args... args) noexcept {
  try {
    free(args...);
  } catch (const error&) {
  }
}

// Device memory that the GPU's threads share at system scope with the CPU and peer GPUs (polled
// rings, IPC-exported buffers): fine-grained on AMD, whose plain (coarse-grained) memory is
// coherent only at kernel boundaries; plain device memory on NVIDIA. Freed by free_device.
inline void* malloc_device_coherent(std::size_t bytes) {
#if defined(__CUDACC__)
  return malloc_device(bytes);
#else
  void* ptr = nullptr;
  check(hipExtMallocWithFlags(&ptr, bytes, hipDeviceMallocFinegrained), "ExtMallocWithFlags(Finegrained)");
  return ptr;
#endif
}

// Pinned host memory that every device's kernels reach at the same address as the CPU (mapped,
// portable): doorbells and rings that both sides poll. Throws when the GPU would see it at
// another address (no unified addressing). Freed by free_pinned.
inline void* malloc_mapped(std::size_t bytes) {
  void* ptr = nullptr;
#if defined(__CUDACC__)
  check(cudaHostAlloc(&ptr, bytes, cudaHostAllocMapped | cudaHostAllocPortable), "HostAlloc(Mapped|Portable)");
#else
  check(hipHostMalloc(&ptr, bytes, hipHostMallocMapped | hipHostMallocPortable), "HostMalloc(Mapped|Portable)");
#endif
  void* on_device = nullptr;
  const status_t status = SUPPORT_GPU_API(HostGetDevicePointer)(&on_device, ptr, 0);
  if (status != SUPPORT_GPU_API(Success) || on_device != ptr) {
    release(free_pinned, ptr);
    check(status, "HostGetDevicePointer");
    throw error("mapped pinned host memory has another address on the GPU (no unified addressing)");
  }
  return ptr;
}

// Owns one allocation of Allocate / Free (device or pinned memory below); freed with release.
template <void* (*Allocate)(std::size_t), void (*Free)(void*)>
class owned_memory {
 public:
  owned_memory() = default;
  explicit owned_memory(std::size_t bytes) : ptr_(bytes > 0 ? Allocate(bytes) : nullptr) {}
  ~owned_memory() {
    if (ptr_) release(Free, ptr_);
  }
  owned_memory(owned_memory&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
  owned_memory& operator=(owned_memory&&) = delete;
  owned_memory(const owned_memory&) = delete;
  template <class T> T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};
using device_memory = owned_memory<malloc_device, free_device>;
using pinned_memory = owned_memory<malloc_pinned, free_pinned>;

inline void copy_to_host(void* dst, const void* src, std::size_t bytes) {
  check(SUPPORT_GPU_API(Memcpy)(dst, src, bytes, SUPPORT_GPU_API(MemcpyDeviceToHost)), "Memcpy D2H");
}
inline void copy_to_device(void* dst, const void* src, std::size_t bytes) {
  check(SUPPORT_GPU_API(Memcpy)(dst, src, bytes, SUPPORT_GPU_API(MemcpyHostToDevice)), "Memcpy H2D");
}
inline void fill(void* dst, int byte, std::size_t bytes) {
  check(SUPPORT_GPU_API(Memset)(dst, byte, bytes), "Memset");
}
inline void synchronize() { check(SUPPORT_GPU_API(DeviceSynchronize)(), "DeviceSynchronize"); }

// Loads `kernel`'s code now. Under lazy loading a kernel's first launch otherwise waits for the
// GPU's running work, which may be waiting for that very kernel (a proxy or a NIC model engine).
inline void load_kernel(const void* kernel) {
  SUPPORT_GPU_API(FuncAttributes) attributes{};
  check(SUPPORT_GPU_API(FuncGetAttributes)(&attributes, kernel), "FuncGetAttributes (loading a kernel)");
}

// Workgroups of `kernel` at `threads` threads (and `shared_bytes` of dynamic shared memory) one
// multiprocessor runs at once.
template <class Kernel>
int resident_wgs_per_multiprocessor(Kernel kernel, int threads, std::size_t shared_bytes = 0) {
  int per_multiprocessor = 0;
  check(SUPPORT_GPU_API(OccupancyMaxActiveBlocksPerMultiprocessor)(&per_multiprocessor, kernel, threads, shared_bytes),
        "OccupancyMaxActiveBlocksPerMultiprocessor");
  return per_multiprocessor;
}
// After a kernel launch: reports a bad launch configuration at once (a fault shows at sync).
inline void check_launch(const char* kernel) { check(SUPPORT_GPU_API(GetLastError)(), kernel); }

// GPU-side timing on the default stream: record_event before and after the work, then
// elapsed_ms (which waits for `stop`).
using event_t = SUPPORT_GPU_API(Event_t);
inline event_t create_event() {
  event_t event{};
  check(SUPPORT_GPU_API(EventCreate)(&event), "EventCreate");
  return event;
}
inline void destroy_event(event_t event) { check(SUPPORT_GPU_API(EventDestroy)(event), "EventDestroy"); }
inline void record_event(event_t event) { check(SUPPORT_GPU_API(EventRecord)(event, nullptr), "EventRecord"); }
inline float elapsed_ms(event_t start, event_t stop) {
  check(SUPPORT_GPU_API(EventSynchronize)(stop), "EventSynchronize");
  float ms = 0;
  check(SUPPORT_GPU_API(EventElapsedTime)(&ms, start, stop), "EventElapsedTime");
  return ms;
}

// Streams, for work in order on one stream and overlapped across two (the Inter-K baselines).
// A high-priority stream's kernels start before queued kernels of other streams.
using stream_t = SUPPORT_GPU_API(Stream_t);
inline stream_t create_stream(bool high_priority = false) {
  int least = 0, greatest = 0;
  check(SUPPORT_GPU_API(DeviceGetStreamPriorityRange)(&least, &greatest), "DeviceGetStreamPriorityRange");
  stream_t stream{};
  check(SUPPORT_GPU_API(StreamCreateWithPriority)(&stream, SUPPORT_GPU_API(StreamNonBlocking), high_priority ? greatest : least),
        "StreamCreateWithPriority");
  return stream;
}
inline void destroy_stream(stream_t stream) { check(SUPPORT_GPU_API(StreamDestroy)(stream), "StreamDestroy"); }
inline void synchronize(stream_t stream) { check(SUPPORT_GPU_API(StreamSynchronize)(stream), "StreamSynchronize"); }
// Whether everything enqueued on `stream` (nullptr: the default stream) has finished, without
// waiting; an error of that work throws.
inline bool idle(stream_t stream) {
  const status_t status = SUPPORT_GPU_API(StreamQuery)(stream);
  if (status == SUPPORT_GPU_API(ErrorNotReady)) return false;
  check(status, "StreamQuery");
  return true;
}
inline void copy_to_host_async(void* dst, const void* src, std::size_t bytes, stream_t stream) {
  check(SUPPORT_GPU_API(MemcpyAsync)(dst, src, bytes, SUPPORT_GPU_API(MemcpyDeviceToHost), stream), "MemcpyAsync D2H");
}
inline void copy_to_device_async(void* dst, const void* src, std::size_t bytes, stream_t stream) {
  check(SUPPORT_GPU_API(MemcpyAsync)(dst, src, bytes, SUPPORT_GPU_API(MemcpyHostToDevice), stream), "MemcpyAsync H2D");
}
// Between any two addresses the runtime knows (device, pinned or mapped host memory, either way):
// the direction is taken from the addresses.
inline void copy_async(void* dst, const void* src, std::size_t bytes, stream_t stream) {
  check(SUPPORT_GPU_API(MemcpyAsync)(dst, src, bytes, SUPPORT_GPU_API(MemcpyDefault), stream), "MemcpyAsync");
}

// Device memory shared between processes of one node: the exporter sends ipc_export's handle (a
// plain byte struct) to the others, which map it with ipc_import and unmap it with ipc_close.
// `base` must be the start of its allocation. Peer access is enabled as the mapping is used.
using ipc_handle_t = SUPPORT_GPU_API(IpcMemHandle_t);
inline ipc_handle_t ipc_export(void* base) {
  ipc_handle_t handle{};
  check(SUPPORT_GPU_API(IpcGetMemHandle)(&handle, base), "IpcGetMemHandle");
  return handle;
}
inline void* ipc_import(const ipc_handle_t& handle) {
  void* ptr = nullptr;
  check(SUPPORT_GPU_API(IpcOpenMemHandle)(&ptr, handle, SUPPORT_GPU_API(IpcMemLazyEnablePeerAccess)),
        "IpcOpenMemHandle");
  return ptr;
}
inline void ipc_close(void* mapped) { check(SUPPORT_GPU_API(IpcCloseMemHandle)(mapped), "IpcCloseMemHandle"); }

}  // namespace support::gpu

#undef SUPPORT_GPU_API
