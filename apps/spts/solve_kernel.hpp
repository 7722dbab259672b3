// The synchronisation-free triangular solve on the GPU (Liu et al., GIO §6.4), for the one-GPU
// (`single`) and the distributed (`gio`) variants. Compiled by nvcc or hipcc; vendor-neutral
// through gio's platform layer. Two kernels: solve_kernel ("rounds", any row length: this comment)
// and solve_slots_kernel ("slots", rows of at most slots_max_row entries: its own comment below).
// docs/spts.md explains the design; in short:
//
// * Work. Each wavefront takes a ticket of consecutive rows of its PE (one atomicAdd) and solves
//   them in sub-chunks: up to wave_size rows at a time, `group` lanes per row, where `group` is the
//   smallest power of two that gives every row of the sub-chunk at most entries_per_lane entries
//   per lane (thread per row for road networks, a whole wave for a hub row). Lanes read their
//   entries coalesced, four at a time, and a row's partial sums meet in shared memory.
// * Dependencies are found at run time: a lane polls x[col] until it is solved. x holds the bit
//   pattern `unsolved` (a signalling NaN, which arithmetic never produces) until its row is
//   solved, so value and ready flag are one 8-byte word (push mode `packed`); the flag modes
//   (`signal`, `fence`) keep a separate ready word. A dependency inside the sub-chunk is read from
//   shared memory, where its row's leader left it one round earlier.
// * Rounds. The lanes of a wave advance together in rounds (read what is ready, then the leaders
//   of rows whose entries are all read solve them): no lane ever spins while another lane of its
//   wave holds what it waits for, so the kernel needs neither independent thread scheduling
//   (NVIDIA) nor anything the wavefronts of AMD GPUs lack.
// * Progress. Rows of a PE are ticketed in increasing order and every row depends on smaller rows
//   only. The smallest unsolved row r overall has all its dependencies solved; if a wave holds it,
//   that wave solves it next round; if not, every ticket its PE handed out before holds rows < r,
//   all solved, so a wave of that PE takes r next. So waits only point at rows that are held by
//   running waves or will be taken, and an ordinary launch suffices (no co-residency needed).
// * Distribution (gio): a solved row is pushed to every PE that reads it (the host computed the
//   consumer set per row) with gio calls: shmem_p of the packed word, put-with-signal, p + fence +
//   p of a flag, or an atomic set. Every poll is on local memory.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/device.hpp"
#include "divisor.hpp"
#include "gio/platform/strong.hpp"
#include "variants.hpp"

