// The GDA transport on the device (GIO §4–5): a GPU thread reserves WQE indices on its
// workgroup's queue pair to the target PE, writes the pre-templated WQE (wqe_builder.hpp),
// publishes the doorbell record and rings the NIC's doorbell; completion is tracked per WQE index
// by polling that QP's CQ. The proxy (IKN) mode shares everything but the last step: it hands a
// command to a CPU thread instead (docs/transports.md, "gda and ikn").
//
// Ring discipline, per QP (include/gio/gda.hpp, gda_qp_state):
//  - reserve: indices come from an atomic add on `reserved`; index i may use its SQ slot once
//    i - depth has completed, and its fetch word once the previous owner of the slot let go of it
//    (`slot_owner` = generation i >> log_sq), so a fetched value is never overwritten unread.
//  - publish: the writer of index i fences its WQE bytes at system scope and marks the slot
//    written (`written` = i + 1). The thread whose range holds `posted`, the lowest unrung index,
//    rings for every consecutively marked index from there: one doorbell record update, a
//    system-scope fence, one doorbell, then `posted` advances past them with a system-scope
//    release (so successive doorbells reach the NIC in order). Threads posting to one QP at once
//    share a doorbell instead of queueing for one each.
//  - scopes: the counters and slot words are shared only by this GPU's threads (device scope);
//    what the NIC reads or writes (WQEs, records, doorbell, CQEs) is accessed at system scope.
//  - complete: whoever waits polls the CQ under a try-lock; a CQE for WQE i completes every index
//    up to i (RC executes and completes a QP's WQEs in order). An error CQE is reported with the
//    PE, the peer, the QP and the syndrome, and traps: it never turns into a hang.
//
// Which local memory the NIC may touch: only the registered heap. A put whose source lies outside
// it (a kernel's local array, shared memory, any unregistered buffer) goes inline when it fits a
// WQE, else through the context's bounce buffer; likewise a get into such memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "gio/device/checks.hpp"
#include "gio/device/coop.hpp"
#include "gio/device/copy.hpp"
#include "gio/device/ctx.hpp"
#include "gio/device/library.hpp"
#include "gio/device/transports/gda/wqe_builder.hpp"
#include "gio/device/transports/route.hpp"
#include "gio/gda.hpp"
#include "gio/ops.hpp"
#include "gio/platform/strong.hpp"
#include "gio/templates/mlx5_cqe.hpp"

