// Argument checks and bounded waits. On in checked builds (GIO_CHECKS defined: CMake's Debug
// configuration, or -DGIO_CHECKS=1); compiled out otherwise. A failure prints the PE, the
// call, the caller's file:line and the cause, then traps the kernel.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/device/ctx.hpp"

namespace gio {

#if defined(GIO_CHECKS) && GIO_CHECKS
inline constexpr bool checks_enabled = true;
#else
inline constexpr bool checks_enabled = false;
#endif

// The caller's position, captured by a defaulted last argument of every API call.
struct source_location {
  const char* file;
  int line;
  static GIO_DEVICE source_location current(const char* file = __builtin_FILE(),
                                            int line = __builtin_LINE()) {
    return {file, line};
  }
};

namespace detail {

__device__ __noinline__ inline void fail(const ctx& c, const char* call,
                                                       source_location loc, const char* cause,
                                                       long long a, long long b) {
  printf("gio: PE %d: %s (%s:%d): %s [%lld, %lld]\n", c.h.my_pe, call, loc.file, loc.line, cause, a, b);
  platform::trap();
}

// `pe` is a PE of the context's team (WORLD unless the context was made for another team).
GIO_DEVICE void check_pe(const ctx& c, int pe, const char* call, source_location loc) {
  if constexpr (checks_enabled) {
    if (pe < 0 || pe >= c.team.size) fail(c, call, loc, "PE out of range [pe, n_pes]", pe, c.team.size);
  }
}

// Atomics and signals need naturally aligned words.
GIO_DEVICE void check_aligned(const ctx& c, const void* ptr, std::size_t size, const char* call, source_location loc) {
  if constexpr (checks_enabled) {
    const auto offset = reinterpret_cast<std::uintptr_t>(ptr) - reinterpret_cast<std::uintptr_t>(c.h.heap_base);
    if (reinterpret_cast<std::uintptr_t>(ptr) % size != 0)
      fail(c, call, loc, "address not aligned to the element size [offset, element size]",
           static_cast<long long>(offset), static_cast<long long>(size));
  }
}

// A team argument of a collective: a valid index (before its record is read) ...
GIO_DEVICE void check_team_index(const ctx& c, shmem_team_t team, const char* call, source_location loc) {
  if constexpr (checks_enabled) {
    if (team < 0 || team >= c.h.max_teams) fail(c, call, loc, "invalid team [team, max teams]", team, c.h.max_teams);
  }
}
// ... of a team that includes this PE.
GIO_DEVICE void check_team_member(const ctx& c, shmem_team_t team, const team_info& t, const char* call,
                                  source_location loc) {
  if constexpr (checks_enabled) {
    if (t.size <= 0 || t.my_pe < 0) fail(c, call, loc, "this PE is not a member of the team [team, team size]", team, t.size);
  }
}

GIO_DEVICE void check_root(const ctx& c, int root, const team_info& t, const char* call, source_location loc) {
  if constexpr (checks_enabled) {
    if (root < 0 || root >= t.size) fail(c, call, loc, "root PE out of range in the team [root, team size]", root, t.size);
  }
}

// [ptr, ptr + bytes) must lie inside this PE's symmetric heap; bytes must not overflow.
GIO_DEVICE void check_symmetric(const ctx& c, const void* ptr, std::size_t bytes, const char* call,
                                source_location loc) {
  if constexpr (checks_enabled) {
    const auto base = reinterpret_cast<std::uintptr_t>(c.h.heap_base);
    const auto p = reinterpret_cast<std::uintptr_t>(ptr);
    if (p < base || p - base >= c.h.heap_size)
      fail(c, call, loc, "address not in the symmetric heap [offset, heap size]",
           static_cast<long long>(p - base), static_cast<long long>(c.h.heap_size));
    if (bytes > c.h.heap_size - (p - base))
      fail(c, call, loc, "range runs past the end of the symmetric heap [offset, bytes]",
           static_cast<long long>(p - base), static_cast<long long>(bytes));
  }
}

GIO_DEVICE void check_size(const ctx& c, std::size_t nelems, std::size_t elem_size, const char* call,
                           source_location loc) {
  if constexpr (checks_enabled) {
    if (elem_size != 0 && nelems > SIZE_MAX / elem_size)
      fail(c, call, loc, "element count overflows size_t [nelems, element size]",
           static_cast<long long>(nelems), static_cast<long long>(elem_size));
  }
}

template <class T> __device__ __noinline__ void print_timeout(const ctx& c, const char* call, source_location loc,
                                                             const T* ivar, int cmp, T expected, T seen,
                                                             std::uint64_t waited_ns) {
  if constexpr (std::is_floating_point_v<T>) {
    printf("gio: PE %d: %s (%s:%d): wait timed out after %llu ns: ivar %p (local, written by a peer), "
           "cmp %d, expected %g, seen %g\n",
           c.h.my_pe, call, loc.file, loc.line, static_cast<unsigned long long>(waited_ns), ivar, cmp,
           static_cast<double>(expected), static_cast<double>(seen));
  } else {
    printf("gio: PE %d: %s (%s:%d): wait timed out after %llu ns: ivar %p (local, written by a peer), "
           "cmp %d, expected %lld, seen %lld\n",
           c.h.my_pe, call, loc.file, loc.line, static_cast<unsigned long long>(waited_ns), ivar, cmp,
           static_cast<long long>(expected), static_cast<long long>(seen));
  }
}

// A wait's budget: free in unchecked builds; in checked builds reads the clock every 256 polls
// and, past GIO_WAIT_TIMEOUT, prints what it waited for and what it saw, then traps.
class wait_budget {
 public:
  GIO_DEVICE explicit wait_budget(const ctx& c) {
    if constexpr (checks_enabled) {
      limit_ns_ = c.h.wait_timeout_ns;
      start_ns_ = limit_ns_ ? platform::timer_ns() : 0;
    }
  }
  template <class T>
  GIO_DEVICE void tick(const ctx& c, const char* call, source_location loc, const T* ivar, int cmp,
                       T expected, T seen) {
    if (const std::uint64_t waited = overdue()) {
      print_timeout(c, call, loc, ivar, cmp, expected, seen, waited);
      platform::trap();
    }
  }
  // For waits that print their own state: the time waited once past the budget (checked
  // builds, looked at every 256 calls), else 0.
  GIO_DEVICE std::uint64_t overdue() {
    if constexpr (checks_enabled) {
      if (limit_ns_ == 0 || (++polls_ & 255u) != 0) return 0;
      const std::uint64_t waited = platform::timer_ns() - start_ns_;
      if (waited > limit_ns_) return waited;
    }
    return 0;
  }

 private:
  std::uint64_t limit_ns_ = 0;
  std::uint64_t start_ns_ = 0;
  unsigned polls_ = 0;
};

}  // namespace detail
}  // namespace gio