namespace spts::gpu {

// x[i] until row i is solved: a signalling NaN (quiet bit clear, non-zero payload). Arithmetic
// only makes quiet NaNs, and inputs are finite, so no solved value has this pattern.
inline constexpr std::uint64_t unsolved = 0x7ff4deadbeef0001ull;

using spts::has_ready_flags;
using spts::push_mode;

inline constexpr unsigned block_threads = 128;
inline constexpr unsigned waves_per_block = block_threads / gio::platform::wave_size;
inline constexpr int entries_per_batch = 4;  // entries a lane has in flight at once

// Resident workgroups per multiprocessor a kernel is compiled for: what its `single` instance
// reaches unbounded, for the instances without gio's calls (`mapped` pushes keep a few more
// registers live; bounded, ptxas fits them without spilling on the rows' path). The `calls`
// instances stay unbounded: fitting their inlined calls into that bound spills on every round.
// HIP's second launch-bounds argument means something else: there the bound is the block alone.
template <push_mode Mode, push_path Path> inline constexpr int resident_wgs(int single_wgs) {
  return Mode == push_mode::none || Path == push_path::mapped ? single_wgs : 0;  // 0: no bound
}
#if defined(__CUDACC__)
#define SPTS_KERNEL_BOUNDS(...) __launch_bounds__(block_threads, (__VA_ARGS__))
#else
#define SPTS_KERNEL_BOUNDS(...) __launch_bounds__(block_threads)
#endif

// Set by the first wave that makes no progress for solve_args::timeout_ns (every wave then stops),
// or, indegree kernel, that finds an x word still unsolved that long after its row was handed out
// (stall_early_read), or a queue entry it claimed still unwritten that long (stall_lost_entry:
// first_row is the entry).
enum stall_kind : std::int32_t { no_stall = 0, stall_no_progress = 1, stall_early_read = 2, stall_lost_entry = 3 };
struct stall_report {
  std::int32_t stalled;      // a stall_kind
  std::int32_t first_row;    // the stalled sub-chunk's first global row
  std::int32_t rows;         // and its number of rows
  std::int32_t waiting_for;  // a column one of those rows waits for (-1: none seen)
};

// How the waves of the last solve advanced (--round-stats): summed over waves, and the largest
// count of one wave. A round is one read/solve step of a wave (either kernel). Each wave adds its
// counts once, when it leaves.
struct round_stats {
  unsigned long long waves;
  unsigned long long rounds;           // summed over waves
  unsigned long long solving_rounds;   // rounds in which the wave solved a row, summed over waves
  unsigned long long most_rounds;      // of one wave
  unsigned long long most_solving_rounds;  // of one wave (in gio a poller's idle rounds count in most_rounds)
  // The indegree kernel's timeline (--round-stats; %globaltimer ns, one clock for every PE of a
  // GPU): the first wave's entry, the first wave's exit, the exit that left half the waves gone,
  // the last wave's exit, the end of the last round that solved a row; and the rows taken from
  // the queue with how long each waited there since its entry was written (stamped in
  // indegree_args::queued_at).
  unsigned long long first_entry_ns, first_exit_ns, half_exit_ns, last_exit_ns, last_solve_ns, exits;
  unsigned long long queue_takes, queue_wait_ns, queue_wait_max_ns;
};

struct solve_args {
  const std::int32_t* row_ptr;  // this PE's rows (local numbering), strictly lower entries
  const std::int32_t* col;      // global column indices
  const double* val;
  const double* inv_diag;  // 1 / diagonal: a multiply on the critical path instead of a division
  const double* rhs;
  const std::uint64_t* consumers;  // per local row: PEs to push its x to (gio modes), else null
  const std::ptrdiff_t* peer_offsets;  // per PE: its heap's address here minus this PE's (push_path::mapped)
  std::uint64_t* x;                // n words, global numbering: `unsolved` or the solved value's bits
  std::uint64_t* ready;            // n words, 0 or 1 (flag modes), else null
  std::uint32_t* ticket;           // next local row to hand out; 0 before the solve
  stall_report* stall;             // {0, -1, 0, -1} before the solve
  round_stats* stats;              // zero before the solve
  std::int32_t rows;               // local rows
  divisor block;                   // block-cyclic layout (single: block = rows, pes = 1); a divisor,
  std::int32_t pes, pe;            // so that dividing by it is a multiply (global_row)
  std::int32_t rows_per_ticket;
  std::int32_t entries_per_lane;
  std::uint64_t timeout_ns;
  std::uint32_t backoff_ns;  // slots kernel: longest sleep of a wave that solved nothing (0: none)
};

namespace detail {

namespace platform = gio::platform;
constexpr unsigned wave_size = platform::wave_size;

// What the lanes of one wave share.
struct wave_state {
  volatile double partial[wave_size];         // each lane's part of its row's sum
  volatile std::uint64_t solved[wave_size];   // x words of the sub-chunk's rows
  volatile std::uint32_t blocked[wave_size];  // per row of the sub-chunk: a lane still has entries to read
  volatile std::uint32_t too_small;           // bit b: groups of 2^b lanes are too small for the sub-chunk
  volatile std::int32_t completed;            // rows of the sub-chunk solved
  volatile std::int32_t waiting_for;          // a column the sub-chunk waits for (stall reports)
  volatile std::int32_t ticket;
  volatile std::int32_t stop;  // the wave gives up (stall)
  // --round-stats, kept by lane 0 in shared memory (registers would cost the kernel occupancy).
  volatile std::uint32_t rounds, solving_rounds;
};

GIO_DEVICE double as_double(std::uint64_t bits) { return platform::bit_cast<double>(bits); }
GIO_DEVICE std::uint64_t as_bits(double value) { return platform::bit_cast<std::uint64_t>(value); }

GIO_DEVICE std::int32_t global_row(const solve_args& a, std::int32_t local) {
  return (a.block.quotient(local) * a.pes + a.pe) * a.block.value() + a.block.remainder(local);
}

// Lanes a row of `length` entries needs: a power of two giving each lane <= entries_per_lane.
GIO_DEVICE unsigned lanes_for(std::int32_t length, std::int32_t entries_per_lane) {
  unsigned lanes = 1;
  while (lanes < wave_size && static_cast<std::int64_t>(lanes) * entries_per_lane < length) lanes <<= 1;
  return lanes;
}

// How a kernel reaches other PEs' words. `calls`: gio's calls through a workgroup context (any
// transport, gda included). `mapped`: every PE's heap is mapped here (NVLink, PCIe, the same GPU;
// the host found each with shmem_ptr), so another PE's word is this PE's address plus that PE's
// offset, and a push is the relaxed system-scope store, a count-off the system-scope atomic,
// that shmem_p and the atomics issue on that path. No context and no per-call route: the inlined
// calls' registers cost the gio kernels half their resident workgroups (docs/spts.md, "Occupancy").
template <push_mode Mode, push_path Path> class peers {
 public:
  static_assert(Path == push_path::calls || Mode == push_mode::packed, "mapped pushes are packed stores");
  GIO_DEVICE peers(const solve_args& a, const gio::device_handle& handle, gio::ctx& storage) {
    if constexpr (Mode != push_mode::none && Path == push_path::calls) ctx_ = &gio::ctx_create_wg(handle, storage);
    (void)handle, (void)storage;
    offsets_ = a.peer_offsets;
  }
  GIO_DEVICE const gio::ctx& ctx() const { return *ctx_; }  // the flag and atomic push modes' calls

  template <class T> GIO_DEVICE void p(T* word, T value, int pe) const {
    if constexpr (Path == push_path::calls) gio::shmem_p(*ctx_, word, value, pe);
    else platform::st_relaxed_sys(at(word, pe), value);
  }
  GIO_DEVICE std::int32_t fetch_add(std::int32_t* word, std::int32_t value, int pe) const {
    if constexpr (Path == push_path::calls) {
      return gio::shmem_atomic_fetch_add(*ctx_, word, value, pe);
    } else {
      const auto bits = platform::atomic_rmw_sys_bits<platform::rmw::add>(reinterpret_cast<std::uint32_t*>(at(word, pe)),
                                                                         static_cast<std::uint32_t>(value));
      return static_cast<std::int32_t>(bits);
    }
  }
  GIO_DEVICE std::uint32_t fetch_inc(std::uint32_t* word, int pe) const {
    if constexpr (Path == push_path::calls) return gio::shmem_atomic_fetch_inc(*ctx_, word, pe);
    else return platform::atomic_rmw_sys_bits<platform::rmw::add>(at(word, pe), std::uint32_t{1});
  }
  // This thread's pushes complete (before the kernel ends).
  GIO_DEVICE void quiet() const {
    if constexpr (Path == push_path::calls) gio::shmem_quiet(*ctx_);
    else platform::fence_acq_rel_system();
  }

 private:
  template <class T> GIO_DEVICE T* at(T* word, int pe) const {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(word) + offsets_[pe]);
  }
  const gio::ctx* ctx_ = nullptr;
  const std::ptrdiff_t* offsets_ = nullptr;
};

template <class Body>
GIO_DEVICE void for_each_pe(std::uint64_t pes, const Body& body) {
  for (int pe = 0; pes != 0; ++pe, pes >>= 1)
    if (pes & 1u) body(pe);
}

// The solved row's value to this PE's x, then to every consumer PE.
template <push_mode Mode, push_path Path>
GIO_DEVICE void publish(const solve_args& a, const peers<Mode, Path>& to, std::int32_t row, std::uint64_t bits,
                        std::uint64_t consumers) {
  std::uint64_t* const x = a.x + row;
  platform::st_relaxed_sys(x, bits);
  if constexpr (has_ready_flags<Mode>) platform::st_release_sys(a.ready + row, std::uint64_t{1});
  if constexpr (Mode == push_mode::none) {
    (void)to, (void)consumers;
  } else {
    for_each_pe(consumers, [&](int pe) {
      if constexpr (Mode == push_mode::packed || Mode == push_mode::fence) to.p(x, bits, pe);
      if constexpr (Mode == push_mode::amo) gio::shmem_atomic_set(to.ctx(), x, bits, pe);
      if constexpr (Mode == push_mode::signal)
        gio::shmem_put_signal(to.ctx(), x, &bits, 1, a.ready + row, std::uint64_t{1}, gio::SHMEM_SIGNAL_SET, pe);
    });
    if constexpr (Mode == push_mode::fence) {
      if (consumers != 0) {
        gio::shmem_fence(to.ctx());  // the values before the flags, at every consumer
        for_each_pe(consumers, [&](int pe) { to.p(a.ready + row, std::uint64_t{1}, pe); });
      }
    }
  }
}

// The first report wins; later ones are dropped.
GIO_DEVICE void record_stall(const solve_args& a, stall_kind kind, std::int32_t first_row, std::int32_t rows,
                             std::int32_t waiting_for) {
  if (atomicCAS(&a.stall->stalled, no_stall, kind) == no_stall) {
    a.stall->first_row = first_row;
    a.stall->rows = rows;
    a.stall->waiting_for = waiting_for;
  }
}

// Called by one lane of a wave that has solved nothing for a while (`stalled_since`: 0, or when
// that began): whether the wave must stop, because another wave gave up or because it has waited
// longer than timeout_ns itself (then the first wave to give up reports what it holds).
GIO_DEVICE bool should_stop(const solve_args& a, std::uint64_t& stalled_since, std::int32_t first_row,
                            std::int32_t rows, std::int32_t waiting_for) {
  const std::uint64_t now = platform::timer_ns();
  if (stalled_since == 0) stalled_since = now;
  if (platform::ld_relaxed_sys(&a.stall->stalled) != no_stall) return true;
  if (now - stalled_since <= a.timeout_ns) return false;
  record_stall(a, stall_no_progress, first_row, rows, waiting_for);
  return true;
}

// Lane 0 of a leaving wave adds its round counts.
GIO_DEVICE void count_rounds(const solve_args& a, unsigned lane, std::uint32_t rounds, std::uint32_t solving_rounds) {
  if (lane != 0) return;
  atomicAdd(&a.stats->waves, 1ull);
  atomicAdd(&a.stats->rounds, static_cast<unsigned long long>(rounds));
  atomicAdd(&a.stats->solving_rounds, static_cast<unsigned long long>(solving_rounds));
  atomicMax(&a.stats->most_rounds, static_cast<unsigned long long>(rounds));
  atomicMax(&a.stats->most_solving_rounds, static_cast<unsigned long long>(solving_rounds));
}

}  // namespace detail

