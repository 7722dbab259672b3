// Templates of the collective tests (collective_tests.cpp), shared by the generated shard files
// that instantiate them for ranges of gio::types::reduce_types / rma_types rows (see
// families_of_shard below).
//
// A test builds a list of collective calls (kind, operation, team, root, size) over the test
// teams (test_teams.hpp), gives each call its own source and destination regions in one
// symmetric buffer, fills every source with values derived from the run's seed (so every PE can
// compute every other PE's sources) and poisons every destination, runs the list (one kernel that
// makes every call in order at thread, wave or workgroup scope, or the host API), and checks every
// destination byte on every PE against a host reference: the reduction combined in team order,
// the root's data (root != 0 where the team has more than one PE), the members' blocks in team
// order; poison where nothing may write (guards around every region; the regions of calls on
// teams this PE is not in). Every call must return 0.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "api_types_generated.hpp"
#include "device_forms.hpp"
#include "gio/device.hpp"
#include "gio/ops.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"
#include "test_teams.hpp"

namespace gio_test {

enum class coll_kind : int { reduce, broadcast, fcollect, alltoall };
inline const char* coll_kind_name(coll_kind k) {
  switch (k) {
    case coll_kind::reduce: return "reduce";
    case coll_kind::broadcast: return "broadcast";
    case coll_kind::fcollect: return "fcollect";
    default: return "alltoall";
  }
}

// One call of a list, as the kernel sees it (plain data).
struct coll_call {
  coll_kind kind;
  gio::reduce_op op;
  gio::shmem_team_t team;   // this PE's handle (INVALID when not a member: the call is skipped)
  int root;                 // broadcast: team PE
  int member;
  int in_place;             // reduce with dest == source
  std::size_t n;            // elements: per PE (fcollect, alltoall blocks) or in total (reduce, broadcast)
  std::size_t src, dst;     // byte offsets of the regions in the symmetric buffer
};

// The group that makes the calls: thread 0, warp 0, or the whole workgroup.
template <class Coop> constexpr unsigned coll_threads() {
  return std::is_same_v<Coop, thread> ? 32 : std::is_same_v<Coop, wave> ? 2 * gio::platform::wave_size : 256;
}
template <class Coop> GIO_DEVICE bool in_calling_group() {
  if constexpr (std::is_same_v<Coop, thread>) return gio::platform::thread_in_wg() == 0;
  else if constexpr (std::is_same_v<Coop, wave>) return gio::platform::thread_in_wg() < gio::platform::wave_size;
  else return true;
}

// Calls f(std::integral_constant<int, scope>) for the Coop's scope: only that branch is compiled.
template <class Coop, class F> GIO_DEVICE int by_scope(F&& f) {
  if constexpr (std::is_same_v<Coop, thread>) return f(std::integral_constant<int, 0>{});
  else if constexpr (std::is_same_v<Coop, wave>) return f(std::integral_constant<int, 1>{});
  else return f(std::integral_constant<int, 2>{});
}

// ---- Reductions --------------------------------------------------------------------------------------
// The generic templates under the member names of gio::types::reduce_<name>.
template <class T> struct generic_reduce {
  static constexpr bool arithmetic = true, bitwise = std::is_unsigned_v<T>;  // and/or/xor: OpenSHMEM's unsigned types
  using C = gio::ctx;
  using Z = std::size_t;
  using M = gio::shmem_team_t;
  static GIO_DEVICE int sum_reduce(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_sum_reduce(c, t, d, s, n); }
  static GIO_DEVICE int sum_reduce_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_sum_reduce_wave(c, t, d, s, n); }
  static GIO_DEVICE int sum_reduce_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_sum_reduce_wg(c, t, d, s, n); }
  static GIO_DEVICE int prod_reduce(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_prod_reduce(c, t, d, s, n); }
  static GIO_DEVICE int prod_reduce_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_prod_reduce_wave(c, t, d, s, n); }
  static GIO_DEVICE int prod_reduce_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_prod_reduce_wg(c, t, d, s, n); }
  static GIO_DEVICE int min_reduce(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_min_reduce(c, t, d, s, n); }
  static GIO_DEVICE int min_reduce_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_min_reduce_wave(c, t, d, s, n); }
  static GIO_DEVICE int min_reduce_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_min_reduce_wg(c, t, d, s, n); }
  static GIO_DEVICE int max_reduce(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_max_reduce(c, t, d, s, n); }
  static GIO_DEVICE int max_reduce_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_max_reduce_wave(c, t, d, s, n); }
  static GIO_DEVICE int max_reduce_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_max_reduce_wg(c, t, d, s, n); }
  static GIO_DEVICE int and_reduce(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_and_reduce(c, t, d, s, n); }
  static GIO_DEVICE int and_reduce_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_and_reduce_wave(c, t, d, s, n); }
  static GIO_DEVICE int and_reduce_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_and_reduce_wg(c, t, d, s, n); }
  static GIO_DEVICE int or_reduce(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_or_reduce(c, t, d, s, n); }
  static GIO_DEVICE int or_reduce_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_or_reduce_wave(c, t, d, s, n); }
  static GIO_DEVICE int or_reduce_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_or_reduce_wg(c, t, d, s, n); }
  static GIO_DEVICE int xor_reduce(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_xor_reduce(c, t, d, s, n); }
  static GIO_DEVICE int xor_reduce_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_xor_reduce_wave(c, t, d, s, n); }
  static GIO_DEVICE int xor_reduce_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_xor_reduce_wg(c, t, d, s, n); }
};

