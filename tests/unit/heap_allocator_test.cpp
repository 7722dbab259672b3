// The symmetric heap's allocator: alignment, reuse, coalescing, exhaustion, determinism, and a
// randomized comparison with an independent model of first fit.
#include "heap_allocator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

namespace gio {
namespace {

constexpr std::size_t KiB = 1024;

TEST(HeapAllocator, StartsEmptyAndFree) {
  heap_allocator heap(64 * KiB);
  EXPECT_EQ(heap.capacity(), 64 * KiB);
  EXPECT_EQ(heap.free_bytes(), 64 * KiB);
  EXPECT_EQ(heap.largest_free_block(), 64 * KiB);
  EXPECT_EQ(heap.live_blocks(), 0u);
}

TEST(HeapAllocator, BlocksAreRoundedToMinAlignment) {
  heap_allocator heap(64 * KiB);
  EXPECT_EQ(heap.allocate(1), 0u);
  EXPECT_EQ(heap.allocate(300), 256u);  // the first block took 256 bytes
  EXPECT_EQ(heap.allocate(256), 768u);  // 300 rounded up to 512
  EXPECT_EQ(heap.free_bytes(), 64 * KiB - 1024);
  EXPECT_EQ(heap.live_blocks(), 3u);
}

// shmem_malloc_with_hints' atomics area: blocks from the top end gather there, away from first fit.
TEST(HeapAllocator, HighEndBlocksComeFromTheTop) {
  heap_allocator heap(64 * KiB);
  EXPECT_EQ(heap.allocate(1000, 0, heap_allocator::end::high), 64 * KiB - 1024);  // 1000 rounded to 1024
  EXPECT_EQ(heap.allocate(256, 4 * KiB, heap_allocator::end::high), 60 * KiB) << "aligned down below the first";
  EXPECT_EQ(heap.allocate(300), 0u) << "first fit is unaffected";
  EXPECT_EQ(heap.allocate(4 * KiB, 0, heap_allocator::end::high), 56 * KiB)
      << "the gap between the two top blocks (2.75 KiB) is too small, so the block goes below them";
  EXPECT_EQ(heap.allocate(512, 0, heap_allocator::end::high), 63 * KiB - 512) << "but a small one fills the gap";
  ASSERT_TRUE(heap.release(56 * KiB));
  EXPECT_EQ(heap.allocate(8 * KiB, 0, heap_allocator::end::high), 52 * KiB) << "released and coalesced";
  EXPECT_EQ(heap.allocate(64 * KiB, 0, heap_allocator::end::high), std::nullopt);
}

TEST(HeapAllocator, ZeroSizeGetsDistinctMinimalBlocks) {
  heap_allocator heap(4 * KiB);
  const auto a = heap.allocate(0);
  const auto b = heap.allocate(0);
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(heap.free_bytes(), 4 * KiB - 512);
}

TEST(HeapAllocator, HonoursAlignment) {
  heap_allocator heap(1024 * KiB);
  ASSERT_EQ(heap.allocate(100), 0u);
  for (std::size_t alignment : {512u, 4096u, 65536u, 262144u}) {
    const auto offset = heap.allocate(100, alignment);
    ASSERT_TRUE(offset) << alignment;
    EXPECT_EQ(*offset % alignment, 0u) << alignment;
  }
  // The gaps left before aligned blocks stay usable.
  EXPECT_EQ(heap.allocate(100), 256u);
}

TEST(HeapAllocator, AlignmentBelowMinimumStillGivesMinimum) {
  heap_allocator heap(64 * KiB, 1024);
  ASSERT_EQ(heap.allocate(1), 0u);
  const auto offset = heap.allocate(1, 8);
  ASSERT_TRUE(offset);
  EXPECT_EQ(*offset % 1024, 0u);
}

TEST(HeapAllocator, RejectsAlignmentsThatAreNotPowersOfTwo) {
  heap_allocator heap(64 * KiB);
  EXPECT_THROW(heap.allocate(64, 384), std::invalid_argument);
  EXPECT_THROW(heap_allocator(64 * KiB, 100), std::invalid_argument);
  EXPECT_THROW(heap_allocator(64 * KiB, 0), std::invalid_argument);
}

TEST(HeapAllocator, CapacityTailBelowMinAlignmentIsNotOffered) {
  heap_allocator heap(1000);
  EXPECT_EQ(heap.free_bytes(), 768u);
  EXPECT_EQ(heap.allocate(768), 0u);
  EXPECT_EQ(heap.allocate(1), std::nullopt);
}

TEST(HeapAllocator, ReusesFreedBlock) {
  heap_allocator heap(64 * KiB);
  const auto a = heap.allocate(4 * KiB);
  const auto b = heap.allocate(4 * KiB);
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(heap.release(*a));
  EXPECT_FALSE(heap.is_live(*a));
  EXPECT_TRUE(heap.is_live(*b));
  EXPECT_EQ(heap.allocate(4 * KiB), a);
}

TEST(HeapAllocator, CoalescesWithBothNeighbours) {
  heap_allocator heap(12 * KiB);
  const auto a = heap.allocate(4 * KiB);
  const auto b = heap.allocate(4 * KiB);
  const auto c = heap.allocate(4 * KiB);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(heap.allocate(1), std::nullopt);

  EXPECT_TRUE(heap.release(*a));
  EXPECT_TRUE(heap.release(*c));
  EXPECT_EQ(heap.free_bytes(), 8 * KiB);
  EXPECT_EQ(heap.largest_free_block(), 4 * KiB);
  EXPECT_EQ(heap.allocate(8 * KiB), std::nullopt) << "two separate holes must not serve one block";

  EXPECT_TRUE(heap.release(*b));  // joins a's hole and c's hole
  EXPECT_EQ(heap.largest_free_block(), 12 * KiB);
  EXPECT_EQ(heap.allocate(12 * KiB), 0u);
}

TEST(HeapAllocator, ExhaustionReturnsNulloptAndDescribesShortage) {
  heap_allocator heap(16 * KiB);
  const auto a = heap.allocate(4 * KiB);
  const auto b = heap.allocate(4 * KiB);
  ASSERT_TRUE(a && b && heap.allocate(4 * KiB));
  ASSERT_TRUE(heap.release(*a));
  EXPECT_EQ(heap.allocate(6 * KiB), std::nullopt);
  EXPECT_EQ(heap.live_blocks(), 2u) << "a failed allocation changes nothing";
  EXPECT_EQ(heap.describe_shortage(6 * KiB),
            "requested 6144 bytes, free 8192 bytes, largest free block 4096 bytes");
}

TEST(HeapAllocator, HugeRequestsFailWithoutOverflow) {
  heap_allocator heap(64 * KiB);
  EXPECT_EQ(heap.allocate(SIZE_MAX), std::nullopt);
  EXPECT_EQ(heap.allocate(SIZE_MAX - 100), std::nullopt);
  EXPECT_EQ(heap.allocate(1, std::size_t{1} << 63), 0u) << "offset 0 satisfies any alignment";
  EXPECT_EQ(heap.allocate(1, std::size_t{1} << 63), std::nullopt);
}

TEST(HeapAllocator, DoubleOrForeignReleaseIsRefused) {
  heap_allocator heap(64 * KiB);
  const auto a = heap.allocate(1000);
  ASSERT_TRUE(a);
  EXPECT_FALSE(heap.release(*a + 256)) << "not the start of a block";
  EXPECT_TRUE(heap.release(*a));
  EXPECT_FALSE(heap.release(*a));
  EXPECT_FALSE(heap.release(1 << 30));
  EXPECT_EQ(heap.free_bytes(), 64 * KiB);
}

// One step of a random workload: allocate (size, alignment) or release the n-th live block.
struct operation {
  bool allocate;
  std::size_t size, alignment, victim;
};

std::vector<operation> random_workload(unsigned seed, int steps) {
  std::mt19937_64 rng(seed);
  std::vector<operation> ops;
  for (int i = 0; i < steps; ++i) {
    const bool allocate = rng() % 3 != 0;
    const std::size_t size = (rng() % 4 == 0) ? rng() % (64 * KiB) : rng() % 2048;
    const std::size_t alignment = (rng() % 5 == 0) ? std::size_t{1} << (rng() % 16) : 0;
    ops.push_back({allocate, size, alignment, static_cast<std::size_t>(rng())});
  }
  return ops;
}

// The offsets (or "failed") an allocator gives for a workload, in order.
std::vector<std::int64_t> run_workload(heap_allocator& heap, const std::vector<operation>& ops) {
  std::vector<std::int64_t> results;
  std::vector<std::size_t> live;
  for (const auto& op : ops) {
    if (op.allocate) {
      const auto offset = heap.allocate(op.size, op.alignment);
      results.push_back(offset ? static_cast<std::int64_t>(*offset) : -1);
      if (offset) live.push_back(*offset);
    } else if (!live.empty()) {
      const std::size_t index = op.victim % live.size();
      results.push_back(heap.release(live[index]) ? -2 : -3);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(index));
    }
  }
  return results;
}

TEST(HeapAllocator, DeterministicForTheSameCallSequence) {
  const auto ops = random_workload(7, 3000);
  heap_allocator first(1024 * KiB), second(1024 * KiB);
  const auto a = run_workload(first, ops);
  const auto b = run_workload(second, ops);
  EXPECT_EQ(a, b);
  EXPECT_EQ(first.free_bytes(), second.free_bytes());
  EXPECT_EQ(first.largest_free_block(), second.largest_free_block());
}

// An independent first-fit model: live blocks only; the free space is the gaps between them.
class first_fit_model {
 public:
  first_fit_model(std::size_t capacity, std::size_t min_alignment)
      : usable_(capacity / min_alignment * min_alignment), min_alignment_(min_alignment) {}

