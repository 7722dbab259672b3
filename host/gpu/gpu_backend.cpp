// GPU backend, one source for CUDA and HIP (compiled by nvcc or hipcc): the heap is device
// memory exported to node-local peers through the runtime's IPC handles.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "gio/device/transports/gda/gda.hpp"
#include "gio/device/wait_core.hpp"
#include "gio/platform/strong.hpp"
#include "gpu/backend.hpp"
#include "gpu/device_ops.hpp"
#include "gpu/gpu_api.hpp"

namespace gio::gpu {
namespace {

static_assert(sizeof(GIO_RT(IpcMemHandle_t)) <= sizeof(heap_export::bytes), "IPC handle must fit heap_export");

__global__ void probe_loads_kernel(char* const* bases, int count, std::size_t offset, std::uint64_t* out) {
  for (int i = static_cast<int>(platform::thread_in_wg()); i < count; i += static_cast<int>(platform::wg_size()))
    out[i] = bases[i] ? platform::ld_relaxed_sys(reinterpret_cast<const std::uint64_t*>(bases[i] + offset)) : 0;
}

class gpu_backend final : public backend {
 public:
  const char* name() const override { return GIO_GPU_NAME; }

  int device_count() override {
    int n = 0;
    const rt_error status = GIO_RT(GetDeviceCount)(&n);
    if (status != GIO_RT(Success)) return 0;  // "no GPU" is reported by the runtime with context
    return n;
  }

  void select_device(int ordinal) override {
    check_rt(GIO_RT(SetDevice)(ordinal), "selecting the GPU");
    check_rt(GIO_RT(Free)(nullptr), "creating the GPU context");
    ordinal_ = ordinal;
    check_rt(GIO_RT(StreamCreateWithFlags)(&stream_, GIO_RT(StreamNonBlocking)), "creating gio's stream");
    // Every gio kernel loaded, and what host atomics need made, before any user kernel runs: a
    // first launch, cudaMalloc or pageable copy then could wait for a kernel that waits for it.
    warm_up_kernels(stream_);
    probe_loads_kernel<<<1, 64, 0, stream_>>>(nullptr, 0, 0, nullptr);
    check_rt(GIO_RT(GetLastError)(), "warming up gio's kernels");
    check_rt(GIO_RT(StreamSynchronize)(stream_), "warming up gio's kernels");
    check_rt(host_alloc_mapped(reinterpret_cast<void**>(&old_bits_), sizeof *old_bits_),
             "allocating a host atomic's result word");
  }

  device_info info() override {
    device_info d;
    d.ordinal = ordinal_;
    device_properties prop{};
    check_rt(GIO_RT(GetDeviceProperties)(&prop, ordinal_), "reading GPU properties");
    d.name = prop.name;
    char bus[32] = {};
    check_rt(GIO_RT(DeviceGetPCIBusId)(bus, sizeof bus, ordinal_), "reading the GPU's PCI bus id");
    d.pci_bus_id = bus;
    check_rt(GIO_RT(MemGetInfo)(&d.free_bytes, &d.total_bytes), "reading GPU memory");
    return d;
  }

  int device_by_bus_id(const std::string& bus_id) override {
    int ordinal = -1;
    if (GIO_RT(DeviceGetByPCIBusId)(&ordinal, bus_id.c_str()) != GIO_RT(Success)) {
      (void)GIO_RT(GetLastError)();
      return -1;
    }
    return ordinal;
  }

  std::uint32_t probe_link(int peer_ordinal) override {
    if (peer_ordinal == ordinal_) return peer_load_store | peer_native_atomics | peer_same_device;
    int can_access = 0;
    check_rt(GIO_RT(DeviceCanAccessPeer)(&can_access, ordinal_, peer_ordinal), "probing peer access");
    if (!can_access) return 0;
    int native_atomics = 0;
    check_rt(GIO_RT(DeviceGetP2PAttribute)(&native_atomics, GIO_RT(DevP2PAttrNativeAtomicSupported), ordinal_,
                                           peer_ordinal),
             "probing peer atomics");
    return peer_load_store | (native_atomics ? peer_native_atomics : 0u);
  }

  void* allocate_heap(std::size_t bytes, gpu_caching caching) override {
    return allocate_network_memory(bytes, caching, "allocating the symmetric heap");
  }