template <class R, class Coop, class T>
GIO_DEVICE int call_reduce(const gio::ctx& c, gio::reduce_op op, gio::shmem_team_t team, T* d, const T* s, std::size_t n) {
  using gio::reduce_op;
  return by_scope<Coop>([&](auto scope) -> int {
    constexpr int k = decltype(scope)::value;
    if constexpr (R::arithmetic) {
      switch (op) {
        case reduce_op::sum: return k == 0 ? R::sum_reduce(c, team, d, s, n) : k == 1 ? R::sum_reduce_wave(c, team, d, s, n) : R::sum_reduce_wg(c, team, d, s, n);
        case reduce_op::prod: return k == 0 ? R::prod_reduce(c, team, d, s, n) : k == 1 ? R::prod_reduce_wave(c, team, d, s, n) : R::prod_reduce_wg(c, team, d, s, n);
        case reduce_op::min: return k == 0 ? R::min_reduce(c, team, d, s, n) : k == 1 ? R::min_reduce_wave(c, team, d, s, n) : R::min_reduce_wg(c, team, d, s, n);
        case reduce_op::max: return k == 0 ? R::max_reduce(c, team, d, s, n) : k == 1 ? R::max_reduce_wave(c, team, d, s, n) : R::max_reduce_wg(c, team, d, s, n);
        default: break;
      }
    }
    if constexpr (R::bitwise) {
      switch (op) {
        case reduce_op::and_: return k == 0 ? R::and_reduce(c, team, d, s, n) : k == 1 ? R::and_reduce_wave(c, team, d, s, n) : R::and_reduce_wg(c, team, d, s, n);
        case reduce_op::or_: return k == 0 ? R::or_reduce(c, team, d, s, n) : k == 1 ? R::or_reduce_wave(c, team, d, s, n) : R::or_reduce_wg(c, team, d, s, n);
        case reduce_op::xor_: return k == 0 ? R::xor_reduce(c, team, d, s, n) : k == 1 ? R::xor_reduce_wave(c, team, d, s, n) : R::xor_reduce_wg(c, team, d, s, n);
        default: break;
      }
    }
    return -1000;  // an operation this type does not have
  });
}

template <class R, class T, class Coop>
__global__ void reduce_kernel(gio::device_handle h, const coll_call* calls, int n_calls, unsigned char* sym, int* rets) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  if (!in_calling_group<Coop>()) return;
  for (int i = 0; i < n_calls; ++i) {
    const coll_call k = calls[i];
    if (!k.member) continue;
    T* d = reinterpret_cast<T*>(sym + k.dst);
    const T* s = k.in_place ? d : reinterpret_cast<const T*>(sym + k.src);
    const int rc = call_reduce<R, Coop>(c, k.op, k.team, d, s, k.n);
    if (Coop::rank() == 0) rets[i] = rc;
  }
}

