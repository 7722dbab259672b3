// Cooperative copy used by every put/get of the load/store transport: the calling group
// (thread, wave or workgroup) moves the bytes with the widest accesses the two addresses allow,
// several independent accesses in flight per thread (remote loads take ~1 us over NVLink).
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/platform/platform.hpp"

namespace gio::detail {

struct alignas(16) vec16 {
  std::uint64_t lo, hi;
};

template <class Unit>
GIO_DEVICE void copy_units(Unit* dst, const Unit* src, std::size_t count, unsigned rank, unsigned size) {
  constexpr unsigned in_flight = 4;
  std::size_t i = rank;
  for (; i + (in_flight - 1) * std::size_t(size) < count; i += in_flight * std::size_t(size)) {
    Unit tmp[in_flight];
#pragma unroll
    for (unsigned u = 0; u < in_flight; ++u) tmp[u] = src[i + u * std::size_t(size)];
#pragma unroll
    for (unsigned u = 0; u < in_flight; ++u) dst[i + u * std::size_t(size)] = tmp[u];
  }
  for (; i < count; i += size) dst[i] = src[i];
}

// dst and src agree modulo sizeof(Unit): bytes up to dst's alignment, Units, then the tail.
template <class Unit>
GIO_DEVICE void copy_aligned_body(char* dst, const char* src, std::size_t n, unsigned rank, unsigned size) {
  constexpr std::size_t w = sizeof(Unit);
  std::size_t head = (w - reinterpret_cast<std::uintptr_t>(dst) % w) % w;
  if (head > n) head = n;
  copy_units(dst, src, head, rank, size);
  const std::size_t body = (n - head) / w;
  copy_units(reinterpret_cast<Unit*>(dst + head), reinterpret_cast<const Unit*>(src + head), body, rank, size);
  const std::size_t done = head + body * w;
  copy_units(dst + done, src + done, n - done, rank, size);
}

// Copies n bytes; the caller's group calls it with its own rank and size.
GIO_DEVICE void copy_bytes(void* dst_, const void* src_, std::size_t n, unsigned rank, unsigned size) {
  char* dst = static_cast<char*>(dst_);
  const char* src = static_cast<const char*>(src_);
  const std::uintptr_t relative = reinterpret_cast<std::uintptr_t>(dst) ^ reinterpret_cast<std::uintptr_t>(src);
  const std::uintptr_t both = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | n;
  if (both % 16 == 0)
    copy_units(reinterpret_cast<vec16*>(dst), reinterpret_cast<const vec16*>(src), n / 16, rank, size);
  else if (both % 8 == 0 && n < 64)  // small aligned messages: no 16-byte head/tail split
    copy_units(reinterpret_cast<std::uint64_t*>(dst), reinterpret_cast<const std::uint64_t*>(src), n / 8, rank, size);
  else if (relative % 16 == 0)
    copy_aligned_body<vec16>(dst, src, n, rank, size);
  else if (relative % 8 == 0)
    copy_aligned_body<std::uint64_t>(dst, src, n, rank, size);
  else if (relative % 4 == 0)
    copy_aligned_body<std::uint32_t>(dst, src, n, rank, size);
  else
    copy_units(dst, src, n, rank, size);
}

}  // namespace gio::detail
