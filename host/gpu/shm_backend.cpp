// GPU-less backend (GIO_GPU=none): the heap is POSIX shared memory that node-local peers map,
// so the bootstrap, the collective heap and host-side RMA run, and are tested, on any CPU.
// There is no device: kernels, streams and device probes do not exist here.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "config.hpp"
#include "gpu/backend.hpp"

namespace gio::gpu {
namespace {

std::runtime_error no_gda() {
  return std::runtime_error("this build of gio has no GPU support (GIO_GPU=none), hence no gda transport");
}

std::runtime_error system_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

// Maps `bytes` of the shm object at a 2 MiB-aligned address, like a GPU heap: reserve a larger
// range, then map the object over its aligned part and release the rest.
void* map_aligned(int fd, std::size_t bytes) {
  constexpr std::size_t alignment = 2u << 20;
  void* reserved = mmap(nullptr, bytes + alignment, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(reserved);
  const std::uintptr_t aligned = (start + alignment - 1) / alignment * alignment;
  void* heap = mmap(reinterpret_cast<void*>(aligned), bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (heap == MAP_FAILED) {
    munmap(reserved, bytes + alignment);
    return nullptr;
  }
  if (aligned > start) munmap(reserved, aligned - start);
  const std::uintptr_t end = aligned + bytes, reserved_end = start + bytes + alignment;
  if (reserved_end > end) munmap(reinterpret_cast<void*>(end), reserved_end - end);
  return heap;
}

// One atomic on `Bits`-sized memory another process maps too: a compare-and-swap loop on the
// raw bits, computing in the request's type (integers and floating point alike), sequentially
// consistent like the device's system-scope atomics.
template <class Bits> std::uint64_t cpu_atomic(char* target, const atomic_request& a) {
  auto* word = reinterpret_cast<Bits*>(target);
  Bits old = __atomic_load_n(word, __ATOMIC_SEQ_CST);
  if (a.op == amo_op::fetch) return old;
  const auto next_bits = [&](Bits old_bits) {
    return visit_dtype(a.type, [&](auto zero) -> Bits {
      using T = decltype(zero);
      if constexpr (sizeof(T) != sizeof(Bits)) {
        return old_bits;  // not reached: the runtime pairs the type with its width
      } else {
        T old_value, value, compare;
        std::memcpy(&old_value, &old_bits, sizeof(T));
        std::memcpy(&value, &a.value, sizeof(T));
        std::memcpy(&compare, &a.compare, sizeof(T));
        const T next = amo_new_value(a.op, old_value, value, compare);
        Bits bits;
        std::memcpy(&bits, &next, sizeof(T));
        return bits;
      }
    });
  };
  while (!__atomic_compare_exchange_n(word, &old, next_bits(old), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
  return old;
}

class shm_backend final : public backend {
 public:
  const char* name() const override { return "none (POSIX shared memory)"; }
  int device_count() override { return 0; }
  void select_device(int) override { throw std::runtime_error("this build of gio has no GPU support (GIO_GPU=none)"); }
  device_info info() override { return {}; }
  int device_by_bus_id(const std::string&) override { return -1; }
  std::uint32_t probe_link(int) override { return 0; }

  void* allocate_heap(std::size_t bytes, gpu_caching caching) override {
    if (caching == gpu_caching::uncached)
      throw std::runtime_error("GIO_NET_BUFFERS=uncached: the heap is shared host memory in this build (no GPU), "
                               "which has no GPU L2 to bypass");
    struct statvfs fs {};
    if (statvfs("/dev/shm", &fs) == 0) {
      const std::size_t available = static_cast<std::size_t>(fs.f_bavail) * fs.f_frsize;
      if (bytes > available)
        throw std::runtime_error("symmetric heap of " + config::format_size(bytes) + " exceeds the free shared memory (" +
                                 config::format_size(available) + " in /dev/shm)");
    }
    static std::atomic<int> serial{0};
    std::snprintf(name_, sizeof name_, "/gio.%ld.%d", static_cast<long>(getpid()), serial++);
    const int fd = shm_open(name_, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) throw system_error(std::string("shm_open(") + name_ + ")");
    if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
      close(fd);
      shm_unlink(name_);
      throw system_error("sizing the shared-memory heap");
    }
    void* heap = map_aligned(fd, bytes);
    close(fd);
    if (heap == nullptr) {
      shm_unlink(name_);
      throw system_error("mapping the shared-memory heap");
    }
    return heap;
  }

  heap_export export_heap(void*) override {
    heap_export out{};
    std::strncpy(out.bytes, name_, sizeof out.bytes - 1);
    return out;
  }

  void* import_heap(const heap_export& exported, std::size_t bytes) override {
    const int fd = shm_open(exported.bytes, O_RDWR, 0600);
    if (fd < 0) throw system_error(std::string("opening a peer's heap ") + exported.bytes);
    void* mapped = map_aligned(fd, bytes);
    close(fd);
    if (mapped == nullptr) throw system_error(std::string("mapping a peer's heap ") + exported.bytes);
    return mapped;
  }

  void close_import(void* mapped, std::size_t bytes) override { munmap(mapped, bytes); }
  void exports_done() override {
    if (name_[0]) shm_unlink(name_);
    name_[0] = '\0';
  }
  void free_heap(void* heap, std::size_t bytes) override {
    munmap(heap, bytes);
    exports_done();
  }

  void* allocate_table(std::size_t bytes) override {
    void* table = std::calloc(1, bytes);
    if (!table) throw std::runtime_error("allocating the peer table");
    return table;
  }
  void free_table(void* table) override { std::free(table); }

  // No GPU, hence no GPU-initiated networking: the runtime never asks for these.
  void* allocate_host_mapped(std::size_t) override { throw no_gda(); }
  void free_host_mapped(void*) override {}
  void* map_host(void*, std::size_t, bool) override { throw no_gda(); }
  void unmap_host(void*) override {}
  void* allocate_nic_memory(std::size_t, gpu_caching) override { throw no_gda(); }
  void free_nic_memory(void*) override {}
  int dmabuf_fd(void*, std::size_t, std::string* why) override {
    *why = "no GPU in this build";
    return -1;
  }
  std::uint32_t* hdp_flush_register(std::string* why) override {
    *why = "no GPU in this build";
    return nullptr;
  }
  void rma(const device_handle&, const rma_request&, const stream_t*) override { throw no_gda(); }
  void quiet_network(const device_handle&, const stream_t*) override {}

  void copy(void* dst, const void* src, std::size_t bytes) override { std::memmove(dst, src, bytes); }
  void copy_async(void* dst, const void* src, std::size_t bytes, stream_t) override { copy(dst, src, bytes); }
  void copy_strided(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width,
                    std::size_t rows) override {
    for (std::size_t row = 0; row < rows; ++row)
      std::memmove(static_cast<char*>(dst) + row * dst_pitch, static_cast<const char*>(src) + row * src_pitch, width);
  }
  void fill(void* dst, int byte, std::size_t bytes) override { std::memset(dst, byte, bytes); }
  void synchronize() override {}
  void synchronize(stream_t) override {}

  void probe_loads(char* const* bases, int count, std::size_t offset, std::uint64_t* out) override {
    for (int i = 0; i < count; ++i) {
      out[i] = 0;
      if (bases[i]) std::memcpy(&out[i], bases[i] + offset, sizeof(std::uint64_t));
    }
  }

  std::uint64_t atomic(const device_handle& h, const atomic_request& a) override {
    char* target = h.peers[a.pe].heap_base + (static_cast<char*>(a.dest) - h.heap_base);
    if (dtype_size(a.type) == 4) return cpu_atomic<std::uint32_t>(target, a);
    return cpu_atomic<std::uint64_t>(target, a);
  }
  void collective(const device_handle&, const collective_request&, const stream_t*) override {
    throw std::runtime_error("device collectives need a GPU build");
  }
  void team_sync(const device_handle&, shmem_team_t, bool, const char*, const stream_t*) override {
    throw std::runtime_error("device team sync needs a GPU build");
  }

 private:
  char name_[64] = {};
};

}  // namespace

std::unique_ptr<backend> make_backend() { return std::make_unique<shm_backend>(); }

}  // namespace gio::gpu