// ---- broadcast / fcollect / alltoall -------------------------------------------------------------------
template <class T> struct generic_data {
  using C = gio::ctx;
  using Z = std::size_t;
  using M = gio::shmem_team_t;
  static GIO_DEVICE int broadcast(const C& c, M t, T* d, const T* s, Z n, int root) { return gio::shmem_broadcast(c, t, d, s, n, root); }
  static GIO_DEVICE int broadcast_wave(const C& c, M t, T* d, const T* s, Z n, int root) { return gio::shmem_broadcast_wave(c, t, d, s, n, root); }
  static GIO_DEVICE int broadcast_wg(const C& c, M t, T* d, const T* s, Z n, int root) { return gio::shmem_broadcast_wg(c, t, d, s, n, root); }
  static GIO_DEVICE int fcollect(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_fcollect(c, t, d, s, n); }
  static GIO_DEVICE int fcollect_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_fcollect_wave(c, t, d, s, n); }
  static GIO_DEVICE int fcollect_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_fcollect_wg(c, t, d, s, n); }
  static GIO_DEVICE int alltoall(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_alltoall(c, t, d, s, n); }
  static GIO_DEVICE int alltoall_wave(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_alltoall_wave(c, t, d, s, n); }
  static GIO_DEVICE int alltoall_wg(const C& c, M t, T* d, const T* s, Z n) { return gio::shmem_alltoall_wg(c, t, d, s, n); }
};

struct mem_data {
  using B = unsigned char;
  using C = gio::ctx;
  using Z = std::size_t;
  using M = gio::shmem_team_t;
  static GIO_DEVICE int broadcast(const C& c, M t, B* d, const B* s, Z n, int root) { return gio::shmem_broadcastmem(c, t, d, s, n, root); }
  static GIO_DEVICE int broadcast_wave(const C& c, M t, B* d, const B* s, Z n, int root) { return gio::shmem_broadcastmem_wave(c, t, d, s, n, root); }
  static GIO_DEVICE int broadcast_wg(const C& c, M t, B* d, const B* s, Z n, int root) { return gio::shmem_broadcastmem_wg(c, t, d, s, n, root); }
  static GIO_DEVICE int fcollect(const C& c, M t, B* d, const B* s, Z n) { return gio::shmem_fcollectmem(c, t, d, s, n); }
  static GIO_DEVICE int fcollect_wave(const C& c, M t, B* d, const B* s, Z n) { return gio::shmem_fcollectmem_wave(c, t, d, s, n); }
  static GIO_DEVICE int fcollect_wg(const C& c, M t, B* d, const B* s, Z n) { return gio::shmem_fcollectmem_wg(c, t, d, s, n); }
  static GIO_DEVICE int alltoall(const C& c, M t, B* d, const B* s, Z n) { return gio::shmem_alltoallmem(c, t, d, s, n); }
  static GIO_DEVICE int alltoall_wave(const C& c, M t, B* d, const B* s, Z n) { return gio::shmem_alltoallmem_wave(c, t, d, s, n); }
  static GIO_DEVICE int alltoall_wg(const C& c, M t, B* d, const B* s, Z n) { return gio::shmem_alltoallmem_wg(c, t, d, s, n); }
};

// Whether the typed struct of gio::types::rma_types has the data collectives as members (then the
// typed names shmem_<type>_broadcast... are tested through it; else only the generic templates).
template <class Typed, class = void> struct has_typed_data_collectives : std::false_type {};
template <class Typed>
struct has_typed_data_collectives<Typed, std::void_t<decltype(&Typed::broadcast), decltype(&Typed::broadcast_wave),
                                                     decltype(&Typed::broadcast_wg), decltype(&Typed::fcollect),
                                                     decltype(&Typed::fcollect_wave), decltype(&Typed::fcollect_wg),
                                                     decltype(&Typed::alltoall), decltype(&Typed::alltoall_wave),
                                                     decltype(&Typed::alltoall_wg)>> : std::true_type {};

template <class D, class Coop, class T>
GIO_DEVICE int call_data(const gio::ctx& c, coll_kind kind, gio::shmem_team_t team, T* d, const T* s, std::size_t n, int root) {
  return by_scope<Coop>([&](auto scope) -> int {
    constexpr int k = decltype(scope)::value;
    switch (kind) {
      case coll_kind::broadcast: return k == 0 ? D::broadcast(c, team, d, s, n, root) : k == 1 ? D::broadcast_wave(c, team, d, s, n, root) : D::broadcast_wg(c, team, d, s, n, root);
      case coll_kind::fcollect: return k == 0 ? D::fcollect(c, team, d, s, n) : k == 1 ? D::fcollect_wave(c, team, d, s, n) : D::fcollect_wg(c, team, d, s, n);
      case coll_kind::alltoall: return k == 0 ? D::alltoall(c, team, d, s, n) : k == 1 ? D::alltoall_wave(c, team, d, s, n) : D::alltoall_wg(c, team, d, s, n);
      default: return -1000;
    }
  });
}

