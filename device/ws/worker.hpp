// The worker: one per workgroup of a persistent kernel (MGWS thesis §5.1, Listing 5), written
// once against a placement (placement.hpp). Its threads run up to one task each per phase from
// the local queue in shared memory; thread 0 moves tasks between the local queue, the spill
// stack, the public queue, the initial set and victims, and does the termination detection.
// docs/worksteal.md argues the protocol; docs/memory-model.md ("Work stealing") its ordering.
#pragma once
#include <cstdint>
#include <cstdio>

#include "gio/device/checks.hpp"
#include "gio/device/ws/placement.hpp"
#include "gio/device/ws/sws.hpp"
#include "gio/device/ws/task.hpp"
#include "gio/device/ws/termination.hpp"

namespace gio::ws {

// What a task gets besides the program: spawn(value) adds a task to this worker's local queue;
// context() is the worker's context of the comm (gio's ctx by default; `comm` names the comm, so
// that a task can call comm::add(spawn.context(), ...) whichever library runs it); tally /
// tally_max accumulate the program's own counts per thread (summed into worker_stats).
template <class List, class Comm> class spawner {
 public:
  using comm = Comm;
  using context_type = typename Comm::ctx;
  GIO_DEVICE spawner(const context_type& c, task* local, std::uint32_t* count, std::uint32_t capacity, task* spill,
                     std::uint32_t spill_used, std::uint32_t spill_capacity, std::uint32_t* error)
      : ctx_(c), local_(local), count_(count), capacity_(capacity), spill_(spill), spill_used_(spill_used),
        spill_capacity_(spill_capacity), error_(error) {}

  // The worker's context, for tasks that communicate (puts, atomics on other PEs' memory).
  GIO_DEVICE const context_type& context() const { return ctx_; }

  template <class T> GIO_DEVICE void spawn(const T& value) { push(make_task<List>(value)); }
  GIO_DEVICE void tally(int i, std::uint64_t v) { tally_[i] += v; }
  GIO_DEVICE void tally_max(std::uint64_t v) { tally_max_ = v > tally_max_ ? v : tally_max_; }

  GIO_DEVICE void push(const task& t) {
    const std::uint32_t slot = atomicAdd(count_, 1u);
    if (slot < capacity_) {
      local_[slot] = t;
      return;
    }
    const std::uint32_t spill_slot = spill_used_ + (slot - capacity_);
    if (spill_slot < spill_capacity_) {
      spill_[spill_slot] = t;
    } else {
      atomicCAS(error_, 0u, static_cast<std::uint32_t>(run_error::spill_overflow));
    }
  }

  std::uint64_t tally_[2] = {0, 0};
  std::uint64_t tally_max_ = 0;

 private:
  const context_type& ctx_;
  task* local_;
  std::uint32_t* count_;
  std::uint32_t capacity_;
  task* spill_;
  std::uint32_t spill_used_;
  std::uint32_t spill_capacity_;
  std::uint32_t* error_;
};

// The thief's side of one steal, shared by the worker and worksteal-steal-latency, which times
// it. `path` is the placement's path_to(pe), asked once for the steal. claim_slice: the fetch-add
// on the victim's word, then the acquire of what the owner published before it: directly, one
// acquiring system-scope fetch-add at the word's address on that PE (system scope, as every other
// thief's); else the comm's atomic and a fence, device scope where the victim runs on this GPU
// (the owner's release is system-scope, and an acquire need only cover the releasing thread).
template <class Queues>
GIO_DEVICE sws_word claim_slice(const Queues& q, std::uint64_t* meta, int pe, int distance, const victim_path& path) {
  if (path.direct) return sws_unpack(platform::fetch_add_acquire_sys_bits(path.at(meta), sws_steal_increment));
  const sws_word w = sws_unpack(q.fetch_add(meta, sws_steal_increment, pe));
  if (distance == 0 && Queues::same_gpu_device_scope) platform::fence_acq_rel_device();
  else platform::fence_acq_rel_system();
  return w;
}
// After the workgroup's copy (and a barrier): the thief's reads before the victim may reuse the
// slots, then the completion add. `device_scope` where the victim runs on this GPU and nothing
// else this thief did must reach another GPU first.
template <class Queues>
GIO_DEVICE void report_copied(const Queues& q, std::uint64_t* completed, std::uint32_t n, int pe, bool device_scope,
                              const victim_path& path) {
  if (device_scope && Queues::same_gpu_device_scope) platform::fence_release_device();
  else q.fence();
  if (path.direct) platform::atomic_red_sys_bits<platform::rmw::add>(path.at(completed), std::uint64_t{n});
  else q.add(completed, n, pe);
}

namespace detail {

// What thread 0 planned for the whole workgroup.
enum class plan : std::uint32_t { execute, from_spill, from_initial, release, acquire, steal, wait, exit };

struct worker_state {  // in shared memory
  plan next;
  std::uint32_t local_count;
  std::uint32_t spill_count;
  std::uint32_t error;
  std::uint32_t copy_count;
  std::uint32_t copy_from;      // ring position, spill index
  std::uint64_t chunk_first;    // first initial task of the chunk being loaded
  std::uint64_t share_next;     // fixed-share mode: this worker's next initial task
  std::uint64_t share_end;      // and the end of its share
  std::int32_t victim_pe;
  victim_path victim_reach;     // how this steal reaches the victim's PE (path_to)
  std::uint32_t victim_worker;
  std::uint32_t victim_epoch;
  std::uint32_t victim_distance;  // 0: this GPU, 1: this node, 2: another node
  std::uint64_t idle_since;       // when this worker last counted itself idle (ns)
  std::uint64_t steal_started;    // before it first goes idle: when its last steal attempt began
  std::uint32_t head;           // position after this worker's last public task
  std::uint32_t idle;           // counted idle by the termination detection
  std::uint32_t decisions;      // while busy (decide's error check, watch_while_busy)
  std::uint32_t just_released;  // the last plan was a release: execute next
  std::uint32_t initial_done;   // this worker saw this PE's initial set exhausted (it stays so)
  std::uint32_t prefetch_valid; // a chunk claimed during a phase, not loaded yet
  std::uint32_t grab;           // the next task of the phase to take
  std::uint64_t prefetch_first;
  std::uint64_t prefetch_chunk;
  std::uint64_t initial_seen;   // the claim counter as this worker last saw it
  std::uint32_t published_count;  // tasks the open epoch began with: thieves only take, so none
                                  // are left when it is 0 and the word need not be read
  std::uint32_t publish_tail;   // the live region to publish after a copy
  std::uint32_t publish_count;
  std::uint32_t closed_epoch;   // the epoch a release or acquire closed
  std::uint32_t open_epoch;     // the epoch this worker's word has open now
  std::uint32_t phase_spawned;  // tasks the last phase spawned (kept and spilled)
  std::uint64_t phase_started;  // when the phase running now began (ns)
  std::uint64_t phase_ns;       // how long the last phase took (0: none yet)
  std::uint64_t claimed[2];     // per epoch of this worker's queue: tasks thieves claimed (cumulative)
  std::uint64_t settled[2];     // of which a wait saw every copy completed
  std::uint64_t rng;
  std::uint64_t tally[2];
  std::uint64_t tally_max;
  std::uint64_t executed;
  worker_stats stats;
};

GIO_DEVICE std::uint64_t next_random(std::uint64_t& s) {  // xorshift64*
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 0x2545F4914F6CDD1DULL;
}

// All threads: n tasks, 16 bytes per thread per step.
GIO_DEVICE void copy_tasks(task* dst, const task* src, std::uint32_t n) {
  for (unsigned i = platform::thread_in_wg(); i < 2 * n; i += platform::wg_size())
    reinterpret_cast<uint4*>(dst)[i] = reinterpret_cast<const uint4*>(src)[i];
}

template <class Program, class Queues> class worker {
 public:
  using list = typename Program::tasks;
  using task_spawner = spawner<list, typename Queues::comm>;

  GIO_DEVICE worker(const Program& program, const run_config& cfg, const Queues& q, worker_state& s, task* local,
                    std::uint32_t* seen_empty)
      : p_(program), cfg_(cfg), q_(q), s_(s), local_(local), seen_empty_(seen_empty), me_(platform::wg_id()),
        my_pe_(q.my_pe()), leader_(platform::thread_in_wg() == 0) {}

  GIO_DEVICE void run() {
    start();
    for (;;) {
      if (leader_) decide();
      platform::wg_barrier();
      const plan next = s_.next;
      if (next == plan::exit) break;
      switch (next) {
        case plan::execute: execute_phase(); break;
        case plan::from_spill:
          copy_tasks(local_ + s_.local_count, spill() + s_.copy_from, s_.copy_count);
          break;
        case plan::from_initial:
          for (unsigned i = platform::thread_in_wg(); i < s_.copy_count; i += platform::wg_size())
            local_[i] = p_.initial(s_.chunk_first + i);
          break;
        case plan::release: copy_release(); break;
        case plan::acquire: copy_ring_to_local(q_.ring(my_pe_, me_), s_.copy_from, s_.copy_count); break;
        case plan::steal: copy_steal(); break;
        default: break;
      }
      platform::wg_barrier();
      if (leader_) finish(next);
    }
    finish_run();
  }

 private:
  GIO_DEVICE std::uint32_t total_workers() const { return cfg_.workers * cfg_.pes; }
  GIO_DEVICE task* spill() const { return cfg_.spill + std::size_t{me_} * cfg_.spill_capacity; }
  GIO_DEVICE queue_header* my_header() const { return q_.header(my_pe_, me_); }
  GIO_DEVICE bool stealing() const { return cfg_.sched == scheduling::stealing; }

  GIO_DEVICE void start() {
    const std::uint32_t words = (total_workers() + 31) / 32;
    for (unsigned i = platform::thread_in_wg(); i < words; i += platform::wg_size()) seen_empty_[i] = 0;
    if (leader_) {
      s_ = worker_state{};
      s_.rng = cfg_.seed ^ (0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(my_pe_) * cfg_.workers + me_ + 1));
      if (!stealing()) {  // this worker's equal share of the initial set
        s_.share_next = cfg_.initial_count * me_ / cfg_.workers;
        s_.share_end = cfg_.initial_count * (me_ + 1) / cfg_.workers;
      }
      atomicMin(reinterpret_cast<unsigned long long*>(&cfg_.timestamps[0]),
                static_cast<unsigned long long>(platform::timer_ns()));
    }
    platform::wg_barrier();
  }