  std::optional<std::size_t> expected_offset(std::size_t size, std::size_t alignment) const {
    const std::size_t a = std::max(alignment == 0 ? min_alignment_ : alignment, min_alignment_);
    const std::size_t need = round_up(std::max<std::size_t>(size, 1), min_alignment_);
    std::size_t gap_start = 0;
    for (auto it = live_.begin();; ++it) {
      const std::size_t gap_end = it == live_.end() ? usable_ : it->first;
      const std::size_t start = round_up(gap_start, a);
      if (start <= gap_end && gap_end - start >= need) return start;
      if (it == live_.end()) return std::nullopt;
      gap_start = it->first + it->second;
    }
  }
  void add(std::size_t offset, std::size_t size) {
    live_.emplace(offset, round_up(std::max<std::size_t>(size, 1), min_alignment_));
  }
  std::size_t remove(std::size_t offset) {
    const std::size_t size = live_.at(offset);
    live_.erase(offset);
    return size;
  }
  std::size_t free_bytes() const {
    std::size_t used = 0;
    for (const auto& block : live_) used += block.second;
    return usable_ - used;
  }
  // True when no two live blocks overlap and all lie inside the heap.
  bool consistent() const {
    std::size_t end_of_previous = 0;
    for (const auto& block : live_) {
      if (block.first < end_of_previous) return false;
      end_of_previous = block.first + block.second;
    }
    return end_of_previous <= usable_;
  }
  std::size_t live_count() const { return live_.size(); }