namespace gio::transports::gda {

// GIO_DEVICE_GDA=0 compiles the gda transport out of a translation unit's kernels: the routes
// then never choose it (a call to a PE reached over gda fails, naming the PE and the cause), and
// no gda code is left in the kernels. For applications that only ever run within a node.
#if !defined(GIO_DEVICE_GDA)
#define GIO_DEVICE_GDA 1
#endif
inline constexpr bool compiled_in = GIO_DEVICE_GDA != 0;

// Whether this PE reaches any peer over gda (then quiet, fence and syncs complete its WQEs).
GIO_DEVICE bool in_use(const ctx& c) { return compiled_in && c.h.gda != nullptr; }

// Largest payload one WQE carries (mlx5 messages go up to 2 GiB; smaller WQEs keep a slow peer
// from holding one slot for long).
inline constexpr std::size_t max_wqe_bytes = std::size_t{1} << 30;
inline constexpr std::size_t inline_bytes = mlx5::inline_write::max_len;

namespace ring {

GIO_DEVICE std::uint64_t* word(unsigned long long* p) { return reinterpret_cast<std::uint64_t*>(p); }
GIO_DEVICE std::uint64_t load(unsigned long long* p) { return platform::ld_acquire_gpu_bits(word(p)); }
GIO_DEVICE std::uint32_t mark(std::uint64_t index) { return static_cast<std::uint32_t>(index) + 1u; }

// Prints what a stuck or failed QP looks like, then traps.
__device__ __noinline__ inline void report(const ctx& c, const gda_qp& q, const char* call, source_location loc,
                                    const char* what, std::uint64_t waited_for) {
  gda_qp_state& s = *q.state;
  printf("gio: PE %d: %s (%s:%d): gda: %s on the QP to PE %d (qpn 0x%x): waiting for WQE %llu; reserved %llu, "
         "posted %llu, completed %llu, CQEs consumed %llu\n",
         c.h.my_pe, call, loc.file, loc.line, what, q.peer, q.qpn, static_cast<unsigned long long>(waited_for),
         static_cast<unsigned long long>(load(&s.reserved)), static_cast<unsigned long long>(load(&s.posted)),
         static_cast<unsigned long long>(load(&s.completed)), static_cast<unsigned long long>(load(&s.cq_ci)));
  platform::trap();
}

__device__ __noinline__ inline void report_error_cqe(const ctx& c, const gda_qp& q, const mlx5::cqe_info& e) {
  printf("gio: PE %d: gda: error completion on the QP to PE %d (qpn 0x%x, CQE qpn 0x%x): %s, syndrome %s (0x%x), "
         "vendor syndrome 0x%x, WQE %u (%s)\n",
         c.h.my_pe, q.peer, q.qpn, e.qpn, mlx5::cqe_opcode_name(e.opcode), mlx5::cqe_syndrome_name(e.syndrome),
         e.syndrome, e.vendor_syndrome, e.wqe_counter, mlx5::wqe_opcode_name(e.wqe_opcode));
  platform::trap();
}

// Consumes every CQE the NIC has written, if no other thread is doing so.
GIO_DEVICE void poll_cq(const ctx& c, const gda_qp& q) {
  gda_qp_state& s = *q.state;
  if (platform::atomic_cas_gpu_bits(&s.poll_lock, 0u, 1u) != 0u) return;
  platform::fence_acq_rel_device();  // with the CAS, acquires what the previous poller released
  std::uint64_t ci = load(&s.cq_ci);
  std::uint64_t done = load(&s.completed);
  const std::uint64_t before = ci;
  const std::uint32_t mask = (1u << q.log_cq) - 1u;
  for (;;) {
    const mlx5::cqe64* entry = q.cq + (ci & mask);
    const std::uint8_t op_own = platform::ld_acquire_sys_bits(&entry->op_own);
    if (!mlx5::cqe_ready(op_own, static_cast<std::uint32_t>(ci), q.log_cq)) break;
    mlx5::cqe64 copy;  // read after the owner byte's acquire: the NIC wrote that byte last
    const auto* from = reinterpret_cast<const std::uint64_t*>(entry);
    auto* to = reinterpret_cast<std::uint64_t*>(&copy);
    for (unsigned w = 0; w < sizeof(copy) / sizeof(std::uint64_t); ++w) to[w] = platform::ld_relaxed_sys_bits(from + w);
    const mlx5::cqe_info info = mlx5::decode_cqe(copy);
    if (info.is_error()) {
      platform::st_relaxed_sys_bits(&s.error, 0x100u | info.syndrome);
      report_error_cqe(c, q, info);
    }
    // The CQE names a WQE at or after `done`: RC completes in order, so everything up to it is done.
    done += static_cast<std::uint16_t>(info.wqe_counter - static_cast<std::uint16_t>(done)) + 1u;
    ++ci;
  }
  if (ci != before) {
    platform::st_relaxed_gpu_bits(word(&s.cq_ci), ci);  // read under the lock (whose release orders it) or for a report
    platform::st_relaxed_sys_bits(&q.cq_dbrec[mlx5::cq_set_ci], mlx5::cq_dbrec_be(static_cast<std::uint32_t>(ci)));
    platform::st_release_gpu_bits(word(&s.completed), done);  // after the CQEs' acquire: the NIC's writes are seen
  }
  platform::st_release_gpu_bits(&s.poll_lock, 0u);
}

// This GPU's HDP flush (AMD, GIO §4.2, §5.2; a no-op without the register): the PCIe path's
// write combiner drains into memory, so what the NIC wrote here (a fetched value, a get's data)
// is in memory before this GPU reads it, and the NIC's next reads of what the GPU wrote are not
// served stale. The fence is sequentially consistent: the register write must take effect before
// the caller's later loads, which weaker fences do not order after a store. It orders the issue
// of a posted MMIO write, not its arrival; the amdgpu driver reads the register back to wait for
// that, which gio does not (reading the remapped register back is reported to fault on some
// platforms): on AMD hardware this is the first thing to check.
GIO_DEVICE void flush_own_hdp(const ctx& c) {
  if (std::uint32_t* hdp = c.h.gda->hdp_flush) {
    platform::st_relaxed_sys_bits(hdp, 1u);
    platform::fence_sc_system();
  }
}

// Until every index below `target` has completed; then what the NIC wrote here may be read.
GIO_DEVICE void wait_completed(const ctx& c, const gda_qp& q, std::uint64_t target, const char* call,
                               source_location loc) {
  detail::wait_budget budget(c);
  while (load(&q.state->completed) < target) {
    poll_cq(c, q);
    if (budget.overdue()) report(c, q, call, loc, "no completion", target - 1);
  }
  flush_own_hdp(c);
}

GIO_DEVICE std::uint32_t slot_of(const gda_qp& q, std::uint64_t index) {
  return static_cast<std::uint32_t>(index) & ((1u << q.log_sq) - 1u);
}
GIO_DEVICE std::uint32_t generation(const gda_qp& q, std::uint64_t index) {
  return static_cast<std::uint32_t>(index >> q.log_sq);
}

// `n` consecutive indices whose slots (and fetch words) are free.
GIO_DEVICE std::uint64_t reserve(const ctx& c, const gda_qp& q, unsigned n, const char* call, source_location loc) {
  const std::uint64_t first = platform::atomic_add_gpu_bits(word(&q.state->reserved), std::uint64_t{n});
  const std::uint64_t depth = std::uint64_t{1} << q.log_sq;
  if (first + n > depth) wait_completed(c, q, first + n - depth, call, loc);
  for (std::uint64_t i = first; i < first + n; ++i) {
    detail::wait_budget budget(c);
    while (platform::ld_acquire_gpu_bits(&q.slot_owner[slot_of(q, i)]) != generation(q, i))
      if (budget.overdue()) report(c, q, call, loc, "a fetch result was never collected", i);
  }
  return first;
}

// Lets the next generation use index i's fetch word.
GIO_DEVICE void release(const gda_qp& q, std::uint64_t index) {
  platform::st_release_gpu_bits(&q.slot_owner[slot_of(q, index)], generation(q, index) + 1u);
}

GIO_DEVICE bool is_atomic(std::uint8_t kind) {
  return kind == gda_kind_fa64 || kind == gda_kind_cs64 || kind == gda_kind_fa32 || kind == gda_kind_cs32 ||
         kind == gda_kind_swap32 || kind == gda_kind_signal_add;
}

// Writes command `cmd` for index i: the WQE itself (direct) or the proxy's command. An atomic's
// old value lands in the fetch word of its index, read or not.
GIO_DEVICE void write(const gda_qp& q, gda_mode mode, std::uint64_t i, gda_command cmd) {
  const std::uint32_t s = slot_of(q, i);
  if (is_atomic(cmd.kind)) cmd.op.laddr = reinterpret_cast<std::uint64_t>(&q.fetch[s]);
  if (mode == gda_mode::proxy) {
    auto* to = reinterpret_cast<std::uint64_t*>(q.commands + s);
    const auto* from = reinterpret_cast<const std::uint64_t*>(&cmd);
    for (unsigned w = 0; w < offsetof(gda_command, ready) / sizeof(std::uint64_t); ++w) to[w] = from[w];
    return;  // `ready` is set by publish(), after a fence
  }
  build_wqe(q.sq[s], &q.slot_kind[s], static_cast<std::uint16_t>(i), cmd, q.qpn, q.lkey, q.rkey, q.hdp_rkey);
}

// Rings for every consecutively marked index from `from` (the lowest unrung one): their marks are
// acquired, so their WQEs, fenced by their writers, are visible before the record.
GIO_DEVICE void ring_marked(const gda_qp& q, gda_mode mode, std::uint64_t from, std::uint64_t end) {
  std::uint64_t to = end;
  const std::uint64_t limit = from + (std::uint64_t{1} << q.log_sq);
  while (to < limit && platform::ld_acquire_gpu_bits(&q.written[slot_of(q, to)]) == mark(to)) ++to;
  if (mode == gda_mode::proxy) {  // the proxy reads the ready words, not `posted`: device scope suffices
    platform::st_release_gpu_bits(word(&q.state->posted), to);
    return;
  }
  platform::st_relaxed_sys_bits(&q.dbrec[mlx5::snd_dbr], mlx5::sq_dbrec_be(static_cast<std::uint32_t>(to)));
  platform::fence_acq_rel_system();  // the record before the doorbell: the NIC fetches up to the record
  // QPs may share a doorbell register (rdma-core's shared BlueFlame registers for verbs QPs): lanes
  // ringing two of them in one store instruction would be merged into one doorbell, and the QP
  // whose doorbell is lost is never processed. One lane at a time.
  const std::uint64_t doorbell = doorbell_of(q.sq[slot_of(q, to - 1)]);
  platform::one_lane_at_a_time([&] { platform::st_relaxed_sys_bits(q.uar, doorbell); });
  platform::st_release_sys_bits(word(&q.state->posted), to);  // system scope: this doorbell reaches the NIC first
}

// Hands indices [first, first + n), already written, to the NIC (or the proxy); on return they
// are rung (the proxy's ready words set), by this thread or by one that rang for it.
GIO_DEVICE void publish(const ctx& c, const gda_qp& q, gda_mode mode, std::uint64_t first, unsigned n,
                        const char* call, source_location loc) {
  const std::uint64_t end = first + n;
  platform::fence_acq_rel_system();  // the WQE (command) bytes before the marks, hence before the record
  flush_own_hdp(c);  // after them: the NIC's reads of them are not served stale by AMD's HDP
  for (std::uint64_t i = first; i < end; ++i) {
    if (mode == gda_mode::proxy)  // the proxy scans ready words in index order by itself
      platform::st_relaxed_sys_bits(reinterpret_cast<std::uint64_t*>(&q.commands[slot_of(q, i)].ready), i + 1);
    platform::st_relaxed_gpu_bits(&q.written[slot_of(q, i)], mark(i));
  }
  // Until another thread rang past this range, or the lowest unrung index is in it and this thread
  // rings. The ringing stays inside the loop: lanes of one wavefront that spin here while another
  // lane rings must not wait for it at a reconvergence point (no independent thread scheduling on AMD).
  detail::wait_budget budget(c);
  for (;;) {
    const std::uint64_t from = load(&q.state->posted);
    if (from >= end) return;
    if (from >= first) {
      ring_marked(q, mode, from, end);
      return;
    }
    if (budget.overdue()) report(c, q, call, loc, "an earlier WQE was never published", first);
  }
}

}  // namespace ring

// ---- the tables --------------------------------------------------------------------------------

GIO_DEVICE const gda_table& table(const ctx& c) { return *c.h.gda; }
GIO_DEVICE unsigned context_of(const gda_table& t) { return platform::wg_id() % t.contexts; }

// The calling workgroup's QP to world PE `pe`.
GIO_DEVICE const gda_qp& qp_to(const ctx& c, int pe) {
  const gda_table& t = table(c);
  return t.qps[context_of(t) * t.qps_per_context + static_cast<unsigned>(t.peers[pe].qp_slot)];
}

// `symmetric` (an address of this PE's heap) as PE `pe`'s NIC addresses it.
GIO_DEVICE std::uint64_t remote(const ctx& c, int pe, const void* symmetric) {
  return table(c).peers[pe].heap_address + static_cast<std::uint64_t>(static_cast<const char*>(symmetric) - c.h.heap_base);
}
GIO_DEVICE std::uint64_t local(const void* p) { return reinterpret_cast<std::uint64_t>(p); }

GIO_DEVICE bool in_heap(const ctx& c, const void* p, std::size_t bytes) {
  const char* q = static_cast<const char*>(p);
  return q >= c.h.heap_base && static_cast<std::uint64_t>(q - c.h.heap_base) + bytes <= c.h.heap_size;
}

// One WQE: posted; returns its index (the caller waits for it, or not).
GIO_DEVICE std::uint64_t post(const ctx& c, const gda_qp& q, const gda_command& cmd, const char* call,
                                             source_location loc) {
  const gda_mode mode = table(c).mode;
  const std::uint64_t i = ring::reserve(c, q, 1, call, loc);
  ring::write(q, mode, i, cmd);
  ring::publish(c, q, mode, i, 1, call, loc);
  return i;
}

// A WQE with nothing to fetch: its fetch word is let go at once.
GIO_DEVICE std::uint64_t post_released(const ctx& c, const gda_qp& q, const gda_command& cmd, const char* call,
                                       source_location loc) {
  const std::uint64_t i = post(c, q, cmd, call, loc);
  ring::release(q, i);
  return i;
}

GIO_DEVICE gda_command write_command(std::uint64_t laddr, std::uint64_t raddr, std::size_t bytes) {
  gda_command cmd{};
  cmd.kind = gda_kind_write;
  cmd.raddr = raddr;
  cmd.len = static_cast<std::uint32_t>(bytes);
  cmd.op.laddr = laddr;
  return cmd;
}
GIO_DEVICE gda_command inline_command(std::uint8_t kind, std::uint64_t raddr, const void* source, std::size_t bytes) {
  gda_command cmd{};
  cmd.kind = kind;
  cmd.raddr = raddr;
  cmd.len = static_cast<std::uint32_t>(bytes);
  const auto* from = static_cast<const unsigned char*>(source);
  for (std::size_t b = 0; b < bytes; ++b) cmd.data[b] = from[b];
  return cmd;
}
// A write of 1 to the peer's HDP flush register (AMD): drains its PCIe write combiner, so the
// NIC's earlier writes into that GPU are in its memory before the ones after it (GIO §5.2).
GIO_DEVICE gda_command hdp_flush_command(const gda_qp& q) {
  const std::uint32_t one = 1;
  return inline_command(gda_kind_hdp_flush, q.hdp_address, &one, sizeof one);
}

// ---- RMA ----------------------------------------------------------------------------------------

// The context's bounce buffer (in the registered heap), held by one group at a time.
GIO_DEVICE char* bounce_of(const ctx& c) {
  const gda_table& t = table(c);
  return t.bounce + std::size_t{context_of(t)} * t.bounce_bytes;
}
GIO_DEVICE void lock_bounce(const ctx& c) {
  const gda_table& t = table(c);
  unsigned int* lock = &t.contexts_state[context_of(t)].bounce_lock;
  while (platform::atomic_cas_gpu_bits(lock, 0u, 1u) != 0u) platform::sleep_ns(64);
  platform::fence_acq_rel_device();
}
GIO_DEVICE void unlock_bounce(const ctx& c) {
  const gda_table& t = table(c);
  platform::st_release_gpu_bits(&t.contexts_state[context_of(t)].bounce_lock, 0u);
}

// ---- the entries: out of line and type-erased -------------------------------------------------
//
// Every call that may reach a PE over gda branches here only when the route says gda. These
// entries are compiled once per translation unit whatever the element types and groups of the
// calls that reach them: the group is a `group` value, an element its bits and size, an atomic's
// type a dtype. A kernel's p2p call sites carry a call, not the NIC code (docs/transports.md,
// "The network path, compiled once"); the templates at the end only convert their arguments.

#define GIO_DEVICE_GDA_ENTRY __device__ __noinline__

enum class group : std::uint8_t { thread, wave, wg };
GIO_DEVICE unsigned group_rank(group g) {
  return g == group::thread ? coop::thread::rank() : g == group::wave ? coop::wave::rank() : coop::wg::rank();
}
GIO_DEVICE unsigned group_size(group g) {
  return g == group::thread ? coop::thread::size() : g == group::wave ? coop::wave::size() : coop::wg::size();
}
GIO_DEVICE void group_sync(group g) {
  if (g == group::wave) coop::wave::sync();
  else if (g == group::wg) coop::wg::sync();
}

// put to `pe` (`dest` symmetric). The group's leader posts; with `wait` the put has completed
// (source reusable, data at the target) on return, else only the small and staged ones have.
GIO_DEVICE_GDA_ENTRY inline void put_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes,
                                           bool wait, group g, const char* call, source_location loc) {
  const gda_qp& q = qp_to(c, pe);
  const bool leader = group_rank(g) == 0;
  if (bytes <= inline_bytes || in_heap(c, source, bytes)) {
    if (leader && bytes > 0) {
      if (bytes <= inline_bytes) {
        post_released(c, q, inline_command(gda_kind_inline, remote(c, pe, dest), source, bytes), call, loc);
      } else {
        std::uint64_t last = 0;
        for (std::size_t done = 0; done < bytes; done += max_wqe_bytes) {
          const std::size_t n = bytes - done < max_wqe_bytes ? bytes - done : max_wqe_bytes;
          last = post_released(c, q, write_command(local(static_cast<const char*>(source) + done),
                                                   remote(c, pe, static_cast<char*>(dest) + done), n), call, loc);
        }
        if (wait) ring::wait_completed(c, q, last + 1, call, loc);
      }
    }
    group_sync(g);
    return;
  }
  // Staged through the bounce buffer, a chunk at a time, each complete before the next is staged.
  if (leader) lock_bounce(c);
  group_sync(g);  // nobody stages before the leader holds the buffer
  char* stage = bounce_of(c);
  const std::size_t chunk = table(c).bounce_bytes;
  for (std::size_t done = 0; done < bytes; done += chunk) {
    const std::size_t n = bytes - done < chunk ? bytes - done : chunk;
    detail::copy_bytes(stage, static_cast<const char*>(source) + done, n, group_rank(g), group_size(g));
    group_sync(g);
    if (leader) {
      const std::uint64_t i =
          post_released(c, q, write_command(local(stage), remote(c, pe, static_cast<char*>(dest) + done), n), call, loc);
      ring::wait_completed(c, q, i + 1, call, loc);
    }
    group_sync(g);
  }
  if (leader) unlock_bounce(c);
}