template <push_mode Mode, push_path Path = push_path::calls>
__global__ void SPTS_KERNEL_BOUNDS(resident_wgs<Mode, Path>(10)) solve_kernel(solve_args a, gio::device_handle handle) {
  using namespace detail;
  __shared__ wave_state waves[waves_per_block];
  __shared__ gio::ctx ctx_storage;
  const peers<Mode, Path> to(a, handle, ctx_storage);  // the whole workgroup

  const unsigned lane = platform::lane();
  wave_state& ws = waves[platform::thread_in_wg() / wave_size];
  ws.blocked[lane] = 0;
  if (lane == 0) ws.rounds = 0, ws.solving_rounds = 0;
  bool pushed = false;

  for (;;) {
    if (lane == 0)
      ws.ticket = static_cast<std::int32_t>(atomicAdd(a.ticket, static_cast<std::uint32_t>(a.rows_per_ticket)));
    platform::wave_barrier();
    const std::int32_t first = ws.ticket;
    if (first >= a.rows) break;
    const std::int32_t last = a.rows - first < a.rows_per_ticket ? a.rows : first + a.rows_per_ticket;

    for (std::int32_t start = first; start < last;) {
      // Plan the sub-chunk: rows start.. of one block (so they are consecutive globally too).
      const std::int64_t block_end = (static_cast<std::int64_t>(a.block.quotient(start)) + 1) * a.block.value();
      std::int32_t available = static_cast<std::int32_t>((block_end < last ? block_end : last) - start);
      if (available > static_cast<std::int32_t>(wave_size)) available = wave_size;
      if (lane == 0) ws.too_small = 0, ws.completed = 0, ws.waiting_for = -1;
      platform::wave_barrier();
      if (static_cast<std::int32_t>(lane) < available) {
        const std::int32_t length = a.row_ptr[start + lane + 1] - a.row_ptr[start + lane];
        const unsigned need = lanes_for(length, a.entries_per_lane);
        std::uint32_t too_small = 0;
        for (unsigned lanes = 1, b = 0; lanes < need; lanes <<= 1, ++b)
          if (lane * lanes < wave_size) too_small |= 1u << b;  // this row is among the first wave_size / lanes
        if (too_small) atomicOr(const_cast<std::uint32_t*>(&ws.too_small), too_small);
      }
      platform::wave_barrier();
      unsigned group = 1;
      for (std::uint32_t bits = ws.too_small; bits & 1u; bits >>= 1) group <<= 1;
      const std::int32_t count =
          available < static_cast<std::int32_t>(wave_size / group) ? available : wave_size / group;

      // This lane's row and entries.
      const std::int32_t slot = static_cast<std::int32_t>(lane / group);  // row of the sub-chunk
      const unsigned rank = lane % group;
      const bool has_row = slot < count;
      const std::int32_t local = start + slot;
      const std::int32_t first_global = global_row(a, start);
      std::int32_t k = 0, end = 0;
      double rhs = 0, inv_diag = 1;
      std::uint64_t consumers = 0;
      if (has_row) {
        k = a.row_ptr[local] + static_cast<std::int32_t>(rank);
        end = a.row_ptr[local + 1];
        if (rank == 0) {
          rhs = a.rhs[local], inv_diag = a.inv_diag[local];
          if constexpr (Mode != push_mode::none) consumers = a.consumers[local];
        }
      }
      if (static_cast<std::int32_t>(lane) < count) ws.solved[lane] = unsolved;
      double sum = 0;
      bool solved = false;
      std::int32_t seen_completed = 0;
      std::uint32_t idle_rounds = 0;
      std::uint64_t stalled_since = 0;
      platform::wave_barrier();

      for (;;) {
        // Read the entries whose x is ready, in order, a batch at a time.
        if (has_row) {
          while (k < end) {
            std::int32_t column[entries_per_batch];
            double value[entries_per_batch];
            std::uint64_t word[entries_per_batch];
#pragma unroll
            for (int i = 0; i < entries_per_batch; ++i) {
              const std::int32_t ki = k + i * static_cast<std::int32_t>(group);
              column[i] = ki < end ? a.col[ki] : -1;
              value[i] = ki < end ? a.val[ki] : 0.0;
            }
#pragma unroll
            for (int i = 0; i < entries_per_batch; ++i) {
              const std::int32_t c = column[i];
              const std::uint32_t in_chunk = static_cast<std::uint32_t>(c - first_global);
              if (c < 0)
                word[i] = unsolved;
              else if (in_chunk < static_cast<std::uint32_t>(count))
                word[i] = ws.solved[in_chunk];
              else if constexpr (has_ready_flags<Mode>)
                word[i] = platform::ld_relaxed_sys(a.ready + c) != 0 ? 0 : unsolved;  // x after the fence below
              else
                word[i] = platform::ld_relaxed_sys(a.x + c);
            }
            // Entries before the first unsolved one can be used (indices stay compile-time
            // constants after unrolling, so the batch lives in registers).
            int ready = entries_per_batch;
            std::int32_t waiting = -1;
#pragma unroll
            for (int i = entries_per_batch - 1; i >= 0; --i)
              if (word[i] == unsolved) ready = i, waiting = column[i];
            if constexpr (has_ready_flags<Mode>) {
              // Flags seen set: acquire, then read the values they guard.
              bool remote = false;
#pragma unroll
              for (int i = 0; i < entries_per_batch; ++i)
                remote |= i < ready &&
                          static_cast<std::uint32_t>(column[i] - first_global) >= static_cast<std::uint32_t>(count);
              if (remote) platform::fence_acq_rel_system();
#pragma unroll
              for (int i = 0; i < entries_per_batch; ++i)
                if (i < ready &&
                    static_cast<std::uint32_t>(column[i] - first_global) >= static_cast<std::uint32_t>(count))
                  word[i] = platform::ld_relaxed_sys(a.x + column[i]);
            }
#pragma unroll
            for (int i = 0; i < entries_per_batch; ++i)
              if (i < ready) sum += value[i] * as_double(word[i]);
            k += ready * static_cast<std::int32_t>(group);
            if (ready < entries_per_batch) {
              if (k < end) {  // the row's lanes may all get here in one round: atomic, not racing stores
                atomicExch(const_cast<std::uint32_t*>(&ws.blocked[slot]), 1u);
                atomicExch(const_cast<std::int32_t*>(&ws.waiting_for), waiting);
              }
              break;
            }
          }
          ws.partial[lane] = sum;
        }
        platform::wave_barrier();
        // Leaders of rows whose lanes have read everything solve and publish them.
        if (has_row && rank == 0 && !solved) {
          if (ws.blocked[slot]) {
            ws.blocked[slot] = 0;
          } else {
            double total = 0;
            for (unsigned i = 0; i < group; ++i) total += ws.partial[lane + i];
            const std::uint64_t bits = as_bits((rhs - total) * inv_diag);
            const std::int32_t row = first_global + slot;
            publish(a, to, row, bits, consumers);
            pushed |= consumers != 0;
            ws.solved[slot] = bits;
            solved = true;
            atomicAdd(const_cast<std::int32_t*>(&ws.completed), 1);
          }
        }
        platform::wave_barrier();
        const std::int32_t completed = ws.completed;
        if (lane == 0) ws.rounds = ws.rounds + 1, ws.solving_rounds = ws.solving_rounds + (completed != seen_completed);
        if (completed == count) break;
        if (completed != seen_completed) {
          seen_completed = completed;
          idle_rounds = 0, stalled_since = 0;
          continue;
        }
        // No row solved for a while: give up after timeout_ns without progress, or when another
        // wave gave up. Checked every 64 idle rounds (a global load on the polling path costs a
        // round trip); one lane decides, so the whole wave leaves together.
        if (++idle_rounds % 64 != 0) continue;
        if (lane == 0) ws.stop = should_stop(a, stalled_since, first_global, count, ws.waiting_for);
        platform::wave_barrier();
        if (ws.stop) return count_rounds(a, lane, ws.rounds, ws.solving_rounds);
      }
      platform::wave_barrier();  // the sub-chunk's shared state is read; the next may reset it
      start += count;
    }
  }
  count_rounds(a, lane, ws.rounds, ws.solving_rounds);
  if constexpr (Mode != push_mode::none)
    if (pushed) to.quiet();  // this thread's pushes complete before the kernel ends
}

