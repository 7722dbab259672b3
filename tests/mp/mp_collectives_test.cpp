// Host atomics and host collectives across processes (mpirun -np 2 and 4), against references
// computed here: every AMO on every element type, concurrent fetch-and-add and compare-and-swap,
// broadcast / fcollect / alltoall / every reduction on WORLD and on split teams (roots other
// than 0, team sizes that do not divide the world). Element types come from gio/ops.hpp's dtype
// table, the same one the library dispatches on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "gio/host.hpp"
#include "mp_test_support.hpp"

namespace gio {
namespace {

template <class F> void for_each_dtype(F&& f) {
  for (std::uint32_t t = 0; t <= static_cast<std::uint32_t>(dtype::f64); ++t) visit_dtype(static_cast<dtype>(t), f);
}

template <class T> std::string type_name() {
  return (std::is_floating_point_v<T> ? "float" : std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
}

// Symmetric scratch every test shares: allocated by every PE (shmem_malloc is collective over
// the world) before team-only calls begin.
struct symmetric_buffers {
  static constexpr std::size_t bytes = 64 * 1024;
  char* source = static_cast<char*>(shmem_malloc(bytes));
  char* dest = static_cast<char*>(shmem_malloc(bytes));
  ~symmetric_buffers() {
    shmem_free(dest);
    shmem_free(source);
  }
  template <class T> T* source_as() { return reinterpret_cast<T*>(source); }
  template <class T> T* dest_as() { return reinterpret_cast<T*>(dest); }
};

// Runs `f(team)` on WORLD and on split teams, for those this PE belongs to: the odd world PEs,
// and the rows and columns of a 3-wide grid (uneven with 2 or 4 PEs). Every PE visits the teams
// in the same order, so team-only collectives never wait on each other.
void for_each_test_team(const std::function<void(shmem_team_t)>& f) {
  const int n = shmem_n_pes();
  shmem_team_t odd, rows, columns;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, nullptr, 0, &odd), 0);
  ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, nullptr, 0, &rows, nullptr, 0, &columns), 0);
  for (shmem_team_t team : {SHMEM_TEAM_WORLD, odd, rows, columns}) {
    if (team == SHMEM_TEAM_INVALID) continue;
    SCOPED_TRACE("team of " + std::to_string(shmem_team_n_pes(team)) + " PEs starting at world PE " +
                 std::to_string(shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD)));
    f(team);
  }
  for (shmem_team_t team : {odd, rows, columns}) shmem_team_destroy(team);
}

// Small values every element type represents exactly (int8 included).
template <class T> T pattern(int who, std::size_t k) { return static_cast<T>((who * 31 + k * 7 + 3) % 97); }
template <class T> constexpr T sentinel() { return static_cast<T>(121); }

// --- atomics -----------------------------------------------------------------------------------

// Every AMO, through the generic names, on `target`'s slot for this PE; returns the final value.
template <class T> T exercise_integer_amos(T* dest, int target) {
  T ref = static_cast<T>(100 + shmem_my_pe());
  shmem_atomic_set(dest, ref, target);
  EXPECT_EQ(shmem_atomic_fetch(dest, target), ref);
  EXPECT_EQ(shmem_atomic_fetch_add(dest, T(7), target), ref);
  ref = static_cast<T>(ref + 7);
  shmem_atomic_add(dest, static_cast<T>(T(0) - T(9)), target);  // wraps for unsigned types
  ref = static_cast<T>(ref - 9);
  EXPECT_EQ(shmem_atomic_fetch_inc(dest, target), ref);
  ref = static_cast<T>(ref + 1);
  shmem_atomic_inc(dest, target);
  ref = static_cast<T>(ref + 1);
  EXPECT_EQ(shmem_atomic_compare_swap(dest, static_cast<T>(ref + 1), T(3), target), ref) << "cond differs: no swap";
  EXPECT_EQ(shmem_atomic_compare_swap(dest, ref, T(0x7C), target), ref);
  ref = T(0x7C);
  EXPECT_EQ(shmem_atomic_swap(dest, T(0x6F), target), ref);
  ref = T(0x6F);
  EXPECT_EQ(shmem_atomic_fetch_and(dest, T(0x3C), target), ref);
  ref = static_cast<T>(ref & T(0x3C));
  shmem_atomic_and(dest, T(0x1E), target);
  ref = static_cast<T>(ref & T(0x1E));
  EXPECT_EQ(shmem_atomic_fetch_or(dest, T(0x41), target), ref);
  ref = static_cast<T>(ref | T(0x41));
  shmem_atomic_or(dest, T(0x300), target);
  ref = static_cast<T>(ref | T(0x300));
  EXPECT_EQ(shmem_atomic_fetch_xor(dest, T(0x155), target), ref);
  ref = static_cast<T>(ref ^ T(0x155));
  shmem_atomic_xor(dest, T(0x0F0), target);
  ref = static_cast<T>(ref ^ T(0x0F0));
  EXPECT_EQ(shmem_atomic_fetch(dest, target), ref);
  return ref;
}

