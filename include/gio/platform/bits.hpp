// Vendor-neutral helpers shared by both platform headers: the unsigned type of a given size,
// and a bit-exact conversion between a value and it (strong loads/stores work on bits).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gio::platform {

template <std::size_t Size> struct uint_of_size;
template <> struct uint_of_size<1> { using type = std::uint8_t; };
template <> struct uint_of_size<2> { using type = std::uint16_t; };
template <> struct uint_of_size<4> { using type = std::uint32_t; };
template <> struct uint_of_size<8> { using type = std::uint64_t; };

// Read-modify-write operations the platform layers implement natively (atomic_rmw_sys_bits).
enum class rmw { add, and_, or_, xor_, exchange };

template <class T> using bits_t = typename uint_of_size<sizeof(T)>::type;

template <class To, class From>
__host__ __device__ inline To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<From>);
  To to;
  __builtin_memcpy(&to, &from, sizeof(To));
  return to;
}

}  // namespace gio::platform