// get from `pe` (`source` symmetric) into any local memory. With `wait` complete on return, else
// only a staged one is (a get into the registered heap then completes with the next quiet).
GIO_DEVICE_GDA_ENTRY inline void get_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes,
                                           bool wait, group g, const char* call, source_location loc) {
  const gda_qp& q = qp_to(c, pe);
  const bool leader = group_rank(g) == 0;
  if (in_heap(c, dest, bytes)) {
    if (leader && bytes > 0) {
      std::uint64_t last = 0;
      for (std::size_t done = 0; done < bytes; done += max_wqe_bytes) {
        const std::size_t n = bytes - done < max_wqe_bytes ? bytes - done : max_wqe_bytes;
        gda_command cmd = write_command(local(static_cast<char*>(dest) + done),
                                        remote(c, pe, static_cast<const char*>(source) + done), n);
        cmd.kind = gda_kind_read;
        last = post_released(c, q, cmd, call, loc);
      }
      if (wait) ring::wait_completed(c, q, last + 1, call, loc);
    }
    group_sync(g);
    return;
  }
  if (leader) lock_bounce(c);
  char* stage = bounce_of(c);
  const std::size_t chunk = table(c).bounce_bytes;
  for (std::size_t done = 0; done < bytes; done += chunk) {
    const std::size_t n = bytes - done < chunk ? bytes - done : chunk;
    if (leader) {
      gda_command cmd = write_command(local(stage), remote(c, pe, static_cast<const char*>(source) + done), n);
      cmd.kind = gda_kind_read;
      const std::uint64_t i = post_released(c, q, cmd, call, loc);
      ring::wait_completed(c, q, i + 1, call, loc);
    }
    group_sync(g);
    detail::copy_bytes(static_cast<char*>(dest) + done, stage, n, group_rank(g), group_size(g));
    group_sync(g);
  }
  if (leader) unlock_bounce(c);
}

