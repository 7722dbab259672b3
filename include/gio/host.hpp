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
#include "gio/ops.hpp"
#include "gio/team.hpp"
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
// GPU builds: node-local PE p uses GPU p mod the GPUs visible (or GIO_NUM_GPUS), and shmem_init
// leaves that GPU the calling thread's current device, so kernels launched after it (and
// gio::launch_collective) run there; shmem_runtime_report().gpu names it (docs/running.md).
void shmem_init();
// Collective. Frees the heap, unmaps peers, ends the bootstrap. Safe to call once after init.
void shmem_finalize();
bool shmem_initialized() noexcept;

int shmem_my_pe();
int shmem_n_pes();

// Thread levels (OpenSHMEM 1.5 §9.2). gio's host calls may come from any thread, one at a time:
// SHMEM_THREAD_SERIALIZED is the most it provides.
inline constexpr int SHMEM_THREAD_SINGLE = 0;
inline constexpr int SHMEM_THREAD_FUNNELED = 1;
inline constexpr int SHMEM_THREAD_SERIALIZED = 2;
inline constexpr int SHMEM_THREAD_MULTIPLE = 3;
// shmem_init with a thread level: *provided = min(requested, SHMEM_THREAD_SERIALIZED). Returns 0
// (failures throw, as shmem_init). shmem_query_thread: the level init provided (shmem_init:
// SHMEM_THREAD_SINGLE).
int shmem_init_thread(int requested, int* provided);
void shmem_query_thread(int* provided);
// Ends every PE's process with `status` (the job's launcher reports it); any PE may call it alone.
[[noreturn]] void shmem_global_exit(int status);

// The implementation (§9.1): OpenSHMEM 1.5; the name, at most SHMEM_MAX_NAME_LEN bytes with its NUL.
inline constexpr int SHMEM_MAJOR_VERSION = 1;
inline constexpr int SHMEM_MINOR_VERSION = 5;
inline constexpr int SHMEM_MAX_NAME_LEN = 256;
inline constexpr const char* SHMEM_VENDOR_STRING = "gio";
void shmem_info_get_version(int* major, int* minor);
void shmem_info_get_name(char* name);

// 1 when this PE's host calls and kernels can reach `pe` (a mapped heap or the NIC), else 0; and
// when, besides, `addr` lies in the symmetric heap (so it names the same object on `pe`).
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void* addr, int pe);

// Symmetric heap. Collective: every PE calls with the same arguments in the same order and
// gets the same offset into its heap. Includes a barrier. On exhaustion: nullptr on every PE
// and a message (requested, free, largest block). Debug builds check that the arguments match.
void* shmem_malloc(std::size_t size);
void* shmem_calloc(std::size_t count, std::size_t size);
void* shmem_align(std::size_t alignment, std::size_t size);
void shmem_free(void* ptr);
// Collective as shmem_malloc. The new block keeps the first min(old, new) bytes of this PE's old
// block; nullptr + size: shmem_malloc; size 0: shmem_free, returns nullptr. On exhaustion the old
// block stays and nullptr is returned on every PE.
void* shmem_realloc(void* ptr, std::size_t size);
// Hints say how the block will be used (OpenSHMEM 1.5 §9.3.2). SHMEM_MALLOC_ATOMICS_REMOTE: a
// block whose words take atomics from PEs on other nodes (through the NIC) as well as from this
// node's PEs. It goes to the heap's atomics area, where, while a network transport is on, every
// PE's atomics go through the NIC, the owner's own included, so that all of them are atomic with
// each other (a NIC's atomics are not atomic with a GPU's: docs/memory-model.md, "atomics" under
// "Through the NIC"); they then cost a network round trip. Kernels must be launched with a
// shmem_device_handle() taken after the allocation. SHMEM_MALLOC_SIGNAL_REMOTE changes nothing.
// A bit outside the defined ones is an error naming the PE.
inline constexpr long SHMEM_MALLOC_ATOMICS_REMOTE = 1L << 0;
inline constexpr long SHMEM_MALLOC_SIGNAL_REMOTE = 1L << 1;
void* shmem_malloc_with_hints(std::size_t size, long hints);

// The address of `dest` (symmetric) on PE `pe`, usable by this process's GPU with loads/stores,
// or nullptr when `pe`'s heap is not mapped here.
void* shmem_ptr(const void* dest, int pe);

// Blocks until every PE arrives; completes this PE's host-side puts first (shmem_quiet).
void shmem_barrier_all();
// Completes every host-initiated put, get and atomic of this PE (OpenSHMEM 1.5 §9.6.2): their
// effects are then visible at the targets and fetched values are home. (gio's host atomics are
// blocking, so they are complete when they return; the contract is the standard's.)
void shmem_quiet();