// Floating point: fetch, set, swap (OpenSHMEM's set), and fetch_add as a CAS loop.
template <class T> T exercise_floating_amos(T* dest, int target) {
  T ref = static_cast<T>(1.5 + shmem_my_pe());
  shmem_atomic_set(dest, ref, target);
  EXPECT_EQ(shmem_atomic_fetch(dest, target), ref);
  EXPECT_EQ(shmem_atomic_swap(dest, T(-2.25), target), ref);
  ref = T(-2.25);
  EXPECT_EQ(shmem_atomic_fetch_add(dest, T(0.5), target), ref);
  ref = static_cast<T>(ref + T(0.5));
  EXPECT_EQ(shmem_atomic_fetch(dest, target), ref);
  return ref;
}

// Each PE works on the next PE's slot for it; the owner then finds in its own memory the final
// value the worker computed (so an atomic that hit the wrong PE fails here).
TEST(MpHostAtomics, EveryOperationOnEveryTypeMatchesTheReference) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, previous = (me + n - 1) % n;
  symmetric_buffers buffers;
  for_each_dtype([&](auto zero) {
    using T = decltype(zero);
    SCOPED_TRACE(type_name<T>());
    T* slots = buffers.dest_as<T>();
    T* finals = buffers.source_as<T>();
    std::fill(slots, slots + n, T{});
    shmem_barrier_all();
    if constexpr (sizeof(T) < 4) {
      try {
        shmem_atomic_fetch_add(&slots[me], T(1), next);
        ADD_FAILURE() << "a " << sizeof(T) << "-byte atomic did not throw";
      } catch (const error& e) {
        EXPECT_TRUE(mp_test::names_pe_and_call(e.what(), "shmem_atomic_fetch_add: atomics take 4- or 8-byte types"));
      }
    } else {
      T final_value;
      if constexpr (std::is_integral_v<T>)
        final_value = exercise_integer_amos(&slots[me], next);
      else
        final_value = exercise_floating_amos(&slots[me], next);
      shmem_putmem(&finals[me], &final_value, sizeof(T), next);
      shmem_barrier_all();
      EXPECT_EQ(slots[previous], finals[previous]) << "PE " << previous << "'s atomics on this PE";
    }
    shmem_barrier_all();
  });
}

TEST(MpHostAtomics, TypedNamesReachTheSameOperations) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n;
  symmetric_buffers buffers;
  auto* ints = buffers.dest_as<int>();
  auto* words = reinterpret_cast<std::uint64_t*>(buffers.dest + 64);
  auto* reals = reinterpret_cast<double*>(buffers.dest + 128);
  shmem_int_atomic_set(ints, 40, next);
  EXPECT_EQ(shmem_int_atomic_fetch_add(ints, 2, next), 40);
  shmem_uint64_atomic_set(words, 0xF0F0u, next);
  EXPECT_EQ(shmem_uint64_atomic_fetch_xor(words, 0xFFFFu, next), 0xF0F0u);
  shmem_double_atomic_set(reals, 0.75, next);
  EXPECT_EQ(shmem_double_atomic_swap(reals, -8.0, next), 0.75);
  shmem_barrier_all();
  EXPECT_EQ(*ints, 42);
  EXPECT_EQ(*words, 0x0F0Fu);
  EXPECT_EQ(*reals, -8.0);
  shmem_barrier_all();
}