template <class D, class T, class Coop>
__global__ void data_kernel(gio::device_handle h, const coll_call* calls, int n_calls, unsigned char* sym, int* rets) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  if (!in_calling_group<Coop>()) return;
  for (int i = 0; i < n_calls; ++i) {
    const coll_call k = calls[i];
    if (!k.member) continue;
    const int rc = call_data<D, Coop>(c, k.kind, k.team, reinterpret_cast<T*>(sym + k.dst),
                                      reinterpret_cast<const T*>(sym + k.src), k.n, k.root);
    if (Coop::rank() == 0) rets[i] = rc;
  }
}

// ---- Host side: plans, data, the reference ---------------------------------------------------------
constexpr std::size_t coll_guard = 64;

// A call with the shape of its team (for the reference) and the byte sizes of its regions.
struct planned_call {
  coll_call call;
  const test_team* team;
  std::size_t elem;       // bytes per element
  std::size_t src_bytes;  // this PE's source region (every member's has the same size)
  std::size_t dst_bytes;
};

inline std::size_t src_bytes_of(coll_kind k, std::size_t n, std::size_t elem, int team_size) {
  return k == coll_kind::alltoall ? n * elem * team_size : n * elem;
}
inline std::size_t dst_bytes_of(coll_kind k, std::size_t n, std::size_t elem, int team_size) {
  return k == coll_kind::fcollect || k == coll_kind::alltoall ? n * elem * team_size : n * elem;
}

// Appends a call; regions are laid out by lay_out() (the same on every PE: it depends only on the
// list, which depends only on the number of PEs).
inline void add_call(std::vector<planned_call>& plan, coll_kind kind, gio::reduce_op op, const test_team& t, int root,
                     std::size_t n, std::size_t elem, bool in_place = false) {
  planned_call p{};
  p.call.kind = kind;
  p.call.op = op;
  p.call.team = t.team;
  p.call.root = root;
  p.call.member = t.member();
  p.call.in_place = in_place;
  p.call.n = n;
  p.team = &t;
  p.elem = elem;
  p.src_bytes = src_bytes_of(kind, n, elem, t.size);
  p.dst_bytes = dst_bytes_of(kind, n, elem, t.size);
  plan.push_back(p);
}

inline std::size_t lay_out(std::vector<planned_call>& plan) {
  std::size_t at = 0;
  auto region = [&](std::size_t bytes) {
    const std::size_t start = at + coll_guard;
    at = (start + bytes + coll_guard + 255) / 256 * 256;
    return start;
  };
  for (planned_call& p : plan) {
    if (p.call.in_place) {  // one region for both
      p.call.src = p.call.dst = region(p.dst_bytes);
    } else {
      p.call.src = region(p.src_bytes);
      p.call.dst = region(p.dst_bytes);
    }
  }
  return at;
}

// The source values of call `index` on world PE `pe`. Reductions get values whose combination is
// exact and in range for every type: sum of at most 127 / n_pes each, products of 1, 2 (and -1
// for signed types), anything for min/max/and/or/xor (finite for floating point).
template <class T>
std::vector<unsigned char> source_of(const planned_call& p, std::uint64_t key, int pe, int n_pes) {
  const std::uint64_t k = mix(key, std::uint64_t(pe));
  if (p.call.kind != coll_kind::reduce) return pattern(p.src_bytes, k);
  std::mt19937_64 rng(k);
  std::vector<T> v(p.call.n);
  for (T& x : v) {
    const std::uint64_t r = rng();
    switch (p.call.op) {
      case gio::reduce_op::sum: x = static_cast<T>(r % (127 / n_pes + 1)); break;
      case gio::reduce_op::prod:
        if constexpr (std::is_signed_v<T>) x = static_cast<T>(r % 3 == 0 ? -1 : r % 3 == 1 ? 1 : 2);
        else x = static_cast<T>(1 + r % 2);
        break;
      default:
        if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(static_cast<double>(static_cast<std::int64_t>(r % 2000001) - 1000000) / 8.0);
        else std::memcpy(&x, &r, sizeof(T));
        break;
    }
  }
  std::vector<unsigned char> bytes(p.src_bytes);
  std::memcpy(bytes.data(), v.data(), p.src_bytes);
  return bytes;
}

