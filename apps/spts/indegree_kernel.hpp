// The in-degree kernel (`--kernel indegree`, the `single` variant, and `gio` with packed pushes):
// the dependency counting of Liu et al.'s sync-free solve (each row counts its unsolved entries;
// solving a row decrements the counts of the rows that read it) with the row handed to whoever
// solves its last dependency, instead of a wave that holds the row and polls until the count
// reaches zero. No row waits in a window of rows in flight, which is what costs the polling
// kernels the road networks (docs/spts.md, "Why the road class misses" and "The indegree kernel").
//
// * Work. A lane solves up to LaneRows rows per round (--lane-rows, 2 by default), their loads in
//   flight together. Rows come from, in this order: the rows the lane made ready itself in the
//   previous round (a chain stays on its lane); the wave's stack in shared memory (further rows the
//   wave's lanes made ready); the wave's range of roots (rows with no strictly lower entry, handed
//   out in tickets); once the roots are all handed out and the wave holds nothing, the global queue
//   (rows made ready when their wave's stack was full, and in gio rows handed over by other PEs).
//   With --queue-takes spare a wave whose lanes have free row slots takes queued rows into them
//   too: in gio a handed-over row otherwise waits until some wave runs dry (docs/spts.md, "Where
//   the two PEs lose"). Such a wave's lane 0 reads the queue's words at the start of the round,
//   their loads in flight with the solve.
// * Solving reads every entry's x once: all are solved when the row is handed out, so nothing is
//   polled. CSR (the gather) gives the values; the dependents lists (CSR's transpose, built by the
//   host once per matrix and not timed, like the vendor's analysis) say whose counts to decrement.
//   A row's record (row_record, partition.hpp) holds its first entries and readers, its rhs and
//   diagonal: one 96-byte load per row instead of one from each of seven arrays. That took
//   road_central from 2.11 to 1.88 ms (4 rows per lane) on an H200 (docs/results/session16,
//   rounds 1-2). On the road class the solve is bound by its busiest wave's rounds (about the
//   matrix's levels) times a round's latency: half the rows take 88% of the time (session 17).
// * Order, without fences. A lane stores x[r] (in gio: and pushes it to the PEs that read it) and
//   then decrements its readers' counts with no fence between: the counts only say when to read.
//   x[r] is value and flag in one 8-byte word (`unsolved` until the store lands, as in the polling
//   kernels), so a reader that sees any other word has the value, and one that sees `unsolved`
//   reads again: the store was issued before the decrement and is on its way (no lane waits for
//   another lane's progress, only for a store in flight). Still `unsolved` after --timeout is
//   reported as an ordering bug. Two fences per row (release before the decrements, acquire
//   after) cost about a third of the round.
// * gio (Mode packed). A reader on another PE is counted off there with a remote fetch_add; the
//   lane that takes its count to zero hands the row to its owner's queue (a remote fetch_inc of the
//   queue's tail, then shmem_p of the row into the entry). Counts, queue and tail are symmetric.
//   Those readers are listed apart (partition.hpp, dependents), and only rows that have any (their
//   consumers mask is not 0) look at them, so counting off the readers on this PE is single's code
//   (the counts at system scope: other PEs count off the same words).
// * Progress. Nobody waits for a row: every row is solved by the lane that takes it in the round it
//   takes it. A root is in a ticket until a wave takes it. A row made ready is held by the running
//   wave that made it ready (a lane, its stack) or is in its owner's queue. single: a wave leaves
//   only when every root is handed out, it holds nothing and the queue is empty, so a row it queued
//   is taken by a wave still running, at the latest by itself before it leaves. gio: rows may still
//   arrive from other PEs, so an idle wave leaves only when every row of its PE is solved or while
//   more than `pollers` waves remain; those poll the queue (sleeping between polls) until the PE's
//   rows are all solved. So every row is solved, an ordinary launch suffices, and no lane spins on
//   another's row (only on a queue entry being written). Idle waves leave rather than poll where
//   they can: polling them all would make a hot spot of the queue's words.
#pragma once
#include <cstdint>

#include "partition.hpp"
#include "solve_kernel.hpp"