// Every PE adds to one counter on each PE at once: the old values are all distinct and the
// final value counts every addition.
TEST(MpHostAtomics, ConcurrentFetchAddsGiveDistinctOldValues) {
  constexpr int adds = 200;
  const int n = shmem_n_pes();
  symmetric_buffers buffers;
  auto* counter64 = buffers.dest_as<std::int64_t>();
  auto* counter32 = reinterpret_cast<std::uint32_t*>(buffers.dest + 64);
  *counter64 = 0;
  *counter32 = 0;
  auto* seen = buffers.source_as<std::int64_t>();  // this PE's old values, then everyone's
  auto* all = reinterpret_cast<std::int64_t*>(buffers.source + sizeof(std::int64_t) * 2 * adds);
  shmem_barrier_all();
  for (int target = 0; target < n; ++target) {
    SCOPED_TRACE("counters on PE " + std::to_string(target));
    for (int i = 0; i < adds; ++i) {
      seen[i] = shmem_int64_atomic_fetch_add(counter64, 1, target);
      seen[adds + i] = shmem_uint32_atomic_fetch_inc(counter32, target);
    }
    shmem_fcollect(SHMEM_TEAM_WORLD, all, seen, 2 * adds);
    for (int half = 0; half < 2; ++half) {
      std::vector<std::int64_t> olds;
      for (int pe = 0; pe < n; ++pe) olds.insert(olds.end(), all + (2 * pe + half) * adds, all + (2 * pe + half + 1) * adds);
      std::sort(olds.begin(), olds.end());
      std::vector<std::int64_t> expected(n * adds);
      for (int i = 0; i < n * adds; ++i) expected[i] = i;
      EXPECT_EQ(olds, expected) << (half ? "uint32 fetch_inc" : "int64 fetch_add");
    }
    EXPECT_EQ(shmem_int64_atomic_fetch(counter64, target), n * adds);
    EXPECT_EQ(shmem_uint32_atomic_fetch(counter32, target), static_cast<std::uint32_t>(n * adds));
    shmem_barrier_all();
  }
}

// Every PE tries to claim one word with compare_swap(0 -> me + 1): exactly one wins.
TEST(MpHostAtomics, CompareSwapElectsOneWinner) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  symmetric_buffers buffers;
  auto* word = buffers.dest_as<std::uint64_t>();
  auto* won = buffers.source_as<int>();
  *word = 0;
  shmem_barrier_all();
  const std::uint64_t old = shmem_atomic_compare_swap(word, std::uint64_t{0}, std::uint64_t(me + 1), n - 1);
  won[0] = old == 0;
  shmem_int_sum_reduce(SHMEM_TEAM_WORLD, won + 1, won, 1);
  EXPECT_EQ(won[1], 1) << "winners";
  const std::uint64_t winner = shmem_uint64_atomic_fetch(word, n - 1);
  EXPECT_GE(winner, 1u);
  EXPECT_LE(winner, static_cast<std::uint64_t>(n));
  if (old == 0) {
    EXPECT_EQ(winner, static_cast<std::uint64_t>(me + 1));
  } else {
    EXPECT_EQ(old, winner) << "a loser sees the winner's value";
  }
  shmem_barrier_all();
}

TEST(MpHostAtomics, BadArgumentsNameThePEAndTheCall) {
  symmetric_buffers buffers;
  int not_symmetric = 0;
  auto* misaligned = reinterpret_cast<int*>(buffers.dest + 2);
  auto* reals = reinterpret_cast<double*>(buffers.dest);
  const std::vector<std::pair<std::function<void()>, std::string>> cases = {
      {[&] { shmem_int_atomic_fetch_add(&not_symmetric, 1, 0); }, "shmem_int_atomic_fetch_add: address"},
      {[&] { shmem_int_atomic_fetch_add(misaligned, 1, 0); }, "shmem_int_atomic_fetch_add: address at heap offset"},
      {[&] { shmem_int_atomic_add(buffers.dest_as<int>(), 1, shmem_n_pes()); }, "shmem_int_atomic_add: PE "},
      {[&] { shmem_atomic_fetch_xor(reals, 1.0, 0); }, "shmem_atomic_fetch_xor: bitwise atomics take integer types"},
  };
  for (const auto& [call, message] : cases) {
    try {
      call();
      ADD_FAILURE() << message << ": did not throw";
    } catch (const error& e) {
      EXPECT_TRUE(mp_test::names_pe_and_call(e.what(), message));
    }
  }
  shmem_barrier_all();
}