// Host-initiated RMA on symmetric memory. Blocking: data delivered (put) / available (get).
void shmem_putmem(void* dest, const void* source, std::size_t nbytes, int pe);
void shmem_getmem(void* dest, const void* source, std::size_t nbytes, int pe);
// Non-blocking forms: complete at the next shmem_quiet (gio completes them before returning,
// which the contract allows). Typed and generic forms (shmem_int_put, shmem_put<T>, _p, _g, _nbi)
// are generated from the type table in gio/host_generated.hpp.
// Host point-to-point synchronisation on this PE's symmetric words (typed forms
// shmem_<type>_wait_until / _test and generic ones in gio/host_generated.hpp): wait_until returns
// when `*ivar <cmp> value` holds (cmp: SHMEM_CMP_EQ, ...), test says whether it holds now; after
// either saw it hold, this PE's host reads (shmem_getmem) see what the writer ordered before its
// update.
void shmem_putmem_nbi(void* dest, const void* source, std::size_t nbytes, int pe);
void shmem_getmem_nbi(void* dest, const void* source, std::size_t nbytes, int pe);
// Strided RMA (OpenSHMEM 1.5 §9.5.3): element i of `source` (at i * sst elements) goes to element
// i of `dest` (at i * dst elements); the symmetric side is dest for iput, source for iget. Blocking.
// Strides below 1, a span that overflows, or one that leaves the heap is an error naming the PE
// and the call. Typed and generic forms (shmem_int_iput, shmem_iput<T>) and the sized ones
// (shmem_iput8 ... shmem_iput128) are in gio/host_generated.hpp.

// Stream-ordered forms: enqueued on `stream`, complete in stream order.
void shmem_putmem_on_stream(void* dest, const void* source, std::size_t nbytes, int pe, stream_t stream);
void shmem_getmem_on_stream(void* dest, const void* source, std::size_t nbytes, int pe, stream_t stream);
void shmem_quiet_on_stream(stream_t stream);
// Every PE's `stream` reaches the barrier before any continues. Every PE must be reachable from
// this GPU. It is the kernels' shmem_barrier_all (the same protocol and count, run by one
// workgroup on the stream), so a PE's stream barriers and its kernels' world barriers form one
// sequence that must execute in the same order on every PE: use one stream, or order the streams
// (an event) when barriers go to several. A build without a GPU runs shmem_barrier_all.
void shmem_barrier_all_on_stream(stream_t stream);

// --- Teams (OpenSHMEM 1.5 §9.4) ------------------------------------------------------------------
// SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED exist from init. A split is collective over the parent
// team; PEs left out get SHMEM_TEAM_INVALID. Kernels launched after a split see the new team
// through the handle's team table. At most GIO_MAX_TEAMS teams exist at once.
int shmem_team_my_pe(shmem_team_t team);    // -1 if this PE is not a member or team is invalid
int shmem_team_n_pes(shmem_team_t team);    // -1 if team is invalid
// `src_pe` of `src_team` as a PE number of `dest_team`, or -1 if it is not a member.
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config);
// 0 on success. Bad arguments (a range outside the parent, stride < 1, size < 1; xrange < 1)
// throw gio::error on every parent PE; running out of team slots returns non-zero on every parent
// PE (and prints why); an invalid parent returns non-zero. The new team(s) are SHMEM_TEAM_INVALID
// on PEs left out and whenever the call fails. docs/teams.md.
int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size, const shmem_team_config_t* config,
                             long config_mask, shmem_team_t* new_team);
int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t* xaxis_config, long xaxis_mask,
                        shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
                        shmem_team_t* yaxis_team);
// Collective over the team; the predefined teams cannot be destroyed (gio::error);
// SHMEM_TEAM_INVALID is a no-op.
void shmem_team_destroy(shmem_team_t team);

// Synchronisation without completing puts (shmem_barrier_all also quiets). shmem_team_sync returns
// non-zero for an invalid team.
int shmem_team_sync(shmem_team_t team);
void shmem_sync_all();
void shmem_team_sync_on_stream(shmem_team_t team, stream_t stream);
void shmem_sync_all_on_stream(stream_t stream);

