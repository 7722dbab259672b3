// Where the symmetric heap lives and how node-local peers map it: GPU memory exported through
// CUDA/HIP IPC (gpu_backend.cpp, one source for both vendors), or POSIX shared memory in a
// GPU-less build (shm_backend.cpp). Private to the host runtime; methods throw
// std::runtime_error with the cause, which the runtime prefixes with the PE.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gio/handle.hpp"
#include "gio/host.hpp"
#include "gio/platform/host_stream.hpp"
#include "config.hpp"

namespace gio::gpu {

// How the GPU's L2 treats memory the NIC reads and writes (GIO_NET_BUFFERS). `cached` memory is
// still coherent with peers at system scope (fine-grained on AMD); `uncached` bypasses the L2
// (GIO paper 5.1.2), which only AMD's runtime can allocate.
enum class gpu_caching { cached, uncached };
inline gpu_caching net_buffer_caching(const config::settings& s) {
  return s.net_buffers == "uncached" ? gpu_caching::uncached : gpu_caching::cached;
}

// Opaque bytes that let a node-local peer map this PE's heap (an IPC handle or a shm name).
struct heap_export {
  char bytes[128];
};

// One host-initiated atomic (shmem_*_atomic_* called on the host), checked by the runtime:
// `dest` is a symmetric address of this PE's heap, operands are raw bits of a 4- or 8-byte type.
struct atomic_request {
  const char* call;
  amo_op op;
  dtype type;
  void* dest;
  std::uint64_t value;
  std::uint64_t compare;
  int pe;
};

// One host-initiated collective over a team, checked by the runtime (gio::detail::host_collective
// describes the fields).
struct collective_request {
  const char* call;
  detail::collective_kind kind;
  shmem_team_t team;
  void* dest;
  const void* source;
  std::size_t count;
  dtype type;
  reduce_op op;
  int root;
};

// One host-initiated put or get through the device library (GPU builds), checked by the runtime:
// `symmetric` is an address of this PE's heap, `local` any memory this GPU can address.
struct rma_request {
  const char* call;
  bool put;
  void* symmetric;
  void* local;
  std::size_t bytes;
  int pe;
};

struct device_info {
  int ordinal = -1;
  std::string name;
  std::string pci_bus_id;  // "0000:18:00.0", empty without a GPU
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
};

class backend {
 public:
  virtual ~backend() = default;
  virtual const char* name() const = 0;

  virtual int device_count() = 0;
  virtual void select_device(int ordinal) = 0;
  virtual device_info info() = 0;
  // Ordinal of the GPU with this PCI bus id in this process, or -1.
  virtual int device_by_bus_id(const std::string& bus_id) = 0;
  // Capabilities (gio::peer_capability bits) of this GPU reaching `peer_ordinal`'s memory.
  virtual std::uint32_t probe_link(int peer_ordinal) = 0;

  // Throws, naming why, for gpu_caching::uncached where this backend or GPU has no such memory.
  virtual void* allocate_heap(std::size_t bytes, gpu_caching caching) = 0;
  virtual heap_export export_heap(void* heap) = 0;
  virtual void* import_heap(const heap_export& exported, std::size_t bytes) = 0;
  virtual void close_import(void* mapped, std::size_t bytes) = 0;
  // After every peer imported: e.g. unlink a shm name so nothing outlives the job.
  virtual void exports_done() = 0;
  virtual void free_heap(void* heap, std::size_t bytes) = 0;

  // Small device-visible allocations (the peer table).
  virtual void* allocate_table(std::size_t bytes) = 0;
  virtual void free_table(void* table) = 0;

  // Pinned host memory that this GPU can address at the same pointer (the IKN command rings).
  virtual void* allocate_host_mapped(std::size_t bytes) = 0;
  virtual void free_host_mapped(void* p) = 0;
  // Host memory someone else allocated (rdma-core's rings; `io`: a NIC's doorbell page, MMIO)
  // made addressable by this GPU; returns the GPU's address for `host`.
  virtual void* map_host(void* host, std::size_t bytes, bool io) = 0;
  virtual void unmap_host(void* host) = 0;
  // GPU memory a NIC reads and writes (the gda rings with GIO_GDA_RINGS=gpu), coherent with the
  // NIC and the CPU at system scope as the heap is (fine-grained on AMD).
  virtual void* allocate_nic_memory(std::size_t bytes, gpu_caching caching) = 0;
  virtual void free_nic_memory(void* p) = 0;
  // A dma-buf file descriptor for GPU memory [base, base + bytes) (host-page aligned), or -1 with
  // `why` where this build, driver or platform has none.
  virtual int dmabuf_fd(void* base, std::size_t bytes, std::string* why) = 0;
  // This GPU's HDP flush register (AMD; GIO §4.2), at one address for the CPU, the GPU and the
  // NIC's registration, or nullptr with `why` (NVIDIA has none).
  virtual std::uint32_t* hdp_flush_register(std::string* why) = 0;

  virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;  // synchronous, any memory
  virtual void copy_async(void* dst, const void* src, std::size_t bytes, stream_t stream) = 0;
  // Synchronous, any memory: `rows` blocks of `width` bytes, `src_pitch` bytes apart in the source
  // and `dst_pitch` apart in the destination (pitches >= width).
  virtual void copy_strided(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width,
                            std::size_t rows) = 0;
  virtual void fill(void* dst, int byte, std::size_t bytes) = 0;
  virtual void synchronize() = 0;  // all of this PE's GPU work
  virtual void synchronize(stream_t stream) = 0;

  // Loads one 64-bit word from each mapped peer heap by this GPU's own loads (the probe of
  // load/store reachability): out[i] = *(uint64_t*)(bases[i] + offset), or 0 for a null base.
  virtual void probe_loads(char* const* bases, int count, std::size_t offset, std::uint64_t* out) = 0;

  // Host atomics: done by this GPU's device library (GPU builds; a one-thread kernel, so the
  // peer's link decides native or CAS as for kernels) or by the CPU on the mapped heap (GPU-less
  // build). Blocking; returns the old value's bits.
  virtual std::uint64_t atomic(const device_handle& handle, const atomic_request& a) = 0;
  // GPU builds: one workgroup runs the device library's collective core / team sync (with
  // `quiet`, a barrier), in order on `*stream`, or when `stream` is null on an internal stream that
  // is waited for. The GPU-less build has no device: the runtime runs them over the bootstrap.
  virtual void collective(const device_handle& handle, const collective_request& c, const stream_t* stream) = 0;
  virtual void team_sync(const device_handle& handle, shmem_team_t team, bool quiet, const char* call,
                         const stream_t* stream) = 0;
  // Host put/get to a PE reached through the NIC (no mapping to copy through): one workgroup runs
  // the device library's put/get and quiet, on `*stream` or (null) an internal stream waited for.
  virtual void rma(const device_handle& handle, const rma_request& r, const stream_t* stream) = 0;
  // Completes every gda operation this PE posted, from any kernel and context (a kernel's end
  // does not: the NIC may still be working). On `*stream`, or (null) now.
  virtual void quiet_network(const device_handle& handle, const stream_t* stream) = 0;
};

std::unique_ptr<backend> make_backend();

}  // namespace gio::gpu