// What this PE's destination region must hold after call p (its bytes only, without guards).
template <class T>
std::vector<unsigned char> expected_dest(const planned_call& p, std::uint64_t key, int n_pes) {
  const test_team& t = *p.team;
  const int me = t.my_team_pe();
  const std::size_t block = p.call.n * p.elem;
  std::vector<unsigned char> out(p.dst_bytes);
  switch (p.call.kind) {
    case coll_kind::reduce: {
      std::vector<T> acc(p.call.n);
      for (int j = 0; j < t.size; ++j) {
        const std::vector<unsigned char> src = source_of<T>(p, key, t.world_of(j), n_pes);
        for (std::size_t i = 0; i < p.call.n; ++i) {
          T x;
          std::memcpy(&x, src.data() + i * sizeof(T), sizeof(T));
          acc[i] = j == 0 ? x : gio::reduce_combine(p.call.op, acc[i], x);
        }
      }
      std::memcpy(out.data(), acc.data(), p.dst_bytes);
      break;
    }
    case coll_kind::broadcast:
      out = source_of<T>(p, key, t.world_of(p.call.root), n_pes);
      break;
    case coll_kind::fcollect:
      for (int j = 0; j < t.size; ++j) {
        const std::vector<unsigned char> src = source_of<T>(p, key, t.world_of(j), n_pes);
        std::memcpy(out.data() + j * block, src.data(), block);
      }
      break;
    case coll_kind::alltoall:
      for (int j = 0; j < t.size; ++j) {
        const std::vector<unsigned char> src = source_of<T>(p, key, t.world_of(j), n_pes);
        std::memcpy(out.data() + j * block, src.data() + std::size_t(me) * block, block);
      }
      break;
  }
  return out;
}

inline std::string describe(const planned_call& p) {
  std::ostringstream s;
  s << coll_kind_name(p.call.kind);
  if (p.call.kind == coll_kind::reduce) s << " " << gio::reduce_op_name(p.call.op) << (p.call.in_place ? " in place" : "");
  s << " on team " << p.team->name << " (" << p.team->size << " PEs), " << p.call.n << " element(s) of " << p.elem << " B";
  if (p.call.kind == coll_kind::broadcast) s << ", root " << p.call.root;
  return s.str();
}

// Runs a plan: fills, runs `execute` (which gets the device call table and the return-value
// array, or uses the host API), checks. Collective over every PE.
template <class T>
void run_plan(const std::string& name, std::vector<planned_call>& plan,
              const std::function<void(const coll_call* calls, int n, unsigned char* sym, int* rets)>& execute) {
  const run_info& r = run();
  const std::size_t extent = lay_out(plan);
  const std::uint64_t key = mix(r.seed, hash(name));
  sym_buffer sym(std::max<std::size_t>(extent, 256));
  std::vector<unsigned char> image(extent, poison);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const planned_call& p = plan[i];
    const std::vector<unsigned char> src = source_of<T>(p, mix(key, i), r.my_pe, r.n_pes);
    std::memcpy(image.data() + p.call.src, src.data(), src.size());
  }
  gpu::to_device(sym.get(), image.data(), extent);
  std::vector<coll_call> calls;
  for (const planned_call& p : plan) calls.push_back(p.call);
  device_buffer d_calls(std::max<std::size_t>(1, calls.size()) * sizeof(coll_call));
  device_buffer d_rets(std::max<std::size_t>(1, calls.size()) * sizeof(int));
  gpu::to_device(d_calls.get(), calls.data(), calls.size() * sizeof(coll_call));
  gpu::fill(d_rets.get(), 0x7F, d_rets.size());
  gio::shmem_barrier_all();  // every PE's sources are ready and destinations poisoned
  execute(d_calls.get<coll_call>(), static_cast<int>(calls.size()), sym.get(), d_rets.get<int>());
  gio::shmem_barrier_all();  // every PE's calls are done: nothing lands after the check

  std::vector<unsigned char> got(extent);
  gpu::to_host(got.data(), sym.get(), extent);
  std::vector<int> rets(calls.size());
  gpu::to_host(rets.data(), d_rets.get(), rets.size() * sizeof(int));
  // Expected image: sources as written (a reduce in place: the result), results in member
  // destinations, poison everywhere else.
  std::vector<unsigned char> expected = image;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const planned_call& p = plan[i];
    if (!p.call.member) continue;
    const std::vector<unsigned char> want = expected_dest<T>(p, mix(key, i), r.n_pes);
    std::memcpy(expected.data() + p.call.dst, want.data(), want.size());
  }
  int failures = 0;
  std::ostringstream report;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const planned_call& p = plan[i];
    if (p.call.member && rets[i] != 0 && ++failures <= 10)
      report << "\n  call " << i << " (" << describe(p) << ") returned " << rets[i];
  }
  std::size_t wrong = 0;
  for (std::size_t b = 0; b < extent; ++b) {
    if (got[b] == expected[b]) continue;
    if (++wrong > 8) continue;
    // Name the call whose regions hold (or are nearest to) the byte.
    std::size_t which = 0;
    for (std::size_t i = 0; i < plan.size(); ++i)
      if (plan[i].call.src <= b + coll_guard || plan[i].call.dst <= b + coll_guard) which = i;
    const planned_call& p = plan[which];
    const bool in_dst = b >= p.call.dst && b < p.call.dst + p.dst_bytes;
    report << "\n  byte " << b << ": call " << which << " (" << describe(p) << (p.call.member ? "" : ", not a member")
           << "), " << (in_dst ? "destination byte " + std::to_string(b - p.call.dst) : std::string("outside its destination"))
           << ": expected 0x" << std::hex << int(expected[b]) << " got 0x" << int(got[b]) << std::dec;
  }
  EXPECT_TRUE(failures == 0 && wrong == 0) << name << " on PE " << r.my_pe << ": " << failures << " bad return value(s), "
                                           << wrong << " wrong byte(s) of " << extent << " (seed 0x" << std::hex << r.seed
                                           << std::dec << ")" << report.str();
}