  // ---- thread 0: what the workgroup does next ----
  GIO_DEVICE void decide() {
    // Another worker of this PE failed: stop too. Looked at before looking for work and every
    // 16th phase, not before every phase (a global load on thread 0 while the others wait).
    if (s_.error == 0 && (s_.local_count == 0 || ++s_.decisions % 16 == 0)) s_.error = platform::ld_relaxed_sys(cfg_.error);
    if (s_.error) {
      s_.next = plan::exit;
      return;
    }
    // Spilled tasks come back as soon as the local queue runs low, not only once it is empty:
    // a deep spawning workload would otherwise keep adding to the spill stack until it overflows.
    if (s_.spill_count > 0 && s_.local_count < cfg_.local_capacity / 4) {
      s_.copy_count = min_u32(s_.spill_count, cfg_.local_capacity / 2 - s_.local_count);
      s_.copy_from = s_.spill_count - s_.copy_count;
      s_.next = plan::from_spill;
      return;
    }
    if (s_.local_count > 0) {
      if (watch_while_busy()) return;
      // After a release, one phase at least: a release that found no room must not repeat forever.
      const bool release = stealing() && !s_.just_released && should_release();
      s_.just_released = release;
      s_.next = release ? plan::release : plan::execute;
      if (release) lock_for_release();
      else s_.phase_started = platform::timer_ns();
      return;
    }
    if (s_.prefetch_valid && claim_initial()) return;
    if (stealing() && try_acquire()) return;
    if (claim_initial()) return;
    if (!stealing()) { s_.next = plan::exit; return; }
    if (s_.stats.first_idle_ns == 0) s_.steal_started = platform::timer_ns();
    if (try_steal()) return;
    idle_step();
  }