// ---- the slots kernel: rows of at most slots_max_row entries (road networks, circuits) ----------
//
// Each lane holds up to slots_per_lane rows of its own in *slots*: per slot the row, a cursor to
// its first unread entry and that entry's column, and b minus the sum of the entries read so far,
// all in registers. Every round each lane, for every occupied slot, polls the x word of the first
// unread entry only (one load in flight per slot, none for a solved entry twice); when it is
// solved the lane reads on through the row, a batch of loads at a time, until an unsolved entry
// or the end, where it solves the row (x = (b - sum) * inv_diag), publishes it and frees the slot.
// A lane re-fills its free slots from the wave's ticket (rows_per_ticket consecutive rows), lanes
// taking the ticket's rows in increasing order with a shared-memory atomicAdd; when the ticket is
// used up and a lane has a free slot, lane 0 takes the next ticket. No barrier over a ticket: a
// blocked row holds only its own slot. A row's dependency solved by the same lane earlier in the
// round is forwarded in a register; any other is read from x in global memory (a lane's loads
// after its own store see it). A wave that solved nothing in a round sleeps briefly (longer the
// longer it waits, up to solve_args::backoff_ns) to take polls off L2.
//
// Progress: a PE hands out its rows in increasing order (tickets in order, a ticket's rows in
// order), every dependency is a smaller row, and a lane never spins: it only polls, once per slot
// and round. Take the smallest unsolved row r of all PEs: everything it reads is solved. If r is in
// a slot, its lane reads its entries within a round or two and solves it. If r is in a wave's
// ticket but in no slot, every row in that wave's slots was handed out before r, so is smaller and
// solved: its slots free up and r is put in one. If r is in no ticket yet, every row handed out by
// its PE is smaller and solved, so the waves' slots and tickets empty and one of them takes r's
// ticket (a wave leaves only when its PE has no rows left and its slots are empty). As with the
// rounds kernel, an ordinary launch suffices.

