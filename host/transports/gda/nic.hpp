// The NIC behind the GDA transport, as the host initializer sees it: register memory, create
// RC queue pairs with their CQs, exchange addresses, connect. Two implementations:
//  - mlx5 (mlx5_nic.cpp, in the library): a real ConnectX device through rdma-core (libibverbs
//    + mlx5dv), used whenever one is present;
//  - the software NIC model (tests/nicmodel/, test-only, never linked into the library): loaded
//    with dlopen from GIO_GDA_NIC_MODEL, it serves the same rings from a GPU kernel.
// Private to the host runtime; the model plugin compiles against this header too, so it holds
// only standard types. Methods throw std::runtime_error with the cause.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace gio::transports::gda {

// The CPU's doorbell store, between two full fences: whatever the NIC will read because of it
// (WQEs, the doorbell record) is written first (rdma-core's order for mlx5), and the store leaves
// the CPU's write-combining buffer at once (the UAR page may be mapped write-combining, where a
// lone store can wait in the buffer; rdma-core flushes after its doorbell too).
inline void ring_doorbell(volatile std::uint64_t* uar, std::uint64_t value) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  *uar = value;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// A registered range: the keys the NIC checks and the address it uses for byte 0.
struct memory_region {
  std::uint32_t lkey = 0;
  std::uint32_t rkey = 0;
  std::uint64_t address = 0;
};

// Where a QP's rings live (addresses valid on this PE's GPU; with host placement the CPU's
// addresses too, in the *_host fields where they differ) and how it is rung.
enum class placement : std::uint32_t { gpu = 0, host = 1 };

struct qp_rings {
  void* sq = nullptr;                // 2^log_sq 64-byte basic blocks
  std::uint32_t log_sq = 0;
  std::uint32_t* dbrec = nullptr;    // [0] receive, [1] send (big-endian producer index)
  // Doorbell register (one 8-byte store of the ctrl segment's first 8 bytes) as the GPU addresses
  // it; nullptr where the platform refused to map it into the GPU (`doorbell_refused` says why):
  // then only the CPU can ring, through uar_host (GIO_GDA_DOORBELL, CPU-assisted doorbells).
  std::uint64_t* uar = nullptr;
  void* cq = nullptr;                // 2^log_cq 64-byte CQEs, initialised op_own 0xF0 (invalid, owner 0)
  std::uint32_t log_cq = 0;
  std::uint32_t* cq_dbrec = nullptr; // [0] consumer index (big-endian)
  std::uint32_t qpn = 0;
  std::uint32_t id = 0;              // the NIC's own handle for this QP
  // placement::host: the CPU's addresses of the SQ, doorbell record and doorbell register (the
  // IKN proxy writes them), where they differ from the GPU's above; nullptr = the same address.
  void* sq_host = nullptr;
  std::uint32_t* dbrec_host = nullptr;
  std::uint64_t* uar_host = nullptr;  // always set where `uar` is nullptr
  std::string doorbell_refused;       // why `uar` is nullptr, else empty
};

// What a peer needs to connect its QP to ours (QPN, LID/GID, ...): fixed size for the exchange.
struct qp_address {
  std::uint8_t bytes[64];
};

// The bootstrap, for NICs that exchange data of their own (the model: its heap mappings).
struct collectives {
  int my_pe = 0;
  int n_pes = 0;
  int gpu_ordinal = -1;
  std::function<void(const void* mine, void* all, std::size_t bytes)> allgather;
  std::function<void()> barrier;
};

class nic {
 public:
  virtual ~nic() = default;
  // One line for gio-info: device, port, link layer, GID; or "software NIC model (test-only)".
  virtual std::string describe() const = 0;
  virtual bool is_model() const = 0;
  virtual bool has_ext_atomics() const = 0;  // 4-byte masked fetch-add / compare-swap
  // Collective: every PE registers the same ranges (its heap) in the same order.
  virtual memory_region register_memory(void* base, std::size_t bytes) = 0;
  // An RC QP (SQ only) with its own CQ, in RESET, its SQ zeroed and every CQE invalid.
  virtual qp_rings create_qp(std::uint32_t log_sq, std::uint32_t log_cq, placement where) = 0;
  virtual qp_address address_of(const qp_rings& qp) = 0;
  // RESET -> INIT -> RTR -> RTS to the peer's QP, several outstanding reads/atomics allowed.
  virtual void connect(const qp_rings& qp, int peer_pe, const qp_address& theirs) = 0;
  // Every QP connected: start serving doorbells (the model's engine; a no-op for hardware).
  virtual void start() = 0;
  // Before the rings and registered memory go away.
  virtual void stop() = 0;
};

// The model plugin's one exported symbol: returns a NIC, or nullptr with `error` set.
using model_open_fn = nic* (*)(const collectives& boot, std::string* error);
inline constexpr const char* model_open_symbol = "gio_nic_model_open";

// What the mlx5 NIC needs from the GPU runtime (the library's backend provides it).
struct gpu_hooks {
  // A dma-buf file descriptor for GPU memory [base, base + bytes), or -1 with `why` where the
  // platform has none (then registration falls back to peer memory: ibv_reg_mr on the GPU address).
  std::function<int(void* base, std::size_t bytes, std::string* why)> dmabuf_fd;
  // Maps host memory (rings rdma-core allocated; `io`: the UAR page, MMIO) into the GPU's
  // address space; returns the GPU's address for `host`, or throws.
  std::function<void*(void* host, std::size_t bytes, bool io)> map_host;
  std::function<void(void* host)> unmap_host;
  // GPU memory for rings the NIC reads and writes (placement::gpu): coherent with the NIC and the
  // CPU at system scope (fine-grained on AMD). Throws on failure.
  std::function<void*(std::size_t bytes)> alloc_device;
  std::function<void(void* device)> free_device;
  // A synchronous host-to-GPU copy (the rings' initial contents), done when it returns.
  std::function<void(void* device, const void* host, std::size_t bytes)> copy_to_device;
};

// The selection of the mlx5 device (GIO_GDA_* variables).
struct mlx5_selection {
  std::string gpu_pci_bus_id;  // the GPU this PE drives: the nearest NIC by hwloc wins
  std::string include;         // GIO_GDA_NIC: comma-separated device names (mlx5_0,...), empty = any
  std::string exclude;         // GIO_GDA_NIC_EXCLUDE: comma-separated names never to use
  int port = 0;                // 0 = the first active port
  int gid_index = -1;          // RoCE: -1 = the first RoCEv2 IPv4-mapped GID, else this index
};

// The first usable mlx5 device for this GPU, or nullptr with `why` saying why there is none
// (no RDMA device, rdma-core not installed, all excluded, no active port, ...).
std::unique_ptr<nic> open_mlx5(const collectives& boot, const mlx5_selection& select, const gpu_hooks& gpu,
                               std::string* why);

}  // namespace gio::transports::gda