  heap_export export_heap(void* heap) override {
    GIO_RT(IpcMemHandle_t) handle;
    check_rt(GIO_RT(IpcGetMemHandle)(&handle, heap), "exporting the heap (IPC handle)");
    heap_export out{};
    std::memcpy(out.bytes, &handle, sizeof handle);
    return out;
  }

  void* import_heap(const heap_export& exported, std::size_t) override {
    GIO_RT(IpcMemHandle_t) handle;
    std::memcpy(&handle, exported.bytes, sizeof handle);
    void* mapped = nullptr;
    check_rt(GIO_RT(IpcOpenMemHandle)(&mapped, handle, GIO_RT(IpcMemLazyEnablePeerAccess)),
             "mapping a peer's heap (IPC open)");
    return mapped;
  }

  void close_import(void* mapped, std::size_t) override { (void)GIO_RT(IpcCloseMemHandle)(mapped); }
  void exports_done() override {}
  void free_heap(void* heap, std::size_t) override { (void)GIO_RT(Free)(heap); }

  void* allocate_table(std::size_t bytes) override {
    void* table = nullptr;
    check_rt(GIO_RT(Malloc)(&table, bytes), "allocating the peer table");
    return table;
  }
  void free_table(void* table) override { (void)GIO_RT(Free)(table); }

  // cudaMemcpy between device buffers and cudaMemset return before the work is done (CUDA's
  // API synchronization rules): wait for it, since callers rely on the data having landed.
  void copy(void* dst, const void* src, std::size_t bytes) override {
    activate();
    check_rt(GIO_RT(Memcpy)(dst, src, bytes, GIO_RT(MemcpyDefault)), "copying");
    check_rt(GIO_RT(StreamSynchronize)(nullptr), "completing a copy");
  }
  void copy_strided(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width,
                    std::size_t rows) override {
    activate();
    check_rt(GIO_RT(Memcpy2D)(dst, dst_pitch, src, src_pitch, width, rows, GIO_RT(MemcpyDefault)), "copying strided");
    check_rt(GIO_RT(StreamSynchronize)(nullptr), "completing a strided copy");
  }
  void copy_async(void* dst, const void* src, std::size_t bytes, stream_t stream) override {
    activate();
    check_rt(GIO_RT(MemcpyAsync)(dst, src, bytes, GIO_RT(MemcpyDefault), stream), "enqueueing a copy");
  }
  void fill(void* dst, int byte, std::size_t bytes) override {
    activate();
    check_rt(GIO_RT(Memset)(dst, byte, bytes), "clearing memory");
    check_rt(GIO_RT(StreamSynchronize)(nullptr), "completing a clear");
  }
  void synchronize() override {
    activate();
    check_rt(GIO_RT(DeviceSynchronize)(), "synchronizing the GPU");
  }
  void synchronize(stream_t stream) override {
    activate();
    check_rt(GIO_RT(StreamSynchronize)(stream), "synchronizing a stream");
  }

  void probe_loads(char* const* bases, int count, std::size_t offset, std::uint64_t* out) override {
    char** bases_dev = nullptr;
    std::uint64_t* out_dev = nullptr;
    check_rt(GIO_RT(Malloc)(reinterpret_cast<void**>(&bases_dev), sizeof(char*) * count), "probe allocation");
    check_rt(GIO_RT(Malloc)(reinterpret_cast<void**>(&out_dev), sizeof(std::uint64_t) * count), "probe allocation");
    copy(bases_dev, bases, sizeof(char*) * count);
    activate();
    probe_loads_kernel<<<1, 64>>>(bases_dev, count, offset, out_dev);
    check_rt(GIO_RT(GetLastError)(), "launching the peer probe");
    copy(out, out_dev, sizeof(std::uint64_t) * count);
    (void)GIO_RT(Free)(bases_dev);
    (void)GIO_RT(Free)(out_dev);
  }

  std::uint64_t atomic(const device_handle& handle, const atomic_request& a) override {
    activate();
    enqueue_atomic(handle, a, old_bits_, stream_);
    check_rt(GIO_RT(StreamSynchronize)(stream_), "completing a host atomic");
    return __atomic_load_n(old_bits_, __ATOMIC_ACQUIRE);  // the kernel wrote it to mapped host memory
  }

  void quiet_network(const device_handle& handle, const stream_t* stream) override {
    on_stream_or_now(stream, "completing the network's operations",
                     [&](stream_t s) { enqueue_network_quiet(handle, s); });
  }