// One element of `bytes` (at most 8) to `pe`: its bits, in the first bytes of `bits`.
GIO_DEVICE_GDA_ENTRY inline void p_bits(const ctx& c, int pe, void* dest, std::uint64_t bits, unsigned bytes,
                                        const char* call, source_location loc) {
  post_released(c, qp_to(c, pe), inline_command(gda_kind_inline, remote(c, pe, dest), &bits, bytes), call, loc);
}

// A fetching WQE: posted, waited for, its result read from the slot's fetch word.
GIO_DEVICE std::uint64_t fetch(const ctx& c, const gda_qp& q, gda_command cmd, const char* call, source_location loc) {
  const gda_mode mode = table(c).mode;
  const std::uint64_t i = ring::reserve(c, q, 1, call, loc);
  std::uint64_t* result = &q.fetch[ring::slot_of(q, i)];
  cmd.op.laddr = local(result);
  ring::write(q, mode, i, cmd);
  ring::publish(c, q, mode, i, 1, call, loc);
  ring::wait_completed(c, q, i + 1, call, loc);
  const std::uint64_t value = platform::ld_relaxed_sys_bits(result);
  ring::release(q, i);
  return value;
}

// One element of `bytes` (at most 8) from `pe`, in the first bytes of the result.
GIO_DEVICE_GDA_ENTRY inline std::uint64_t g_bits(const ctx& c, int pe, const void* source, unsigned bytes,
                                                 const char* call, source_location loc) {
  gda_command cmd = write_command(0, remote(c, pe, source), bytes);
  cmd.kind = gda_kind_read;
  return fetch(c, qp_to(c, pe), cmd, call, loc);  // the read lands in the word's first bytes
}