  GIO_DEVICE static std::uint32_t min_u32(std::uint32_t a, std::uint32_t b) { return a < b ? a : b; }
  GIO_DEVICE static std::uint64_t min_u64(std::uint64_t a, std::uint64_t b) { return a < b ? a : b; }

  GIO_DEVICE sws_word my_word() const { return sws_unpack(q_.fetch(&my_header()->meta, my_pe_)); }
  GIO_DEVICE std::uint32_t remaining(const sws_word& w) const {
    return w.count - sws_stolen(w.count, w.steals, cfg_.max_steal);
  }

  // Share work when the local queue is filling up, or when the public queue ran dry and more than
  // a quarter phase's worth is left (a steal-bound tree like UTS T3L has few tasks per worker),
  // but not while this PE's initial set still feeds its idle workers (each release and acquire
  // costs the worker a lock, a wait and a fence).
  GIO_DEVICE bool should_release() {
    const std::uint32_t n = s_.local_count;
    if (n >= cfg_.local_capacity - cfg_.local_capacity / 4) return true;
    if (n <= cfg_.phase_tasks / 4 || n < 2 || !initial_exhausted() || !worth_sharing(n)) return false;
    return s_.published_count == 0 || remaining(my_word()) == 0;
  }
  // Tasks this worker runs in one phase, that spawn nothing and whose last phase was short, run
  // sooner here than a release, a thief's steal and an acquire would take (memset's last chunks).
  GIO_DEVICE bool worth_sharing(std::uint32_t n) const {
    return n > cfg_.phase_tasks || s_.phase_spawned != 0 || s_.phase_ns == 0 || s_.phase_ns >= cfg_.share_min_ns;
  }
  GIO_DEVICE bool initial_exhausted() const { return s_.initial_done && !s_.prefetch_valid; }

  // Locks this worker's queue and closes its epoch: the tasks thieves claimed in it are recorded
  // (claimed[epoch]); returns the word as it was, and the epoch's live region in tail/count.
  GIO_DEVICE sws_word lock_and_close(std::uint32_t& live_tail, std::uint32_t& live_count) {
    const sws_word w = sws_unpack(q_.fetch_or(&my_header()->meta, sws_lock_bit, my_pe_));
    const std::uint32_t stolen = sws_stolen(w.count, w.steals, cfg_.max_steal);
    s_.claimed[w.epoch] += stolen;
    live_tail = sws_advance(w.tail, stolen);
    live_count = w.count - stolen;
    return w;
  }