  void rma(const device_handle& handle, const rma_request& r, const stream_t* stream) override {
    on_stream_or_now(stream, "completing a host put/get", [&](stream_t s) { enqueue_rma(handle, r, s); });
  }

  void* allocate_host_mapped(std::size_t bytes) override {
    activate();
    void* p = nullptr;
    check_rt(host_alloc_mapped(&p, bytes), "allocating mapped host memory");
    return p;
  }
  void free_host_mapped(void* p) override { (void)host_free_mapped(p); }

  void* map_host(void* host, std::size_t bytes, bool io) override {
    activate();
    unsigned flags = GIO_RT(HostRegisterMapped) | GIO_RT(HostRegisterPortable);
    if (io) flags |= GIO_RT(HostRegisterIoMemory);
    check_rt(GIO_RT(HostRegister)(host, bytes, flags), io ? "mapping the NIC's doorbell page into the GPU"
                                                         : "mapping NIC rings into the GPU");
    void* device = nullptr;
    check_rt(GIO_RT(HostGetDevicePointer)(&device, host, 0), "the GPU's address of mapped host memory");
    return device;
  }
  void unmap_host(void* host) override { (void)GIO_RT(HostUnregister)(host); }

  void* allocate_nic_memory(std::size_t bytes, gpu_caching caching) override {
    activate();
    return allocate_network_memory(bytes, caching, "allocating GPU memory for the NIC's rings");
  }
  void free_nic_memory(void* p) override { (void)GIO_RT(Free)(p); }

  // docs/transports.md, "Registration": the NIC registers the heap through this, else peer memory.
  int dmabuf_fd(void* base, std::size_t bytes, std::string* why) override { return export_dmabuf(base, bytes, why); }
  std::uint32_t* hdp_flush_register(std::string* why) override {
    activate();
    return gpu::hdp_flush_register(ordinal_, why);
  }

  void collective(const device_handle& handle, const collective_request& c, const stream_t* stream) override {
    on_stream_or_now(stream, "completing a host collective", [&](stream_t s) { enqueue_collective(handle, c, s); });
  }

  void team_sync(const device_handle& handle, shmem_team_t team, bool quiet, const char* call,
                 const stream_t* stream) override {
    on_stream_or_now(stream, "completing a team sync", [&](stream_t s) { enqueue_team_sync(handle, team, quiet, call, s); });
  }

  ~gpu_backend() override {
    if (old_bits_) (void)host_free_mapped(old_bits_);
    if (stream_) (void)GIO_RT(StreamDestroy)(stream_);
  }

 private:
  // The work `enqueue` puts on a stream: on `*stream`, or (null) on gio's stream, waited for.
  template <class Enqueue> void on_stream_or_now(const stream_t* stream, const char* waiting_for, Enqueue enqueue) {
    activate();
    enqueue(stream ? *stream : stream_);
    if (!stream) check_rt(GIO_RT(StreamSynchronize)(stream_), waiting_for);
  }

  // GPU memory the NIC and the peers reach (the heap, gda's rings), cached or not (GIO_NET_BUFFERS).
  static void* allocate_network_memory(std::size_t bytes, gpu_caching caching, const char* what) {
    void* p = nullptr;
    if (caching == gpu_caching::cached) {
      check_rt(allocate_peer_coherent(&p, bytes), what);
      return p;
    }
    std::string why;
    if (!allocate_uncached(&p, bytes, &why)) throw std::runtime_error("GIO_NET_BUFFERS=uncached: " + why);
    return p;
  }

  // The current GPU is a property of the calling host thread: gio's calls may come from a thread
  // other than the one that ran shmem_init, so every call that touches the GPU selects it first.
  void activate() const {
    if (ordinal_ >= 0) check_rt(GIO_RT(SetDevice)(ordinal_), "selecting the GPU");
  }

  int ordinal_ = -1;
  // Blocking host atomics and collectives run here (made with the device): a stream that does not
  // wait for the legacy default stream, so a user kernel still running there (perhaps waiting for
  // this very atomic) cannot hold them up.
  stream_t stream_ = nullptr;
  std::uint64_t* old_bits_ = nullptr;  // mapped host word receiving a host atomic's old value
};

}  // namespace

std::unique_ptr<backend> make_backend() { return std::make_unique<gpu_backend>(); }

}  // namespace gio::gpu