// GIO_ATOMICS=cas (ctest runs the 4-PE job so) makes every peer, this PE included, use the
// device library's CAS loops; by default this PE's own heap has native atomics.
TEST(MpHostAtomics, AtomicsModeShowsInThePeerTable) {
  const char* mode = std::getenv("GIO_ATOMICS");
  const bool cas = mode && std::string(mode) == "cas";
  for (int pe = 0; pe < shmem_n_pes(); ++pe) {
    const bool native = (shmem_peer_report(pe).caps & peer_native_atomics) != 0;
    if (cas) {
      EXPECT_FALSE(native) << "PE " << pe;
    } else if (pe == shmem_my_pe()) {
      EXPECT_TRUE(native) << "this PE";
    }
  }
}

// --- collectives -------------------------------------------------------------------------------

TEST(MpHostCollectives, BroadcastFromEveryKindOfRoot) {
  symmetric_buffers buffers;
  for_each_test_team([&](shmem_team_t team) {
    const int size = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
    for (int root : {0, size - 1, size / 2}) {
      for (std::size_t count : {std::size_t{1}, std::size_t{13}, std::size_t{1000}}) {
        SCOPED_TRACE("root " + std::to_string(root) + ", " + std::to_string(count) + " elements");
        for_each_dtype([&](auto zero) {
          using T = decltype(zero);
          T* source = buffers.source_as<T>();
          T* dest = buffers.dest_as<T>();
          for (std::size_t k = 0; k < count; ++k) source[k] = pattern<T>(mine, k);
          std::fill(dest, dest + count + 1, sentinel<T>());
          EXPECT_EQ(shmem_broadcast(team, dest, source, count, root), 0);
          std::size_t wrong = 0;
          for (std::size_t k = 0; k < count; ++k) wrong += dest[k] != pattern<T>(root, k);
          EXPECT_EQ(wrong, 0u) << type_name<T>();
          EXPECT_EQ(dest[count], sentinel<T>()) << type_name<T>() << ": written past the end";
          shmem_team_sync(team);  // nobody refills its source while the root's is still read
        });
        // The byte form, and the stream form (synchronous without a GPU).
        std::memset(buffers.source, mine + 1, count);
        std::memset(buffers.dest, 0, count);
        EXPECT_EQ(shmem_broadcastmem(team, buffers.dest, buffers.source, count, root), 0);
        EXPECT_EQ(std::count(buffers.dest, buffers.dest + count, char(root + 1)), static_cast<long>(count));
        shmem_team_sync(team);
        std::memset(buffers.dest, 0, count);
        shmem_broadcastmem_on_stream(team, buffers.dest, buffers.source, count, root, nullptr);
        EXPECT_EQ(std::count(buffers.dest, buffers.dest + count, char(root + 1)), static_cast<long>(count));
        shmem_team_sync(team);
      }
    }
  });
}