  // Until thieves of `epoch` finished copying what they claimed (they add to completed[epoch]).
  GIO_DEVICE void wait_completions(std::uint32_t epoch) {
    std::uint64_t* word = &my_header()->completed[epoch];
    const std::uint64_t want = s_.claimed[epoch];
    // An earlier wait saw these copies complete, and its fence ordered them before what follows.
    if (want == s_.settled[epoch]) return;
    const std::uint64_t started = cfg_.wait_timeout_ns ? platform::timer_ns() : 0;
    for (;;) {
      const std::uint64_t seen = q_.fetch(word, my_pe_);
      if (seen >= want) {
        s_.settled[epoch] = want;
        break;
      }
      if (cfg_.wait_timeout_ns && platform::timer_ns() - started > cfg_.wait_timeout_ns) {
        printf("gio: PE %d: gio::ws worker %u: waited %llu ns for thieves of epoch %u: %llu of %llu tasks copied\n",
               my_pe_, me_, static_cast<unsigned long long>(cfg_.wait_timeout_ns), epoch,
               static_cast<unsigned long long>(seen), static_cast<unsigned long long>(want));
        fail(run_error::wait_timeout, seen);
        break;
      }
    }
    platform::fence_acq_rel_system();  // their reads of the ring happen-before our rewrites
  }

  // Opens the next epoch with the live region tail/count (unlocking the queue). The caller made
  // its ring writes visible first (fence), so a thief that sees the count sees the tasks.
  GIO_DEVICE void publish(std::uint32_t closed_epoch, std::uint32_t tail, std::uint32_t count) {
    sws_word next;
    next.tail = tail;
    next.count = count;
    next.epoch = closed_epoch ^ 1u;
    q_.set(&my_header()->meta, sws_pack(next), my_pe_);
    s_.published_count = count;
    s_.open_epoch = next.epoch;
  }

  GIO_DEVICE void lock_for_release() {
    std::uint32_t tail, count;
    const sws_word w = lock_and_close(tail, count);
    wait_completions(w.epoch ^ 1u);  // the epoch we open next: its old region is free again
    // In flight now: only the closed epoch's claims, from w.tail on.
    const std::uint32_t used = sws_distance(w.tail, s_.head);
    const std::uint32_t space = cfg_.public_capacity > used ? cfg_.public_capacity - used : 0;
    s_.copy_count = min_u32(s_.local_count / 2, space);
    s_.copy_from = s_.head;
    s_.closed_epoch = w.epoch;
    s_.publish_tail = tail;
    s_.publish_count = count;
  }

  GIO_DEVICE bool try_acquire() {
    if (s_.published_count == 0 || remaining(my_word()) == 0) return false;
    std::uint32_t tail, count;
    const sws_word w = lock_and_close(tail, count);
    // Half of what is left (thesis §4.4): thieves keep finding work while the owner runs the rest.
    // But at least a phase's worth: an owner nobody steals from then takes its tasks back in one or
    // two acquires (each a lock, a wait and a fence), not one per halving (docs/worksteal.md).
    const std::uint32_t half = (count + 1) / 2, phase = min_u32(count, cfg_.phase_tasks);
    const std::uint32_t take = min_u32(half > phase ? half : phase, cfg_.local_capacity / 2);
    s_.head = (s_.head - take) & sws_position_mask;
    s_.copy_from = s_.head;
    s_.copy_count = take;
    s_.closed_epoch = w.epoch;
    s_.publish_tail = tail;
    s_.publish_count = count - take;
    s_.next = plan::acquire;
    return true;
  }

  GIO_DEVICE bool claim_initial() {
    std::uint64_t first, end, chunk;
    if (stealing()) {  // a chunk of this PE's initial set, shared by its workers
      if (s_.prefetch_valid) {  // claimed during the last phase (execute_phase)
        s_.prefetch_valid = 0;
        first = s_.prefetch_first;
        chunk = s_.prefetch_chunk;
      } else {
        if (s_.initial_done) return false;
        chunk = initial_chunk();
        first = atomicAdd(cfg_.initial_next, static_cast<unsigned long long>(chunk));
      }
      s_.initial_seen = first + chunk;
      end = first + chunk < cfg_.initial_count ? first + chunk : cfg_.initial_count;
      if (end >= cfg_.initial_count) {
        s_.initial_done = 1;
        note_initial_out();
      }
      if (first >= end) return false;
    } else {  // the next chunk of this worker's own share
      first = s_.share_next;
      if (first >= s_.share_end) {
        note_initial_out();
        return false;
      }
      chunk = cfg_.local_capacity / 2;
      end = first + chunk < s_.share_end ? first + chunk : s_.share_end;
      s_.share_next = end;
    }
    s_.chunk_first = first;
    s_.copy_count = static_cast<std::uint32_t>(end - first);
    s_.next = plan::from_initial;
    return true;
  }

  GIO_DEVICE void note_initial_out() {
    if (s_.stats.initial_out_ns == 0) s_.stats.initial_out_ns = platform::timer_ns();
  }

