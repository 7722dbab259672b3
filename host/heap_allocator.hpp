// The symmetric heap's allocator: offsets into one reservation. Deterministic, so every PE that
// makes the same calls in the same order gets the same offsets (the collective calls rely on it).
// First fit over an address-ordered free list, coalescing on release. Private to the host runtime.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace gio {

class heap_allocator {
 public:
  // Every block starts at a multiple of min_alignment (power of two) and has a size that is one.
  explicit heap_allocator(std::size_t capacity, std::size_t min_alignment = 256);

  // Which end of the heap a block is taken from: `low` is first fit from offset 0; `high` is the
  // highest place that fits, so that such blocks gather at the top, away from the others
  // (shmem_malloc_with_hints' atomics area, runtime.cpp).
  enum class end { low, high };
  // Offset of a new block of `size` bytes aligned to `alignment` (power of two, or 0 = default),
  // or nullopt when no free block fits. size 0 gets a minimal block (distinct offsets).
  std::optional<std::size_t> allocate(std::size_t size, std::size_t alignment = 0, end from = end::low);
  // Releases the block that starts at `offset`; false if no live block starts there.
  bool release(std::size_t offset);

  bool is_live(std::size_t offset) const;
  // Bytes of the live block at `offset` (its size rounded to the alignment), or 0.
  std::size_t block_size(std::size_t offset) const;
  std::size_t capacity() const { return capacity_; }
  std::size_t free_bytes() const;
  std::size_t largest_free_block() const;
  std::size_t live_blocks() const { return live_.size(); }
  // "requested X, free Y, largest free block Z" for exhaustion messages.
  std::string describe_shortage(std::size_t requested) const;

 private:
  std::size_t capacity_;
  std::size_t min_alignment_;
  std::map<std::size_t, std::size_t> free_;  // offset -> size, address-ordered
  std::map<std::size_t, std::size_t> live_;  // offset -> size
};

}  // namespace gio