TEST(MpHostCollectives, FcollectConcatenatesInTeamOrder) {
  symmetric_buffers buffers;
  for_each_test_team([&](shmem_team_t team) {
    const int size = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
    for (std::size_t count : {std::size_t{1}, std::size_t{5}, std::size_t{300}}) {
      for_each_dtype([&](auto zero) {
        using T = decltype(zero);
        T* source = buffers.source_as<T>();
        T* dest = buffers.dest_as<T>();
        for (std::size_t k = 0; k < count; ++k) source[k] = pattern<T>(mine, k);
        std::fill(dest, dest + size * count + 1, sentinel<T>());
        EXPECT_EQ(shmem_fcollect(team, dest, source, count), 0);
        std::size_t wrong = 0;
        for (int i = 0; i < size; ++i)
          for (std::size_t k = 0; k < count; ++k) wrong += dest[i * count + k] != pattern<T>(i, k);
        EXPECT_EQ(wrong, 0u) << type_name<T>() << ", " << count << " elements";
        EXPECT_EQ(dest[size * count], sentinel<T>()) << "written past the end";
        shmem_team_sync(team);
      });
      std::memset(buffers.source, mine + 1, count);
      shmem_fcollectmem_on_stream(team, buffers.dest, buffers.source, count, nullptr);
      for (int i = 0; i < size; ++i)
        EXPECT_EQ(std::count(buffers.dest + i * count, buffers.dest + (i + 1) * count, char(i + 1)), static_cast<long>(count));
      shmem_team_sync(team);
    }
  });
}

// shmem_collect: member i contributes 2i + 1 elements; every member gets them in team order.
TEST(MpHostCollectives, CollectConcatenatesUnequalCountsInTeamOrder) {
  symmetric_buffers buffers;
  for_each_test_team([&](shmem_team_t team) {
    const int size = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
    const auto count_of = [](int member) { return static_cast<std::size_t>(2 * member + 1); };
    std::size_t total = 0;
    for (int i = 0; i < size; ++i) total += count_of(i);
    auto* source = buffers.source_as<std::int64_t>();
    auto* dest = buffers.dest_as<std::int64_t>();
    for (std::size_t k = 0; k < count_of(mine); ++k) source[k] = pattern<std::int64_t>(mine, k);
    std::fill(dest, dest + total + 1, sentinel<std::int64_t>());
    shmem_team_sync(team);  // every member's dest is filled before any collect writes it
    EXPECT_EQ(shmem_int64_collect(team, dest, source, count_of(mine)), 0);
    std::size_t wrong = 0, at = 0;
    for (int i = 0; i < size; ++i)
      for (std::size_t k = 0; k < count_of(i); ++k) wrong += dest[at++] != pattern<std::int64_t>(i, k);
    EXPECT_EQ(wrong, 0u) << total << " elements";
    EXPECT_EQ(dest[total], sentinel<std::int64_t>()) << "written past the end";
    shmem_team_sync(team);
    // The mem form counts bytes; a member may contribute nothing.
    std::memset(buffers.source, 'a' + mine, 3);
    EXPECT_EQ(shmem_collectmem(team, buffers.dest, buffers.source, mine == 0 ? 0 : 3), 0);
    EXPECT_EQ(std::count(buffers.dest, buffers.dest + 3 * (size - 1), 'a'), 0) << "member 0 gave nothing";
    if (size > 1) EXPECT_EQ(buffers.dest[0], 'b');
    shmem_team_sync(team);
  });
}

// shmem_alltoalls: block j (4 elements, 3 apart) of each member's source to member j's dest,
// from element (sender's team number) * 4 * 2, 2 apart; the elements between stay untouched.
TEST(MpHostCollectives, AlltoallsMovesStridedBlocks) {
  symmetric_buffers buffers;
  constexpr std::size_t n = 4;
  constexpr std::ptrdiff_t dst = 2, sst = 3;
  for_each_test_team([&](shmem_team_t team) {
    const int size = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
    auto* source = buffers.source_as<double>();
    auto* dest = buffers.dest_as<double>();
    std::fill(source, source + size * n * sst, 0.0);
    for (int j = 0; j < size; ++j)
      for (std::size_t k = 0; k < n; ++k) source[(j * n + k) * sst] = pattern<double>(mine, j * 100 + k);
    std::fill(dest, dest + size * n * dst, sentinel<double>());
    shmem_team_sync(team);
    EXPECT_EQ(shmem_double_alltoalls(team, dest, source, dst, sst, n), 0);
    std::size_t wrong = 0;
    for (int i = 0; i < size; ++i)
      for (std::size_t k = 0; k < n; ++k) {
        wrong += dest[(i * n + k) * dst] != pattern<double>(i, mine * 100 + k);
        wrong += dest[(i * n + k) * dst + 1] != sentinel<double>();
      }
    EXPECT_EQ(wrong, 0u);
    EXPECT_THROW(shmem_alltoalls(team, dest, source, 0, sst, n), error) << "stride 0";
    shmem_team_sync(team);
  });
}

