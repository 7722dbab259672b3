// gio::device_library's network entries (device/transports/gda/gda.hpp declares them in
// gda::library): each calls the header's entry of the same name, so the library and the header
// run the same code. Included only by the sources device/CMakeLists.txt generates, one per checks
// setting (GIO_CHECKS 0 or 1).
#pragma once
#include "gio/device.hpp"

namespace gio::transports::gda::library {
inline namespace GIO_LIBRARY_ENTRIES_NAMESPACE {

__device__ void put_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes, bool wait, group g,
                          const char* call, source_location loc) {
  gda::put_bytes(c, pe, dest, source, bytes, wait, g, call, loc);
}
__device__ void get_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes, bool wait, group g,
                          const char* call, source_location loc) {
  gda::get_bytes(c, pe, dest, source, bytes, wait, g, call, loc);
}
__device__ void p_bits(const ctx& c, int pe, void* dest, std::uint64_t bits, unsigned bytes, const char* call,
                       source_location loc) {
  gda::p_bits(c, pe, dest, bits, bytes, call, loc);
}
__device__ std::uint64_t g_bits(const ctx& c, int pe, const void* source, unsigned bytes, const char* call,
                                source_location loc) {
  return gda::g_bits(c, pe, source, bytes, call, loc);
}
__device__ std::uint64_t amo_bits(const ctx& c, int pe, amo_op op, void* dest, dtype type, std::uint64_t value,
                                  std::uint64_t cond, const char* call, source_location loc) {
  return gda::amo_bits(c, pe, op, dest, type, value, cond, call, loc);
}
__device__ void put_signal_bytes(const ctx& c, int pe, void* dest, const void* source, std::size_t bytes,
                                 std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, bool wait, group g,
                                 const char* call, source_location loc) {
  gda::put_signal_bytes(c, pe, dest, source, bytes, sig_addr, signal, sig_op, wait, g, call, loc);
}
__device__ void complete_qps(const ctx& c, unsigned first, unsigned count, const char* call, source_location loc) {
  gda::complete_qps(c, first, count, call, loc);
}

}  // namespace GIO_LIBRARY_ENTRIES_NAMESPACE
}  // namespace gio::transports::gda::library
