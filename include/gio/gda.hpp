// The GDA transport's device-visible tables (GIO §4–5, Fig. 3): what the host initializer builds
// in GPU memory and hands to kernels through device_handle::gda. Both compilers see this header,
// so it holds only trivially copyable, fixed-layout structs. The device side that uses them is
// device/transports/gda/; the host side that fills them, host/transports/gda/.
//
// Shape: a pool of network contexts (GIO_GDA_CONTEXTS); a workgroup uses context
// wg_id % contexts. Each context owns one RC queue pair, with its own CQ, to every PE, itself
// included (`qps_per_context` of them, indexed by gda_peer::qp_slot): the peer table sends only
// other nodes' PEs this way, the heap's atomics area every PE (handle.hpp). Every QP's SQ slot
// is pre-templated by the host (templates/mlx5_wqe.hpp); device code patches and rings.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/templates/mlx5_wire.hpp"

namespace gio {

// How gda operations reach the NIC.
enum class gda_mode : std::uint32_t {
  direct = 0,  // the GPU writes WQEs, the doorbell record and the UAR itself (GIO)
  proxy = 1,   // IKN: the GPU writes commands to a host ring; a CPU thread builds and posts WQEs
};

// Device-owned counters of one QP, in GPU memory, touched only by this GPU's threads (device
// scope). WQE index i is handed out by `reserved`, marked written in gda_qp::written, rung in
// index order by whichever thread holds the lowest unrung index (`posted` = doorbell record
// value, unwrapped), and retired when a CQE for it (or a later WQE) is consumed (`completed`).
struct alignas(64) gda_qp_state {
  unsigned long long reserved;   // indices handed out (atomic add)
  unsigned long long posted;     // every index below has been rung (advanced in order)
  unsigned long long completed;  // every index below has completed
  unsigned long long cq_ci;      // CQEs consumed (free-running)
  unsigned int poll_lock;        // one poller of the CQ at a time
  unsigned int error;            // nonzero once an error CQE was seen: its syndrome | 0x100
  // AMD: one past an index whose WQE is a quiet's HDP flush, stored once that flush is rung (0:
  // none yet). Every WQE below it is followed by that flush.
  unsigned long long flushed;
  unsigned int pad[4];
};
static_assert(sizeof(gda_qp_state) == 64, "one cache line per QP's counters");

struct gda_command;

// One RC queue pair and its CQ, as device code drives them. Read-only after init.
struct alignas(16) gda_qp {
  templates::mlx5::wqe_bb* sq;         // 2^log_sq basic blocks, every slot prefilled as rdma_write
  std::uint32_t* dbrec;                // QP doorbell record: [templates::mlx5::snd_dbr] = be32(pi)
  std::uint64_t* uar;                  // doorbell register (one 8-byte store), or the proxy's ring
  const templates::mlx5::cqe64* cq;    // 2^log_cq entries
  std::uint32_t* cq_dbrec;             // CQ doorbell record: [cq_set_ci] = be32(ci)
  gda_qp_state* state;
  std::uint64_t* fetch;                // 2^log_sq words: where fetching WQE i lands its result (registered)
  std::uint32_t* slot_owner;           // 2^log_sq words: generation (i >> log_sq) allowed to use slot i
  std::uint8_t* slot_kind;             // 2^log_sq bytes: which template each slot holds now
  std::uint32_t* written;              // 2^log_sq words: (index + 1) mod 2^32 once that slot's WQE is written
  gda_command* commands;              // proxy mode: 2^log_sq commands in mapped host memory (else nullptr)
  std::uint32_t qpn;
  std::uint32_t log_sq;
  std::uint32_t log_cq;
  std::int32_t peer;                   // world PE at the other end
  std::uint32_t lkey;                  // the local heap's key (every local address gda posts is in it)
  std::uint32_t rkey;                  // the peer heap's key
  // The peer GPU's HDP flush register as its NIC addresses it, and its key (AMD, GIO §4.2): a
  // write to it drains the peer's PCIe write combiner, so the NIC's earlier writes into that GPU
  // are in its memory before later ones. 0: the peer has none in use (NVIDIA, or GIO_GDA_HDP=off).
  std::uint64_t hdp_address;
  std::uint32_t hdp_rkey;
  std::uint32_t pad;
};
static_assert(std::is_trivially_copyable_v<gda_qp>, "copied to GPU memory");
static_assert(sizeof(gda_qp) == 128, "gda_qp layout is shared by host and device");

// How one PE is reached over gda.
struct gda_peer {
  std::uint64_t heap_address;  // the peer's heap base as its NIC addresses it (remote VA)
  std::int32_t qp_slot;        // index of its QP within every context, or -1: none
  std::uint32_t pad;
};
static_assert(sizeof(gda_peer) == 16, "gda_peer layout is shared by host and device");

// Per-context state: the bounce buffer that stages payloads whose local side is not in the
// registered heap (the NIC cannot read a kernel's stack, shared memory or unregistered memory).
struct alignas(64) gda_context_state {
  unsigned int bounce_lock;
  unsigned int pad[15];
};

struct alignas(16) gda_table {
  const gda_peer* peers;            // n_pes entries
  const gda_qp* qps;                // contexts * qps_per_context; context k's QP to slot s at k * qps_per_context + s
  gda_context_state* contexts_state;  // contexts entries
  char* bounce;                     // contexts * bounce_bytes, inside the local (registered) heap
  std::uint64_t bounce_bytes;
  std::uint32_t contexts;
  std::uint32_t qps_per_context;
  gda_mode mode;
  std::uint32_t ext_atomics;        // nonzero: the NIC has 4-byte masked atomics
  std::uint32_t model;              // nonzero: the software NIC model (test-only) serves the QPs
  std::uint32_t pad;
  // This GPU's own HDP flush register, mapped into it (AMD, GIO §5.2), or nullptr: written before
  // the NIC reads what the GPU wrote, and before the GPU reads what the NIC wrote.
  std::uint32_t* hdp_flush;
};
static_assert(std::is_trivially_copyable_v<gda_table>, "copied to GPU memory");

// Template kinds a slot can hold (gda_qp::slot_kind); the device re-prefills a slot whose kind
// differs from the one it needs.
enum gda_slot_kind : std::uint8_t {
  gda_kind_write = 0,
  gda_kind_inline = 1,
  gda_kind_read = 2,
  gda_kind_fa64 = 3,
  gda_kind_cs64 = 4,
  gda_kind_fa32 = 5,
  gda_kind_cs32 = 6,
  gda_kind_swap32 = 7,
  gda_kind_signal_set = 8,   // inline write carrying the put_signal fence
  gda_kind_signal_add = 9,   // fetch-add carrying the put_signal fence
  gda_kind_hdp_flush = 10,   // inline write of 1 to the peer's HDP flush register (gda_qp::hdp_rkey)
};

// One operation as the device asks for it: the direct mode turns it into a WQE in the SQ slot
// itself; the proxy mode (IKN) writes it to the command ring, where a CPU thread builds the same
// WQE (device/transports/gda/wqe_builder.hpp, shared by both). `ready` is written last, to the
// index + 1 of the command, so the proxy sees a whole command.
struct alignas(64) gda_command {
  std::uint64_t raddr;
  std::uint32_t len;       // bytes moved (write, read, inline) or operand bytes (atomics)
  std::uint8_t kind;       // gda_slot_kind
  std::uint8_t pad[3];
  union {
    struct {
      std::uint64_t laddr;    // local address: source (write), destination (read), old value (atomics)
      std::uint64_t operand;  // add, swap, or the signal value
      std::uint64_t compare;
    } op;
    unsigned char data[32];   // inline payload (inline kinds; up to inline_write::max_len bytes)
  };
  std::uint64_t pad2;
  std::uint64_t ready;     // index + 1 once the command is complete
};
static_assert(sizeof(gda_command) == 64, "one command per 64 bytes");

}  // namespace gio