 private:
  static std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }
  std::size_t usable_, min_alignment_;
  std::map<std::size_t, std::size_t> live_;
};

TEST(HeapAllocator, RandomizedAgainstFirstFitModel) {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::size_t capacity = 512 * KiB + 300;
    heap_allocator heap(capacity);
    first_fit_model model(capacity, 256);
    std::vector<std::size_t> live;
    for (const auto& op : random_workload(seed, 4000)) {
      if (op.allocate) {
        const auto offset = heap.allocate(op.size, op.alignment);
        ASSERT_EQ(offset, model.expected_offset(op.size, op.alignment))
            << "size " << op.size << " alignment " << op.alignment;
        if (offset) {
          if (op.alignment != 0) {
            ASSERT_EQ(*offset % op.alignment, 0u);
          }
          model.add(*offset, op.size);
          live.push_back(*offset);
        }
      } else if (!live.empty()) {
        const std::size_t index = op.victim % live.size();
        ASSERT_TRUE(heap.release(live[index]));
        model.remove(live[index]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(index));
      }
      ASSERT_TRUE(model.consistent());
      ASSERT_EQ(heap.free_bytes(), model.free_bytes());
      ASSERT_EQ(heap.live_blocks(), model.live_count());
      ASSERT_LE(heap.largest_free_block(), heap.free_bytes());
    }
    for (std::size_t offset : live) ASSERT_TRUE(heap.release(offset));
    EXPECT_EQ(heap.largest_free_block(), capacity / 256 * 256) << "everything released coalesces into one block";
  }
}

}  // namespace
}  // namespace gio
