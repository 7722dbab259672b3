#include "heap_allocator.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace gio {
namespace {

bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Rounds `n` up to a multiple of `alignment` (a power of two); nullopt on overflow.
std::optional<std::size_t> align_up(std::size_t n, std::size_t alignment) {
  const std::size_t mask = alignment - 1;
  if (n > static_cast<std::size_t>(-1) - mask) return std::nullopt;
  return (n + mask) & ~mask;
}

}  // namespace

heap_allocator::heap_allocator(std::size_t capacity, std::size_t min_alignment)
    : capacity_(capacity), min_alignment_(min_alignment) {
  if (!is_power_of_two(min_alignment)) {
    throw std::invalid_argument("heap_allocator: min_alignment " + std::to_string(min_alignment) +
                                " is not a power of two");
  }
  // A tail shorter than min_alignment can never hold a block, so it is not offered.
  const std::size_t usable = capacity & ~(min_alignment - 1);
  if (usable > 0) free_.emplace(0, usable);
}

std::optional<std::size_t> heap_allocator::allocate(std::size_t size, std::size_t alignment, end from) {
  if (alignment == 0) alignment = min_alignment_;
  if (!is_power_of_two(alignment)) {
    throw std::invalid_argument("heap_allocator: alignment " + std::to_string(alignment) +
                                " is not a power of two");
  }
  alignment = std::max(alignment, min_alignment_);
  const auto block_size = align_up(std::max<std::size_t>(size, 1), min_alignment_);
  if (!block_size) return std::nullopt;

  // Where a block would start in the free block [free_start, free_end), or nullopt.
  const auto place = [&](std::size_t free_start, std::size_t free_end) -> std::optional<std::size_t> {
    if (free_end - free_start < *block_size) return std::nullopt;
    if (from == end::high) {
      const std::size_t start = (free_end - *block_size) & ~(alignment - 1);
      return start >= free_start ? std::optional<std::size_t>(start) : std::nullopt;
    }
    const auto start = align_up(free_start, alignment);
    if (!start || *start > free_end || free_end - *start < *block_size) return std::nullopt;
    return start;
  };
  const auto take = [&](std::map<std::size_t, std::size_t>::iterator it, std::size_t start) {
    // Split the free block into [free_start, start) and [start + block_size, free_end).
    const std::size_t free_start = it->first, free_end = it->first + it->second;
    free_.erase(it);
    if (start > free_start) free_.emplace(free_start, start - free_start);
    const std::size_t stop = start + *block_size;
    if (stop < free_end) free_.emplace(stop, free_end - stop);
    live_.emplace(start, *block_size);
    return start;
  };
  if (from == end::high) {
    for (auto it = free_.end(); it != free_.begin();) {
      --it;
      if (const auto start = place(it->first, it->first + it->second)) return take(it, *start);
    }
    return std::nullopt;
  }
  for (auto it = free_.begin(); it != free_.end(); ++it)
    if (const auto start = place(it->first, it->first + it->second)) return take(it, *start);
  return std::nullopt;
}

bool heap_allocator::release(std::size_t offset) {
  const auto live = live_.find(offset);
  if (live == live_.end()) return false;
  std::size_t start = offset;
  std::size_t size = live->second;
  live_.erase(live);

  // Coalesce with the free neighbours so fragmentation never outlives the blocks that caused it.
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    const auto previous = std::prev(next);
    if (previous->first + previous->second == start) {
      start = previous->first;
      size += previous->second;
      free_.erase(previous);
    }
  }
  free_.emplace(start, size);
  return true;
}

std::size_t heap_allocator::block_size(std::size_t offset) const {
  const auto it = live_.find(offset);
  return it == live_.end() ? 0 : it->second;
}

bool heap_allocator::is_live(std::size_t offset) const { return live_.count(offset) != 0; }

std::size_t heap_allocator::free_bytes() const {
  std::size_t total = 0;
  for (const auto& block : free_) total += block.second;
  return total;
}

std::size_t heap_allocator::largest_free_block() const {
  std::size_t largest = 0;
  for (const auto& block : free_) largest = std::max(largest, block.second);
  return largest;
}

std::string heap_allocator::describe_shortage(std::size_t requested) const {
  return "requested " + std::to_string(requested) + " bytes, free " + std::to_string(free_bytes()) +
         " bytes, largest free block " + std::to_string(largest_free_block()) + " bytes";
}

}  // namespace gio
