// gio host API: OpenSHMEM 1.5 names in namespace gio. Calls may come from any thread of the PE's
// process, one at a time (gio selects its GPU on each call; when the application initialises MPI
// itself, it must provide MPI_THREAD_SERIALIZED for that). Errors throw gio::error, which names
// the PE and the cause.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gio/handle.hpp"
#include "gio/platform/host_stream.hpp"

namespace gio {

// Thrown at the API boundary: what() reads "gio: PE <n>: <cause>" (PE ? before the PE is known).
class error : public std::runtime_error {
 public:
  error(int pe, const std::string& cause);
  int pe() const noexcept { return pe_; }

 private:
  int pe_;
};

// Collective over all PEs (started by mpirun, one process each). Throws gio::error if this or
// any other PE fails; every PE then returns (never hangs) with an error naming the failed PE,
// after printing it to stderr (so each PE's account is logged before any PE can exit).
void shmem_init();
// Collective. Frees the heap, unmaps peers, ends the bootstrap. Safe to call once after init.
void shmem_finalize();
bool shmem_initialized() noexcept;

int shmem_my_pe();
int shmem_n_pes();

// Symmetric heap. Collective: every PE calls with the same arguments in the same order and
// gets the same offset into its heap. Includes a barrier. On exhaustion: nullptr on every PE
// and a message (requested, free, largest block). Debug builds check that the arguments match.
void* shmem_malloc(std::size_t size);
void* shmem_calloc(std::size_t count, std::size_t size);
void* shmem_align(std::size_t alignment, std::size_t size);
void shmem_free(void* ptr);

// The address of `dest` (symmetric) on PE `pe`, usable by this process's GPU with loads/stores,
// or nullptr when `pe`'s heap is not mapped here.
void* shmem_ptr(const void* dest, int pe);

// Blocks until every PE arrives; completes this PE's host-side puts first (shmem_quiet).
void shmem_barrier_all();
// Completes every host-initiated put/get of this PE.
void shmem_quiet();

// Host-initiated RMA on symmetric memory. Blocking: data delivered (put) / available (get).
void shmem_putmem(void* dest, const void* source, std::size_t nbytes, int pe);
void shmem_getmem(void* dest, const void* source, std::size_t nbytes, int pe);

// Stream-ordered forms: enqueued on `stream`, complete in stream order.
void shmem_putmem_on_stream(void* dest, const void* source, std::size_t nbytes, int pe, stream_t stream);
void shmem_getmem_on_stream(void* dest, const void* source, std::size_t nbytes, int pe, stream_t stream);
void shmem_quiet_on_stream(stream_t stream);
// Every PE's `stream` reaches the barrier before any continues. Every PE must be reachable from
// this GPU. Each PE's barriers must execute in the order it made the calls: use one stream, or
// order the streams (an event) when barriers go to several.
void shmem_barrier_all_on_stream(stream_t stream);

// The handle kernels take by value (see gio/device.hpp).
device_handle shmem_device_handle();

// What init found, for gio-info and tests.
struct peer_report {
  int pe;
  transport how;
  std::uint32_t caps;
  int gpu;  // the peer's GPU ordinal on this node, or -1
};
struct runtime_report {
  int my_pe, n_pes, node_pe, node_pes;
  int gpu;                      // this PE's GPU ordinal, -1 without a GPU
  std::string gpu_name;
  std::string gpu_bus_id;       // PCI bus id of that GPU, empty without one
  std::size_t heap_size;
  std::size_t gpu_memory_used;  // bytes of device memory gio holds (heap + tables)
  double init_seconds;
};
runtime_report shmem_runtime_report();
peer_report shmem_peer_report(int pe);

}  // namespace gio