// ---- atomics --------------------------------------------------------------------------------------

GIO_DEVICE gda_command atomic_command(std::uint8_t kind, std::uint64_t raddr, std::uint64_t operand,
                                      std::uint64_t compare, std::uint32_t bytes) {
  gda_command cmd{};
  cmd.kind = kind;
  cmd.raddr = raddr;
  cmd.len = bytes;
  cmd.op.operand = operand;
  cmd.op.compare = compare;
  return cmd;
}

// amo_new_value on the bits of an element of `type`.
GIO_DEVICE std::uint64_t amo_new_bits(dtype type, amo_op op, std::uint64_t old, std::uint64_t value,
                                      std::uint64_t cond) {
  return visit_dtype(type, [&](auto zero) -> std::uint64_t {
    using T = decltype(zero);
    using U = platform::bits_t<T>;
    const auto as_t = [](std::uint64_t bits) { return platform::bit_cast<T>(static_cast<U>(bits)); };
    return static_cast<std::uint64_t>(platform::bit_cast<U>(amo_new_value(op, as_t(old), as_t(value), as_t(cond))));
  });
}

// Every OpenSHMEM AMO over the NIC, on an element of `type` (4 or 8 bytes) given as its bits.
// Native: 64-bit fetch-add and compare-swap; with 4-byte extended atomics, 32-bit fetch-add,
// compare-swap and swap. Everything else is a compare-swap loop (the fetch is a fetch-add of 0).
// Returns the old value's bits for the fetching operations.
GIO_DEVICE_GDA_ENTRY inline std::uint64_t amo_bits(const ctx& c, int pe, amo_op op, void* dest, dtype type,
                                                   std::uint64_t value, std::uint64_t cond, const char* call,
                                                   source_location loc) {
  const gda_qp& q = qp_to(c, pe);
  const std::uint64_t raddr = remote(c, pe, dest);
  const bool wide = dtype_size(type) == 8;
  const bool integral = type != dtype::f32 && type != dtype::f64;
  if (!wide && !table(c).ext_atomics)
    detail::fail(c, call, loc, "4-byte atomics over gda need a NIC with 4-byte extended atomics [pe, bytes]", pe, 4);
  const std::uint8_t fetch_add = wide ? gda_kind_fa64 : gda_kind_fa32;
  const std::uint8_t compare_swap = wide ? gda_kind_cs64 : gda_kind_cs32;
  const std::uint32_t bytes = wide ? 8 : 4;
  const std::uint64_t mask = wide ? ~std::uint64_t{0} : std::uint64_t{0xffffffffu};
  const auto fetched = [&](std::uint8_t kind, std::uint64_t operand, std::uint64_t compare) {
    return fetch(c, q, atomic_command(kind, raddr, operand, compare, bytes), call, loc) & mask;
  };
  if (integral) {
    switch (op) {
      case amo_op::inc:
      case amo_op::add:  // nothing to wait for: the fetch word is let go at once
        post_released(c, q, atomic_command(fetch_add, raddr, value, 0, bytes), call, loc);
        return 0;
      case amo_op::fetch_inc:
      case amo_op::fetch_add: return fetched(fetch_add, value, 0);
      default: break;
    }
  }
  if (op == amo_op::fetch) return fetched(fetch_add, 0, 0);
  if (op == amo_op::compare_swap) return fetched(compare_swap, value, cond);
  if (!wide && (op == amo_op::swap || op == amo_op::set)) {
    const std::uint64_t old = fetched(gda_kind_swap32, value, 0);
    return op == amo_op::swap ? old : 0;
  }
  std::uint64_t seen = fetched(fetch_add, 0, 0);
  for (;;) {
    const std::uint64_t old = fetched(compare_swap, amo_new_bits(type, op, seen, value, cond), seen);
    if (old == seen) return old;
    seen = old;
  }
}

