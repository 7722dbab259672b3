// The public queue's metadata word and slice arithmetic (gio/device/ws/sws.hpp), which owner and
// thieves must agree on bit for bit, and a sequential model of the queue protocol built on them.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "gio/device/ws/sws.hpp"

namespace {
using namespace gio::ws;

TEST(SwsWord, PackUnpackRoundTrips) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    sws_word w;
    w.tail = static_cast<std::uint32_t>(rng()) & sws_position_mask;
    w.count = static_cast<std::uint32_t>(rng()) & sws_position_mask;
    w.epoch = static_cast<std::uint32_t>(rng() & 1);
    w.locked = rng() & 1;
    w.steals = static_cast<std::uint32_t>(rng()) & sws_max_steals;
    const sws_word back = sws_unpack(sws_pack(w));
    ASSERT_EQ(back.tail, w.tail);
    ASSERT_EQ(back.count, w.count);
    ASSERT_EQ(back.epoch, w.epoch);
    ASSERT_EQ(back.locked, w.locked);
    ASSERT_EQ(back.steals, w.steals);
  }
}

TEST(SwsWord, AStealIncrementAndTheLockTouchOnlyTheirFields) {
  sws_word w;
  w.tail = sws_position_mask;
  w.count = sws_max_capacity;
  w.epoch = 1;
  w.steals = 41;
  const sws_word stolen = sws_unpack(sws_pack(w) + sws_steal_increment);
  EXPECT_EQ(stolen.steals, 42u);
  EXPECT_EQ(stolen.tail, w.tail);
  EXPECT_EQ(stolen.count, w.count);
  EXPECT_EQ(stolen.epoch, 1u);
  EXPECT_FALSE(stolen.locked);
  const sws_word locked = sws_unpack(sws_pack(w) | sws_lock_bit);
  EXPECT_TRUE(locked.locked);
  EXPECT_EQ(locked.steals, 41u);
  // The steal count is the top field: wrapping it cannot carry into the others.
  w.steals = sws_max_steals;
  const sws_word wrapped = sws_unpack(sws_pack(w) + sws_steal_increment);
  EXPECT_EQ(wrapped.steals, 0u);
  EXPECT_EQ(wrapped.count, w.count);
}

TEST(SwsWord, PositionsWrapModuloTheirField) {
  EXPECT_EQ(sws_advance(sws_position_mask, 1), 0u);
  EXPECT_EQ(sws_distance(sws_position_mask - 2, 5), 8u);
}

// Steal i takes min(ceil(remaining / 2), max_steal), in order, from the tail.
TEST(SwsSlice, MatchesStealingOneAfterAnother) {
  for (std::uint32_t max_steal : {1u, 2u, 3u, 4u, 7u, 16u, 512u}) {
    for (std::uint32_t count = 0; count < 3000; count += count < 100 ? 1 : 37) {
      std::uint32_t remaining = count, offset = 0;
      for (std::uint32_t attempt = 0; attempt < count + 3; ++attempt) {
        std::uint32_t take = (remaining + 1) / 2;
        if (take > max_steal) take = max_steal;
        const sws_slice s = sws_steal_slice(count, attempt, max_steal);
        ASSERT_EQ(s.size, take) << "count " << count << " attempt " << attempt << " max " << max_steal;
        ASSERT_EQ(s.offset, take ? offset : count) << "count " << count << " attempt " << attempt;
        ASSERT_EQ(sws_stolen(count, attempt, max_steal), offset) << "count " << count << " attempt " << attempt;
        offset += take;
        remaining -= take;
      }
      ASSERT_EQ(offset, count) << "every task goes to some steal";
    }
  }
}

TEST(SwsSlice, CostIsBoundedForManyFullSteals) {
  const sws_slice s = sws_steal_slice(sws_max_capacity, 2040, 512);
  EXPECT_EQ(s.offset, 2040u * 512u);
  EXPECT_EQ(s.size, 512u);
}