namespace spts::gpu {

// What the indegree kernel adds to solve_args. Rows are this PE's local numbers (single: the
// global ones); readers on this PE are local numbers too, those on other PEs reader words
// (partition.hpp, dependents).
struct indegree_args {
  const row_record* records;    // per row: what solving it reads (partition.hpp)
  const std::int32_t* dep_row;  // readers of x[r] on this PE: dep_row[records[r].readers_begin .. readers_end)
  const std::int32_t* remote_ptr;     // gio: readers on other PEs, remote_reader[remote_ptr[r] .. remote_ptr[r + 1])
  const std::int32_t* remote_reader;  // reader words: local number << pe_bits | PE
  const std::int32_t* roots;    // the rows with no strictly lower entry, increasing
  std::int32_t root_count;
  std::int32_t pe_bits;
  std::int32_t* pending;        // per row: entries whose x is unsolved (the row's length before the solve)
  std::int32_t* queue;          // ready rows no stack had room for (gio: and rows other PEs handed over); -1 until written
  std::uint32_t* queue_head;    // next entry to take
  std::uint32_t* queue_tail;    // next entry to write (gio: pending, queue and queue_tail are symmetric)
  std::uint32_t* solved;        // gio: rows solved, added by each wave when it runs out of work
  std::uint32_t* leavers;       // gio: waves that left before every row was solved
  std::int32_t may_leave;       // gio: waves that may leave before then (the others poll the queue)
  std::int32_t stack_rows;      // rows a wave's stack holds, at most spts::indegree_stack_rows (0: every row to the queue)
  std::int32_t spare_takes;     // --queue-takes spare: a wave with free row slots takes queued rows too (else only an idle one)
  std::int32_t stack_fifo;      // --stack-order fifo: the wave's stack is a ring, its oldest row taken first (else its newest)
  std::uint64_t* queued_at;     // --round-stats: when each queue entry was written (0 until then; gio: symmetric),
                                // and the timeline in round_stats is kept; else null
  std::uint64_t* solved_at;     // --round-stats: when each row was solved (walk_solved_path), else null
};

static_assert(entries_per_batch == row_record::head_entries, "a record holds a row's first batch");

// Roots per ticket: the rows they make ready stay in the taking wave, so neighbours should share a
// ticket; on an H200 (road class) 128 and 256 tie, 32, 64, 512 and 1024 are slower.
inline constexpr std::int32_t indegree_rows_per_ticket = 8 * static_cast<std::int32_t>(detail::wave_size);

namespace detail {

// What the lanes of one wave of the indegree kernel share. Lanes claim rows and push the rows they
// make ready; lane 0 books the round after the lanes' pushes, between the round's last two barriers.
struct indegree_wave {
  volatile std::int32_t stack[indegree_stack_rows];  // ready rows, taken from the top (fifo: a ring, from its head)
  volatile std::int32_t size;                        // rows on the stack
  volatile std::int32_t head;                        // fifo: the slot of the oldest row
  volatile std::int32_t claims;                      // lanes that asked for a row this round
  volatile std::int32_t pushed;                      // rows pushed this round
  volatile std::int32_t held;                        // lanes keeping a row they made ready
  volatile std::int32_t next, last;                  // the wave's range not yet claimed
  volatile std::int32_t from_queue;                  // the range is in the queue (else in the roots)
  volatile std::int32_t leave;                       // lane 0's decision: the wave is done
  volatile std::uint32_t rounds, solving_rounds;     // --round-stats (see wave_state)
  volatile unsigned long long last_solve_ns;         // --round-stats: the end of the wave's last solving round
};

// A word that a lane has already issued the store of (an x word, a queue entry): normally there,
// else on its way. Reads it again until it is not `unwritten`, at most timeout_ns; then returns
// `unwritten`, and the caller reports why the store never arrived.
template <class T>
GIO_DEVICE T stored_word(const solve_args& a, const T* at, T word, T unwritten) {
  if (word != unwritten) return word;
  const std::uint64_t since = platform::timer_ns();
  while ((word = platform::ld_relaxed_sys(at)) == unwritten)
    if (platform::timer_ns() - since > a.timeout_ns) break;
  return word;
}

// The x word of a column whose row is solved: nothing orders its store before the decrement that
// handed out the reader, so it may still be on its way; value and flag are one word, so a word
// that is not `unsolved` is the value. Still unsolved after timeout_ns: the reader's count reached
// zero before that entry's row was solved (an ordering bug), or the store never arrived: reported
// as stall_early_read.
GIO_DEVICE std::uint64_t confirmed_x(const solve_args& a, std::int32_t row, std::int32_t column, std::uint64_t word) {
  word = stored_word(a, a.x + column, word, unsolved);
  if (word == unsolved) record_stall(a, stall_early_read, row, 1, column);
  return word;
}

// --round-stats: how long taken entry i waited in the queue since its writer stamped it (the stamp
// is stored after the entry, so it may still be on its way). A writer on another GPU stamps with
// that GPU's clock: a stamp ahead of this clock counts as no wait.
GIO_DEVICE void note_queue_wait(const solve_args& a, const indegree_args& d, std::int32_t i) {
  const std::uint64_t stamp = stored_word(a, d.queued_at + i, platform::ld_relaxed_sys(d.queued_at + i), std::uint64_t{0});
  if (stamp == 0) return;
  const std::uint64_t now = platform::timer_ns();
  const unsigned long long waited = now > stamp ? now - stamp : 0;
  atomicAdd(&a.stats->queue_takes, 1ull);
  atomicAdd(&a.stats->queue_wait_ns, waited);
  atomicMax(&a.stats->queue_wait_max_ns, waited);
}

// --round-stats: lane 0 of a wave adds its entry, or its exit and last solving round, to the timeline
// (the exit that leaves half the launch's waves gone is kept too: when waves run dry).
GIO_DEVICE void note_entry(const solve_args& a, const indegree_args& d, unsigned lane) {
  if (d.queued_at && lane == 0) atomicMin(&a.stats->first_entry_ns, static_cast<unsigned long long>(platform::timer_ns()));
}
GIO_DEVICE void note_exit(const solve_args& a, const indegree_args& d, unsigned lane, unsigned long long last_solve_ns) {
  if (!d.queued_at || lane != 0) return;
  const unsigned long long now = platform::timer_ns();
  atomicMin(&a.stats->first_exit_ns, now);
  atomicMax(&a.stats->last_exit_ns, now);
  if (atomicAdd(&a.stats->exits, 1ull) + 1 == (gridDim.x * waves_per_block + 1) / 2) a.stats->half_exit_ns = now;
  atomicMax(&a.stats->last_solve_ns, last_solve_ns);
}

// Entry i of the queue, claimed by this wave: the lane that took the entry writes it straight
// after (a store on its way, from another PE in gio). Still unwritten after timeout_ns: reported as
// stall_lost_entry, and -1 (no row).
GIO_DEVICE std::int32_t queued_row(const solve_args& a, const indegree_args& d, std::int32_t i) {
  const std::int32_t row = stored_word(a, d.queue + i, platform::ld_relaxed_sys(d.queue + i), -1);
  if (row < 0) record_stall(a, stall_lost_entry, i, 0, -1);
  else if (d.queued_at) note_queue_wait(a, d, i);
  return row;
}

// Counts one solved entry off the count of a reader on this PE; returns the count before. gio: at
// system scope (other PEs count off the same words).
template <push_mode Mode>
GIO_DEVICE std::int32_t count_off(const indegree_args& d, std::int32_t local) {
  if constexpr (Mode == push_mode::none) return atomicSub(d.pending + local, 1);
  return atomicAdd_system(d.pending + local, -1);
}

// An empty slot's record: no entries, no readers.
GIO_DEVICE row_record no_row() { return {0.0, 0.0, {}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, 0, 0, 0, 0}; }

// gio: the readers on other PEs of the rows whose consumers mask is not 0, counted off there with
// remote fetch_adds (a batch of each row at a time, in flight together); the readers whose last
// count this lane took hand over to their owner's queue (a remote fetch_inc of its tail, then the
// row into the entry). Returns whether it handed any over.
template <int Slots, push_path Path>
GIO_DEVICE bool count_off_remote(const indegree_args& d, const peers<push_mode::packed, Path>& to,
                                 const std::int32_t (&row)[Slots], const std::uint64_t (&consumers)[Slots]) {
  std::int32_t e[Slots], end[Slots];
#pragma unroll
  for (int s = 0; s < Slots; ++s) {
    e[s] = consumers[s] != 0 ? d.remote_ptr[row[s]] : 0;
    end[s] = consumers[s] != 0 ? d.remote_ptr[row[s] + 1] : 0;
  }
  bool handed_over = false;
  for (;;) {
    std::int32_t reader[Slots][entries_per_batch], before[Slots][entries_per_batch];
#pragma unroll
    for (int s = 0; s < Slots; ++s)
#pragma unroll
      for (int i = 0; i < entries_per_batch; ++i) {
        reader[s][i] = e[s] + i < end[s] ? d.remote_reader[e[s] + i] : -1;
        before[s][i] = reader[s][i] >= 0 ? to.fetch_add(d.pending + reader_word_local(reader[s][i], d.pe_bits), -1,
                                                        reader_word_pe(reader[s][i], d.pe_bits))
                                         : 0;
      }
    bool more = false;
#pragma unroll
    for (int s = 0; s < Slots; ++s) {
#pragma unroll
      for (int i = 0; i < entries_per_batch; ++i) {
        if (before[s][i] != 1) continue;
        const int owner = reader_word_pe(reader[s][i], d.pe_bits);
        const std::uint32_t queued = to.fetch_inc(d.queue_tail, owner);
        to.p(d.queue + queued, reader_word_local(reader[s][i], d.pe_bits), owner);
        if (d.queued_at) to.p(d.queued_at + queued, platform::timer_ns(), owner);
        handed_over = true;
      }
      e[s] += entries_per_batch;
      more |= e[s] < end[s];
    }
    if (!more) return handed_over;
  }
}

// An entry of this PE's queue for a ready row.
template <push_mode Mode>
GIO_DEVICE std::uint32_t queue_entry(const indegree_args& d) {
  if constexpr (Mode == push_mode::none) return atomicAdd(d.queue_tail, 1u);
  return atomicAdd_system(d.queue_tail, 1u);
}

// Queues a ready row of this PE (its wave's stack is full).
template <push_mode Mode>
GIO_DEVICE void write_queue_entry(const indegree_args& d, std::int32_t row) {
  const std::uint32_t i = queue_entry<Mode>(d);
  platform::st_relaxed_sys(d.queue + i, row);
  if (d.queued_at) platform::st_relaxed_sys(d.queued_at + i, platform::timer_ns());
}

// gio: lane 0 of a wave that found nothing to do (no roots left, nothing held, the queue empty)
// adds the rows it solved since last time to its PE's count; returns whether the wave leaves: every
// row of the PE is solved, more than the pollers remain, or the solve stopped (another wave's stall
// report, or this wave idle for timeout_ns: then it reports one). Else the wave sleeps (32 ns after
// its first idle round, doubling up to backoff_ns: pollers are few, but their polls share the
// queue's words with the waves that queue rows) and polls the queue again.
GIO_DEVICE bool idle_wave_leaves(const solve_args& a, const indegree_args& d, std::uint32_t& unflushed, bool& poller,
                                 std::uint64_t& idle_since, std::uint32_t& sleep) {
  if (unflushed != 0) atomicAdd(d.solved, unflushed), unflushed = 0;
  if (platform::ld_relaxed_sys(d.solved) >= static_cast<std::uint32_t>(a.rows)) return true;
  if (!poller) {
    if (static_cast<std::int32_t>(atomicAdd(d.leavers, 1u)) < d.may_leave) return true;
    atomicSub(d.leavers, 1u);
    poller = true;
  }
  if (should_stop(a, idle_since, -1, 0, -1)) return true;
  if (a.backoff_ns == 0) return false;
  sleep = sleep == 0 ? 32 : (2 * sleep < a.backoff_ns ? 2 * sleep : a.backoff_ns);
  platform::sleep_ns(sleep);
  return false;
}

}  // namespace detail

// LaneRows (--lane-rows: 1, 2 or 4): rows a lane solves per round, their loads in flight together.
// A wave whose region of the matrix has more ready rows than lanes works them off in fewer rounds,
// at the cost of registers (fewer waves). Mode: none (single) or packed (gio).
template <int LaneRows, push_mode Mode, push_path Path = push_path::calls>
__global__ void SPTS_KERNEL_BOUNDS(resident_wgs<Mode, Path>(LaneRows == 1 ? 9 : LaneRows == 2 ? 5 : 3))
    solve_indegree_kernel(solve_args a, indegree_args d, gio::device_handle handle) {
  using namespace detail;
  static_assert(Mode == push_mode::none || Mode == push_mode::packed, "x goes to other PEs as packed words");
  constexpr bool distributed = Mode != push_mode::none;
  __shared__ indegree_wave waves[waves_per_block];
  __shared__ gio::ctx ctx_storage;
  const peers<Mode, Path> to(a, handle, ctx_storage);  // the whole workgroup
  const unsigned lane = platform::lane();
  indegree_wave& ws = waves[platform::thread_in_wg() / wave_size];
  if (lane == 0) {
    ws.size = 0, ws.head = 0, ws.claims = 0, ws.pushed = 0, ws.held = 0, ws.next = 0, ws.last = 0, ws.from_queue = 0;
    ws.leave = 0, ws.rounds = 0, ws.solving_rounds = 0, ws.last_solve_ns = 0;
  }
  note_entry(a, d, lane);
  platform::wave_barrier();

  constexpr int slots = LaneRows;
  std::int32_t row[slots];  // the (local) rows this lane solves this round, -1: none
#pragma unroll
  for (int s = 0; s < slots; ++s) row[s] = -1;
  bool pushed = false;  // gio: this lane stored to another PE (x, a hand-over): quiet before the end
  // Lane 0's books.
  std::int32_t held = 0;   // rows that lanes kept into this round
  bool drained = false;    // every root is handed out
  std::uint32_t unflushed = 0;  // gio: rows solved and not yet added to d.solved
  bool poller = false;          // gio: this wave stays until its PE is done
  std::uint64_t idle_since = 0;
  std::uint32_t sleep = 0;  // gio: ns between an idle wave's polls
  bool spare = false;       // --queue-takes spare: the wave had free row slots after the last round

  for (;;) {
    // 0. --queue-takes spare: lane 0 of a wave that may take queued rows at this round's end reads
    // the queue's words now (a round late is early enough: head is claimed with a CAS).
    std::uint32_t head_seen = 0, tail_seen = 0;
    const bool looked = spare && lane == 0;  // spare is lane 0's; saying so here keeps ptxas from spilling more
    if (looked) head_seen = platform::ld_relaxed_sys(d.queue_head), tail_seen = platform::ld_relaxed_sys(d.queue_tail);

    // 1. Free slots claim rows, the stack's top first (fifo: its oldest first), then the wave's
    // range: one slot per lane first, a lane's second slot after (so rows spread over lanes before
    // they double up).
    std::int32_t claim[slots];
#pragma unroll
    for (int pass = 0; pass < slots; ++pass) {
      int free_slots = 0;
#pragma unroll
      for (int s = 0; s < slots; ++s) free_slots += row[s] < 0;
      claim[pass] = free_slots > pass ? atomicAdd(const_cast<std::int32_t*>(&ws.claims), 1) : -1;
      platform::wave_barrier();
    }
    const std::int32_t size = ws.size, claims = ws.claims, next = ws.next, oldest = ws.head;
    const std::int32_t popped = claims < size ? claims : size;
    const std::int32_t in_range = ws.last - next;
    const std::int32_t from_range = claims - popped < in_range ? claims - popped : in_range;
    const std::int32_t base = size - popped;  // the stack's size once the claimed rows are off it
    // fifo: slot i of the ring is stack[wrapped(i)]; the claimed rows are taken from the head, which
    // then moves past them. Indices stay below twice the ring's size.
    const std::int32_t ring = d.stack_rows;
    const auto wrapped = [ring](std::int32_t i) { return i >= ring ? i - ring : i; };
    const std::int32_t head = d.stack_fifo ? wrapped(oldest + popped) : 0;
#pragma unroll
    for (int pass = 0; pass < slots; ++pass) {
      std::int32_t taken = -1;
      const std::int32_t c = claim[pass];
      if (c >= 0 && c < popped)
        taken = ws.stack[d.stack_fifo ? wrapped(oldest + c) : size - 1 - c];
      else if (c >= popped && c - popped < from_range)
        taken = ws.from_queue ? queued_row(a, d, next + c - popped) : d.roots[next + c - popped];
      bool placed = taken < 0;
#pragma unroll
      for (int s = 0; s < slots; ++s)
        if (!placed && row[s] < 0) row[s] = taken, placed = true;
    }
    platform::wave_barrier();  // the claimed stack entries are read before pushes reuse them

    // 2. Solve the rows (their loads in flight together), publish them, and count them off their
    // readers; the first readers that become ready stay on this lane's slots, the others go on the
    // stack (or the queue when it is full); gio: readers of other PEs go to their owner's queue.
    // A row's record gives its first batch of entries and of readers; a longer row's later batches
    // come from CSR (k, e: the next entry and reader there).
    std::int32_t k[slots], end[slots], e[slots], readers_end[slots];
    double left[slots], inv_diag[slots];
    std::int32_t column[slots][entries_per_batch], reader[slots][entries_per_batch];
    double value[slots][entries_per_batch];
    std::uint64_t consumers[slots];  // gio: the PEs to push x to, loaded with the record (a load at publish costs a
                                     // round trip); on one PE none, and no load (2% of the solve, session 17 round 5)
#pragma unroll
    for (int s = 0; s < slots; ++s) {
      const row_record r = row[s] >= 0 ? d.records[row[s]] : no_row();
#pragma unroll
      for (int i = 0; i < entries_per_batch; ++i) column[s][i] = r.col[i], value[s][i] = r.val[i], reader[s][i] = r.reader[i];
      k[s] = r.entries_begin + entries_per_batch, end[s] = r.entries_end;
      e[s] = r.readers_begin, readers_end[s] = r.readers_end;
      left[s] = r.rhs, inv_diag[s] = r.inv_diag;
      if constexpr (distributed) consumers[s] = row[s] >= 0 && a.pes > 1 ? a.consumers[row[s]] : 0;
    }
    for (;;) {  // the entries, a batch of each row at a time
      std::uint64_t word[slots][entries_per_batch];
#pragma unroll
      for (int s = 0; s < slots; ++s)
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i)
          word[s][i] = column[s][i] >= 0 ? poll_x<push_mode::none>(a, column[s][i]) : 0;
      bool more = false;
#pragma unroll
      for (int s = 0; s < slots; ++s) {
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i)
          if (column[s][i] >= 0) left[s] -= value[s][i] * as_double(confirmed_x(a, row[s], column[s][i], word[s][i]));
        more |= k[s] < end[s];
      }
      if (!more) break;
#pragma unroll
      for (int s = 0; s < slots; ++s) {
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i) {
          column[s][i] = k[s] + i < end[s] ? a.col[k[s] + i] : -1;
          value[s][i] = k[s] + i < end[s] ? a.val[k[s] + i] : 0.0;
        }
        k[s] += entries_per_batch;
      }
    }