// ---- The call lists ----------------------------------------------------------------------------------
// Teams the lists use (by name): all shapes normally; when PEs time-slice a GPU every call costs
// time slices, so a few.
inline std::vector<const test_team*> pick_teams(const std::vector<test_team>& teams, std::initializer_list<const char*> names) {
  std::vector<const test_team*> out;
  for (const char* n : names)
    for (const test_team& t : teams)
      if (t.name == n) out.push_back(&t);
  return out;
}

template <class Flags>
std::vector<gio::reduce_op> ops_of() {
  std::vector<gio::reduce_op> out;
  if constexpr (Flags::arithmetic)
    for (auto op : {gio::reduce_op::sum, gio::reduce_op::prod, gio::reduce_op::min, gio::reduce_op::max}) out.push_back(op);
  if constexpr (Flags::bitwise)
    for (auto op : {gio::reduce_op::and_, gio::reduce_op::or_, gio::reduce_op::xor_}) out.push_back(op);
  return out;
}

template <class Flags, class T, class Coop>
std::vector<planned_call> reduce_plan(const std::vector<test_team>& teams) {
  std::vector<planned_call> plan;
  const bool slow = gpus_shared();
  const auto list = slow ? pick_teams(teams, {"world", "split2d_y"})
                         : pick_teams(teams, {"world", "evens", "tail", "last", "split2d_x", "split2d_y", "evens_tail"});
  std::vector<std::size_t> sizes = slow ? std::vector<std::size_t>{7, 1031} : std::vector<std::size_t>{1, 7, 1031};
  if (!slow && !std::is_same_v<Coop, thread>) sizes.push_back((std::size_t(16) << 10) + 3);
  // The largest reduction pushed into the team's scratch and the smallest pulled (one op).
  const std::size_t largest_pushed = gio::reduce_push_bytes / sizeof(T);
  for (const test_team* t : list) {
    for (gio::reduce_op op : ops_of<Flags>())
      for (std::size_t n : sizes) add_call(plan, coll_kind::reduce, op, *t, 0, n, sizeof(T));
    if (!slow)
      for (std::size_t n : {largest_pushed, largest_pushed + 1})
        add_call(plan, coll_kind::reduce, ops_of<Flags>().front(), *t, 0, n, sizeof(T));
  }
  // In place (dest == source), on every member of WORLD and one split, pushed and pulled.
  for (const test_team* t : pick_teams(teams, {"world", "split2d_y"}))
    for (std::size_t n : {std::size_t(7), std::size_t(1031)})
      add_call(plan, coll_kind::reduce, ops_of<Flags>().back(), *t, 0, n, sizeof(T), true);
  return plan;
}