  // Guided self-scheduling: chunks shrink with what is left (as this worker last saw the claim
  // counter), from half the local queue down to one phase's worth, so that a PE's workers run out
  // of initial tasks at about the same time.
  GIO_DEVICE std::uint64_t initial_chunk() const {
    const std::uint64_t most = cfg_.local_capacity / 2, least = min_u64(most, cfg_.phase_tasks);
    const std::uint64_t left = cfg_.initial_count - min_u64(s_.initial_seen, cfg_.initial_count);
    const std::uint64_t guided = left / (2 * cfg_.workers);
    return guided < least ? least : guided > most ? most : guided;
  }


  GIO_DEVICE bool seen_empty(std::uint32_t id) const { return (seen_empty_[id / 32] >> (id % 32)) & 1u; }
  GIO_DEVICE void mark_empty(std::uint32_t id, bool empty) {
    const std::uint32_t bit = 1u << (id % 32);
    seen_empty_[id / 32] = empty ? seen_empty_[id / 32] | bit : seen_empty_[id / 32] & ~bit;
  }

  // A victim: on this PE with probability same_gpu_bias, else on another PE of the node with
  // probability same_node_bias, else anywhere else.
  GIO_DEVICE void pick_victim(int& pe, std::uint32_t& worker) {
    const std::uint64_t r = next_random(s_.rng);
    const std::uint32_t others = cfg_.pes - 1;
    const bool local_ok = cfg_.workers > 1;
    bool here = others == 0 || (local_ok && static_cast<std::uint32_t>(r & 0xffff) < cfg_.same_gpu_bias);
    if (here) {
      pe = my_pe_;
      worker = static_cast<std::uint32_t>((r >> 32) % (cfg_.workers - 1));
      worker += worker >= me_;
      return;
    }
    const std::uint32_t far = others - cfg_.near_count;
    const bool near = cfg_.near_count > 0 && (far == 0 || static_cast<std::uint32_t>((r >> 16) & 0xffff) < cfg_.same_node_bias);
    const std::uint32_t index = near ? static_cast<std::uint32_t>((r >> 32) % cfg_.near_count)
                                     : cfg_.near_count + static_cast<std::uint32_t>((r >> 32) % far);
    pe = cfg_.near_pes[index];
    worker = static_cast<std::uint32_t>(next_random(s_.rng) % cfg_.workers);
  }

  GIO_DEVICE bool try_steal() {
    if (total_workers() < 2) return false;
    int pe;
    std::uint32_t worker;
    pick_victim(pe, worker);
    const std::uint32_t id = static_cast<std::uint32_t>(pe) * cfg_.workers + worker;
    const int distance = cfg_.pe_distance[pe];
    std::uint64_t* meta = &q_.header(pe, worker)->meta;
    // Steal damping (SWS): a victim last seen empty is looked at before its counter is touched.
    if (seen_empty(id)) {
      const sws_word w = sws_unpack(q_.fetch(meta, pe));
      if (w.locked || remaining(w) == 0) {
        ++s_.stats.damped;
        return false;
      }
    }
    ++s_.stats.steal_attempts[distance];
    const victim_path path = q_.path_to(pe);
    const sws_word w = claim_slice(q_, meta, pe, distance, path);
    if (w.locked) return false;
    const sws_slice slice = sws_steal_slice(w.count, w.steals, cfg_.max_steal);
    mark_empty(id, slice.size == 0);
    if (slice.size == 0) return false;
    ++s_.stats.steal_successes[distance];
    s_.stats.stolen_tasks[distance] += slice.size;
    s_.victim_pe = pe;
    s_.victim_reach = path;
    s_.victim_worker = worker;
    s_.victim_epoch = w.epoch;
    s_.victim_distance = static_cast<std::uint32_t>(distance);
    s_.copy_from = sws_advance(w.tail, slice.offset);
    s_.copy_count = slice.size;
    s_.next = plan::steal;
    return true;
  }

