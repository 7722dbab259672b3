// Big-endian field helpers for NIC wire structs, callable from host code and from CUDA/HIP
// device code alike. mlx5 WQEs and CQEs are big-endian; every host and GPU gio targets (x86-64,
// aarch64, NVIDIA, AMD) is little-endian, which is checked below.
//
// Written as shifts rather than __builtin_bswap*: nvcc treats those builtins as host-only
// (warning 20011 from a __host__ __device__ caller), while this form is constexpr everywhere and
// compiles to one bswap (x86), rev (Arm), prmt (PTX) or v_perm (AMDGPU).
#pragma once
#include <cstdint>

#include "gio/platform/host_device.hpp"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "gio/templates assumes a little-endian host and device"
#endif

namespace gio::templates {

GIO_HOST_DEVICE_INLINE constexpr std::uint16_t bswap16(std::uint16_t v) {
  return static_cast<std::uint16_t>((v >> 8) | (v << 8));
}
GIO_HOST_DEVICE_INLINE constexpr std::uint32_t bswap32(std::uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0x0000ff00u) | ((v << 8) & 0x00ff0000u) | (v << 24);
}
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t bswap64(std::uint64_t v) {
  return (static_cast<std::uint64_t>(bswap32(static_cast<std::uint32_t>(v))) << 32) |
         bswap32(static_cast<std::uint32_t>(v >> 32));
}

// to_be*: a CPU/GPU value as the NIC wants it in memory (htobe*); from_be*: the reverse (be*toh).
// Both directions are the same swap; two names keep call sites readable.
GIO_HOST_DEVICE_INLINE constexpr std::uint16_t to_be16(std::uint16_t v) { return bswap16(v); }
GIO_HOST_DEVICE_INLINE constexpr std::uint32_t to_be32(std::uint32_t v) { return bswap32(v); }
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t to_be64(std::uint64_t v) { return bswap64(v); }
GIO_HOST_DEVICE_INLINE constexpr std::uint16_t from_be16(std::uint16_t v) { return bswap16(v); }
GIO_HOST_DEVICE_INLINE constexpr std::uint32_t from_be32(std::uint32_t v) { return bswap32(v); }
GIO_HOST_DEVICE_INLINE constexpr std::uint64_t from_be64(std::uint64_t v) { return bswap64(v); }

static_assert(bswap16(0x0102) == 0x0201);
static_assert(bswap32(0x01020304u) == 0x04030201u);
static_assert(bswap64(0x0102030405060708ull) == 0x0807060504030201ull);

}  // namespace gio::templates
