// The kernels behind host atomics, host collectives and shmem_team_sync_on_stream: each runs the
// device library's own implementation (amo_core.hpp, collectives.hpp), so host-initiated and
// kernel-initiated calls share one code path and one memory model. One source for CUDA and HIP.
#include "gpu/device_ops.hpp"

#include <array>
#include <cstring>
#include <utility>

#include "gio/device/amo_core.hpp"
#include "gio/device/collectives.hpp"
#include "gio/device/order.hpp"
#include "gpu/device_ops_parts.hpp"
#include "gpu/gpu_api.hpp"

namespace gio::gpu {
namespace {

template <class T>
__global__ void atomic_kernel(device_handle h, amo_op op, T* dest, T value, T compare, int pe,
                              std::uint64_t* old_bits, call_name call) {
  if (!h.heap_base) return;  // warm_up_kernels
  const T old = detail::amo<T>(ctx_default(h), op, dest, value, compare, pe, call.text, {__FILE__, __LINE__});
  *old_bits = platform::bit_cast<platform::bits_t<T>>(old);
}

// broadcast, fcollect and alltoall move bytes; reductions get a kernel per element type
// (reduce_kernels.hpp).
__global__ void __launch_bounds__(collective_threads)
    data_collective_kernel(device_handle h, collective_request c, std::size_t elem_size, call_name call) {
  if (!h.heap_base) return;
  __shared__ ctx storage;
  const ctx& x = ctx_create_wg(h, storage);
  const source_location here{__FILE__, __LINE__};
  if (c.kind == detail::collective_kind::broadcast)
    detail::broadcast<coop::wg>(x, c.team, c.dest, c.source, c.count, elem_size, c.root, call.text, here);
  else if (c.kind == detail::collective_kind::fcollect)
    detail::fcollect<coop::wg>(x, c.team, c.dest, c.source, c.count, elem_size, call.text, here);
  else
    detail::alltoall<coop::wg>(x, c.team, c.dest, c.source, c.count, elem_size, call.text, here);
}

// A team sync, or with `quiet` a barrier (shmem_barrier_all_on_stream): the kernels' own protocol
// and count, so stream-ordered and in-kernel syncs of a team are one sequence.
__global__ void __launch_bounds__(collective_threads)
    team_sync_kernel(device_handle h, shmem_team_t team, bool quiet, call_name call) {
  if (!h.heap_base) return;
  __shared__ ctx storage;
  detail::team_sync<coop::wg>(ctx_create_wg(h, storage), team, quiet, call.text, {__FILE__, __LINE__});
}

// A host put/get to a PE reached through the NIC, then quiet (which completes it): complete when
// the kernel ends.
__global__ void __launch_bounds__(collective_threads) rma_kernel(device_handle h, rma_request r, call_name call) {
  if (!h.heap_base) return;
  __shared__ ctx storage;
  const ctx& x = ctx_create_wg(h, storage);
  const source_location here{__FILE__, __LINE__};
  if (r.put)
    detail::put<coop::wg>(x, r.symmetric, r.local, r.bytes, 1, r.pe, detail::completion::by_quiet, call.text, here);
  else
    detail::get<coop::wg>(x, r.local, r.symmetric, r.bytes, 1, r.pe, detail::completion::by_quiet, call.text, here);
  if (platform::thread_in_wg() == 0) shmem_ctx_quiet(x);
}

// Every gda context's WQEs completed (host quiet and barriers).
__global__ void network_quiet_kernel(device_handle h) {
  if (!h.heap_base) return;
  transports::gda::quiet_all(ctx_default(h), "shmem_quiet", {__FILE__, __LINE__});
}

// reduce_part<k>'s functions, indexed by k.
struct reduce_part_entry {
  void (*enqueue)(const device_handle&, const collective_request&, stream_t);
  void (*warm_up)(stream_t);
};
template <unsigned... Part>
constexpr std::array<reduce_part_entry, sizeof...(Part)> reduce_parts_of(std::integer_sequence<unsigned, Part...>) {
  return {reduce_part_entry{&reduce_part<Part>::enqueue, &reduce_part<Part>::warm_up}...};
}
constexpr auto reduce_part_table = reduce_parts_of(std::make_integer_sequence<unsigned, reduce_parts>{});

}  // namespace

void enqueue_network_quiet(const device_handle& h, stream_t stream) {
  network_quiet_kernel<<<1, 1, 0, stream>>>(h);
  check_rt(GIO_RT(GetLastError)(), "launching the network quiet");
}

void enqueue_rma(const device_handle& h, const rma_request& r, stream_t stream) {
  rma_kernel<<<1, collective_threads, 0, stream>>>(h, r, name_of(r.call));
  check_rt(GIO_RT(GetLastError)(), "launching a host put/get");
}

void warm_up_kernels(stream_t stream) {
  const device_handle none{};  // every kernel returns at once on a handle without a heap
  for (std::uint32_t t = 0; t <= static_cast<std::uint32_t>(dtype::f64); ++t) {
    visit_dtype(static_cast<dtype>(t), [&](auto zero) {
      using T = decltype(zero);
      if constexpr (sizeof(T) >= 4) atomic_kernel<T><<<1, 1, 0, stream>>>(none, amo_op::fetch, nullptr, T{}, T{}, 0, nullptr, {});
    });
  }
  for (const auto& part : reduce_part_table) part.warm_up(stream);
  data_collective_kernel<<<1, collective_threads, 0, stream>>>(none, {}, 0, {});
  team_sync_kernel<<<1, collective_threads, 0, stream>>>(none, shmem_team_t{}, false, {});
  rma_kernel<<<1, collective_threads, 0, stream>>>(none, {}, {});
  network_quiet_kernel<<<1, 1, 0, stream>>>(none);
  check_rt(GIO_RT(GetLastError)(), "warming up gio's kernels");
}

void enqueue_atomic(const device_handle& h, const atomic_request& a, std::uint64_t* old_bits, stream_t stream) {
  visit_dtype(a.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (sizeof(T) >= 4) {  // the runtime refuses narrower types
      T value, compare;
      std::memcpy(&value, &a.value, sizeof(T));
      std::memcpy(&compare, &a.compare, sizeof(T));
      atomic_kernel<T><<<1, 1, 0, stream>>>(h, a.op, static_cast<T*>(a.dest), value, compare, a.pe, old_bits,
                                            name_of(a.call));
    }
  });
  check_rt(GIO_RT(GetLastError)(), "launching a host atomic");
}

void enqueue_collective(const device_handle& h, const collective_request& c, stream_t stream) {
  if (c.kind == detail::collective_kind::reduce) {
    reduce_part_table[reduce_part_of(c.type)].enqueue(h, c, stream);
  } else {
    data_collective_kernel<<<1, collective_threads, 0, stream>>>(h, c, dtype_size(c.type), name_of(c.call));
  }
  check_rt(GIO_RT(GetLastError)(), "launching a host collective");
}

void enqueue_team_sync(const device_handle& h, shmem_team_t team, bool quiet, const char* call, stream_t stream) {
  team_sync_kernel<<<1, collective_threads, 0, stream>>>(h, team, quiet, name_of(call));
  check_rt(GIO_RT(GetLastError)(), "launching a team sync");
}

}  // namespace gio::gpu
