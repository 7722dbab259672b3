// The synchronisation-free triangular solve on the GPU (Liu et al., GIO §6.4), one kernel for the
// one-GPU (`single`) and the distributed (`gio`) variants. Compiled by nvcc or hipcc; vendor-neutral
// through gio's platform layer. docs/spts.md explains the design; in short:
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
#include <cstdint>

#include "gio/device.hpp"
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

// Set by the first wave that makes no progress for solve_args::timeout_ns; every wave then stops.
struct stall_report {
  std::int32_t stalled;
  std::int32_t first_row;    // the stalled sub-chunk's first global row
  std::int32_t rows;         // and its number of rows
  std::int32_t waiting_for;  // a column one of those rows waits for (-1: none seen)
};

struct solve_args {
  const std::int32_t* row_ptr;  // this PE's rows (local numbering), strictly lower entries
  const std::int32_t* col;      // global column indices
  const double* val;
  const double* inv_diag;  // 1 / diagonal: a multiply on the critical path instead of a division
  const double* rhs;
  const std::uint64_t* consumers;  // per local row: PEs to push its x to (gio modes), else null
  std::uint64_t* x;                // n words, global numbering: `unsolved` or the solved value's bits
  std::uint64_t* ready;            // n words, 0 or 1 (flag modes), else null
  std::uint32_t* ticket;           // next local row to hand out; 0 before the solve
  stall_report* stall;             // {0, -1, 0, -1} before the solve
  std::int32_t rows;               // local rows
  std::int32_t block, pes, pe;     // block-cyclic layout (single: block = rows, pes = 1)
  std::int32_t rows_per_ticket;
  std::int32_t entries_per_lane;
  std::uint64_t timeout_ns;
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
};

GIO_DEVICE double as_double(std::uint64_t bits) { return platform::bit_cast<double>(bits); }
GIO_DEVICE std::uint64_t as_bits(double value) { return platform::bit_cast<std::uint64_t>(value); }

GIO_DEVICE std::int32_t global_row(const solve_args& a, std::int32_t local) {
  const std::int32_t local_block = local / a.block;
  return (local_block * a.pes + a.pe) * a.block + local % a.block;
}

// Lanes a row of `length` entries needs: a power of two giving each lane <= entries_per_lane.
GIO_DEVICE unsigned lanes_for(std::int32_t length, std::int32_t entries_per_lane) {
  unsigned lanes = 1;
  while (lanes < wave_size && static_cast<std::int64_t>(lanes) * entries_per_lane < length) lanes <<= 1;
  return lanes;
}

template <class Body>
GIO_DEVICE void for_each_pe(std::uint64_t pes, const Body& body) {
  for (int pe = 0; pes != 0; ++pe, pes >>= 1)
    if (pes & 1u) body(pe);
}

// The solved row's value to this PE's x, then to every consumer PE.
template <push_mode Mode>
GIO_DEVICE void publish(const solve_args& a, const gio::ctx* ctx, std::int32_t row, std::uint64_t bits,
                        std::uint64_t consumers) {
  std::uint64_t* const x = a.x + row;
  platform::st_relaxed_sys(x, bits);
  if constexpr (has_ready_flags<Mode>) platform::st_release_sys(a.ready + row, std::uint64_t{1});
  if constexpr (Mode == push_mode::none) {
    (void)ctx, (void)consumers;
  } else {
    for_each_pe(consumers, [&](int pe) {
      if constexpr (Mode == push_mode::packed || Mode == push_mode::fence) gio::shmem_p(*ctx, x, bits, pe);
      if constexpr (Mode == push_mode::amo) gio::shmem_atomic_set(*ctx, x, bits, pe);
      if constexpr (Mode == push_mode::signal)
        gio::shmem_put_signal(*ctx, x, &bits, 1, a.ready + row, std::uint64_t{1}, gio::SHMEM_SIGNAL_SET, pe);
    });
    if constexpr (Mode == push_mode::fence) {
      if (consumers != 0) {
        gio::shmem_fence(*ctx);  // the values before the flags, at every consumer
        for_each_pe(consumers, [&](int pe) { gio::shmem_p(*ctx, a.ready + row, std::uint64_t{1}, pe); });
      }
    }
  }
}

}  // namespace detail

template <push_mode Mode>
__global__ void __launch_bounds__(block_threads) solve_kernel(solve_args a, gio::device_handle handle) {
  using namespace detail;
  __shared__ wave_state waves[waves_per_block];
  __shared__ gio::ctx ctx_storage;
  const gio::ctx* ctx = nullptr;
  if constexpr (Mode != push_mode::none) ctx = &gio::ctx_create_wg(handle, ctx_storage);  // whole workgroup
  (void)handle;

  const unsigned lane = platform::lane();
  wave_state& ws = waves[platform::thread_in_wg() / wave_size];
  ws.blocked[lane] = 0;
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
      const std::int64_t block_end = (static_cast<std::int64_t>(start) / a.block + 1) * a.block;
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
              if (k < end) ws.blocked[slot] = 1, ws.waiting_for = waiting;
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
            publish<Mode>(a, ctx, row, bits, consumers);
            pushed |= consumers != 0;
            ws.solved[slot] = bits;
            solved = true;
            atomicAdd(const_cast<std::int32_t*>(&ws.completed), 1);
          }
        }
        platform::wave_barrier();
        const std::int32_t completed = ws.completed;
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
        if (lane == 0) {
          const std::uint64_t now = platform::timer_ns();
          if (stalled_since == 0) stalled_since = now;
          std::int32_t stop = platform::ld_relaxed_sys(&a.stall->stalled) != 0;
          if (!stop && now - stalled_since > a.timeout_ns) {
            stop = 1;
            if (atomicCAS(&a.stall->stalled, 0, 1) == 0) {
              a.stall->first_row = first_global;
              a.stall->rows = count;
              a.stall->waiting_for = ws.waiting_for;
            }
          }
          ws.stop = stop;
        }
        platform::wave_barrier();
        if (ws.stop) return;
      }
      platform::wave_barrier();  // the sub-chunk's shared state is read; the next may reset it
      start += count;
    }
  }
  if constexpr (Mode != push_mode::none)
    if (pushed) gio::shmem_quiet(*ctx);  // this thread's pushes complete before the kernel ends
}

// Before each solve: words = value (x = unsolved, ready = 0); the ticket and the stall report
// cleared where given.
__global__ void reset_kernel(std::uint64_t* words, std::int64_t count, std::uint64_t value, std::uint32_t* ticket,
                             stall_report* stall) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    words[i] = value;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (ticket) *ticket = 0;
    if (stall) *stall = stall_report{0, -1, 0, -1};
  }
}

}  // namespace spts::gpu
