// The public queue's metadata (SWS, Cartier et al.; MGWS thesis §4.4, Fig. 3): one 64-bit word
// that a thief claims a slice with by a single fetch-add, and the arithmetic owner and thieves
// share to agree on who got which tasks. Written once for host and device: the host's tests
// check the packing and the slices, the kernels use the same code.
//
//   bit  0..20  tail    position of the epoch's first task in the ring, modulo 2^21
//   bit 21..41  count   tasks in the public queue when the epoch began
//   bit 42      epoch   which of the two epochs' completion counters this epoch's steals use
//   bit 43      locked  the owner is changing the queue: a thief that sees it takes nothing
//   bit 44..63  steals  steal attempts made in this epoch (a thief's fetch-add adds 1 here)
//
// Steal number i (0-based) of an epoch takes half of what the earlier steals left, rounded up,
// at most max_steal tasks, from the tail end; the owner takes from the head end only while the
// word is locked. Positions are counted modulo 2^21, so a ring of at most 2^20 tasks (a power of
// two) indexes with `position & (capacity - 1)`.
#pragma once
#include <cstdint>

#include "gio/platform/host_device.hpp"

namespace gio::ws {

inline constexpr unsigned sws_position_bits = 21;
inline constexpr std::uint32_t sws_position_mask = (1u << sws_position_bits) - 1;
inline constexpr std::uint32_t sws_max_capacity = 1u << 20;
inline constexpr unsigned sws_count_shift = 21;
inline constexpr unsigned sws_epoch_shift = 42;
inline constexpr unsigned sws_lock_shift = 43;
inline constexpr unsigned sws_steals_shift = 44;
inline constexpr std::uint32_t sws_max_steals = (1u << 20) - 1;
inline constexpr std::uint64_t sws_steal_increment = std::uint64_t{1} << sws_steals_shift;
inline constexpr std::uint64_t sws_lock_bit = std::uint64_t{1} << sws_lock_shift;

struct sws_word {
  std::uint32_t tail = 0;    // 21 bits
  std::uint32_t count = 0;   // 21 bits
  std::uint32_t epoch = 0;   // 0 or 1
  bool locked = false;
  std::uint32_t steals = 0;  // 20 bits
};

GIO_HOST_DEVICE_INLINE std::uint64_t sws_pack(const sws_word& w) {
  return std::uint64_t{w.tail & sws_position_mask} | std::uint64_t{w.count & sws_position_mask} << sws_count_shift |
         std::uint64_t{w.epoch & 1u} << sws_epoch_shift | std::uint64_t{w.locked ? 1u : 0u} << sws_lock_shift |
         std::uint64_t{w.steals & sws_max_steals} << sws_steals_shift;
}

GIO_HOST_DEVICE_INLINE sws_word sws_unpack(std::uint64_t bits) {
  sws_word w;
  w.tail = static_cast<std::uint32_t>(bits) & sws_position_mask;
  w.count = static_cast<std::uint32_t>(bits >> sws_count_shift) & sws_position_mask;
  w.epoch = static_cast<std::uint32_t>(bits >> sws_epoch_shift) & 1u;
  w.locked = ((bits >> sws_lock_shift) & 1u) != 0;
  w.steals = static_cast<std::uint32_t>(bits >> sws_steals_shift);
  return w;
}

// Positions modulo 2^21.
GIO_HOST_DEVICE_INLINE std::uint32_t sws_advance(std::uint32_t position, std::uint32_t by) {
  return (position + by) & sws_position_mask;
}
GIO_HOST_DEVICE_INLINE std::uint32_t sws_distance(std::uint32_t from, std::uint32_t to) {
  return (to - from) & sws_position_mask;
}

struct sws_slice {
  std::uint32_t offset;  // from the epoch's tail
  std::uint32_t size;    // 0: the steal found the queue empty
};

// The slice steal number `attempt` of an epoch that began with `count` tasks gets. Closed form
// while steals take max_steal each, then a loop of at most ~log2(2 * max_steal) halvings, so a
// thief's cost does not grow with the number of steals before it. max_steal >= 1.
GIO_HOST_DEVICE_INLINE sws_slice sws_steal_slice(std::uint32_t count, std::uint32_t attempt, std::uint32_t max_steal) {
  // Steals take exactly max_steal while at least 2 * max_steal - 1 tasks remain.
  const std::uint32_t full_threshold = 2 * max_steal - 1;
  const std::uint32_t full_steals = count >= full_threshold ? (count - full_threshold) / max_steal + 1 : 0;
  if (attempt < full_steals) return {attempt * max_steal, max_steal};
  std::uint32_t offset = full_steals * max_steal;
  std::uint32_t remaining = count - offset;
  for (std::uint32_t i = full_steals;; ++i) {
    const std::uint32_t take = (remaining + 1) / 2;
    if (i == attempt || take == 0) return {offset, i == attempt ? take : 0};
    offset += take;
    remaining -= take;
  }
}

// Tasks the first `attempts` steals of an epoch took.
GIO_HOST_DEVICE_INLINE std::uint32_t sws_stolen(std::uint32_t count, std::uint32_t attempts, std::uint32_t max_steal) {
  return sws_steal_slice(count, attempts, max_steal).offset;
}

}  // namespace gio::ws
