// How the work-stealing runtime reaches the PEs: a "comm", the few calls the runtime and its
// placements are written against. This one is gio's and the default. Another OpenSHMEM-like
// library runs the same runtime by providing the same names (apps/worksteal/comm_nvshmem.hpp does,
// so that the `nvshmem` variant measures the same protocol over NVSHMEM).
//
//   device  handle, ctx, ctx_storage, open_wg(handle, storage) -> const ctx&, my_pe(ctx),
//           fetch / fetch_add / fetch_or / add / set on a uint64 word of a PE (atomics),
//           get_wg (whole workgroup, complete on return), fence (release to every PE),
//           direct_word(ctx, w, pe) (the address of `pe`'s word w where this GPU's own loads and
//           atomics reach it and the library's atomics on it are this GPU's own, else null: the
//           runtime may then issue them itself, with an ordering of its own)
//   host    my_pe, n_pes, barrier_all, allocate / release (symmetric, 256-byte aligned),
//           over_every_pe(value, min|max), distance(pe) (0 this GPU, 1 this node, 2 another
//           node), unstealable(pe) ("" or why thieves cannot reach it), kernel_handle,
//           wait_timeout_ns, max_coresident(kernel, threads, shared), launch (all co-resident),
//           host_placement (whether placement::host works over it)
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "gio/device.hpp"
#include "gio/host.hpp"
#include "gio/launch.hpp"

namespace gio::ws {

struct gio_comm {
  // ---- device ----
  using handle = device_handle;
  using ctx = gio::ctx;
  using ctx_storage = gio::ctx;
  static GIO_DEVICE const ctx& open_wg(const handle& h, ctx_storage& storage) { return ctx_create_wg(h, storage); }
  static GIO_DEVICE int my_pe(const ctx& c) { return shmem_my_pe(c); }
  static GIO_DEVICE std::uint64_t fetch(const ctx& c, std::uint64_t* w, int pe) {
    return shmem_ctx_uint64_atomic_fetch(c, w, pe);
  }
  static GIO_DEVICE std::uint64_t fetch_add(const ctx& c, std::uint64_t* w, std::uint64_t v, int pe) {
    return shmem_ctx_uint64_atomic_fetch_add(c, w, v, pe);
  }
  static GIO_DEVICE std::uint64_t fetch_or(const ctx& c, std::uint64_t* w, std::uint64_t v, int pe) {
    return shmem_ctx_uint64_atomic_fetch_or(c, w, v, pe);
  }
  static GIO_DEVICE void add(const ctx& c, std::uint64_t* w, std::uint64_t v, int pe) {
    shmem_ctx_uint64_atomic_add(c, w, v, pe);
  }
  static GIO_DEVICE void set(const ctx& c, std::uint64_t* w, std::uint64_t v, int pe) {
    shmem_ctx_uint64_atomic_set(c, w, v, pe);
  }
  static GIO_DEVICE void get_wg(const ctx& c, void* dst, const void* src, std::size_t bytes, int pe) {
    shmem_ctx_getmem_wg(c, dst, src, bytes, pe);
  }
  // A PE that load/store reaches (this one, NVLink/xGMI/PCIe peers), but not when w is in the
  // heap's atomics area while a NIC is on (its atomics go through the NIC, this PE's included),
  // nor under GIO_ATOMICS=cas (every atomic is a CAS loop then).
  static GIO_DEVICE std::uint64_t* direct_word(const ctx& c, std::uint64_t* w, int pe) {
    std::ptrdiff_t delta;
    if (gio::detail::own_atomics_reach(c, w, pe, delta)) return transports::p2p::translate(w, delta);
    // A PE outside the context's window, or one of the cases above.
    const gio::detail::peer_route where =
        transports::atomic_route(c, gio::detail::route_team_pe(c, pe, "gio::ws", source_location::current()), w);
    if (where.via != gio::detail::device_transport::p2p || !where.native_atomics) return nullptr;
    return transports::p2p::translate(w, where.delta);
  }
  // This thread's (and, after a workgroup barrier, its group's) earlier loads and stores are
  // ordered before its later stores and atomics, at every PE (release; gda: completed).
  static GIO_DEVICE void fence(const ctx& c) { shmem_ctx_fence(c); }

  // ---- host ----
  static constexpr bool host_placement = true;
  static int my_pe() { return shmem_my_pe(); }
  static int n_pes() { return shmem_n_pes(); }
  static void barrier_all() { shmem_barrier_all(); }
  // The queues' area takes thieves' atomics from every PE, other nodes' through the NIC: in the
  // heap's atomics area, every PE's atomics on its words go through the NIC as well (host.hpp).
  static void* allocate(std::size_t bytes) { return shmem_malloc_with_hints(bytes, SHMEM_MALLOC_ATOMICS_REMOTE); }
  static void release(void* p) { shmem_free(p); }
  // Collective: `mine` combined over every PE, through a symmetric scratch pair.
  static long long over_every_pe(long long mine, reduce_op op) {
    auto* sym = static_cast<long long*>(shmem_malloc(2 * sizeof(long long)));
    shmem_putmem(sym, &mine, sizeof mine, shmem_my_pe());
    if (op == reduce_op::min) shmem_min_reduce(SHMEM_TEAM_WORLD, sym + 1, sym, 1);
    else shmem_max_reduce(SHMEM_TEAM_WORLD, sym + 1, sym, 1);
    long long all = 0;
    shmem_getmem(&all, sym + 1, sizeof all, shmem_my_pe());
    shmem_free(sym);
    return all;
  }
  static int distance(int pe) {
    const peer_report r = shmem_peer_report(pe);
    return pe == shmem_my_pe() || (r.caps & peer_same_device) ? 0 : r.how == transport::p2p ? 1 : 2;
  }
  // A PE over gda needs the network path in the worker kernels, which a program built with
  // GIO_DEVICE_GDA=0 lacks (apps/worksteal's `worksteal`; `worksteal-gda` has it).
  static std::string unstealable(int pe) {
    if (shmem_peer_report(pe).how != transport::gda || transports::gda::compiled_in) return "";
    return "PE " + std::to_string(pe) + " is reached over gda, but this program's kernels were compiled without the "
           "network path (GIO_DEVICE_GDA=0)";
  }
  static handle kernel_handle() { return shmem_device_handle(); }
  static std::uint64_t wait_timeout_ns() { return shmem_device_handle().wait_timeout_ns; }
  template <class... Params>
  static int max_coresident(void (*kernel)(Params...), unsigned threads, std::size_t shared) {
    return max_coresident_wgs(kernel, threads, shared);
  }
  template <class... Params, class... Args>
  static void launch(void (*kernel)(Params...), unsigned wgs, unsigned threads, std::size_t shared, Args&&... args) {
    launch_collective(kernel, dim3(wgs), dim3(threads), shared, stream_t{}, std::forward<Args>(args)...);
  }
};

}  // namespace gio::ws