  // Nothing anywhere this worker looked. Count it idle once (after closing its queue and waiting
  // for every claim on it to be copied: thesis §5.6.3), then watch for global termination.
  GIO_DEVICE void idle_step() {
    s_.next = plan::wait;
    if (!s_.idle) {
      // The first transition's steps: steal attempt, closing, fence, count (worker_stats::idle_steps_ns).
      const bool first = s_.stats.first_idle_ns == 0;
      std::uint64_t at[5] = {s_.steal_started, first ? platform::timer_ns() : 0, 0, 0, 0};
      if (s_.published_count != 0) {
        std::uint32_t tail, count;
        const sws_word w = lock_and_close(tail, count);
        wait_completions(w.epoch ^ 1u);
        publish(w.epoch, tail, count);
        if (count != 0) return;  // cannot happen (only the owner adds tasks), but never lose them
        wait_completions(w.epoch);
      } else {
        // The open epoch began empty and only the owner adds tasks: no thief can claim in it, so
        // only the epoch before may still have copies in flight (no lock, no new epoch).
        wait_completions(s_.open_epoch ^ 1u);
      }
      if (first) at[2] = platform::timer_ns();
      q_.fence();  // the closed queue before the idle count
      if (first) at[3] = platform::timer_ns();
      become_idle();
      s_.idle = 1;
      s_.idle_since = platform::timer_ns();
      if (first) {
        s_.stats.first_idle_ns = at[4] = s_.idle_since;
        for (int k = 0; k < 4; ++k)
          s_.stats.idle_steps_ns[k] = static_cast<std::uint32_t>(min_u64(at[k + 1] - at[k], 0xffffffffu));
      }
      ++s_.stats.idle_entries;
      return;
    }
    const std::uint64_t verdict = me_ == 0 ? watch_root() : q_.fetch(&q_.term(my_pe_)->verdict, my_pe_);
    if (verdict != 0) {
      stop_on(verdict);
    } else if (checks_enabled && cfg_.wait_timeout_ns && platform::timer_ns() - s_.idle_since > cfg_.wait_timeout_ns) {
      // Checked builds bound this wait too: a lost count would otherwise hang every PE.
      termination_words* root = q_.term(0);
      printf("gio: PE %d: gio::ws worker %u: idle for %llu ns without termination: idle_workers %llu, idle_pes %llu "
             "(PE 0), this PE's idle_workers %llu, of %u workers on %u PEs\n",
             my_pe_, me_, static_cast<unsigned long long>(cfg_.wait_timeout_ns),
             static_cast<unsigned long long>(q_.fetch(&root->idle_workers, 0)),
             static_cast<unsigned long long>(q_.fetch(&root->idle_pes, 0)),
             static_cast<unsigned long long>(q_.fetch(&q_.term(my_pe_)->idle_workers, my_pe_)), cfg_.workers, cfg_.pes);
      fail(run_error::wait_timeout, 0);
      s_.next = plan::exit;
    }
  }

  // Worker 0 with work, every watch_busy_phases-th decision: PE 0's abort word. On an abort it
  // leaves the verdict for its PE's idle workers and stops (its tasks die with the failed run).
  GIO_DEVICE bool watch_while_busy() {
    if (me_ != 0 || cfg_.watch_busy_phases == 0 || s_.decisions % cfg_.watch_busy_phases != 0) return false;
    const std::uint64_t code = leave_verdict(q_.fetch(&q_.term(0)->abort, 0));
    if (code != 0) stop_on(code);
    return code != 0;
  }

  // Worker 0 of each PE, idle: the one reader of PE 0's abort word and counts for its PE (the
  // others read the verdict it leaves in their own heap), so that PE 0's lines are not polled by
  // every idle worker of every PE. All idle is absorbing and the abort word is never cleared
  // during a run, so a verdict once seen holds for the whole PE.
  GIO_DEVICE std::uint64_t watch_root() {
    const std::uint64_t code = q_.fetch(&q_.term(0)->abort, 0);
    return leave_verdict(code != 0 ? code : all_idle() ? verdict_all_idle : 0);
  }
  // The watcher's verdict (0: none yet) into its PE's word, for the PE's other idle workers.
  GIO_DEVICE std::uint64_t leave_verdict(std::uint64_t verdict) {
    if (verdict != 0) q_.set(&q_.term(my_pe_)->verdict, verdict, my_pe_);
    return verdict;
  }
  // Leave the run on a verdict: all idle, or the code of a worker of some PE that failed.
  GIO_DEVICE void stop_on(std::uint64_t verdict) {
    if (verdict != verdict_all_idle) s_.error = static_cast<std::uint32_t>(verdict);
    s_.next = plan::exit;
  }

  GIO_DEVICE void become_idle() {
    termination_words* root = q_.term(0);
    if (cfg_.term == termination::counter) {
      q_.add(&root->idle_workers, 1, 0);
    } else {
      termination_words* mine = q_.term(my_pe_);
      if (pe_becomes_complete(q_.fetch_add(&mine->idle_workers, 1, my_pe_), cfg_.workers)) q_.add(&root->idle_pes, 1, 0);
    }
  }
  GIO_DEVICE void regain_work() {
    termination_words* root = q_.term(0);
    const std::uint64_t minus_one = ~std::uint64_t{0};
    if (cfg_.term == termination::counter) {
      q_.add(&root->idle_workers, minus_one, 0);
    } else {
      termination_words* mine = q_.term(my_pe_);
      if (pe_was_complete(q_.fetch_add(&mine->idle_workers, minus_one, my_pe_), cfg_.workers))
        q_.add(&root->idle_pes, minus_one, 0);
    }
  }
  GIO_DEVICE bool all_idle() {
    termination_words* root = q_.term(0);
    if (cfg_.term == termination::counter) return counter_says_done(q_.fetch(&root->idle_workers, 0), total_workers());
    const std::uint64_t mine = q_.fetch(&q_.term(my_pe_)->idle_workers, my_pe_);
    return mine == cfg_.workers && tree_says_done(mine, cfg_.workers, q_.fetch(&root->idle_pes, 0), cfg_.pes);
  }