// A sequential model of one public queue: the owner releases and acquires under the lock with two
// epochs and per-epoch completion counts, as the worker does (device/ws/worker.hpp), while thieves
// claim slices and finish their copies late, in random order. Every task must be taken exactly
// once, and the owner must never overwrite a ring slot a claimed copy has not read yet. An owner
// whose public queue is empty goes idle as the worker does (worker.hpp, idle_step): when its open
// epoch began with no tasks, by waiting only for the other epoch's copies; either way no copy from
// its queue may be in flight once it counts itself idle.
TEST(SwsProtocol, RandomInterleavingsTakeEveryTaskOnceAndNeverOverwriteAClaim) {
  constexpr std::uint32_t capacity = 64, max_steal = 4;
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    std::uint64_t word = 0;
    std::uint32_t head = 0;
    std::uint64_t claimed[2] = {0, 0}, completed[2] = {0, 0};
    std::vector<std::int64_t> ring(capacity, -1);
    std::vector<int> pending_reads(capacity, 0);
    struct copy { std::uint32_t from, size, epoch; };
    std::deque<copy> in_flight;
    std::vector<int> taken;
    std::int64_t next_task = 0;
    const auto lock_and_close = [&](std::uint32_t& tail, std::uint32_t& count) {
      const sws_word w = sws_unpack(word);
      word |= sws_lock_bit;
      const std::uint32_t stolen = sws_stolen(w.count, w.steals, max_steal);
      claimed[w.epoch] += stolen;
      tail = sws_advance(w.tail, stolen);
      count = w.count - stolen;
      return w;
    };
    const auto finish_one = [&] {
      if (in_flight.empty()) return false;
      const std::size_t k = rng() % in_flight.size();
      const copy c = in_flight[k];
      in_flight.erase(in_flight.begin() + static_cast<long>(k));
      for (std::uint32_t i = 0; i < c.size; ++i) {
        const std::uint32_t slot = (c.from + i) & (capacity - 1);
        taken.push_back(static_cast<int>(ring[slot]));
        --pending_reads[slot];
      }
      completed[c.epoch] += c.size;
      return true;
    };
    // The owner's wait for an epoch's thieves: here, finishing copies until they are done.
    const auto wait_for = [&](std::uint32_t epoch) {
      while (completed[epoch] < claimed[epoch]) ASSERT_TRUE(finish_one()) << "a claim that no copy will finish";
    };
    std::uint32_t published = 0, open_epoch = 0;  // the open epoch's first count and number
    const auto publish = [&](const sws_word& closed, std::uint32_t tail, std::uint32_t count) {
      sws_word next;
      next.tail = tail;
      next.count = count;
      next.epoch = closed.epoch ^ 1u;
      word = sws_pack(next);
      published = count;
      open_epoch = next.epoch;
    };
    int idle_transitions = 0;
    for (int step = 0; step < 2000; ++step) {
      const int action = static_cast<int>(rng() % 11);
      if (action == 10) {  // the owner goes idle if its public queue is empty
        const sws_word now = sws_unpack(word);
        if (now.count - sws_stolen(now.count, now.steals, max_steal) != 0) continue;
        if (published != 0) {
          std::uint32_t tail, count;
          const sws_word w = lock_and_close(tail, count);
          wait_for(w.epoch ^ 1u);
          publish(w, tail, count);
          wait_for(w.epoch);
        } else {
          wait_for(open_epoch ^ 1u);
        }
        ASSERT_TRUE(in_flight.empty()) << "counted idle with a copy from its queue in flight, trial " << trial;
        ++idle_transitions;
        continue;
      }
      if (action < 3) {  // release k new tasks
        std::uint32_t tail, count;
        const sws_word w = lock_and_close(tail, count);
        wait_for(w.epoch ^ 1u);
        const std::uint32_t used = sws_distance(w.tail, head);
        const std::uint32_t space = capacity > used ? capacity - used : 0;
        const std::uint32_t k = std::min<std::uint32_t>(1 + rng() % 12, space);
        for (std::uint32_t i = 0; i < k; ++i) {
          const std::uint32_t slot = sws_advance(head, i) & (capacity - 1);
          ASSERT_EQ(pending_reads[slot], 0) << "the owner overwrote a slot a thief still copies";
          ring[slot] = next_task++;
        }
        head = sws_advance(head, k);
        publish(w, tail, count + k);
      } else if (action < 4) {  // acquire from the head end
        std::uint32_t tail, count;
        const sws_word w = lock_and_close(tail, count);
        const std::uint32_t take = std::min<std::uint32_t>(count, 1 + rng() % 8);
        head = (head - take) & sws_position_mask;
        for (std::uint32_t i = 0; i < take; ++i) {
          const std::uint32_t slot = sws_advance(head, i) & (capacity - 1);
          ASSERT_EQ(pending_reads[slot], 0) << "the owner took a claimed slot";
          taken.push_back(static_cast<int>(ring[slot]));
        }
        wait_for(w.epoch ^ 1u);
        publish(w, tail, count - take);
      } else if (action < 8) {  // a thief claims
        const sws_word w = sws_unpack(word);
        word += sws_steal_increment;
        if (w.locked) continue;
        const sws_slice s = sws_steal_slice(w.count, w.steals, max_steal);
        if (s.size == 0) continue;
        const std::uint32_t from = sws_advance(w.tail, s.offset);
        for (std::uint32_t i = 0; i < s.size; ++i) ++pending_reads[(from + i) & (capacity - 1)];
        in_flight.push_back({from, s.size, w.epoch});
      } else {
        finish_one();
      }
    }
    // Drain: the owner takes what is left, the thieves finish.
    while (finish_one()) {
    }
    std::uint32_t tail, count;
    lock_and_close(tail, count);
    for (std::uint32_t i = 0; i < count; ++i) taken.push_back(static_cast<int>(ring[sws_advance(tail, i) & (capacity - 1)]));
    std::vector<int> seen(static_cast<std::size_t>(next_task), 0);
    for (int t : taken) {
      ASSERT_GE(t, 0);
      ASSERT_LT(t, next_task);
      ++seen[static_cast<std::size_t>(t)];
    }
    for (std::int64_t t = 0; t < next_task; ++t) ASSERT_EQ(seen[static_cast<std::size_t>(t)], 1) << "task " << t << " trial " << trial;
    EXPECT_GT(idle_transitions, 0) << "trial " << trial;
  }
}

}  // namespace