// ---- put with signal ------------------------------------------------------------------------------

// The data, then the signal WQE carrying the fence, published together (one doorbell): the NIC
// executes the signal after the data is placed (docs/memory-model.md, "put_signal over gda").
GIO_DEVICE_GDA_ENTRY inline void put_signal_bytes(const ctx& c, int pe, void* dest, const void* source,
                                                  std::size_t bytes, std::uint64_t* sig_addr, std::uint64_t signal,
                                                  int sig_op, bool wait, group g, const char* call,
                                                  source_location loc) {
  const bool staged = bytes > inline_bytes && !in_heap(c, source, bytes);
  if (staged || bytes > max_wqe_bytes) {  // the data first (complete on return), then the signal alone
    put_bytes(c, pe, dest, source, bytes, true, g, call, loc);
    bytes = 0;
  }
  if (group_rank(g) == 0) {
    const gda_qp& q = qp_to(c, pe);
    const gda_mode mode = table(c).mode;
    // data, then (AMD) the flush of the target's HDP that puts it in memory, then the signal
    const bool flush = q.hdp_address != 0;
    const unsigned n = (bytes > 0 ? 1u : 0u) + (flush ? 1u : 0u) + 1u;
    const std::uint64_t first = ring::reserve(c, q, n, call, loc);
    if (bytes > 0)
      ring::write(q, mode, first,
                  bytes <= inline_bytes ? inline_command(gda_kind_inline, remote(c, pe, dest), source, bytes)
                                        : write_command(local(source), remote(c, pe, dest), bytes));
    const std::uint64_t s = first + n - 1;
    if (flush) ring::write(q, mode, s - 1, hdp_flush_command(q));
    gda_command sig;
    if (sig_op == SHMEM_SIGNAL_ADD) {
      sig = atomic_command(gda_kind_signal_add, remote(c, pe, sig_addr), signal, 0, sizeof(signal));
    } else {
      sig = inline_command(gda_kind_signal_set, remote(c, pe, sig_addr), &signal, sizeof(signal));
    }
    ring::write(q, mode, s, sig);
    ring::publish(c, q, mode, first, n, call, loc);
    for (std::uint64_t i = first; i <= s; ++i) ring::release(q, i);
    if (wait && bytes > inline_bytes) ring::wait_completed(c, q, s + 1, call, loc);
  }
  group_sync(g);
}

