// The termination detection (gio/device/ws/termination.hpp) under random interleavings: a model of
// P PEs x W workers whose steps are the worker's atomic operations, in the worker's order
// (device/ws/worker.hpp): a worker counts itself idle only with nothing of its own and no steal
// from it in flight; a thief copies, then (if it was idle) decrements, then completes the steal;
// the tree's root update is a step of its own after the PE count's. Only each PE's first worker
// (its watcher) reads the root counts, and when it sees all idle it leaves the verdict for its PE,
// which the PE's other idle workers read instead (worker.hpp, watch_root). Checks that no worker
// is told to stop while a task exists, and that every worker stops once none does.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gio/device/ws/termination.hpp"

namespace {
using namespace gio::ws;

struct model {
  enum class step { work, regain, root_up, root_down, complete, check_root, stopped };
  struct worker {
    int pe = 0;
    std::uint64_t tasks = 0;
    bool idle = false;
    int in_flight_from_me = 0;   // steals from this worker not completed yet
    step next = step::work;
    int victim = -1;             // complete: the steal's victim
    std::uint64_t seen_pe = 0;   // check_root: this PE's count as read
  };
  bool tree;
  std::uint32_t pes, per_pe;
  std::vector<worker> w;
  std::vector<std::uint64_t> pe_idle;
  std::vector<bool> verdict;  // per PE: its watcher saw all idle
  std::uint64_t counter = 0, root = 0;
  std::uint64_t created = 0, executed = 0, budget;
  std::mt19937 rng;

  model(bool tree_mode, std::uint32_t p, std::uint32_t n, std::uint64_t task_budget, unsigned seed)
      : tree(tree_mode), pes(p), per_pe(n), w(p * n), pe_idle(p, 0), verdict(p, false), budget(task_budget), rng(seed) {
    for (std::size_t i = 0; i < w.size(); ++i) w[i].pe = static_cast<int>(i / n);
    w[0].tasks = created = 1;  // one root task: everything else is spawned and stolen
  }
  std::uint64_t tasks_anywhere() const {
    std::uint64_t n = 0;
    for (const worker& x : w) n += x.tasks;
    return n;  // a slice in flight is already in its thief's count (copied before completing)
  }
  bool in_flight() const {
    for (const worker& x : w)
      if (x.in_flight_from_me) return true;
    return false;
  }
  void become_idle(worker& x) {
    x.idle = true;
    if (!tree) {
      ++counter;
      x.next = step::work;
    } else {
      const std::uint64_t old = pe_idle[x.pe]++;
      x.next = pe_becomes_complete(old, per_pe) ? step::root_up : step::work;
    }
  }
  // One atomic step of worker i.
  void advance(std::size_t i) {
    worker& x = w[i];
    switch (x.next) {
      case step::regain:  // the decrement, after the copy; then (tree) the root's; then the completion
        x.idle = false;
        if (!tree) {
          --counter;
          x.next = step::complete;
        } else {
          const std::uint64_t old = pe_idle[x.pe]--;
          x.next = pe_was_complete(old, per_pe) ? step::root_down : step::complete;
        }
        return;
      case step::root_up: ++root; x.next = step::work; return;
      case step::root_down: --root; x.next = step::complete; return;
      case step::complete: --w[x.victim].in_flight_from_me; x.next = step::work; return;
      case step::check_root:
        if (tree_says_done(x.seen_pe, per_pe, root, pes)) stop_watcher(x);
        else x.next = step::work;
        return;
      case step::stopped: return;
      case step::work: break;
    }
    if (x.tasks > 0) {  // run a task; it may spawn up to two
      --x.tasks;
      ++executed;
      const std::uint64_t spawn = budget > created ? rng() % 3 : 0;
      x.tasks += spawn;
      created += spawn;
      return;
    }
    // Nothing of its own: try a steal from a random victim with at least two tasks.
    const std::size_t v = rng() % w.size();
    if (v != i && w[v].tasks >= 2) {
      const std::uint64_t k = w[v].tasks / 2;
      w[v].tasks -= k;
      ++w[v].in_flight_from_me;
      x.tasks += k;  // claimed and copied; still counted idle until the regain step
      x.victim = static_cast<int>(v);
      x.next = x.idle ? step::regain : step::complete;
      return;
    }
    if (!x.idle) {
      if (x.in_flight_from_me == 0) become_idle(x);  // only once its claims are copied
      return;
    }
    // Idle: the exit check. Not a watcher: its PE's verdict. A watcher: the root (tree: two reads,
    // at two steps).
    if (i % per_pe != 0) {
      if (verdict[x.pe]) stop(x);
    } else if (!tree) {
      if (counter_says_done(counter, pes * per_pe)) stop_watcher(x);
    } else {
      x.seen_pe = pe_idle[x.pe];
      if (x.seen_pe == per_pe) x.next = step::check_root;
    }
  }
  void stop_watcher(worker& x) {
    verdict[x.pe] = true;  // the verdict's store, then (same step: the watcher's own) its exit
    stop(x);
  }
  void stop(worker& x) {
    ASSERT_EQ(tasks_anywhere(), 0u) << "a worker was told to stop while tasks exist";
    ASSERT_FALSE(in_flight()) << "a worker was told to stop while a steal is in flight";
    x.next = step::stopped;
  }
  bool all_stopped() const {
    for (const worker& x : w)
      if (x.next != step::stopped) return false;
    return true;
  }
};

void run_models(bool tree) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    const std::uint32_t pes = 1 + seed % 4, per_pe = 1 + (seed / 4) % 5;
    model m(tree, pes, per_pe, 2000, seed);
    std::uint64_t steps = 0;
    while (!m.all_stopped() && steps < 5'000'000) {
      m.advance(m.rng() % m.w.size());
      if (::testing::Test::HasFatalFailure()) return;
      ++steps;
    }
    ASSERT_TRUE(m.all_stopped()) << "seed " << seed << ": not every worker stopped (a hang)";
    EXPECT_EQ(m.executed, m.created) << "seed " << seed;
  }
}

TEST(WsTermination, CounterNeverStopsWhileTasksExistAndAlwaysStops) { run_models(false); }
TEST(WsTermination, TreeNeverStopsWhileTasksExistAndAlwaysStops) { run_models(true); }

TEST(WsTermination, TreeTransitions) {
  EXPECT_TRUE(pe_becomes_complete(3, 4));
  EXPECT_FALSE(pe_becomes_complete(2, 4));
  EXPECT_TRUE(pe_was_complete(4, 4));
  EXPECT_FALSE(pe_was_complete(3, 4));
  EXPECT_TRUE(tree_says_done(4, 4, 2, 2));
  EXPECT_FALSE(tree_says_done(4, 4, 1, 2));
  EXPECT_FALSE(tree_says_done(3, 4, 2, 2));
}

}  // namespace