TEST(MpHostCollectives, AlltoallDeliversBlockJToMemberJ) {
  symmetric_buffers buffers;
  for_each_test_team([&](shmem_team_t team) {
    const int size = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
    for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{200}}) {
      for_each_dtype([&](auto zero) {
        using T = decltype(zero);
        T* source = buffers.source_as<T>();
        T* dest = buffers.dest_as<T>();
        for (int j = 0; j < size; ++j)  // block j: from this member to member j
          for (std::size_t k = 0; k < count; ++k) source[j * count + k] = pattern<T>(mine * size + j, k);
        std::fill(dest, dest + size * count + 1, sentinel<T>());
        EXPECT_EQ(shmem_alltoall(team, dest, source, count), 0);
        std::size_t wrong = 0;
        for (int i = 0; i < size; ++i)
          for (std::size_t k = 0; k < count; ++k) wrong += dest[i * count + k] != pattern<T>(i * size + mine, k);
        EXPECT_EQ(wrong, 0u) << type_name<T>() << ", " << count << " elements";
        EXPECT_EQ(dest[size * count], sentinel<T>()) << "written past the end";
        shmem_team_sync(team);
      });
      for (int j = 0; j < size; ++j) std::memset(buffers.source + j * count, mine * size + j + 1, count);
      EXPECT_EQ(shmem_alltoallmem(team, buffers.dest, buffers.source, count), 0);
      for (int i = 0; i < size; ++i)
        EXPECT_EQ(std::count(buffers.dest + i * count, buffers.dest + (i + 1) * count, char(i * size + mine + 1)),
                  static_cast<long>(count));
      shmem_team_sync(team);
    }
  });
}

constexpr reduce_op all_reduce_ops[] = {reduce_op::sum, reduce_op::prod, reduce_op::min, reduce_op::max,
                                        reduce_op::and_, reduce_op::or_, reduce_op::xor_};

// The reference, written out independently of the library's reduce_combine.
template <class T> T reference_combine(reduce_op op, T a, T b) {
  switch (op) {
    case reduce_op::sum: return static_cast<T>(a + b);
    case reduce_op::prod: return static_cast<T>(a * b);
    case reduce_op::min: return std::min(a, b);
    case reduce_op::max: return std::max(a, b);
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    if (op == reduce_op::and_) return static_cast<T>(a & b);
    if (op == reduce_op::or_) return static_cast<T>(a | b);
    if (op == reduce_op::xor_) return static_cast<T>(a ^ b);
  }
  ADD_FAILURE() << "no reference for " << reduce_op_name(op);
  return a;
}

// Inputs whose results every type holds exactly with up to 4 PEs (int8 included); negative
// values where the type has them, so min/max see signs.
template <class T> T reduce_input(reduce_op op, int member, std::size_t k) {
  if (op == reduce_op::prod) return static_cast<T>(1 + (member + k) % 3);
  if (op == reduce_op::sum) return static_cast<T>((member * 7 + k * 3) % 25);
  const int v = static_cast<int>((member * 31 + k * 7) % 97);
  return static_cast<T>(std::is_signed_v<T> || std::is_floating_point_v<T> ? v - 40 : v);
}

template <class T> int reduce_by_name(reduce_op op, shmem_team_t team, T* dest, const T* source, std::size_t n) {
  switch (op) {
    case reduce_op::sum: return shmem_sum_reduce(team, dest, source, n);
    case reduce_op::prod: return shmem_prod_reduce(team, dest, source, n);
    case reduce_op::min: return shmem_min_reduce(team, dest, source, n);
    case reduce_op::max: return shmem_max_reduce(team, dest, source, n);
    case reduce_op::and_: return shmem_and_reduce(team, dest, source, n);
    case reduce_op::or_: return shmem_or_reduce(team, dest, source, n);
    case reduce_op::xor_: return shmem_xor_reduce(team, dest, source, n);
  }
  return -1;
}

