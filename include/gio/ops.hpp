// Operation identifiers shared by the host and device APIs (atomics, signals, reductions), the
// element types collectives and atomics accept, and the arithmetic of each reduction, written
// once for the host (references, the CPU build) and the device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gio/platform/host_device.hpp"

namespace gio {

// put_signal's sig_op (OpenSHMEM 1.5 values).
inline constexpr int SHMEM_SIGNAL_SET = 0;
inline constexpr int SHMEM_SIGNAL_ADD = 1;

enum class reduce_op : std::uint32_t { sum, prod, min, max, and_, or_, xor_ };
inline constexpr const char* reduce_op_name(reduce_op op) {
  constexpr const char* names[] = {"sum", "prod", "min", "max", "and", "or", "xor"};
  return names[static_cast<std::uint32_t>(op)];
}
// and/or/xor are defined on integers only (OpenSHMEM 1.5 Table 11).
template <class T> inline constexpr bool reduce_op_allowed(reduce_op op) {
  return std::is_integral_v<T> || op == reduce_op::sum || op == reduce_op::prod || op == reduce_op::min ||
         op == reduce_op::max;
}

template <class T> GIO_HOST_DEVICE_INLINE T reduce_combine(reduce_op op, T a, T b) {
  switch (op) {
    case reduce_op::sum: return static_cast<T>(a + b);
    case reduce_op::prod: return static_cast<T>(a * b);
    case reduce_op::min: return b < a ? b : a;
    case reduce_op::max: return a < b ? b : a;
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case reduce_op::and_: return static_cast<T>(a & b);
      case reduce_op::or_: return static_cast<T>(a | b);
      case reduce_op::xor_: return static_cast<T>(a ^ b);
      default: break;
    }
  }
  return a;
}

// Remote atomic operations (OpenSHMEM 1.5 §9.7).
enum class amo_op : std::uint32_t {
  fetch, set, swap, compare_swap, fetch_inc, inc, fetch_add, add, fetch_and, and_, fetch_or, or_, fetch_xor, xor_
};

// The one place an atomic's properties are written down: whether it returns the value it found
// (fetch, swap, compare_swap and the fetch_ forms), and whether it needs an integer type (the
// bitwise ones). The device's dispatch, the host's checks and the GPU-less build read them.
GIO_HOST_DEVICE_INLINE constexpr bool amo_fetches(amo_op op) {
  return op != amo_op::set && op != amo_op::inc && op != amo_op::add && op != amo_op::and_ && op != amo_op::or_ &&
         op != amo_op::xor_;
}
GIO_HOST_DEVICE_INLINE constexpr bool amo_bitwise(amo_op op) {
  return op == amo_op::fetch_and || op == amo_op::and_ || op == amo_op::fetch_or || op == amo_op::or_ ||
         op == amo_op::fetch_xor || op == amo_op::xor_;
}

// The value an atomic leaves in its word, given the value it found (OpenSHMEM 1.5 §9.7): the
// step of the device's CAS loops and the GPU-less build's CPU atomics. inc/fetch_inc carry
// value 1 (the bindings pass it).
template <class T> GIO_HOST_DEVICE_INLINE T amo_new_value(amo_op op, T old, T value, T cond) {
  switch (op) {
    case amo_op::set:
    case amo_op::swap: return value;
    case amo_op::compare_swap: return old == cond ? value : old;
    case amo_op::fetch_inc:
    case amo_op::inc:
    case amo_op::fetch_add:
    case amo_op::add: return static_cast<T>(old + value);
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case amo_op::fetch_and:
      case amo_op::and_: return static_cast<T>(old & value);
      case amo_op::fetch_or:
      case amo_op::or_: return static_cast<T>(old | value);
      case amo_op::fetch_xor:
      case amo_op::xor_: return static_cast<T>(old ^ value);
      default: break;
    }
  }
  return old;  // fetch
}

// Element types of collectives and host atomics, type-erased across the library boundary.
enum class dtype : std::uint32_t {
  i8, i16, i32, i64, u8, u16, u32, u64, f32, f64
};
template <class T> GIO_HOST_DEVICE_INLINE constexpr dtype dtype_of() {
  if constexpr (std::is_same_v<T, float>) return dtype::f32;
  else if constexpr (std::is_same_v<T, double>) return dtype::f64;
  else {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "collectives and atomics take integers, float or double");
    constexpr bool s = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1) return s ? dtype::i8 : dtype::u8;
    else if constexpr (sizeof(T) == 2) return s ? dtype::i16 : dtype::u16;
    else if constexpr (sizeof(T) == 4) return s ? dtype::i32 : dtype::u32;
    else return s ? dtype::i64 : dtype::u64;
  }
}
GIO_HOST_DEVICE_INLINE constexpr std::size_t dtype_size(dtype t) {
  constexpr std::size_t sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
  return sizes[static_cast<std::uint32_t>(t)];
}

// Calls f(T{}) with the C++ type of `t` (one switch for every type-erased dispatch).
// Host code of CUDA sources passes host lambdas (that launch kernels): without the pragma nvcc
// warns that the device side of this template, never emitted for them, would call them.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class F> GIO_HOST_DEVICE_INLINE decltype(auto) visit_dtype(dtype t, F&& f) {
  switch (t) {
    case dtype::i8: return f(std::int8_t{});
    case dtype::i16: return f(std::int16_t{});
    case dtype::i32: return f(std::int32_t{});
    case dtype::i64: return f(std::int64_t{});
    case dtype::u8: return f(std::uint8_t{});
    case dtype::u16: return f(std::uint16_t{});
    case dtype::u32: return f(std::uint32_t{});
    case dtype::u64: return f(std::uint64_t{});
    case dtype::f32: return f(float{});
    default: return f(double{});
  }
}

// Comparison operators of the point-to-point waits (OpenSHMEM 1.5 values), host and device.
inline constexpr int SHMEM_CMP_EQ = 0;
inline constexpr int SHMEM_CMP_NE = 1;
inline constexpr int SHMEM_CMP_GT = 2;
inline constexpr int SHMEM_CMP_GE = 3;
inline constexpr int SHMEM_CMP_LT = 4;
inline constexpr int SHMEM_CMP_LE = 5;

namespace detail {
// Whether `seen` satisfies `seen <cmp> value`; false for an unknown operator.
template <class T> GIO_HOST_DEVICE_INLINE bool compare(T seen, int cmp, T value) {
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
}  // namespace detail

}  // namespace gio