inline constexpr int slots_per_lane = 4;
// Longest row (strictly lower entries) the host gives the slots kernel; longer rows want more
// than one lane (the rounds kernel).
inline constexpr std::int32_t slots_max_row = 16;
// The default ticket: four rows per slot of a wave, 512 rows on NVIDIA (the schedule replay's best
// with the waves resident on an H100/H200; docs/spts.md, "Ticket size").
inline constexpr std::int32_t slots_rows_per_ticket = 4 * static_cast<std::int32_t>(detail::wave_size) * slots_per_lane;
inline constexpr unsigned slots_backoff_min_ns = 32;  // the first quiet round's sleep; doubles up to solve_args::backoff_ns

namespace detail {

// What the lanes of one wave of the slots kernel share. Lanes write the round's flags; lane 0 reads
// and clears them between the round's two barriers and leaves its decisions in `advanced`/`leave`.
struct slots_wave {
  volatile std::int32_t next, last;  // the wave's ticket rows not yet in a slot: [next, last)
  volatile std::int32_t hungry;      // a lane had a free slot and no row for it
  volatile std::int32_t busy;        // a lane holds a row after the round
  volatile std::int32_t progress;    // a lane solved a row in the round
  volatile std::int32_t drained;     // the PE's ticket counter is past its rows
  volatile std::int32_t advanced;    // lane 0's decision: the wave solved a row or took a ticket
  volatile std::int32_t leave;       // lane 0's decision: 1 done, 2 stalled
  volatile std::uint32_t rounds, solving_rounds;  // --round-stats, kept by lane 0 (see wave_state)
  volatile std::uint64_t waiting;    // (global row << 32) | column, of a row seen blocked (stall report)
};

// The x word of column c if it is solved, else `unsolved` (flag modes: the ready word, then x
// after an acquire fence).
template <push_mode Mode>
GIO_DEVICE std::uint64_t poll_x(const solve_args& a, std::int32_t c) {
  if constexpr (has_ready_flags<Mode>) {
    if (platform::ld_relaxed_sys(a.ready + c) == 0) return unsolved;
    platform::fence_acq_rel_system();
  }
  return platform::ld_relaxed_sys(a.x + c);
}

}  // namespace detail