#pragma unroll
    for (int s = 0; s < slots; ++s) {
      if (row[s] < 0) continue;
      const std::uint64_t consumer_pes = distributed ? consumers[s] : 0;
      publish(a, to, distributed ? global_row(a, row[s]) : row[s], as_bits(left[s] * inv_diag[s]), consumer_pes);
      pushed |= consumer_pes != 0;
      if (d.solved_at) d.solved_at[row[s]] = platform::timer_ns();
    }

    std::int32_t kept[slots];
    int keeping = 0;
#pragma unroll
    for (int s = 0; s < slots; ++s) kept[s] = -1;
    for (;;) {  // the readers on this PE, a batch of each row at a time, their counts all in flight together
      std::int32_t before[slots][entries_per_batch];
#pragma unroll
      for (int s = 0; s < slots; ++s)
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i) before[s][i] = reader[s][i] >= 0 ? count_off<Mode>(d, reader[s][i]) : 0;
#pragma unroll
      for (int s = 0; s < slots; ++s)
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i) {
          if (before[s][i] != 1) continue;
          const std::int32_t ready = reader[s][i];
          if (keeping < slots) {
#pragma unroll
            for (int j = 0; j < slots; ++j)
              if (j == keeping) kept[j] = ready;
            ++keeping;
            continue;
          }
          const std::int32_t at = base + atomicAdd(const_cast<std::int32_t*>(&ws.pushed), 1);
          if (at < d.stack_rows)
            ws.stack[wrapped(head + at)] = ready;
          else
            write_queue_entry<Mode>(d, ready);
        }
      bool more = false;
