// Point-to-point synchronisation: wait_until / test and their _all/_any/_some forms. One
// implementation; the generated bindings (api_generated.hpp) name the call and forward here.
//
// How a wait acquires (docs/memory-model.md): every condition is judged on a value that was read
// as an acquire, which synchronises with the write it reads, so the caller then sees everything
// that writer ordered before its update (fence/quiet, then p). Where PTX has fence.acquire (sm_90,
// ISA 8.6: platform::light_acquire_fence) a wait polls with relaxed loads and issues one acquire
// fence after the read that satisfies it: that read and the fence are an acquire pattern, and the
// fence (an L1 invalidation) is paid once per wait instead of once per poll (docs/results.md,
// "Waits acquire with one fence"); test and the _all/_any/_some forms read relaxed too and issue
// the fence only when they report a satisfied element. Elsewhere a wait first polls with acquire
// loads (the load that sees the value is the acquire, where a trailing acq_rel fence or a
// confirming load would cost a round trip: docs/memory-model.md); a wait still unsatisfied after
// `hot_polls` polls (tens of microseconds) switches to relaxed polls, confirmed by one acquire
// load, so that co-resident workgroups do not pay an L1 invalidation per poll during a long wait.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/device/checks.hpp"
#include "gio/ops.hpp"
#include "gio/platform/strong.hpp"

