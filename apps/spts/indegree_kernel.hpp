// The in-degree kernel (`--kernel indegree`, the `single` variant): the dependency counting of
// Liu et al.'s sync-free solve (each row counts its unsolved entries; solving a row decrements the
// counts of the rows that read it) with the row handed to whoever solves its last dependency,
// instead of a wave that holds the row and polls until the count reaches zero. No row waits in a
// window of rows in flight, which is what costs the polling kernels the road networks
// (docs/spts.md, "Why the road class misses" and "The indegree kernel").
//
// * Work. A lane solves one row per round. Rows come from, in this order: the row the lane made
//   ready itself in the previous round (a chain stays on its lane); the wave's stack in shared
//   memory (further rows the wave's lanes made ready); the wave's range of roots (rows with no
//   strictly lower entry, handed out in tickets); once the roots are all handed out, the global
//   queue (rows made ready when their wave's stack was full).
// * Solving reads every entry's x once: all are solved when the row is handed out, so nothing is
//   polled. CSR (the gather) gives the values; the dependents lists (CSR's transpose, built by the
//   host once per matrix and not timed, like the vendor's analysis) say whose counts to decrement.
// * Order, without fences. A lane stores x[r] and decrements its readers' counts with no fence
//   between: the counts only say when to read. x[r] is value and flag in one 8-byte word
//   (`unsolved` until the store lands, as in the polling kernels), so a reader that sees any other
//   word has the value, and one that sees `unsolved` reads again: the store was issued before the
//   decrement and is on its way (no lane waits for another lane's progress, only for a store in
//   flight). Still `unsolved` after --timeout is reported as an ordering bug. Two fences per row
//   (release before the decrements, acquire after) cost about a third of the round.
// * Progress. Nobody waits for a row: every row is solved by the lane that takes it in the round it
//   takes it. A root is in a ticket until a wave takes it. A row made ready is held by the running
//   wave that made it ready (a lane, its stack) or is in the queue, and a wave leaves only when every
//   root is handed out, it holds nothing and the queue is empty: a row it queued is taken by a wave
//   still running, at the latest by itself before it leaves. So every row is solved, an ordinary
//   launch suffices, and no lane spins on another's row (only on a queue entry being written).
//   Idle waves leave rather than poll: polling them would make a hot spot of the queue's words.
#pragma once
#include <cstdint>

#include "solve_kernel.hpp"