template <push_mode Mode, push_path Path = push_path::calls>
__global__ void SPTS_KERNEL_BOUNDS(resident_wgs<Mode, Path>(6)) solve_slots_kernel(solve_args a, gio::device_handle handle) {
  using namespace detail;
  constexpr int slots = slots_per_lane;
  __shared__ slots_wave waves[waves_per_block];
  __shared__ gio::ctx ctx_storage;
  const peers<Mode, Path> to(a, handle, ctx_storage);  // the whole workgroup

  const unsigned lane = platform::lane();
  slots_wave& ws = waves[platform::thread_in_wg() / wave_size];
  if (lane == 0) {
    ws.next = 0, ws.last = 0, ws.hungry = 0, ws.busy = 0, ws.progress = 0, ws.drained = 0;
    ws.advanced = 0, ws.leave = 0, ws.waiting = ~std::uint64_t{0};
    ws.rounds = 0, ws.solving_rounds = 0;
  }
  platform::wave_barrier();

  // The slots (indices are compile-time constants after unrolling, so they live in registers).
  std::int32_t row[slots];     // local row, -1: free
  std::int32_t k[slots];       // its first unread entry
  std::int32_t column[slots];  // that entry's column, -1: every entry read
  std::int32_t end[slots];
  double weight[slots];        // that entry's value
  double left[slots];          // b - the entries read so far
  double inv_diag[slots];
#pragma unroll
  for (int s = 0; s < slots; ++s)
    row[s] = -1, k[s] = 0, column[s] = -1, end[s] = 0, weight[s] = 0, left[s] = 0, inv_diag[s] = 1;
  bool pushed = false;
  std::uint32_t quiet_rounds = 0;   // rounds since the wave last advanced (every lane's count)
  std::uint64_t stalled_since = 0;  // lane 0's

  for (;;) {
    // Free slots take the ticket's next rows.
    int free_slots = 0;
#pragma unroll
    for (int s = 0; s < slots; ++s) free_slots += row[s] < 0;
    if (free_slots != 0) {
      std::int32_t given = 0, next = 0;
      if (ws.next < ws.last) {
        next = atomicAdd(const_cast<std::int32_t*>(&ws.next), free_slots);
        const std::int32_t left_in_ticket = ws.last - next;
        given = left_in_ticket < free_slots ? (left_in_ticket > 0 ? left_in_ticket : 0) : free_slots;
      }
      if (given < free_slots) ws.hungry = 1;
#pragma unroll
      for (int s = 0; s < slots; ++s) {
        if (row[s] < 0 && given > 0) {
          const std::int32_t local = next++;
          --given;
          row[s] = local;
          k[s] = a.row_ptr[local];
          end[s] = a.row_ptr[local + 1];
          column[s] = k[s] < end[s] ? a.col[k[s]] : -1;
          weight[s] = k[s] < end[s] ? a.val[k[s]] : 0.0;
          left[s] = a.rhs[local];
          inv_diag[s] = a.inv_diag[local];
        }
      }
    }

    // Poll each held row's first unread entry (all slots' loads in flight together).
    std::uint64_t word[slots];
#pragma unroll
    for (int s = 0; s < slots; ++s) word[s] = row[s] >= 0 && column[s] >= 0 ? poll_x<Mode>(a, column[s]) : unsolved;

    bool solved_any = false, busy = false;
    std::int32_t fresh_row = -1;  // the global row this lane solved last in this round, and its x
    std::uint64_t fresh_bits = 0;
#pragma unroll
    for (int s = 0; s < slots; ++s) {
      if (row[s] < 0) continue;
      if (column[s] >= 0) {
        std::uint64_t w = word[s];
        if (w == unsolved && column[s] == fresh_row) w = fresh_bits;
        if (w == unsolved) {
          busy = true;
          ws.waiting = static_cast<std::uint64_t>(global_row(a, row[s])) << 32 | static_cast<std::uint32_t>(column[s]);
          continue;
        }
        left[s] -= weight[s] * as_double(w);
        ++k[s];
        column[s] = -1;
        // The rest of the row, a batch at a time, up to its first unsolved entry.
        while (k[s] < end[s]) {
          std::int32_t c[entries_per_batch];
          double value[entries_per_batch];
          std::uint64_t x[entries_per_batch];
#pragma unroll
          for (int i = 0; i < entries_per_batch; ++i) {
            const std::int32_t ki = k[s] + i;
            c[i] = ki < end[s] ? a.col[ki] : -1;
            value[i] = ki < end[s] ? a.val[ki] : 0.0;
          }
#pragma unroll
          for (int i = 0; i < entries_per_batch; ++i) x[i] = c[i] >= 0 ? poll_x<Mode>(a, c[i]) : unsolved;
          int ready = entries_per_batch;
          std::int32_t blocked_on = -1;
#pragma unroll
          for (int i = entries_per_batch - 1; i >= 0; --i)
            if (x[i] == unsolved) ready = i, blocked_on = c[i];
#pragma unroll
          for (int i = 0; i < entries_per_batch; ++i)
            if (i < ready) left[s] -= value[i] * as_double(x[i]);
          k[s] += ready;
          if (ready < entries_per_batch) {
            column[s] = blocked_on;  // -1 when the row ended inside the batch
#pragma unroll
            for (int i = 0; i < entries_per_batch; ++i)
              if (i == ready) weight[s] = value[i];
            break;
          }
        }
        if (column[s] >= 0) {
          busy = true;
          ws.waiting = static_cast<std::uint64_t>(global_row(a, row[s])) << 32 | static_cast<std::uint32_t>(column[s]);
          continue;
        }
      }
      // Every entry read: solve, publish, free the slot.
      const std::uint64_t bits = as_bits(left[s] * inv_diag[s]);
      const std::int32_t global = global_row(a, row[s]);
      std::uint64_t consumers = 0;
      if constexpr (Mode != push_mode::none) consumers = a.consumers[row[s]];
      publish(a, to, global, bits, consumers);
      pushed |= consumers != 0;
      fresh_row = global, fresh_bits = bits;
      solved_any = true;
      row[s] = -1;
    }
    if (solved_any) ws.progress = 1;
    if (busy) ws.busy = 1;
    platform::wave_barrier();

    // Lane 0: a new ticket when a lane wants rows and the ticket is used up; leave when the PE has
    // no rows left and no lane holds one; stop after timeout_ns without progress (checked every 64
    // quiet rounds, off the fast path) or when another wave stopped.
    if (lane == 0) {
      std::int32_t advanced = ws.progress;
      ws.rounds = ws.rounds + 1, ws.solving_rounds = ws.solving_rounds + (advanced != 0);
      ws.progress = 0;
      if (ws.hungry && ws.next >= ws.last && !ws.drained) {
        const std::uint32_t first = atomicAdd(a.ticket, static_cast<std::uint32_t>(a.rows_per_ticket));
        if (first >= static_cast<std::uint32_t>(a.rows)) {
          ws.drained = 1;
        } else {
          const std::int32_t begin = static_cast<std::int32_t>(first);
          ws.last = a.rows - begin < a.rows_per_ticket ? a.rows : begin + a.rows_per_ticket;
          ws.next = begin;
          advanced = 1;
        }
      }
      ws.hungry = 0;
      std::int32_t leave = ws.drained && !ws.busy ? 1 : 0;
      ws.busy = 0;
      if (advanced) {
        stalled_since = 0;
        ws.waiting = ~std::uint64_t{0};  // lanes still blocked name themselves again
      } else if ((quiet_rounds + 1) % 64 == 0) {
        const std::uint64_t waiting = ws.waiting;
        const bool blocked = waiting != ~std::uint64_t{0};
        if (should_stop(a, stalled_since, blocked ? static_cast<std::int32_t>(waiting >> 32) : -1, blocked ? 1 : 0,
                        blocked ? static_cast<std::int32_t>(waiting & 0xffffffffu) : -1))
          leave = 2;
      }
      ws.advanced = advanced;
      ws.leave = leave;
    }
    platform::wave_barrier();
    const std::int32_t leave = ws.leave;
    if (leave == 2) return count_rounds(a, lane, ws.rounds, ws.solving_rounds);
    if (leave == 1) break;
    if (ws.advanced) {
      quiet_rounds = 0;
    } else {
      ++quiet_rounds;
      const unsigned shift = quiet_rounds < 8 ? quiet_rounds - 1 : 7;
      const unsigned ns = slots_backoff_min_ns << shift;
      if (a.backoff_ns != 0) platform::sleep_ns(ns < a.backoff_ns ? ns : a.backoff_ns);
    }
  }
  count_rounds(a, lane, ws.rounds, ws.solving_rounds);
  if constexpr (Mode != push_mode::none)
    if (pushed) to.quiet();  // this thread's pushes complete before the kernel ends
}

// Before each solve: words = value (x = unsolved, ready = 0); the ticket, the stall report and the
// round counts cleared where given.
__global__ void reset_kernel(std::uint64_t* words, std::int64_t count, std::uint64_t value, std::uint32_t* ticket,
                             stall_report* stall, round_stats* stats) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    words[i] = value;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (ticket) *ticket = 0;
    if (stall) *stall = stall_report{no_stall, -1, 0, -1};
    if (stats) *stats = round_stats{}, stats->first_entry_ns = ~0ull, stats->first_exit_ns = ~0ull;
  }
}

}  // namespace spts::gpu