TEST(MpHostCollectives, EveryReductionOnEveryTypeMatchesTheReference) {
  symmetric_buffers buffers;
  for_each_test_team([&](shmem_team_t team) {
    const int size = shmem_team_n_pes(team), mine = shmem_team_my_pe(team);
    for_each_dtype([&](auto zero) {
      using T = decltype(zero);
      for (reduce_op op : all_reduce_ops) {
        if (!reduce_op_allowed<T>(op)) continue;
        for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{300}}) {
          for (bool in_place : {false, true}) {
            SCOPED_TRACE(type_name<T>() + " " + reduce_op_name(op) + ", " + std::to_string(count) + " elements" +
                         (in_place ? ", in place" : ""));
            T* source = buffers.source_as<T>();
            T* dest = in_place ? source : buffers.dest_as<T>();
            for (std::size_t k = 0; k < count; ++k) source[k] = reduce_input<T>(op, mine, k);
            if (!in_place) std::fill(dest, dest + count + 1, sentinel<T>());
            EXPECT_EQ(reduce_by_name(op, team, dest, source, count), 0);
            std::size_t wrong = 0;
            for (std::size_t k = 0; k < count; ++k) {
              T expected = reduce_input<T>(op, 0, k);
              for (int i = 1; i < size; ++i) expected = reference_combine(op, expected, reduce_input<T>(op, i, k));
              wrong += dest[k] != expected;
            }
            EXPECT_EQ(wrong, 0u);
            if (!in_place) {
              EXPECT_EQ(dest[count], sentinel<T>()) << "written past the end";
            }
            shmem_team_sync(team);
          }
        }
      }
    });
  });
}

TEST(MpHostCollectives, BadArgumentsThrowOnEveryPE) {
  symmetric_buffers buffers;
  const int n = shmem_n_pes();
  long not_symmetric[4] = {};
  auto* longs = buffers.dest_as<long>();
  auto* reals = buffers.dest_as<float>();
  const std::vector<std::pair<std::function<void()>, std::string>> cases = {
      {[&] { shmem_long_broadcast(SHMEM_TEAM_WORLD, longs, longs, 1, n); }, "shmem_long_broadcast: PE_root"},
      {[&] { shmem_long_broadcast(SHMEM_TEAM_WORLD, longs, longs, 1, -1); }, "shmem_long_broadcast: PE_root"},
      {[&] { shmem_long_sum_reduce(SHMEM_TEAM_INVALID, longs, longs, 1); }, "shmem_long_sum_reduce: team -1"},
      {[&] { shmem_long_sum_reduce(7, longs, longs, 1); }, "shmem_long_sum_reduce: team 7"},
      {[&] { shmem_long_fcollect(SHMEM_TEAM_WORLD, not_symmetric, longs, 1); }, "shmem_long_fcollect: address"},
      {[&] { shmem_long_alltoall(SHMEM_TEAM_WORLD, longs, not_symmetric, 1); }, "shmem_long_alltoall: address"},
      {[&] { shmem_long_collect(SHMEM_TEAM_WORLD, not_symmetric, longs, 1); }, "shmem_long_collect: address"},
      {[&] { shmem_long_alltoalls(SHMEM_TEAM_WORLD, longs, longs, 0, 1, 1); }, "shmem_long_alltoalls: strides"},
      {[&] { shmem_xor_reduce(SHMEM_TEAM_WORLD, reals, reals, 1); }, "shmem_xor_reduce: xor reductions take integer"},
      {[&] { shmem_fcollectmem(SHMEM_TEAM_WORLD, buffers.dest, buffers.source, buffers.bytes * 1024); },
       "shmem_fcollectmem: "},
  };
  for (const auto& [call, message] : cases) {
    try {
      call();
      ADD_FAILURE() << message << ": did not throw";
    } catch (const error& e) {
      EXPECT_TRUE(mp_test::names_pe_and_call(e.what(), message));
    }
  }
  shmem_barrier_all();  // every PE threw before any collective: nobody waits
}

}  // namespace
}  // namespace gio

int main(int argc, char** argv) {
  return gio::mp_test::run_tests_in_one_job(argc, argv, {{"GIO_SYMMETRIC_SIZE", "4M"}});
}