// Completes every operation posted so far on the QPs [first, first + count) of the table. Where
// the peer has an HDP flush register (AMD), a write to it follows, and completes: the peer's
// PCIe write combiner may still hold the data the NIC wrote and reorder it (GIO §4.2). A QP
// whose rung WQEs are all followed by a flush already (another quiet's, or one with nothing
// posted since) gets none: concurrent and repeated quiets share one flush instead of each
// posting its own and waiting for its round trip.
GIO_DEVICE_GDA_ENTRY inline void complete_qps(const ctx& c, unsigned first, unsigned count, const char* call,
                                            source_location loc) {
  const gda_table& t = table(c);
  // Every flush is posted before any is waited for: one round trip in all, not one per QP.
  for (unsigned i = first; i < first + count; ++i) {
    const gda_qp& q = t.qps[i];
    if (q.hdp_address == 0) continue;
    // This thread's WQEs are rung (publish returned), so they lie below `posted`, and every value
    // `flushed` ever holds is one past a flush that was rung before it was stored: `flushed >=
    // posted` puts such a flush after all of them (a stale value only costs a flush). The wait
    // below reads `posted` again, after `flushed`, so it covers that flush too.
    const std::uint64_t rung = ring::load(&q.state->posted);
    if (ring::load(&q.state->flushed) >= rung) continue;
    const std::uint64_t f = post_released(c, q, hdp_flush_command(q), call, loc);
    platform::st_release_gpu_bits(ring::word(&q.state->flushed), f + 1);
  }
  for (unsigned i = first; i < first + count; ++i) {
    const gda_qp& q = t.qps[i];
    ring::wait_completed(c, q, ring::load(&q.state->posted), call, loc);
  }
}

// The entries a kernel's calls reach: those above, or (a target linking gio::device_library,
// device/library.hpp) the library's copies, compiled once under its register cap. In relocatable
// device code an out-of-line function is compiled once for every kernel that calls it, so the
// entries above would set the register count of every such kernel and be refused by kernels
// bounded below it (docs/collectives.md, "Out of line").
namespace library {
inline namespace GIO_LIBRARY_ENTRIES_NAMESPACE {
// Defined in device/library/network_entries.hpp, each by calling the entry of the same name above.
__device__ void put_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes, bool wait, group g,
                          const char* call, source_location loc);
__device__ void get_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes, bool wait, group g,
                          const char* call, source_location loc);
__device__ void p_bits(const ctx& c, int pe, void* dest, std::uint64_t bits, unsigned bytes, const char* call,
                       source_location loc);
__device__ std::uint64_t g_bits(const ctx& c, int pe, const void* source, unsigned bytes, const char* call,
                                source_location loc);
__device__ std::uint64_t amo_bits(const ctx& c, int pe, amo_op op, void* dest, dtype type, std::uint64_t value,
                                  std::uint64_t cond, const char* call, source_location loc);
__device__ void put_signal_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes,
                                 std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, bool wait, group g,
                                 const char* call, source_location loc);
__device__ void complete_qps(const ctx& c, unsigned first, unsigned count, const char* call, source_location loc);
}  // namespace GIO_LIBRARY_ENTRIES_NAMESPACE
}  // namespace library
#if GIO_CALLS_DEVICE_LIBRARY
namespace entry = library;
#else
namespace entry = ::gio::transports::gda;
#endif

// Completes every operation this workgroup's context has posted (and any other posted earlier
// on the same QPs): data at the targets, fetched values home.
GIO_DEVICE void quiet(const ctx& c, const char* call, source_location loc) {
  const gda_table& t = table(c);
  entry::complete_qps(c, context_of(t) * t.qps_per_context, t.qps_per_context, call, loc);
}

// The same for every context of this PE: what a barrier and the host's quiet need, since the
// workgroups whose operations must be complete may have used any context (and a kernel's end
// does not complete a WQE: the NIC may still be working on it).
GIO_DEVICE void quiet_all(const ctx& c, const char* call, source_location loc) {
  const gda_table& t = table(c);
  entry::complete_qps(c, 0, t.contexts * t.qps_per_context, call, loc);
}

// ---- the typed forms the routed calls use: argument conversions, inlined ------------------------

template <class Coop> GIO_DEVICE constexpr group group_of() {
  if constexpr (std::is_same_v<Coop, coop::thread>) return group::thread;
  else if constexpr (std::is_same_v<Coop, coop::wave>) return group::wave;
  else {
    static_assert(std::is_same_v<Coop, coop::wg>, "a group is a thread, a wave or a workgroup");
    return group::wg;
  }
}
template <class Coop>
GIO_DEVICE void put(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes, bool wait, const char* call,
                    source_location loc) {
  entry::put_bytes(c, pe, dest, source, bytes, wait, group_of<Coop>(), call, loc);
}
template <class Coop>
GIO_DEVICE void get(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes, bool wait, const char* call,
                    source_location loc) {
  entry::get_bytes(c, pe, dest, source, bytes, wait, group_of<Coop>(), call, loc);
}
template <class T> GIO_DEVICE void p(const ctx& c, int pe, T* dest, T value, const char* call, source_location loc) {
  static_assert(sizeof(T) <= 8, "one element of at most 8 bytes");
  std::uint64_t bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  entry::p_bits(c, pe, dest, bits, sizeof(T), call, loc);
}
template <class T> GIO_DEVICE T g(const ctx& c, int pe, const T* source, const char* call, source_location loc) {
  static_assert(sizeof(T) <= 8, "one element of at most 8 bytes");
  const std::uint64_t bits = entry::g_bits(c, pe, source, sizeof(T), call, loc);
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}
template <class T>
GIO_DEVICE T amo(const ctx& c, int pe, amo_op op, T* dest, T value, T cond, const char* call, source_location loc) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "gio atomics work on 4- and 8-byte types");
  using U = platform::bits_t<T>;
  const auto bits = [](T v) { return static_cast<std::uint64_t>(platform::bit_cast<U>(v)); };
  const std::uint64_t old = entry::amo_bits(c, pe, op, dest, dtype_of<T>(), bits(value), bits(cond), call, loc);
  return platform::bit_cast<T>(static_cast<U>(old));
}
template <class Coop>
GIO_DEVICE void put_signal(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes,
                           std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, bool wait, const char* call,
                           source_location loc) {
  entry::put_signal_bytes(c, pe, dest, source, bytes, sig_addr, signal, sig_op, wait, group_of<Coop>(), call, loc);
}