  // ---- the whole workgroup ----
  // At most one task per thread: each thread takes its task first, so spawns may reuse the
  // phase's slots (a spawning workload keeps all of the local queue's room).
  GIO_DEVICE void execute_one_each(std::uint32_t n, std::uint32_t base) {
    const unsigned rank = platform::thread_in_wg();
    task mine;
    if (rank < n) mine = local_[base + rank];
    platform::wg_barrier();
    if (leader_) s_.local_count = base;
    platform::wg_barrier();
    if (rank < n) {
      task_spawner sp(q_.context(), local_, &s_.local_count, cfg_.local_capacity, spill(), s_.spill_count,
                       cfg_.spill_capacity, &s_.error);
      if (!run_task<list>(mine, p_, sp)) atomicCAS(&s_.error, 0u, static_cast<std::uint32_t>(run_error::unknown_tag));
      add_tallies(sp);
    }
    platform::wg_barrier();
    if (leader_) settle_phase(n, base, min_u32(s_.local_count, cfg_.local_capacity) - base);
  }

  // Thread 0, after a phase of n tasks: the spawns that did not fit went to the spill stack; the
  // local queue holds `kept` tasks from `base` on.
  GIO_DEVICE void settle_phase(std::uint32_t n, std::uint32_t base, std::uint32_t kept) {
    const std::uint32_t spilled = s_.local_count - min_u32(s_.local_count, cfg_.local_capacity);
    s_.executed += n;
    s_.phase_spawned = kept + spilled;
    s_.spill_count = min_u32(s_.spill_count + spilled, cfg_.spill_capacity);
    s_.stats.spilled += spilled;
    s_.local_count = base + kept;
  }

  // All threads: local[dst + i] = local[src + i] for i < n, dst < src (the ranges may overlap, so
  // through registers, a workgroup's worth at a time). Ends with a barrier.
  GIO_DEVICE void move_down(std::uint32_t dst, std::uint32_t src, std::uint32_t n) {
    for (std::uint32_t done = 0; done < n; done += platform::wg_size()) {
      const std::uint32_t i = done + platform::thread_in_wg();
      task t;
      if (i < n) t = local_[src + i];
      platform::wg_barrier();
      if (i < n) local_[dst + i] = t;
      platform::wg_barrier();
    }
    platform::wg_barrier();
  }

  template <class Spawner> GIO_DEVICE void add_tallies(const Spawner& sp) {
    if (sp.tally_[0]) atomicAdd(reinterpret_cast<unsigned long long*>(&s_.tally[0]), sp.tally_[0]);
    if (sp.tally_[1]) atomicAdd(reinterpret_cast<unsigned long long*>(&s_.tally[1]), sp.tally_[1]);
    if (sp.tally_max_) atomicMax(reinterpret_cast<unsigned long long*>(&s_.tally_max), sp.tally_max_);
  }

  // More tasks than threads: the top `phase_tasks` tasks of the local queue, each taken by whichever thread is free next
  // (irregular tasks do not wait for the slowest of a fixed assignment); spawns go above them and
  // move down once the phase is over. Thread 0 claims the next initial chunk while the phase runs
  // if the queue will be empty after it, so the claim's latency hides behind the tasks.
  GIO_DEVICE void execute_phase() {
    const std::uint32_t count = s_.local_count;
    const std::uint32_t n = min_u32(count, cfg_.phase_tasks);
    const std::uint32_t base = count - n;
    if (n <= platform::wg_size()) return execute_one_each(n, base);
    platform::wg_barrier();  // every thread has read the count before any task spawns onto it
    unsigned long long prefetched = 0;
    std::uint64_t prefetch_chunk = 0;
    const bool prefetch = leader_ && stealing() && base == 0 && !s_.initial_done && !s_.prefetch_valid;
    if (prefetch) {
      prefetch_chunk = initial_chunk();
      prefetched = atomicAdd(cfg_.initial_next, static_cast<unsigned long long>(prefetch_chunk));
    }
    task_spawner sp(q_.context(), local_, &s_.local_count, cfg_.local_capacity, spill(), s_.spill_count,
                     cfg_.spill_capacity, &s_.error);
    for (std::uint32_t i = atomicAdd(&s_.grab, 1u); i < n; i = atomicAdd(&s_.grab, 1u))
      if (!run_task<list>(local_[base + i], p_, sp)) atomicCAS(&s_.error, 0u, static_cast<std::uint32_t>(run_error::unknown_tag));
    add_tallies(sp);
    if (prefetch) {
      s_.prefetch_first = prefetched;
      s_.prefetch_chunk = prefetch_chunk;
      s_.prefetch_valid = 1;
    }
    platform::wg_barrier();
    // The spawned tasks [count, top) down to base; every thread has read the count before
    // thread 0 changes it (move_down ends with a barrier).
    const std::uint32_t spawned = min_u32(s_.local_count, cfg_.local_capacity) - count;
    move_down(base, count, spawned);
    if (leader_) {
      s_.grab = 0;
      settle_phase(n, base, spawned);
    }
  }


  GIO_DEVICE void copy_ring_to_local(const task* ring, std::uint32_t from, std::uint32_t n) {
    const std::uint32_t mask = cfg_.public_capacity - 1;
    for (unsigned i = platform::thread_in_wg(); i < 2 * n; i += platform::wg_size())
      reinterpret_cast<uint4*>(local_)[i] = reinterpret_cast<const uint4*>(ring + ((from + i / 2) & mask))[i % 2];
  }