// sizes: elements (bytes for the mem forms). Roots rotate through the team, the last PE first.
template <class Coop>
std::vector<planned_call> data_plan(const std::vector<test_team>& teams, std::size_t elem, bool mem) {
  std::vector<planned_call> plan;
  const bool slow = gpus_shared();
  const bool one_thread = std::is_same_v<Coop, thread>;
  const auto list = slow ? pick_teams(teams, {"world", "split2d_y"})
                         : pick_teams(teams, {"world", "evens", "tail", "last", "split2d_x", "evens_tail"});
  std::vector<std::size_t> bcast, blocks;
  if (mem) {
    bcast = slow ? std::vector<std::size_t>{100, (std::size_t(64) << 10) + 3}
                 : std::vector<std::size_t>{1, 8, 100, 4096, (std::size_t(64) << 10) + 3, std::size_t(1) << 20};
    blocks = slow ? std::vector<std::size_t>{100, 4099} : std::vector<std::size_t>{1, 100, 4099, std::size_t(256) << 10};
    if (one_thread) {  // one thread moving megabytes: seconds
      bcast.erase(std::remove_if(bcast.begin(), bcast.end(), [](std::size_t b) { return b > (std::size_t(64) << 10) + 3; }), bcast.end());
      blocks.erase(std::remove_if(blocks.begin(), blocks.end(), [](std::size_t b) { return b > 4099; }), blocks.end());
    }
  } else {
    bcast = slow ? std::vector<std::size_t>{7} : std::vector<std::size_t>{1, 7, 1031};
    blocks = bcast;
  }
  int rotate = 0;
  for (const test_team* t : list) {
    for (std::size_t n : bcast) add_call(plan, coll_kind::broadcast, gio::reduce_op::sum, *t, (t->size - 1 + rotate++) % t->size, n, elem);
    for (std::size_t n : blocks) add_call(plan, coll_kind::fcollect, gio::reduce_op::sum, *t, 0, n, elem);
    for (std::size_t n : blocks) add_call(plan, coll_kind::alltoall, gio::reduce_op::sum, *t, 0, n, elem);
  }
  return plan;
}

// ---- Families: one test per type (and the byte forms) --------------------------------------------
struct coll_family {
  std::string name;  // "reduce_typed_int" ...
  void (*run)(const std::string& name);
};
inline void PrintTo(const coll_family& f, std::ostream* os) { *os << f.name; }  // gtest names a failing case by it

template <class R, class T, class Coop> void run_reduce_scope(const std::string& name) {
  scoped_teams teams;
  auto plan = reduce_plan<R, T, Coop>(teams.get());
  const std::string what = name + " reductions" + Coop::suffix;
  run_plan<T>(what, plan, [&](const coll_call* calls, int n, unsigned char* sym, int* rets) {
    reduce_kernel<R, T, Coop><<<1, coll_threads<Coop>()>>>(fresh_handle(), calls, n, sym, rets);
    gpu::finish_launch(what.c_str());
  });
}

template <class D, class T, class Coop> void run_data_scope(const std::string& name, bool mem) {
  scoped_teams teams;
  auto plan = data_plan<Coop>(teams.get(), sizeof(T), mem);
  const std::string what = name + " broadcast/fcollect/alltoall" + Coop::suffix;
  run_plan<T>(what, plan, [&](const coll_call* calls, int n, unsigned char* sym, int* rets) {
    data_kernel<D, T, Coop><<<1, coll_threads<Coop>()>>>(fresh_handle(), calls, n, sym, rets);
    gpu::finish_launch(what.c_str());
  });
}

template <class R, class T> void run_reduce_family(const std::string& name) {
  run_reduce_scope<R, T, thread>(name);
  run_reduce_scope<R, T, wave>(name);
  run_reduce_scope<R, T, wg>(name);
}
// Mem: the byte forms' plan (sizes from 1 B to 1 MiB) rather than the element forms'.
template <class D, class T, bool Mem = false> void run_data_family(const std::string& name) {
  run_data_scope<D, T, thread>(name, Mem);
  run_data_scope<D, T, wave>(name, Mem);
  run_data_scope<D, T, wg>(name, Mem);
}

