// Point-to-point synchronisation: wait_until / test and their _all/_any/_some forms. One
// implementation; the generated bindings (api_generated.hpp) name the call and forward here.
// A satisfied wait ends with an acquire fence at system scope, so the caller then sees every
// store that the writer ordered before its flag (fence/quiet, then p).
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/device/checks.hpp"
#include "gio/platform/strong.hpp"

namespace gio {

// Comparison operators (OpenSHMEM 1.5 values).
inline constexpr int SHMEM_CMP_EQ = 0;
inline constexpr int SHMEM_CMP_NE = 1;
inline constexpr int SHMEM_CMP_GT = 2;
inline constexpr int SHMEM_CMP_GE = 3;
inline constexpr int SHMEM_CMP_LT = 4;
inline constexpr int SHMEM_CMP_LE = 5;

namespace detail {

template <class T> GIO_DEVICE bool compare(T seen, int cmp, T value) {
  switch (cmp) {
    case SHMEM_CMP_EQ: return seen == value;
    case SHMEM_CMP_NE: return seen != value;
    case SHMEM_CMP_GT: return seen > value;
    case SHMEM_CMP_GE: return seen >= value;
    case SHMEM_CMP_LT: return seen < value;
    case SHMEM_CMP_LE: return seen <= value;
    default: return false;
  }
}

GIO_DEVICE void check_cmp(const ctx& c, int cmp, const char* call, source_location loc) {
  if constexpr (checks_enabled) {
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE) fail(c, call, loc, "unknown comparison operator [cmp, max]", cmp, SHMEM_CMP_LE);
  }
}

template <class T> GIO_DEVICE bool satisfied(const T* ivar, int cmp, T value) {
  return compare(platform::ld_relaxed_sys(ivar), cmp, value);
}
GIO_DEVICE bool included(const int* status, std::size_t i) { return status == nullptr || status[i] == 0; }

template <class T>
GIO_DEVICE void wait_until(const ctx& c, T* ivar, int cmp, T value, const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivar, sizeof(T), call, loc);
  wait_budget budget(c);
  for (T seen; !compare(seen = platform::ld_relaxed_sys(ivar), cmp, value);)
    budget.tick(c, call, loc, ivar, cmp, value, seen);
  platform::fence_acq_rel_system();
}

template <class T>
GIO_DEVICE int test(const ctx& c, T* ivar, int cmp, T value, const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivar, sizeof(T), call, loc);
  if (!satisfied(ivar, cmp, value)) return 0;
  platform::fence_acq_rel_system();
  return 1;
}

template <class T>
GIO_DEVICE int test_all(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp, T value,
                        const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivars, nelems * sizeof(T), call, loc);
  for (std::size_t i = 0; i < nelems; ++i)
    if (included(status, i) && !satisfied(ivars + i, cmp, value)) return 0;
  platform::fence_acq_rel_system();
  return 1;
}

// Index of a satisfied, included element, or SIZE_MAX. `start` rotates the scan so that a
// waiter polling repeatedly does not favour low indices.
template <class T>
GIO_DEVICE std::size_t find_any(T* ivars, std::size_t nelems, const int* status, int cmp, T value, std::size_t start) {
  for (std::size_t k = 0; k < nelems; ++k) {
    const std::size_t i = (start + k) % nelems;
    if (included(status, i) && satisfied(ivars + i, cmp, value)) return i;
  }
  return SIZE_MAX;
}

template <class T>
GIO_DEVICE std::size_t test_any(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp, T value,
                                const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivars, nelems * sizeof(T), call, loc);
  const std::size_t i = find_any(ivars, nelems, status, cmp, value, 0);
  if (i != SIZE_MAX) platform::fence_acq_rel_system();
  return i;
}

template <class T>
GIO_DEVICE std::size_t test_some(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices, const int* status,
                                 int cmp, T value, const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivars, nelems * sizeof(T), call, loc);
  std::size_t found = 0;
  for (std::size_t i = 0; i < nelems; ++i)
    if (included(status, i) && satisfied(ivars + i, cmp, value)) indices[found++] = i;
  if (found) platform::fence_acq_rel_system();
  return found;
}

GIO_DEVICE bool any_included(std::size_t nelems, const int* status) {
  for (std::size_t i = 0; i < nelems; ++i)
    if (included(status, i)) return true;
  return false;
}

template <class T>
GIO_DEVICE void wait_until_all(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp, T value,
                               const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivars, nelems * sizeof(T), call, loc);
  wait_budget budget(c);
  for (std::size_t i = 0; i < nelems; ++i) {
    if (!included(status, i)) continue;
    for (T seen; !compare(seen = platform::ld_relaxed_sys(ivars + i), cmp, value);)
      budget.tick(c, call, loc, ivars + i, cmp, value, seen);
  }
  platform::fence_acq_rel_system();
}

// SIZE_MAX when nelems is 0 or every element is excluded (OpenSHMEM 1.5).
template <class T>
GIO_DEVICE std::size_t wait_until_any(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp, T value,
                                      const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivars, nelems * sizeof(T), call, loc);
  if (!any_included(nelems, status)) return SIZE_MAX;
  wait_budget budget(c);
  for (std::size_t round = 0;; ++round) {
    const std::size_t i = find_any(ivars, nelems, status, cmp, value, round % nelems);
    if (i != SIZE_MAX) {
      platform::fence_acq_rel_system();
      return i;
    }
    budget.tick(c, call, loc, ivars, cmp, value, platform::ld_relaxed_sys(ivars));
  }
}

template <class T>
GIO_DEVICE std::size_t wait_until_some(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,
                                       const int* status, int cmp, T value, const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_symmetric(c, ivars, nelems * sizeof(T), call, loc);
  if (!any_included(nelems, status)) return 0;
  wait_budget budget(c);
  for (;;) {
    const std::size_t found = test_some(c, ivars, nelems, indices, status, cmp, value, call, loc);
    if (found) return found;
    budget.tick(c, call, loc, ivars, cmp, value, platform::ld_relaxed_sys(ivars));
  }
}

}  // namespace detail
}  // namespace gio