// --- Contexts (OpenSHMEM 1.5 §9.5) ------------------------------------------------------------
// A host context names a stream of this PE's host RMA and atomics with its own quiet and fence,
// and, made from a team, numbers PEs as that team does. gio's host calls complete before they
// return, so a context's quiet and fence have nothing left to wait for; what a context adds is
// the team's numbering and an owner for the calls (docs/decisions.md). Context forms
// (shmem_ctx_putmem, shmem_ctx_int_put, shmem_ctx_int_atomic_add, ...) take the context first;
// the typed ones are in gio/host_generated.hpp. Kernels make their own contexts (gio/device.hpp).
struct shmem_ctx_t {
  std::int32_t id;
  friend bool operator==(shmem_ctx_t a, shmem_ctx_t b) { return a.id == b.id; }
  friend bool operator!=(shmem_ctx_t a, shmem_ctx_t b) { return a.id != b.id; }
};
inline constexpr shmem_ctx_t SHMEM_CTX_DEFAULT{0};   // SHMEM_TEAM_WORLD's; always valid after init
inline constexpr shmem_ctx_t SHMEM_CTX_INVALID{-1};
// Options (accepted; every gio host context is safe to use from any one thread at a time).
inline constexpr long SHMEM_CTX_SERIALIZED = 1L << 0;
inline constexpr long SHMEM_CTX_PRIVATE = 1L << 1;
inline constexpr long SHMEM_CTX_NOSTORE = 1L << 2;
// 0 and a new context of SHMEM_TEAM_WORLD (shmem_ctx_create) or of `team`, of which this PE must
// be a member; otherwise non-zero and *ctx = SHMEM_CTX_INVALID. Not collective. Unknown option
// bits are an error naming the PE.
int shmem_ctx_create(long options, shmem_ctx_t* ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx);
// Completes the context's operations and frees it; SHMEM_CTX_DEFAULT cannot be destroyed (error),
// SHMEM_CTX_INVALID is a no-op. Destroying a team destroys the contexts made from it.
void shmem_ctx_destroy(shmem_ctx_t ctx);
// 0 and the context's team, or -1 and SHMEM_TEAM_INVALID for an invalid or destroyed context.
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_ctx_fence(shmem_ctx_t ctx);
// Orders this PE's host puts and atomics to each PE (they complete in call order already).
void shmem_fence();
void shmem_ctx_putmem(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, std::size_t nbytes, int pe);
namespace detail {
// PE `pe` of the context's team as a PE of SHMEM_TEAM_WORLD; throws gio::error naming `call` and
// the cause (an invalid or destroyed context, a PE outside its team).
int ctx_world_pe(shmem_ctx_t ctx, int pe, const char* call);
}  // namespace detail

// --- Collectives (OpenSHMEM 1.5 §9.9, team-based) ----------------------------------------------
// Collective over `team`; every member calls with the same arguments. Blocking forms return
// when this PE's part is complete (dest holds the result, source may be reused); _on_stream
// forms run in stream order. Return 0. Generic and typed names (shmem_int_sum_reduce, ...) are in
// gio/host_generated.hpp. Host collectives run on the GPU in GPU builds (every team member must
// be device-reachable) and over the bootstrap in the CPU build.
namespace detail {
enum class collective_kind : std::uint32_t { broadcast, fcollect, alltoall, reduce };
// The one entry point: `count` is elements of `type` (per PE for fcollect/alltoall); `stream`
// null = blocking.
int host_collective(const char* call, collective_kind kind, shmem_team_t team, void* dest, const void* source,
                    std::size_t count, dtype type, reduce_op op, int root, const stream_t* stream);
// shmem_collect: every member's `nelems` elements of `size` bytes (the counts may differ)
// concatenated in team order into every member's dest. shmem_alltoalls: block j of `source`
// (nelems elements, sst apart, from element j * nelems * sst) to every member j's dest from element
// (this PE's team number) * nelems * dst, dst apart. Blocking; both sync the team before and after.
int host_collect(const char* call, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                 std::size_t size);
int host_alltoalls(const char* call, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                   std::ptrdiff_t sst, std::size_t nelems, std::size_t size);
// Host atomics: one operation of `type` (4 or 8 bytes) on `dest` at `pe`; `value`/`compare` point
// to operands, `fetched` (may be null) receives the old value. Blocking. GPU builds run the device
// library's atomic (so host and kernel atomics on one word are atomic with each other).
void host_atomic(const char* call, amo_op op, dtype type, void* dest, const void* value, const void* compare,
                 void* fetched, int pe);
// Reads this PE's symmetric `ivar` until `ivar <cmp> *value` holds (once: a single read); returns
// whether it held. Checked builds bound the wait by GIO_WAIT_TIMEOUT and then throw, naming the
// PE, the call, the address, the comparison and the value seen.
bool host_wait(const char* call, const void* ivar, dtype type, int cmp, const void* value, bool once);
// Strided put (`put`) or get of `nelems` elements of `size` bytes; strides in elements.
void host_strided(const char* call, bool put, void* dest, const void* source, std::ptrdiff_t dst, std::ptrdiff_t sst,
                  std::size_t nelems, std::size_t size, int pe);
}  // namespace detail

