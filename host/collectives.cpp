// Host-initiated atomics and collectives. The runtime checks the arguments and hands the work
// to the backend: in GPU builds the device library runs it (the same code kernels use), in the
// GPU-less build atomics are CPU atomics on the mapped heap and collectives run over the team's
// MPI group. docs/teams.md.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "teams.hpp"

namespace gio {
namespace {

using rt::runtime;

bool is_integer(dtype t) { return t != dtype::f32 && t != dtype::f64; }

std::size_t checked_product(runtime& r, std::size_t a, std::size_t b, const char* call) {
  if (b != 0 && a > SIZE_MAX / b) throw error(r.pe(), call + std::string(": element count overflows size_t"));
  return a * b;
}

// The GPU-less build: the collective over the team's MPI group. Every member gathers every
// member's contribution (`bytes` each), then takes what it needs.
void collective_over_bootstrap(const rt::team_slot& team, const gpu::collective_request& c, std::size_t elem) {
  const int n = team.info.size, me = team.info.my_pe;
  const std::size_t per_pe = c.count * elem;
  auto* dest = static_cast<char*>(c.dest);
  const std::size_t contribution = c.kind == detail::collective_kind::alltoall ? per_pe * n : per_pe;
  std::vector<char> all(contribution * n);
  team.group->allgather(c.source, all.data(), contribution);
  switch (c.kind) {
    case detail::collective_kind::broadcast:
      std::memcpy(dest, all.data() + per_pe * c.root, per_pe);
      break;
    case detail::collective_kind::fcollect:
      std::memcpy(dest, all.data(), per_pe * n);
      break;
    case detail::collective_kind::alltoall:  // block `me` of every member's source, in member order
      for (int pe = 0; pe < n; ++pe) std::memcpy(dest + per_pe * pe, all.data() + contribution * pe + per_pe * me, per_pe);
      break;
    case detail::collective_kind::reduce:
      visit_dtype(c.type, [&](auto zero) {
        using T = decltype(zero);
        for (std::size_t i = 0; i < c.count; ++i) {
          T acc;
          std::memcpy(&acc, all.data() + i * sizeof(T), sizeof(T));
          for (int pe = 1; pe < n; ++pe) {
            T v;
            std::memcpy(&v, all.data() + per_pe * pe + i * sizeof(T), sizeof(T));
            acc = reduce_combine(c.op, acc, v);
          }
          std::memcpy(dest + i * sizeof(T), &acc, sizeof(T));
        }
      });
      break;
  }
}

}  // namespace

void detail::host_atomic(const char* call, amo_op op, dtype type, void* dest, const void* value, const void* compare,
                         void* fetched, int pe) {
  runtime& r = rt::running(call);
  const std::size_t size = dtype_size(type);
  if (size < 4) throw error(r.pe(), call + std::string(": atomics take 4- or 8-byte types, not ") +
                                        std::to_string(size) + "-byte ones");
  if (amo_bitwise(op) && !is_integer(type))
    throw error(r.pe(), call + std::string(": bitwise atomics take integer types"));
  rt::require_device_reachable(r, pe, call);
  const std::size_t offset = rt::heap_offset(r, dest, size, call);
  if (offset % size != 0)
    throw error(r.pe(), call + std::string(": address at heap offset ") + std::to_string(offset) +
                            " is not aligned to its " + std::to_string(size) + "-byte type");
  gpu::atomic_request a{call, op, type, dest, 0, 0, pe};
  if (value) std::memcpy(&a.value, value, size);
  if (compare) std::memcpy(&a.compare, compare, size);
  const std::uint64_t old = r.backend->atomic(r.handle, a);
  if (fetched) std::memcpy(fetched, &old, size);
}

int detail::host_collective(const char* call, collective_kind kind, shmem_team_t team, void* dest, const void* source,
                            std::size_t count, dtype type, reduce_op op, int root, const stream_t* stream) {
  runtime& r = rt::running(call);
  const rt::team_slot& t = rt::member_team(r, team, call);
  const std::size_t n = static_cast<std::size_t>(t.info.size), elem = dtype_size(type);
  if (kind == collective_kind::broadcast && (root < 0 || root >= t.info.size))
    throw error(r.pe(), call + std::string(": PE_root ") + std::to_string(root) + " is not a PE of the team (" +
                            std::to_string(n) + " PEs)");
  if (kind == collective_kind::reduce &&
      !visit_dtype(type, [op](auto zero) { return reduce_op_allowed<decltype(zero)>(op); }))
    throw error(r.pe(), call + std::string(": ") + reduce_op_name(op) + " reductions take integer types");
  // Bytes of each buffer on this PE.
  const std::size_t block = checked_product(r, count, elem, call);
  const std::size_t all_blocks = checked_product(r, block, n, call);
  const bool by_team = kind == collective_kind::fcollect || kind == collective_kind::alltoall;
  rt::heap_offset(r, dest, by_team ? all_blocks : block, call);
  rt::heap_offset(r, source, kind == collective_kind::alltoall ? all_blocks : block, call);

  const gpu::collective_request c{call, kind, team, dest, source, count, type, op, root};
  if (!rt::gpu_build) {  // no device: streams run synchronously
    collective_over_bootstrap(t, c, elem);
    return 0;
  }
  rt::require_reachable_members(r, t.info, call);
  r.backend->collective(r.handle, c, stream);
  return 0;
}

// Both are host RMA between the team's members, between two syncs of the team's group: dest is
// free on every member before anyone writes it, and complete on every member after.
int detail::host_collect(const char* call, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                         std::size_t size) {
  runtime& r = rt::running(call);
  const rt::team_slot& t = rt::member_team(r, team, call);
  const int n = t.info.size;
  std::vector<std::uint64_t> counts(n);
  const std::uint64_t mine = nelems;
  t.group->allgather(&mine, counts.data(), sizeof mine);
  std::size_t before = 0, total = 0;
  for (int i = 0; i < n; ++i) {
    if (counts[i] > SIZE_MAX - total) throw error(r.pe(), call + std::string(": the members' counts overflow size_t"));
    if (i < t.info.my_pe) before += counts[i];
    total += counts[i];
  }
  rt::heap_offset(r, dest, checked_product(r, total, size, call), call);
  const std::size_t bytes = checked_product(r, nelems, size, call);
  t.group->barrier();
  for (int i = 0; i < n && bytes > 0; ++i)
    shmem_putmem(static_cast<char*>(dest) + before * size, source, bytes, rt::world_pe_of(t.info, i));
  t.group->barrier();
  return 0;
}

int detail::host_alltoalls(const char* call, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                           std::ptrdiff_t sst, std::size_t nelems, std::size_t size) {
  runtime& r = rt::running(call);
  const rt::team_slot& t = rt::member_team(r, team, call);
  if (dst < 1 || sst < 1)  // before the offsets below are computed from them
    throw error(r.pe(), call + std::string(": strides must be at least 1 element (dst ") + std::to_string(dst) +
                            ", sst " + std::to_string(sst) + ")");
  // Element offsets of block j in source and of this PE's block in every dest.
  const std::size_t source_block = checked_product(r, nelems, static_cast<std::size_t>(sst), call);
  const std::size_t dest_block = checked_product(r, nelems, static_cast<std::size_t>(dst), call);
  const std::size_t my_offset = checked_product(r, checked_product(r, dest_block, t.info.my_pe, call), size, call);
  t.group->barrier();
  for (int j = 0; j < t.info.size; ++j) {
    const std::size_t from = checked_product(r, checked_product(r, source_block, j, call), size, call);
    detail::host_strided(call, true, static_cast<char*>(dest) + my_offset, static_cast<const char*>(source) + from,
                         dst, sst, nelems, size, rt::world_pe_of(t.info, j));
  }
  t.group->barrier();
  return 0;
}

int shmem_broadcastmem(shmem_team_t team, void* dest, const void* source, std::size_t nelems, int PE_root) {
  return detail::host_collective("shmem_broadcastmem", detail::collective_kind::broadcast, team, dest, source, nelems,
                                 dtype::u8, reduce_op::sum, PE_root, nullptr);
}
int shmem_fcollectmem(shmem_team_t team, void* dest, const void* source, std::size_t nelems) {
  return detail::host_collective("shmem_fcollectmem", detail::collective_kind::fcollect, team, dest, source, nelems,
                                 dtype::u8, reduce_op::sum, 0, nullptr);
}
int shmem_alltoallmem(shmem_team_t team, void* dest, const void* source, std::size_t nelems) {
  return detail::host_collective("shmem_alltoallmem", detail::collective_kind::alltoall, team, dest, source, nelems,
                                 dtype::u8, reduce_op::sum, 0, nullptr);
}
void shmem_broadcastmem_on_stream(shmem_team_t team, void* dest, const void* source, std::size_t nelems, int PE_root,
                                  stream_t stream) {
  detail::host_collective("shmem_broadcastmem_on_stream", detail::collective_kind::broadcast, team, dest, source,
                          nelems, dtype::u8, reduce_op::sum, PE_root, &stream);
}
void shmem_fcollectmem_on_stream(shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                 stream_t stream) {
  detail::host_collective("shmem_fcollectmem_on_stream", detail::collective_kind::fcollect, team, dest, source, nelems,
                          dtype::u8, reduce_op::sum, 0, &stream);
}
void shmem_alltoallmem_on_stream(shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                                 stream_t stream) {
  detail::host_collective("shmem_alltoallmem_on_stream", detail::collective_kind::alltoall, team, dest, source, nelems,
                          dtype::u8, reduce_op::sum, 0, &stream);
}

}  // namespace gio