#pragma unroll
      for (int s = 0; s < slots; ++s) {
        e[s] += entries_per_batch;
        more |= e[s] < readers_end[s];
#pragma unroll
        for (int i = 0; i < entries_per_batch; ++i) reader[s][i] = e[s] + i < readers_end[s] ? d.dep_row[e[s] + i] : -1;
      }
      if (!more) break;
    }
    // gio: then the readers on other PEs, in a pass of their own that a lane without them skips (a
    // call among the local atomics holds them up: round 4, 13% of the solve).
    if constexpr (distributed) {
      bool remote = false;
#pragma unroll
      for (int s = 0; s < slots; ++s) remote |= consumers[s] != 0;
      if (remote && count_off_remote(d, to, row, consumers)) pushed = true;
    }
    if (keeping != 0) atomicAdd(const_cast<std::int32_t*>(&ws.held), keeping);
#pragma unroll
    for (int s = 0; s < slots; ++s) row[s] = kept[s];
    platform::wave_barrier();

    // 3. Lane 0 books the round: the stack and range after it, and a new range when this one is
    // used up: roots while there are any; then, once nothing is held, the queue's rows, or the
    // wave leaves (gio: or polls). A wave with work polls the queue only with --queue-takes spare,
    // and only while its lanes have free slots (the queue's two words are a hot spot).
    if (lane == 0) {
      const std::int32_t solved_now = held + popped + from_range;  // every row handed out is solved in its round
      ws.rounds = ws.rounds + 1, ws.solving_rounds = ws.solving_rounds + (solved_now != 0);
      if (d.queued_at && solved_now != 0) ws.last_solve_ns = platform::timer_ns();
      if constexpr (distributed) unflushed += static_cast<std::uint32_t>(solved_now);
      const std::int32_t pushed_rows = ws.pushed;
      ws.size = base + pushed_rows < d.stack_rows ? base + pushed_rows : d.stack_rows;
      ws.head = head;
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
        const bool idle = held == 0 && ws.size == 0;
        const std::int32_t free_slots = static_cast<std::int32_t>(wave_size) * slots - held - ws.size;
        if (drained && (idle || (looked && free_slots > 0))) {
          const std::uint32_t head = idle ? platform::ld_relaxed_sys(d.queue_head) : head_seen;
          const std::uint32_t tail = idle ? platform::ld_relaxed_sys(d.queue_tail) : tail_seen;
          const std::uint32_t room = static_cast<std::uint32_t>(free_slots) < wave_size ? free_slots : wave_size;
          if (head >= tail) {
            if constexpr (distributed)
              leave = idle && idle_wave_leaves(a, d, unflushed, poller, idle_since, sleep);
            else
              leave = idle;
          } else {
            idle_since = 0, sleep = 0;
            const std::uint32_t take = tail - head < room ? tail - head : room;
            if (atomicCAS(d.queue_head, head, head + take) == head) {  // else another wave took them: retry
              ws.next = static_cast<std::int32_t>(head);
              ws.last = static_cast<std::int32_t>(head + take);
              ws.from_queue = 1;
            }
          }
        }
      }
      ws.leave = leave;
      spare = d.spare_takes && drained && static_cast<std::int32_t>(wave_size) * slots > held + ws.size;
    }
    platform::wave_barrier();
    if (ws.leave != 0) break;
  }
  note_exit(a, d, lane, ws.last_solve_ns);
  count_rounds(a, lane, ws.rounds, ws.solving_rounds);
  if constexpr (distributed)
    if (pushed) to.quiet();  // this thread's pushes and hand-overs complete before the kernel ends
}

// Before each solve: every row's count is its length, the queue empty and its entries unwritten
// (reset_kernel clears x, the ticket, the stall report and the round counts).
__global__ void reset_indegree_kernel(solve_args a, indegree_args d) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < a.rows; i += stride) {
    d.pending[i] = a.row_ptr[i + 1] - a.row_ptr[i];
    d.queue[i] = -1;
    if (d.queued_at) d.queued_at[i] = 0;
    if (d.solved_at) d.solved_at[i] = 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *d.queue_head = 0, *d.queue_tail = 0, *d.solved = 0, *d.leavers = 0;
}

}  // namespace spts::gpu