int shmem_broadcastmem(shmem_team_t team, void* dest, const void* source, std::size_t nelems, int PE_root);
int shmem_fcollectmem(shmem_team_t team, void* dest, const void* source, std::size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void* dest, const void* source, std::size_t nelems);
void shmem_broadcastmem_on_stream(shmem_team_t team, void* dest, const void* source, std::size_t nelems, int PE_root,
                                  stream_t stream);
void shmem_fcollectmem_on_stream(shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                 stream_t stream);
void shmem_alltoallmem_on_stream(shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                 stream_t stream);

namespace detail {
// This PE's handle, once `caller_abi` (the handle_abi_version the caller was compiled with) is
// the library's own; otherwise throws gio::error naming both versions.
device_handle device_handle_for(std::uint32_t caller_abi);
}  // namespace detail

// The handle kernels take by value (see gio/device.hpp). Compiled into the caller, so that it
// checks the layout the caller was compiled with (its translation unit's headers, the ones its
// kernels see) against the linked libgio's: a kernel built against other gio headers would read
// the handle's fields at the wrong offsets. `static`: each translation unit keeps its own check,
// so two built against different headers cannot share one definition (ODR).
static inline device_handle shmem_device_handle() { return detail::device_handle_for(handle_abi_version); }

// What init found: this PE's GPU (the one shmem_init made current: `gpu`, `gpu_bus_id`), its
// heap, and how it reaches each peer: how a program finds its GPU, and what gio-info prints.
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
  std::string network;          // the gda transport: its NIC, contexts and mode, or why it is off
};
runtime_report shmem_runtime_report();
peer_report shmem_peer_report(int pe);

// This PE's share of its GPU, for sizing grids that must be co-resident (gio/launch.hpp). Several
// PEs of a node may drive one GPU (PE p of a node uses GPU p mod the GPUs visible, or GIO_NUM_GPUS).
// Without MPS their processes' kernels time-slice the GPU: each grid may fill the whole GPU, and
// every wait on another PE of that GPU costs a context switch (slow, but it finishes). Under MPS
// (its control daemon running) their kernels run side by side: two persistent grids that each
// fill the GPU cannot both be resident, and a PE waiting for the other would wait forever. Then
// each PE may fill an equal share of the multiprocessors the GPU reports to it. With
// CUDA_MPS_ACTIVE_THREAD_PERCENTAGE set, the GPU reports only that percentage of them, but the
// clients' sets of multiprocessors may overlap (docs/running.md): the equal share of that.
struct gpu_share {
  int pes = 1;              // PEs of this node on this PE's GPU, this one included
  bool mps = false;         // the CUDA MPS control daemon serves this node
  int mps_percentage = 0;   // CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (1-100), 0 when unset

  bool limits() const noexcept { return mps && (pes > 1 || mps_percentage > 0); }
  // Of `multiprocessors` (what the GPU reports), how many this PE's co-resident grid may fill.
  int multiprocessors(int total) const noexcept {
    if (!limits() || total <= 0) return total;
    const int share = total / pes;
    return share < 1 ? 1 : share;
  }
  // "2 PEs on this GPU under MPS, an equal share" and the like, for messages and gio-info.
  std::string describe() const {
    std::string text = std::to_string(pes) + (pes == 1 ? " PE" : " PEs") + " on this GPU";
    if (!mps) return text + (pes > 1 ? ", no MPS (their kernels time-slice the GPU)" : "");
    if (mps_percentage > 0) return text + " under MPS, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=" + std::to_string(mps_percentage);
    return text + " under MPS" + (pes > 1 ? ", an equal share each" : "");
  }
};
// What init found ({1, false, 0} before shmem_init and in the CPU build).
gpu_share shmem_gpu_share() noexcept;

// Multiprocessors a co-resident grid must leave free on this PE's GPU: 1 while the test-only
// software NIC model serves gda (its engine kernel needs room to run), else 0. max_coresident_wgs
// (gio/launch.hpp) counts them out. 0 before shmem_init.
int reserved_multiprocessors() noexcept;

}  // namespace gio

#include "gio/host_generated.hpp"