namespace spts::gpu {

// What the indegree kernel adds to solve_args.
struct indegree_args {
  const std::int32_t* dep_ptr;  // rows that read x[r]: dep_row[dep_ptr[r] .. dep_ptr[r + 1])
  const std::int32_t* dep_row;
  const std::int32_t* roots;    // the rows with no strictly lower entry, increasing
  std::int32_t root_count;
  std::int32_t* pending;        // per row: entries whose x is unsolved (the row's length before the solve)
  std::int32_t* queue;          // ready rows no stack had room for; -1 until written
  std::uint32_t* queue_head;    // next entry to take
  std::uint32_t* queue_tail;    // next entry to write
  std::int32_t stack_rows;      // rows a wave's stack holds, at most indegree_stack_rows (tests: 0 sends every row to the queue)
};

inline constexpr std::int32_t indegree_stack_rows = 128;  // per wave, in shared memory: the most --stack-rows
// Roots per ticket: plenty for a round of every lane, few enough to spread them over the waves.
inline constexpr std::int32_t indegree_rows_per_ticket = 8 * static_cast<std::int32_t>(detail::wave_size);

namespace detail {

// What the lanes of one wave of the indegree kernel share. Lanes claim rows and push the rows they
// make ready; lane 0 books the round between the second and third barriers.
struct indegree_wave {
  volatile std::int32_t stack[indegree_stack_rows];  // ready rows, taken from the top
  volatile std::int32_t size;                        // rows on the stack
  volatile std::int32_t claims;                      // lanes that asked for a row this round
  volatile std::int32_t pushed;                      // rows pushed this round
  volatile std::int32_t held;                        // lanes keeping a row they made ready
  volatile std::int32_t next, last;                  // the wave's range not yet claimed
  volatile std::int32_t from_queue;                  // the range is in the queue (else in the roots)
  volatile std::int32_t leave;                       // lane 0's decision: the wave is done
  volatile std::uint32_t rounds, solving_rounds;     // --round-stats (see wave_state)
};

// An x word that stayed unsolved for timeout_ns after its reader was handed out: the reader's count
// reached zero before that entry's row was solved (an ordering bug), or the store never arrived.
GIO_DEVICE void report_early_read(const solve_args& a, std::int32_t row, std::int32_t column) {
  if (atomicCAS(&a.stall->stalled, 0, 2) == 0) {
    a.stall->first_row = row;
    a.stall->rows = 1;
    a.stall->waiting_for = column;
  }
}

// The x word of a column whose row is solved: nothing orders its store before the decrement that
// handed out the reader, so it may still be on its way; value and flag are one word, so a word
// that is not `unsolved` is the value. Waits for it (normally not at all), at most timeout_ns.
GIO_DEVICE std::uint64_t confirmed_x(const solve_args& a, std::int32_t row, std::int32_t column, std::uint64_t word) {
  if (word != unsolved) return word;
  const std::uint64_t since = platform::timer_ns();
  while ((word = platform::ld_relaxed_sys(a.x + column)) == unsolved) {
    if (platform::timer_ns() - since > a.timeout_ns) {
      report_early_read(a, row, column);
      break;
    }
  }
  return word;
}

// x[row] from its entries, all solved.
GIO_DEVICE double solve_row(const solve_args& a, std::int32_t row) {
  const std::int32_t end = a.row_ptr[row + 1];
  double left = a.rhs[row];
  const double inv_diag = a.inv_diag[row];
  for (std::int32_t k = a.row_ptr[row]; k < end; k += entries_per_batch) {
    std::int32_t column[entries_per_batch];
    double value[entries_per_batch];
#pragma unroll
    for (int i = 0; i < entries_per_batch; ++i) {
      column[i] = k + i < end ? a.col[k + i] : -1;
      value[i] = k + i < end ? a.val[k + i] : 0.0;
    }
    std::uint64_t word[entries_per_batch];
#pragma unroll
    for (int i = 0; i < entries_per_batch; ++i) word[i] = column[i] >= 0 ? platform::ld_relaxed_sys(a.x + column[i]) : 0;
#pragma unroll
    for (int i = 0; i < entries_per_batch; ++i)
      if (column[i] >= 0) left -= value[i] * as_double(confirmed_x(a, row, column[i], word[i]));
  }
  return left * inv_diag;
}

}  // namespace detail

__global__ void __launch_bounds__(block_threads) solve_indegree_kernel(solve_args a, indegree_args d) {
  using namespace detail;
  __shared__ indegree_wave waves[waves_per_block];
  const unsigned lane = platform::lane();
  indegree_wave& ws = waves[platform::thread_in_wg() / wave_size];
  if (lane == 0) {
    ws.size = 0, ws.claims = 0, ws.pushed = 0, ws.held = 0, ws.next = 0, ws.last = 0, ws.from_queue = 0;
    ws.leave = 0, ws.rounds = 0, ws.solving_rounds = 0;
  }
  platform::wave_barrier();

  std::int32_t row = -1;  // the row this lane solves this round
  // Lane 0's books.
  std::int32_t held = 0;   // lanes that came into this round with a row
  bool drained = false;    // every root is handed out

  for (;;) {
    // 1. Lanes without a row claim one: the stack's top first, then the wave's range.
    const std::int32_t claim = row < 0 ? atomicAdd(const_cast<std::int32_t*>(&ws.claims), 1) : -1;
    platform::wave_barrier();
    const std::int32_t size = ws.size, claims = ws.claims, next = ws.next;
    const std::int32_t popped = claims < size ? claims : size;
    const std::int32_t in_range = ws.last - next;
    const std::int32_t from_range = claims - popped < in_range ? claims - popped : in_range;
    const std::int32_t base = size - popped;  // the stack's size once the claimed rows are off it
    if (claim >= 0 && claim < popped) {
      row = ws.stack[size - 1 - claim];
    } else if (claim >= popped && claim - popped < from_range) {
      const std::int32_t i = next + claim - popped;
      if (ws.from_queue) {
        // The pushing lane took the entry, then wrote it: a store already on its way.
        std::int32_t queued;
        while ((queued = platform::ld_relaxed_sys(d.queue + i)) < 0) {
        }
        row = queued;
      } else {
        row = d.roots[i];
      }
    }
    platform::wave_barrier();  // the claimed stack entries are read before pushes reuse them

    // 2. Solve the row, publish it, and count it off its dependents; the first that becomes ready
    // stays on this lane, the others go on the stack (or the queue when it is full).
    std::int32_t keep = -1;
    if (row >= 0) {
      const std::int32_t readers_end = d.dep_ptr[row + 1];
      std::int32_t e = d.dep_ptr[row];
      std::int32_t dependent[entries_per_batch];  // the first readers, loaded along with the row
#pragma unroll
      for (int i = 0; i < entries_per_batch; ++i) dependent[i] = e + i < readers_end ? d.dep_row[e + i] : -1;
      platform::st_relaxed_sys(a.x + row, as_bits(solve_row(a, row)));
      for (;;) {
        std::int32_t before[entries_per_batch];
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i) before[i] = dependent[i] >= 0 ? atomicSub(d.pending + dependent[i], 1) : 0;
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i) {
          if (before[i] != 1) continue;
          if (keep < 0) {
            keep = dependent[i];
            continue;
          }
          const std::int32_t slot = base + atomicAdd(const_cast<std::int32_t*>(&ws.pushed), 1);
          if (slot < d.stack_rows) {
            ws.stack[slot] = dependent[i];
          } else {
            const std::uint32_t at = atomicAdd(d.queue_tail, 1u);
            platform::st_relaxed_sys(d.queue + at, dependent[i]);
          }
        }
        e += entries_per_batch;
        if (e >= readers_end) break;
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i) dependent[i] = e + i < readers_end ? d.dep_row[e + i] : -1;
      }
      if (keep >= 0) atomicAdd(const_cast<std::int32_t*>(&ws.held), 1);
    }
    row = keep;
    platform::wave_barrier();

    // 3. Lane 0 books the round: the stack and range after it, and a new range when this one is
    // used up: roots while there are any; then, once nothing is held, the queue's rows, or the
    // wave leaves. A wave with work never polls the queue (its two words would be a hot spot).
    if (lane == 0) {
      const std::int32_t solved_now = held + popped + from_range;
      ws.rounds = ws.rounds + 1, ws.solving_rounds = ws.solving_rounds + (solved_now != 0);
      const std::int32_t pushed = ws.pushed;
      ws.size = base + pushed < d.stack_rows ? base + pushed : d.stack_rows;
      ws.next = next + from_range;
      held = ws.held;
      ws.held = 0, ws.pushed = 0, ws.claims = 0;
      std::int32_t leave = 0;
      if (ws.next >= ws.last) {
        if (!drained) {
          const std::uint32_t first = atomicAdd(a.ticket, static_cast<std::uint32_t>(a.rows_per_ticket));
          if (first >= static_cast<std::uint32_t>(d.root_count)) {
            drained = true;
          } else {
            const std::int32_t begin = static_cast<std::int32_t>(first);
            ws.next = begin;
            ws.last = d.root_count - begin < a.rows_per_ticket ? d.root_count : begin + a.rows_per_ticket;
            ws.from_queue = 0;
          }
        }
        if (drained && held == 0 && ws.size == 0) {
          const std::uint32_t head = platform::ld_relaxed_sys(d.queue_head);
          const std::uint32_t tail = platform::ld_relaxed_sys(d.queue_tail);
          if (head >= tail) {
            leave = 1;
          } else {
            const std::uint32_t take = tail - head < wave_size ? tail - head : wave_size;
            if (atomicCAS(d.queue_head, head, head + take) == head) {  // else another wave took them: retry
              ws.next = static_cast<std::int32_t>(head);
              ws.last = static_cast<std::int32_t>(head + take);
              ws.from_queue = 1;
            }
          }
        }
      }
      ws.leave = leave;
    }
    platform::wave_barrier();
    if (ws.leave != 0) break;
  }
  count_rounds(a, lane, ws.rounds, ws.solving_rounds);
}

// Before each solve: every row's count is its length, the queue empty and its entries unwritten
// (reset_kernel clears x, the ticket, the stall report and the round counts).
__global__ void reset_indegree_kernel(solve_args a, indegree_args d) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < a.rows; i += stride) {
    d.pending[i] = a.row_ptr[i + 1] - a.row_ptr[i];
    d.queue[i] = -1;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *d.queue_head = 0, *d.queue_tail = 0;
}

}  // namespace spts::gpu
