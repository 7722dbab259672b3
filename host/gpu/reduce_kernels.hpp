// The host reductions' kernels (device_ops_parts.hpp): included by the generated reduce_part_<k>.cpp
// sources only, each of which instantiates reduce_part<k>. Private to the host runtime, GPU builds only.
#pragma once
#include "gio/device/collectives.hpp"
#include "gpu/device_ops_parts.hpp"

namespace gio::gpu {

template <class T>
__global__ void __launch_bounds__(collective_threads)
    reduce_kernel(device_handle h, shmem_team_t team, reduce_op op, T* dest, const T* source, std::size_t count,
                  call_name call) {
  if (!h.heap_base) return;  // reduce_part::warm_up
  __shared__ ctx storage;
  detail::reduce<coop::wg>(ctx_create_wg(h, storage), team, op, dest, source, count, call.text, {__FILE__, __LINE__});
}

template <unsigned Part>
void reduce_part<Part>::enqueue(const device_handle& h, const collective_request& c, stream_t stream) {
  visit_dtype(c.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (reduce_part_of(dtype_of<T>()) == Part)
      reduce_kernel<T><<<1, collective_threads, 0, stream>>>(h, c.team, c.op, static_cast<T*>(c.dest),
                                                             static_cast<const T*>(c.source), c.count, name_of(c.call));
  });
}

template <unsigned Part>
void reduce_part<Part>::warm_up(stream_t stream) {
  for (auto t = static_cast<std::uint32_t>(Part); t <= static_cast<std::uint32_t>(dtype::f64); t += reduce_parts) {
    collective_request none{};
    none.call = "";
    none.type = static_cast<dtype>(t);
    enqueue(device_handle{}, none, stream);  // a handle without a heap: the kernel returns at once
  }
}

}  // namespace gio::gpu
