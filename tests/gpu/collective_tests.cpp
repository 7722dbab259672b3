// Collectives on teams (OpenSHMEM 1.5 §9.9), checked byte for byte against a host reference
// (collective_families.hpp):
//  * device reductions: every typed name of gio::types::reduce_types and every operation it has,
//    the generic templates, at thread, wave and workgroup scope, on WORLD and split teams (stride
//    2, offset, one PE, 2-D axes, nested), several sizes, in place;
//  * device broadcast / fcollect / alltoall: the byte forms from 1 B to 1 MiB, the generic
//    templates per element size, the typed names where the typed structs have them; roots other
//    than team PE 0;
//  * the host's collectives (generic templates and byte forms, every reduce type) and their
//    _on_stream forms on the same references.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "collective_families.hpp"

namespace gio_test {
namespace {

template <std::size_t... K> std::vector<coll_family> families_of_shards(std::index_sequence<K...>) {
  std::vector<coll_family> out;
  for (auto shard : {collective_shard<K>...})
    for (auto& f : shard()) out.push_back(f);
  return out;
}
std::vector<coll_family> families() { return families_of_shards(std::make_index_sequence<collective_shards>{}); }

class DeviceCollective : public ::testing::TestWithParam<coll_family> {};
TEST_P(DeviceCollective, EveryTeamScopeAndSize) { GetParam().run(GetParam().name); }
INSTANTIATE_TEST_SUITE_P(Collectives, DeviceCollective, ::testing::ValuesIn(families()),
                         [](const ::testing::TestParamInfo<coll_family>& info) { return info.param.name; });

// ---- Host collectives -----------------------------------------------------------------------------
// Blocking forms, or (stream != nullptr) the _on_stream forms followed by a stream synchronisation.
template <class T>
int host_reduce(gio::reduce_op op, gio::shmem_team_t team, T* d, const T* s, std::size_t n, const gpu::stream_t* stream) {
  using gio::reduce_op;
  if (stream) {
    switch (op) {
      case reduce_op::sum: gio::shmem_sum_reduce_on_stream(team, d, s, n, *stream); break;
      case reduce_op::prod: gio::shmem_prod_reduce_on_stream(team, d, s, n, *stream); break;
      case reduce_op::min: gio::shmem_min_reduce_on_stream(team, d, s, n, *stream); break;
      case reduce_op::max: gio::shmem_max_reduce_on_stream(team, d, s, n, *stream); break;
      default:
        if constexpr (std::is_integral_v<T>) {
          if (op == reduce_op::and_) gio::shmem_and_reduce_on_stream(team, d, s, n, *stream);
          if (op == reduce_op::or_) gio::shmem_or_reduce_on_stream(team, d, s, n, *stream);
          if (op == reduce_op::xor_) gio::shmem_xor_reduce_on_stream(team, d, s, n, *stream);
        }
        break;
    }
    gpu::stream_sync(*stream);
    return 0;
  }
  switch (op) {
    case reduce_op::sum: return gio::shmem_sum_reduce(team, d, s, n);
    case reduce_op::prod: return gio::shmem_prod_reduce(team, d, s, n);
    case reduce_op::min: return gio::shmem_min_reduce(team, d, s, n);
    case reduce_op::max: return gio::shmem_max_reduce(team, d, s, n);
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (op == reduce_op::and_) return gio::shmem_and_reduce(team, d, s, n);
    if (op == reduce_op::or_) return gio::shmem_or_reduce(team, d, s, n);
    if (op == reduce_op::xor_) return gio::shmem_xor_reduce(team, d, s, n);
  }
  return -1000;
}

// The data collectives: byte forms (mem) or the generic templates.
template <class T>
int host_data(const coll_call& k, bool mem, T* d, const T* s, const gpu::stream_t* stream) {
  if (stream) {
    switch (k.kind) {
      case coll_kind::broadcast:
        if (mem) gio::shmem_broadcastmem_on_stream(k.team, d, s, k.n, k.root, *stream);
        else gio::shmem_broadcast_on_stream(k.team, d, s, k.n, k.root, *stream);
        break;
      case coll_kind::fcollect:
        if (mem) gio::shmem_fcollectmem_on_stream(k.team, d, s, k.n, *stream);
        else gio::shmem_fcollect_on_stream(k.team, d, s, k.n, *stream);
        break;
      default:
        if (mem) gio::shmem_alltoallmem_on_stream(k.team, d, s, k.n, *stream);
        else gio::shmem_alltoall_on_stream(k.team, d, s, k.n, *stream);
        break;
    }
    gpu::stream_sync(*stream);
    return 0;
  }
  switch (k.kind) {
    case coll_kind::broadcast: return mem ? gio::shmem_broadcastmem(k.team, d, s, k.n, k.root) : gio::shmem_broadcast(k.team, d, s, k.n, k.root);
    case coll_kind::fcollect: return mem ? gio::shmem_fcollectmem(k.team, d, s, k.n) : gio::shmem_fcollect(k.team, d, s, k.n);
    default: return mem ? gio::shmem_alltoallmem(k.team, d, s, k.n) : gio::shmem_alltoall(k.team, d, s, k.n);
  }
}

// Runs the plan with the host API, every call of a team this PE is in, in order: once with the
// blocking forms, once with the _on_stream forms.
template <class T>
void run_host_plan(const std::string& name, std::vector<planned_call>& plan, bool mem) {
  const gpu::stream_t stream = gpu::stream_create();
  for (bool on_stream : {false, true}) {
    run_plan<T>(name + (on_stream ? " (_on_stream)" : " (blocking)"), plan, [&](const coll_call*, int, unsigned char* sym, int* rets) {
      for (std::size_t i = 0; i < plan.size(); ++i) {
        const coll_call& k = plan[i].call;
        if (!k.member) continue;
        T* d = reinterpret_cast<T*>(sym + k.dst);
        const T* s = k.in_place ? d : reinterpret_cast<const T*>(sym + k.src);
        const gpu::stream_t* on = on_stream ? &stream : nullptr;
        const int rc = k.kind == coll_kind::reduce ? host_reduce<T>(k.op, k.team, d, s, k.n, on) : host_data<T>(k, mem, d, s, on);
        gpu::to_device(rets + i, &rc, sizeof rc);
      }
    });
  }
  gpu::stream_destroy(stream);
}

template <class Flags, class T> void run_host_reductions(const std::string& name) {
  scoped_teams teams;
  std::vector<planned_call> plan;
  for (const test_team* t : pick_teams(teams.get(), {"world", "evens", "split2d_y"}))
    for (gio::reduce_op op : ops_of<Flags>()) add_call(plan, coll_kind::reduce, op, *t, 0, 1031, sizeof(T));
  for (const test_team* t : pick_teams(teams.get(), {"world", "tail"}))
    add_call(plan, coll_kind::reduce, ops_of<Flags>().front(), *t, 0, 257, sizeof(T), /*in_place=*/true);
  run_host_plan<T>("host reductions " + name, plan, false);
}

TEST(HostCollectives, ReductionsOfEveryType) {
  std::apply([&](auto... entry) {
    (run_host_reductions<typename decltype(entry)::typed, typename decltype(entry)::type>(entry.name), ...);
  }, gio::types::reduce_types);
}

TEST(HostCollectives, BroadcastFcollectAlltoall) {
  {
    scoped_teams teams;
    std::vector<planned_call> plan;
    int rotate = 0;
    for (const test_team* t : pick_teams(teams.get(), {"world", "evens", "tail", "last", "split2d_x"})) {
      for (std::size_t n : {std::size_t(1), std::size_t(4096), std::size_t(1) << 20})
        add_call(plan, coll_kind::broadcast, gio::reduce_op::sum, *t, (t->size - 1 + rotate++) % t->size, n, 1);
      for (std::size_t n : {std::size_t(3), std::size_t(100003)}) add_call(plan, coll_kind::fcollect, gio::reduce_op::sum, *t, 0, n, 1);
      for (std::size_t n : {std::size_t(3), std::size_t(100003)}) add_call(plan, coll_kind::alltoall, gio::reduce_op::sum, *t, 0, n, 1);
    }
    run_host_plan<unsigned char>("host broadcastmem/fcollectmem/alltoallmem", plan, true);
  }
  {
    scoped_teams teams;
    std::vector<planned_call> plan;
    for (const test_team* t : pick_teams(teams.get(), {"world", "split2d_y"})) {
      add_call(plan, coll_kind::broadcast, gio::reduce_op::sum, *t, t->size - 1, 1031, sizeof(double));
      add_call(plan, coll_kind::fcollect, gio::reduce_op::sum, *t, 0, 1031, sizeof(double));
      add_call(plan, coll_kind::alltoall, gio::reduce_op::sum, *t, 0, 1031, sizeof(double));
    }
    run_host_plan<double>("host broadcast/fcollect/alltoall<double>", plan, false);
  }
}

}  // namespace
}  // namespace gio_test
