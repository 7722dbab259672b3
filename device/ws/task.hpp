// Tasks of the work-stealing runtime: a fixed 32-byte record (a tag and up to 28 bytes of
// payload) that queues copy as two 16-byte words. A task type is a trivially copyable functor
// whose value is the payload; a program lists its task types once, in a task_list, and the tag is
// the type's index there: no macros, no virtual calls, a switch the compiler builds from the list.
//
//   struct visit { std::uint64_t index;
//     template <class Spawn> GIO_DEVICE void operator()(const my_program& p, Spawn& spawn) const { ... } };
//   struct my_program { using tasks = gio::ws::task_list<visit, other_task>; ... };
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "gio/platform/host_device.hpp"

namespace gio::ws {

inline constexpr std::size_t task_payload_bytes = 28;

struct alignas(16) task {
  std::uint32_t tag;
  unsigned char payload[task_payload_bytes];  // at offset 4: values are copied in and out, never referenced
};
static_assert(sizeof(task) == 32, "queues move tasks as two 16-byte words");
static_assert(std::is_trivially_copyable_v<task>, "tasks are copied between GPUs");

template <class... Types> struct task_list {
  static constexpr std::size_t size = sizeof...(Types);
};

namespace detail {
template <class T, class... Types> struct index_of;
template <class T, class... Rest> struct index_of<T, T, Rest...> : std::integral_constant<std::uint32_t, 0> {};
template <class T, class First, class... Rest>
struct index_of<T, First, Rest...> : std::integral_constant<std::uint32_t, 1 + index_of<T, Rest...>::value> {};
template <class T> struct index_of<T> {
  static_assert(sizeof(T) == 0, "gio::ws: this task type is not in the program's task_list");
};
}  // namespace detail

template <class List, class T> struct tag_of;
template <class T, class... Types> struct tag_of<task_list<Types...>, T> : detail::index_of<T, Types...> {};

// A task of type T (one of List's) with value `value`.
template <class List, class T> GIO_HOST_DEVICE_INLINE task make_task(const T& value) {
  static_assert(std::is_trivially_copyable_v<T>, "gio::ws: a task type must be trivially copyable");
  static_assert(sizeof(T) <= task_payload_bytes, "gio::ws: a task's value must fit in task_payload_bytes (28)");
  task t{};
  t.tag = tag_of<List, T>::value;
  __builtin_memcpy(t.payload, &value, sizeof(T));  // the builtin: host and device, CUDA and HIP
  return t;
}

template <class T> GIO_HOST_DEVICE_INLINE T task_value(const task& t) {
  T value;
  __builtin_memcpy(&value, t.payload, sizeof(T));
  return value;
}

namespace detail {
template <class... Types, class Program, class Spawn, std::size_t... I>
GIO_HOST_DEVICE_INLINE bool run_tagged(task_list<Types...>, std::index_sequence<I...>, const task& t, const Program& p,
                                       Spawn& spawn) {
  return ((t.tag == I ? (task_value<Types>(t)(p, spawn), true) : false) || ...);
}
}  // namespace detail

// Runs `t` with the functor its tag names; false for a tag outside the list.
template <class List, class Program, class Spawn>
GIO_HOST_DEVICE_INLINE bool run_task(const task& t, const Program& p, Spawn& spawn) {
  return detail::run_tagged(List{}, std::make_index_sequence<List::size>{}, t, p, spawn);
}

}  // namespace gio::ws