// Typed reductions of rows [First, Last) of gio::types::reduce_types (every typed name);
// the generic templates on int and double (they differ between types only by T).
template <std::size_t First, std::size_t... I> void add_reduce_families(std::vector<coll_family>& out, std::index_sequence<I...>) {
  auto add = [&](auto index) {
    const auto& entry = std::get<First + decltype(index)::value>(gio::types::reduce_types);
    using E = std::decay_t<decltype(entry)>;
    out.push_back({std::string("reduce_typed_") + entry.name, &run_reduce_family<typename E::typed, typename E::type>});
  };
  (add(std::integral_constant<std::size_t, I>{}), ...);
}
template <std::size_t First, std::size_t Last> std::vector<coll_family> reduce_families_of_rows() {
  std::vector<coll_family> out;
  add_reduce_families<First>(out, std::make_index_sequence<Last - First>{});
  return out;
}

// Data collectives of rows [First, Last) of gio::types::rma_types: the typed names where the
// typed structs have them, the generic templates once per element size.
template <std::size_t I> using coll_rma_type_at = typename std::tuple_element_t<I, std::decay_t<decltype(gio::types::rma_types)>>::type;
template <std::size_t I, std::size_t... Earlier> constexpr bool coll_first_of_its_size(std::index_sequence<Earlier...>) {
  return ((sizeof(coll_rma_type_at<Earlier>) != sizeof(coll_rma_type_at<I>)) && ...);
}
template <std::size_t First, std::size_t... I> void add_data_families(std::vector<coll_family>& out, std::index_sequence<I...>) {
  auto add = [&](auto index) {
    constexpr std::size_t i = First + decltype(index)::value;
    const auto& entry = std::get<i>(gio::types::rma_types);
    using E = std::decay_t<decltype(entry)>;
    using T = typename E::type;
    if constexpr (has_typed_data_collectives<typename E::typed>::value)
      out.push_back({std::string("data_typed_") + entry.name, &run_data_family<typename E::typed, T>});
    if constexpr (coll_first_of_its_size<i>(std::make_index_sequence<i>{}))
      out.push_back({std::string("data_generic_") + entry.name, &run_data_family<generic_data<T>, T>});
  };
  (add(std::integral_constant<std::size_t, I>{}), ...);
}
template <std::size_t First, std::size_t Last> std::vector<coll_family> data_families_of_rows() {
  std::vector<coll_family> out;
  add_data_families<First>(out, std::make_index_sequence<Last - First>{});
  return out;
}

inline constexpr std::size_t reduce_rows = std::tuple_size_v<std::decay_t<decltype(gio::types::reduce_types)>>;
inline constexpr std::size_t data_rows = std::tuple_size_v<std::decay_t<decltype(gio::types::rma_types)>>;

// The byte forms of the data collectives and the generic reduction templates (they differ
// between types only by T: an integer and a floating type). A template, so that only the shard
// that calls it instantiates its kernels.
template <int = 0> std::vector<coll_family> mem_and_generic_reduce_families() {
  return {{"data_mem", &run_data_family<mem_data, unsigned char, true>},
          {"reduce_generic_int", &run_reduce_family<generic_reduce<int>, int>},
          {"reduce_generic_uint64", &run_reduce_family<generic_reduce<std::uint64_t>, std::uint64_t>},
          {"reduce_generic_double", &run_reduce_family<generic_reduce<double>, double>}};
}

// The families are compiled in `collective_shards` translation units, generated by
// tests/gpu/CMakeLists.txt from collective_shard.cpp.in, so that they compile in parallel: the
// typed reductions (the most kernels) in `reduce_shards` ranges of rows, the data collectives
// in `data_shards`, the rest in the last. The numbers balance the shards' compile times (each
// about 2.5 minutes with nvcc; one shard of 5 took 7 minutes and bounded the whole build).
inline constexpr std::size_t reduce_shards = 8, data_shards = 2;
inline constexpr std::size_t collective_shards = reduce_shards + data_shards + 1;
static_assert(collective_shards == GIO_TEST_COLLECTIVE_SHARDS, "tests/gpu/CMakeLists.txt generates another number of shards");

template <std::size_t K> std::vector<coll_family> families_of_shard() {
  if constexpr (K < reduce_shards) {
    return reduce_families_of_rows<reduce_rows * K / reduce_shards, reduce_rows * (K + 1) / reduce_shards>();
  } else if constexpr (K < reduce_shards + data_shards) {
    constexpr std::size_t d = K - reduce_shards;
    return data_families_of_rows<data_rows * d / data_shards, data_rows * (d + 1) / data_shards>();
  } else {
    return mem_and_generic_reduce_families();
  }
}

// Defined, for K < collective_shards, by one generated translation unit each.
template <std::size_t K> std::vector<coll_family> collective_shard();

}  // namespace gio_test