  // The oldest local tasks (the bottom of the stack) to the public ring, the rest down.
  GIO_DEVICE void copy_release() {
    const std::uint32_t n = s_.copy_count, left = s_.local_count - n;
    const std::uint32_t mask = cfg_.public_capacity - 1;
    task* ring = q_.ring(my_pe_, me_);
    for (unsigned i = platform::thread_in_wg(); i < 2 * n; i += platform::wg_size())
      reinterpret_cast<uint4*>(ring + ((s_.copy_from + i / 2) & mask))[i % 2] = reinterpret_cast<const uint4*>(local_)[i];
    move_down(0, n, left);  // its first barrier comes after every thread's ring stores
  }

  GIO_DEVICE void copy_steal() {
    const std::uint32_t n = s_.copy_count, from = s_.copy_from & (cfg_.public_capacity - 1);
    const std::uint32_t first = min_u32(n, cfg_.public_capacity - from);
    const task* ring = q_.ring(s_.victim_pe, s_.victim_worker);
    q_.get_wg(local_, ring + from, first, s_.victim_pe, s_.victim_reach);
    if (first < n) q_.get_wg(local_ + first, ring, n - first, s_.victim_pe, s_.victim_reach);
  }

  // ---- thread 0, after the workgroup's copy ----
  GIO_DEVICE void finish(plan done) {
    switch (done) {
      case plan::execute: {
        // The phase's length decides whether its like is worth sharing (worth_sharing). A worker
        // goes idle only with its queues empty, so the last phase that emptied them is its last work.
        const std::uint64_t now = platform::timer_ns();
        s_.phase_ns = now - s_.phase_started;
        if (s_.local_count == 0 && s_.spill_count == 0) s_.stats.last_work_ns = now;
        if (s_.error) fail(static_cast<run_error>(s_.error), 0);
        break;
      }
      case plan::from_spill:
        s_.spill_count -= s_.copy_count;
        s_.local_count += s_.copy_count;
        break;
      case plan::from_initial: s_.local_count = s_.copy_count; break;
      case plan::release: {
        s_.local_count -= s_.copy_count;
        s_.head = sws_advance(s_.head, s_.copy_count);
        s_.stats.released += s_.copy_count;
        q_.fence();  // the ring writes of every thread (after the barrier) before the word
        publish(s_.closed_epoch, s_.publish_tail, s_.publish_count + s_.copy_count);
        break;
      }
      case plan::acquire: {
        s_.local_count = s_.copy_count;
        s_.stats.acquired += s_.copy_count;
        wait_completions(s_.closed_epoch ^ 1u);
        publish(s_.closed_epoch, s_.publish_tail, s_.publish_count);
        break;
      }
      case plan::steal: {
        s_.local_count = s_.copy_count;
        const bool regained = s_.idle != 0;
        if (regained) {
          regain_work();
          s_.idle = 0;
        }
        // Our reads and the termination update before the victim may reuse the slots (device
        // scope for a victim on this GPU: the victim reads the completion and, after its own
        // fence, updates the same termination words, whose RMWs are totally ordered).
        // A regained worker's termination update may have gone to another node: the full fence.
        report_copied(q_, &q_.header(s_.victim_pe, s_.victim_worker)->completed[s_.victim_epoch], s_.copy_count,
                      s_.victim_pe, s_.victim_distance == 0 && !regained, s_.victim_reach);
        break;
      }
      case plan::wait: platform::sleep_ns(200); break;
      default: break;
    }
  }

  // Records the first error of this PE (worker and detail for the host) and tells every PE's
  // idle workers to stop; busy workers of this PE stop at their next decision.
  GIO_DEVICE void fail(run_error e, std::uint64_t detail) {
    const auto code = static_cast<std::uint32_t>(e);
    if (atomicCAS(cfg_.error, 0u, code) == 0u) {
      *cfg_.error_detail = (std::uint64_t{me_} << 32) | (detail & 0xffffffffu);
      q_.set(&q_.term(0)->abort, code, 0);
    }
    s_.error = code;
  }

  GIO_DEVICE void finish_run() {
    if (!leader_) return;
    worker_stats& out = cfg_.stats[me_];
    out = s_.stats;
    out.executed = s_.executed;
    out.tally[0] = s_.tally[0];
    out.tally[1] = s_.tally[1];
    out.tally_max = s_.tally_max;
    atomicMax(reinterpret_cast<unsigned long long*>(&cfg_.timestamps[1]),
              static_cast<unsigned long long>(platform::timer_ns()));
  }

  const Program& p_;
  const run_config& cfg_;
  const Queues& q_;
  worker_state& s_;
  task* local_;
  std::uint32_t* seen_empty_;
  const std::uint32_t me_;
  const int my_pe_;
  const bool leader_;
};

}  // namespace detail

}  // namespace gio::ws
