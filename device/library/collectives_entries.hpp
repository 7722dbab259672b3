// gio::device_library's collective entries (device/collectives.hpp declares them): each calls the inline
// implementation, so the library and the header-only form run the same code. Included only by the
// sources device/CMakeLists.txt generates, one per scope and checks setting; GIO_COLLECTIVES_COOP
// names the scope, GIO_CHECKS the setting (0 or 1).
#pragma once
#include "gio/device/collectives.hpp"

#ifndef GIO_COLLECTIVES_COOP
#error "GIO_COLLECTIVES_COOP comes from the source device/CMakeLists.txt generates"
#endif

namespace gio::detail {

template <class Coop>
__device__ void out_of_line::reduce(const ctx& c, shmem_team_t team, reduce_op op, void* dest, const void* source,
                                    std::size_t nreduce, dtype type, const char* call, source_location loc) {
  visit_dtype(type, [&](auto zero) {
    using T = decltype(zero);
    reduce_inline<Coop>(c, team, op, static_cast<T*>(dest), static_cast<const T*>(source), nreduce, call, loc);
  });
}
template <class Coop>
__device__ void out_of_line::broadcast(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                       std::size_t elem_size, int root, const char* call, source_location loc) {
  broadcast_inline<Coop>(c, team, dest, source, nelems, elem_size, root, call, loc);
}
template <class Coop, bool AllToAll>
__device__ void out_of_line::exchange_blocks(const ctx& c, shmem_team_t team, void* dest, const void* source,
                                             std::size_t nelems, std::size_t elem_size, const char* call,
                                             source_location loc) {
  exchange_blocks_inline<Coop, AllToAll>(c, team, dest, source, nelems, elem_size, call, loc);
}
template <class Coop>
__device__ void out_of_line::collect(const ctx& c, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                     std::size_t elem_size, const char* call, source_location loc) {
  collect_inline<Coop>(c, team, dest, source, nelems, elem_size, call, loc);
}
template <class Coop>
__device__ void out_of_line::alltoalls(const ctx& c, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                                       std::ptrdiff_t sst, std::size_t nelems, std::size_t elem_size, const char* call,
                                       source_location loc) {
  alltoalls_inline<Coop>(c, team, dest, source, dst, sst, nelems, elem_size, call, loc);
}

using entry_coop = coop::GIO_COLLECTIVES_COOP;
template __device__ void out_of_line::reduce<entry_coop>(const ctx&, shmem_team_t, reduce_op, void*, const void*, std::size_t,
                                                         dtype, const char*, source_location);
template __device__ void out_of_line::broadcast<entry_coop>(const ctx&, shmem_team_t, void*, const void*, std::size_t,
                                                            std::size_t, int, const char*, source_location);
template __device__ void out_of_line::exchange_blocks<entry_coop, false>(const ctx&, shmem_team_t, void*, const void*,
                                                                         std::size_t, std::size_t, const char*, source_location);
template __device__ void out_of_line::exchange_blocks<entry_coop, true>(const ctx&, shmem_team_t, void*, const void*,
                                                                        std::size_t, std::size_t, const char*, source_location);
template __device__ void out_of_line::collect<entry_coop>(const ctx&, shmem_team_t, void*, const void*, std::size_t,
                                                          std::size_t, const char*, source_location);
template __device__ void out_of_line::alltoalls<entry_coop>(const ctx&, shmem_team_t, void*, const void*, std::ptrdiff_t,
                                                            std::ptrdiff_t, std::size_t, std::size_t, const char*,
                                                            source_location);

}  // namespace gio::detail