// ---- the transport interface (transports/dispatch.hpp lists the members and their contracts) ----
// Every entry above ends with the group synchronised, so put and get need nothing more; push is
// not waited for (the sync after a data collective completes it); a strided call is one transfer
// per element, each complete on return.

struct ops {
  template <class Coop>
  GIO_DEVICE static void put(const ctx& c, const detail::peer_route& where, void* dest, const void* source,
                             std::size_t bytes, bool wait, const char* call, source_location loc) {
    gda::put<Coop>(c, where.world, dest, source, bytes, wait, call, loc);
  }
  template <class Coop>
  GIO_DEVICE static void get(const ctx& c, const detail::peer_route& where, void* dest, const void* source,
                             std::size_t bytes, bool wait, const char* call, source_location loc) {
    gda::get<Coop>(c, where.world, dest, source, bytes, wait, call, loc);
  }
  template <class Coop>
  GIO_DEVICE static void push(const ctx& c, const detail::peer_route& where, void* dest, const void* source,
                              std::size_t bytes, const char* call, source_location loc) {
    gda::put<Coop>(c, where.world, dest, source, bytes, false, call, loc);
  }
  template <class Coop>
  GIO_DEVICE static void pull(const ctx& c, const detail::peer_route& where, void* dest, const void* source,
                              std::size_t bytes, const char* call, source_location loc) {
    gda::get<Coop>(c, where.world, dest, source, bytes, true, call, loc);
  }
  template <class Coop>
  GIO_DEVICE static void strided(const ctx& c, const detail::peer_route& where, bool is_put, void* dest,
                                 const void* source, std::size_t dest_pitch, std::size_t source_pitch,
                                 std::size_t nelems, std::size_t elem_size, const char* call, source_location loc) {
    for (std::size_t i = Coop::rank(); i < nelems; i += Coop::size()) {
      char* d = static_cast<char*>(dest) + i * dest_pitch;
      const char* s = static_cast<const char*>(source) + i * source_pitch;
      if (is_put)
        gda::put<coop::thread>(c, where.world, d, s, elem_size, true, call, loc);
      else
        gda::get<coop::thread>(c, where.world, d, s, elem_size, true, call, loc);
    }
  }
  template <class T>
  GIO_DEVICE static void p(const ctx& c, const detail::peer_route& where, T* dest, T value, const char* call,
                           source_location loc) {
    gda::p(c, where.world, dest, value, call, loc);
  }
  template <class T>
  GIO_DEVICE static T g(const ctx& c, const detail::peer_route& where, const T* source, const char* call,
                        source_location loc) {
    return gda::g(c, where.world, source, call, loc);
  }
  template <class T>
  GIO_DEVICE static T amo(const ctx& c, const detail::peer_route& where, amo_op op, T* dest, T value, T cond,
                          const char* call, source_location loc) {
    return gda::amo(c, where.world, op, dest, value, cond, call, loc);
  }
  template <class Coop>
  GIO_DEVICE static void put_signal(const ctx& c, const detail::peer_route& where, void* dest, const void* source,
                                    std::size_t bytes, std::uint64_t* sig_addr, std::uint64_t signal, int sig_op,
                                    bool wait, const char* call, source_location loc) {
    gda::put_signal<Coop>(c, where.world, dest, source, bytes, sig_addr, signal, sig_op, wait, call, loc);
  }
  // After the caller's release fence: the context's earlier WQEs complete, then the signal's own.
  GIO_DEVICE static void signal_op(const ctx& c, const detail::peer_route& where, std::uint64_t* sig_addr,
                                   std::uint64_t signal, int sig_op, const char* call, source_location loc) {
    gda::quiet(c, call, loc);
    gda::amo(c, where.world, sig_op == SHMEM_SIGNAL_ADD ? amo_op::add : amo_op::set, sig_addr, signal,
             std::uint64_t{0}, call, loc);
  }
  GIO_DEVICE static bool in_use(const ctx& c) { return gda::in_use(c); }
  GIO_DEVICE static void quiet(const ctx& c, const char* call, source_location loc) { gda::quiet(c, call, loc); }
  GIO_DEVICE static void quiet_all(const ctx& c, const char* call, source_location loc) {
    gda::quiet_all(c, call, loc);
  }
};

}  // namespace gio::transports::gda