namespace gio {

namespace detail {

GIO_DEVICE void check_cmp(const ctx& c, int cmp, const char* call, source_location loc) {
  if constexpr (checks_enabled) {
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE) fail(c, call, loc, "unknown comparison operator [cmp, max]", cmp, SHMEM_CMP_LE);
  }
}

template <class T> GIO_DEVICE void check_ivars(const ctx& c, const T* ivars, std::size_t nelems, int cmp,
                                               const char* call, source_location loc) {
  check_cmp(c, cmp, call, loc);
  check_size(c, nelems, sizeof(T), call, loc);
  check_symmetric(c, ivars, nelems * sizeof(T), call, loc);
}

// The comparison value of element i: one value for every element, or (the _vector forms) one each.
template <class T> struct same_value {
  T value;
  GIO_DEVICE T operator[](std::size_t) const { return value; }
};
template <class T> struct value_per_element {
  const T* values;
  GIO_DEVICE T operator[](std::size_t i) const { return values[i]; }
};

// The decisive check: an acquire load (see the file comment).
template <class T> GIO_DEVICE bool acquired(const T* ivar, int cmp, T value) {
  return compare(platform::ld_acquire_sys(ivar), cmp, value);
}

// The reads of a check that returns at once (test, the _any/_some scans): where PTX has
// fence.acquire, relaxed reads and one fence after them when the check is satisfied
// (checked_reads_acquire), so that an unsatisfied check costs no L1 invalidation; elsewhere
// acquire loads, each the acquire itself.
template <class T> GIO_DEVICE bool satisfied(const T* ivar, int cmp, T value) {
  if constexpr (platform::light_acquire_fence) return compare(platform::ld_relaxed_sys(ivar), cmp, value);
  else return acquired(ivar, cmp, value);
}
// Called once a check made of satisfied() reads (or a wait's relaxed polls) decided "yes", before
// the caller returns: with fence.acquire, the fence that makes those reads acquires.
GIO_DEVICE void checked_reads_acquire() {
  if constexpr (platform::light_acquire_fence) platform::fence_acquire_system();
}
// A relaxed read satisfied element `ivar`'s check: make that read an acquire. With fence.acquire,
// the fence after it; else a confirming acquire load, which must satisfy the check too.
template <class T> GIO_DEVICE bool confirm_acquire(const T* ivar, int cmp, T value) {
  if constexpr (platform::light_acquire_fence) {
    checked_reads_acquire();
    return true;
  } else {
    return acquired(ivar, cmp, value);
  }
}
GIO_DEVICE bool included(const int* status, std::size_t i) { return status == nullptr || status[i] == 0; }

// Tens of microseconds of acquire polling: well past a round trip over NVLink, so latency-bound
// waits never reach the slower relaxed phase.
inline constexpr unsigned hot_polls = 1024;

// Polls one element until the condition holds on an acquired value; returns that value.
template <class T>
GIO_DEVICE T wait_one(const ctx& c, T* ivar, int cmp, T value, wait_budget& budget, const char* call,
                      source_location loc) {
  if constexpr (!platform::light_acquire_fence) {
#pragma unroll 1
    for (unsigned poll = 0; poll < hot_polls; ++poll) {
      const T seen = platform::ld_acquire_sys(ivar);
      if (compare(seen, cmp, value)) return seen;
    }
  }
  for (;;) {
    const T seen = platform::ld_relaxed_sys(ivar);
    if (compare(seen, cmp, value)) {
      if constexpr (platform::light_acquire_fence) {
        checked_reads_acquire();  // with the read that decided: the acquire pattern
        return seen;
      } else {
        const T confirmed = platform::ld_acquire_sys(ivar);
        if (compare(confirmed, cmp, value)) return confirmed;
      }
    }
    budget.tick(c, call, loc, ivar, cmp, value, seen);
  }
}

template <class T>
GIO_DEVICE void wait_until(const ctx& c, T* ivar, int cmp, T value, const char* call, source_location loc) {
  check_ivars(c, ivar, 1, cmp, call, loc);
  wait_budget budget(c);
  wait_one(c, ivar, cmp, value, budget, call, loc);
}

template <class T>
GIO_DEVICE int test(const ctx& c, T* ivar, int cmp, T value, const char* call, source_location loc) {
  check_ivars(c, ivar, 1, cmp, call, loc);
  if (!satisfied(ivar, cmp, value)) return 0;
  checked_reads_acquire();
  return 1;
}

// The array forms (the generated bindings call these directly), for one comparison value
// (Values = same_value) or, in the _vector forms, one per element.
template <class T, class Values>
GIO_DEVICE int test_all_of(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp, Values values,
                           const char* call, source_location loc) {
  check_ivars(c, ivars, nelems, cmp, call, loc);
  for (std::size_t i = 0; i < nelems; ++i)
    if (included(status, i) && !satisfied(ivars + i, cmp, values[i])) return 0;
  checked_reads_acquire();
  return 1;
}

// Index of a satisfied, included element, or SIZE_MAX. `start` rotates the scan so that a
// waiter polling repeatedly does not favour low indices.
template <class T, class Values>
GIO_DEVICE std::size_t find_any(T* ivars, std::size_t nelems, const int* status, int cmp, Values values, std::size_t start) {
  for (std::size_t k = 0; k < nelems; ++k) {
    const std::size_t i = (start + k) % nelems;
    if (included(status, i) && compare(platform::ld_relaxed_sys(ivars + i), cmp, values[i]) &&
        confirm_acquire(ivars + i, cmp, values[i]))
      return i;
  }
  return SIZE_MAX;
}

template <class T, class Values>
GIO_DEVICE std::size_t test_any_of(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp, Values values,
                                   const char* call, source_location loc) {
  check_ivars(c, ivars, nelems, cmp, call, loc);
  return find_any(ivars, nelems, status, cmp, values, 0);
}

template <class T, class Values>
GIO_DEVICE std::size_t test_some_of(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices, const int* status,
                                    int cmp, Values values, const char* call, source_location loc) {
  check_ivars(c, ivars, nelems, cmp, call, loc);
  std::size_t found = 0;
  for (std::size_t i = 0; i < nelems; ++i)
    if (included(status, i) && satisfied(ivars + i, cmp, values[i])) indices[found++] = i;
  if (found) checked_reads_acquire();
  return found;
}

GIO_DEVICE bool any_included(std::size_t nelems, const int* status) {
  for (std::size_t i = 0; i < nelems; ++i)
    if (included(status, i)) return true;
  return false;
}

template <class T, class Values>
GIO_DEVICE void wait_until_all_of(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp, Values values,
                                  const char* call, source_location loc) {
  check_ivars(c, ivars, nelems, cmp, call, loc);
  wait_budget budget(c);
  for (std::size_t i = 0; i < nelems; ++i)
    if (included(status, i)) wait_one(c, ivars + i, cmp, values[i], budget, call, loc);
}

// SIZE_MAX when nelems is 0 or every element is excluded (OpenSHMEM 1.5).
template <class T, class Values>
GIO_DEVICE std::size_t wait_until_any_of(const ctx& c, T* ivars, std::size_t nelems, const int* status, int cmp,
                                         Values values, const char* call, source_location loc) {
  check_ivars(c, ivars, nelems, cmp, call, loc);
  if (!any_included(nelems, status)) return SIZE_MAX;
  wait_budget budget(c);
  for (std::size_t round = 0;; ++round) {
    const std::size_t i = find_any(ivars, nelems, status, cmp, values, round % nelems);
    if (i != SIZE_MAX) return i;
    budget.tick(c, call, loc, ivars, cmp, values[0], platform::ld_relaxed_sys(ivars));
  }
}

// 0 when nelems is 0 or every element is excluded.
template <class T, class Values>
GIO_DEVICE std::size_t wait_until_some_of(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,
                                          const int* status, int cmp, Values values, const char* call, source_location loc) {
  check_ivars(c, ivars, nelems, cmp, call, loc);
  if (!any_included(nelems, status)) return 0;
  wait_budget budget(c);
  for (;;) {
    // Where test_some_of's reads are acquire loads, a relaxed scan first: an unsatisfied poll then
    // costs no L1 invalidation (with fence.acquire it costs none anyway).
    if (platform::light_acquire_fence || find_any(ivars, nelems, status, cmp, values, 0) != SIZE_MAX) {
      const std::size_t found = test_some_of(c, ivars, nelems, indices, status, cmp, values, call, loc);
      if (found) return found;
    }
    budget.tick(c, call, loc, ivars, cmp, values[0], platform::ld_relaxed_sys(ivars));
  }
}

}  // namespace detail
}  // namespace gio
