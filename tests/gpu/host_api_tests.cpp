// The host calls OpenSHMEM 1.5 users expect (issue 26), run by the GPU build's backend: the
// typed RMA and its _nbi, strided RMA, collect and alltoalls, realloc, host contexts, the
// accessibility and info queries, and a host wait that sees a kernel's signal and the data before
// it. tests/mp runs the same calls over the GPU-less build's shared-memory heap; here the heap is
// GPU memory, so the host reaches it through the backend's copies. The calls that move one
// partner's data go through harness.hpp's exchange_and_verify, as the other RMA tests do.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gio/device.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

// What element i of PE pe's source holds in these tests.
template <class T> T value_of(int pe, std::size_t i) { return static_cast<T>(1000 * (pe + 1) + static_cast<long>(i)); }
template <class T> std::vector<T> values_of(int pe, std::size_t n) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = value_of<T>(pe, i);
  return v;
}
// This PE's copy of `sym` (n elements), read through gio as any program would.
template <class T> std::vector<T> own_copy(const T* sym, std::size_t n) {
  std::vector<T> v(n);
  gio::shmem_getmem(v.data(), sym, n * sizeof(T), run().my_pe);
  return v;
}
template <class T> void clear_own(T* sym, std::size_t n) {
  const std::vector<T> zeros(n, T{});
  gio::shmem_putmem(sym, zeros.data(), n * sizeof(T), run().my_pe);
}
// Elements of `got` that differ from `want`.
template <class T> std::size_t mismatches(const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i) wrong += !(got[i] == want[i]);
  return wrong;
}

// One transfer of `bytes` at offset 0 of the source to offset 0 of the destination.
std::vector<transfer_case> whole(std::size_t bytes) { return {{0, 0, bytes}}; }

TEST(HostApi, TypedPutGetPAndGOfSeveralTypes) {
  constexpr std::size_t n = 1000;
  unsigned char* sym = staging_sym().get();
  unsigned char* local = staging_local().get();
  const int peer = run().peer;
  exchange_and_verify("shmem_int_put", local, sym, n * sizeof(int), whole(n * sizeof(int)), [&] {
    gio::shmem_int_put(reinterpret_cast<int*>(sym), reinterpret_cast<const int*>(local), n, peer);
  });
  exchange_and_verify("shmem_double_put_nbi + shmem_quiet", local, sym, n * sizeof(double), whole(n * sizeof(double)), [&] {
    gio::shmem_double_put_nbi(reinterpret_cast<double*>(sym), reinterpret_cast<const double*>(local), n, peer);
    gio::shmem_quiet();
  });
  exchange_and_verify("shmem_uint64_p", local, sym, 8 * sizeof(std::uint64_t), whole(8 * sizeof(std::uint64_t)), [&] {
    std::uint64_t values[8];
    gpu::to_host(values, local, sizeof values);
    for (int i = 0; i < 8; ++i) gio::shmem_uint64_p(reinterpret_cast<std::uint64_t*>(sym) + i, values[i], peer);
  });
  exchange_and_verify("shmem_int_get", sym, local, n * sizeof(int), whole(n * sizeof(int)), [&] {
    gio::shmem_int_get(reinterpret_cast<int*>(local), reinterpret_cast<const int*>(sym), n, peer);
  });
  exchange_and_verify("shmem_int_get_nbi + shmem_quiet", sym, local, n * sizeof(int), whole(n * sizeof(int)), [&] {
    gio::shmem_int_get_nbi(reinterpret_cast<int*>(local), reinterpret_cast<const int*>(sym), n, peer);
    gio::shmem_quiet();
  });
  exchange_and_verify("shmem_int_g", sym, local, 8 * sizeof(int), {{7 * sizeof(int), 7 * sizeof(int), sizeof(int)}}, [&] {
    const int value = gio::shmem_int_g(reinterpret_cast<const int*>(sym) + 7, peer);
    gpu::to_device(local + 7 * sizeof(int), &value, sizeof value);
  });
}

// iput: element i of the source (sst apart) lands at element i * dst of the partner's copy, and
// nothing in between changes; iget reads the partner's elements sst apart into dst-apart slots.
TEST(HostApi, StridedPutAndGet) {
  constexpr std::size_t n = 300;
  unsigned char* sym = staging_sym().get();
  unsigned char* local = staging_local().get();
  // Element i at i * source_stride of the source, at i * dest_stride of the destination.
  const auto strided_cases = [](std::ptrdiff_t dest_stride, std::ptrdiff_t source_stride) {
    std::vector<transfer_case> cases;
    for (std::size_t i = 0; i < n; ++i) cases.push_back({i * source_stride * sizeof(int), i * dest_stride * sizeof(int), sizeof(int)});
    return cases;
  };
  const std::size_t extent = n * 3 * sizeof(int);
  exchange_and_verify("shmem_int_iput", local, sym, extent, strided_cases(3, 2), [&] {
    gio::shmem_int_iput(reinterpret_cast<int*>(sym), reinterpret_cast<const int*>(local), 3, 2, n, run().peer);
  });
  exchange_and_verify("shmem_int_iget", sym, local, extent, strided_cases(2, 3), [&] {
    gio::shmem_int_iget(reinterpret_cast<int*>(local), reinterpret_cast<const int*>(sym), 2, 3, n, run().peer);
  });
}

// shmem_collect with unequal counts (PE p gives p + 1 elements) and shmem_alltoalls with strides.
TEST(HostApi, CollectAndAlltoalls) {
  const int n_pes = run().n_pes, me = run().my_pe;
  const std::size_t total = static_cast<std::size_t>(n_pes) * (n_pes + 1) / 2;
  sym_buffer dest(64 * n_pes * sizeof(long) + total * sizeof(long));
  sym_buffer source(64 * n_pes * sizeof(long));
  long* collected = dest.get<long>();
  const std::vector<long> mine = values_of<long>(me, static_cast<std::size_t>(me) + 1);
  gio::shmem_putmem(source.get(), mine.data(), mine.size() * sizeof(long), me);
  gio::shmem_barrier_all();
  ASSERT_EQ(gio::shmem_long_collect(gio::SHMEM_TEAM_WORLD, collected, source.get<long>(), mine.size()), 0);
  std::vector<long> want;
  for (int pe = 0; pe < n_pes; ++pe)
    for (long x : values_of<long>(pe, static_cast<std::size_t>(pe) + 1)) want.push_back(x);
  EXPECT_EQ(mismatches(own_copy(collected, total), want), 0u) << "shmem_long_collect";
  gio::shmem_barrier_all();

  // alltoalls: block j (nelems elements, sst apart) of each PE's source goes to PE j, at
  // elements (sender * nelems) * dst, dst apart.
  constexpr std::size_t nelems = 5;
  constexpr std::ptrdiff_t dst = 2, sst = 3;
  const std::size_t source_elems = static_cast<std::size_t>(n_pes) * nelems * sst;
  const std::size_t dest_elems = static_cast<std::size_t>(n_pes) * nelems * dst;
  const std::vector<long> blocks = values_of<long>(me, source_elems);
  gio::shmem_putmem(source.get(), blocks.data(), source_elems * sizeof(long), me);
  clear_own(collected, dest_elems);
  gio::shmem_barrier_all();
  ASSERT_EQ(gio::shmem_long_alltoalls(gio::SHMEM_TEAM_WORLD, collected, source.get<long>(), dst, sst, nelems), 0);
  std::vector<long> expected(dest_elems, 0);
  for (int sender = 0; sender < n_pes; ++sender)
    for (std::size_t i = 0; i < nelems; ++i)
      expected[(sender * nelems + i) * dst] = value_of<long>(sender, (me * nelems + i) * sst);
  EXPECT_EQ(mismatches(own_copy(collected, dest_elems), expected), 0u) << "shmem_long_alltoalls";
  gio::shmem_barrier_all();
}

TEST(HostApi, ReallocKeepsTheContentsStaysSymmetricAndRefusesAForeignPointer) {
  const int me = run().my_pe;
  auto* block = static_cast<int*>(gio::shmem_malloc(100 * sizeof(int)));
  ASSERT_NE(block, nullptr);
  const std::vector<int> mine = values_of<int>(me, 100);
  gio::shmem_int_put(block, mine.data(), 100, me);
  void* blocker = gio::shmem_malloc(64);  // so that growing cannot stay in place by accident
  auto* grown = static_cast<int*>(gio::shmem_realloc(block, 10000 * sizeof(int)));
  ASSERT_NE(grown, nullptr);
  EXPECT_NE(grown, block) << "the blocker leaves no room to grow in place";
  EXPECT_EQ(mismatches(own_copy(grown, 100), mine), 0u) << "the first 100 elements survive growing";
  // Symmetric: the partner's put into the grown block's last element lands in this PE's.
  gio::shmem_int_p(grown + 9999, me + 1, run().peer);
  gio::shmem_barrier_all();
  EXPECT_EQ(own_copy(grown + 9999, 1)[0], run().peer + 1);
  auto* shrunk = static_cast<int*>(gio::shmem_realloc(grown, 50 * sizeof(int)));
  ASSERT_NE(shrunk, nullptr);
  EXPECT_EQ(mismatches(own_copy(shrunk, 50), values_of<int>(me, 50)), 0u) << "the first 50 survive shrinking";
  int not_symmetric[4] = {};
  try {
    gio::shmem_realloc(not_symmetric, 64);
    ADD_FAILURE() << "shmem_realloc accepted a pointer outside the heap";
  } catch (const gio::error& e) {
    const std::string prefix = "gio: PE " + std::to_string(me) + ": shmem_realloc: ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
  gio::shmem_free(shrunk);
  gio::shmem_free(blocker);
  gio::shmem_barrier_all();
}

// Host contexts: a world context carries puts to the partner and completes with its own quiet; a
// team context numbers PEs as its team: in the team of PEs 1 .. n-1 (team PE r is world PE r + 1)
// every member puts to its own team number, which must land in its own copy (as world numbers
// the puts would land one PE lower, PE 0 included). Creating a context is not collective, so a
// failure is an EXPECT that skips the puts, never an early return that leaves the partner waiting.
TEST(HostApi, ContextsOfTheWorldAndOfATeam) {
  constexpr std::size_t n = 64;
  sym_buffer buffer(n * sizeof(int));
  int* sym = buffer.get<int>();
  const int me = run().my_pe, n_pes = run().n_pes;
  gio::shmem_ctx_t ctx = gio::SHMEM_CTX_INVALID;
  const bool made = gio::shmem_ctx_create(gio::SHMEM_CTX_PRIVATE, &ctx) == 0;
  EXPECT_TRUE(made) << "shmem_ctx_create";
  unsigned char* local = staging_local().get();
  exchange_and_verify("shmem_ctx_int_put", local, sym, n * sizeof(int), whole(n * sizeof(int)), [&] {
    if (!made) return;
    gio::shmem_ctx_int_put(ctx, sym, reinterpret_cast<const int*>(local), n, run().peer);
    gio::shmem_ctx_quiet(ctx);
  });
  if (made) gio::shmem_ctx_destroy(ctx);

  gio::shmem_team_t from_one = gio::SHMEM_TEAM_INVALID;
  ASSERT_EQ(gio::shmem_team_split_strided(gio::SHMEM_TEAM_WORLD, 1, 1, n_pes - 1, nullptr, 0, &from_one), 0);
  const bool member = from_one != gio::SHMEM_TEAM_INVALID;
  EXPECT_EQ(member, me >= 1);
  clear_own(sym, n);
  gio::shmem_barrier_all();
  if (member) {
    gio::shmem_ctx_t team_ctx = gio::SHMEM_CTX_INVALID;
    const bool team_made = gio::shmem_team_create_ctx(from_one, 0, &team_ctx) == 0;
    EXPECT_TRUE(team_made) << "shmem_team_create_ctx";
    if (team_made) {
      const std::vector<int> mine = values_of<int>(me, n);
      gio::shmem_ctx_int_put(team_ctx, sym, mine.data(), n, gio::shmem_team_my_pe(from_one));
      gio::shmem_ctx_quiet(team_ctx);
      int one = 1;
      try {
        gio::shmem_ctx_int_put(team_ctx, sym, &one, 1, n_pes - 1);  // the team has n_pes - 1 PEs
        ADD_FAILURE() << "a PE outside the context's team was accepted";
      } catch (const gio::error& e) {
        EXPECT_NE(std::string(e.what()).find("shmem_ctx_int_put"), std::string::npos) << e.what();
      }
    }
  }
  gio::shmem_barrier_all();
  const std::vector<int> expected = member ? values_of<int>(me, n) : std::vector<int>(n, 0);
  EXPECT_EQ(mismatches(own_copy(sym, n), expected), 0u)
      << "PE " << me << (member ? ": its put through the team context to its own team number" : ": no put was meant for it");
  gio::shmem_ctx_t bad = gio::SHMEM_CTX_INVALID;
  EXPECT_THROW(gio::shmem_ctx_create(1L << 20, &bad), gio::error) << "unknown option bits";
  gio::shmem_team_destroy(from_one);  // collective over the team (a no-op on PE 0); its contexts go with it
  gio::shmem_barrier_all();
}

TEST(HostApi, AccessibilityAndInfo) {
  sym_buffer buffer(64);
  int local = 0;
  EXPECT_EQ(gio::shmem_pe_accessible(run().peer), 1);
  EXPECT_EQ(gio::shmem_pe_accessible(run().n_pes), 0);
  EXPECT_EQ(gio::shmem_pe_accessible(-1), 0);
  EXPECT_EQ(gio::shmem_addr_accessible(buffer.get(), run().peer), 1);
  EXPECT_EQ(gio::shmem_addr_accessible(&local, run().peer), 0) << "a host stack variable is not symmetric";
  EXPECT_EQ(gio::shmem_addr_accessible(staging_local().get(), run().peer), 0) << "nor is private device memory";
  int major = 0, minor = 0;
  gio::shmem_info_get_version(&major, &minor);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 5);
  char name[gio::SHMEM_MAX_NAME_LEN] = {};
  gio::shmem_info_get_name(name);
  EXPECT_EQ(std::string(name).rfind(std::string(gio::SHMEM_VENDOR_STRING) + " ", 0), 0u) << name;
  EXPECT_LT(std::string(name).size(), static_cast<std::size_t>(gio::SHMEM_MAX_NAME_LEN));
}

// The partner's kernel puts data, fences, then sets this PE's flag; this PE's host waits for the
// flag (shmem_uint64_wait_until) and must then read the data. Each round's values and flag are
// new, so a stale flag or stale data from an earlier round cannot pass.
__global__ void put_then_flag(gio::device_handle h, int* dest, int* source, std::size_t n, int base,
                              std::uint64_t* flag, std::uint64_t round, int peer) {
  const gio::ctx c = gio::ctx_default(h);
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) source[i] = base + static_cast<int>(i);
  __syncthreads();
  if (threadIdx.x == 0) {
    gio::shmem_ctx_putmem(c, dest, source, n * sizeof(int), peer);
    gio::shmem_fence(c);
    gio::shmem_ctx_uint64_p(c, flag, round, peer);
  }
}

TEST(HostApi, HostWaitSeesAKernelsFlagAndTheDataBeforeIt) {
  constexpr std::size_t n = 4096;
  sym_buffer data(n * sizeof(int));
  device_buffer source(n * sizeof(int));
  sym_buffer flag(sizeof(std::uint64_t));
  auto* word = flag.get<std::uint64_t>();
  const int rounds = lockstep(200);
  const gpu::stream_t stream = gpu::stream_create();
  int stale_rounds = 0;
  for (int r = 1; r <= rounds; ++r) {
    EXPECT_EQ(gio::shmem_uint64_test(word, gio::SHMEM_CMP_EQ, static_cast<std::uint64_t>(r)), 0)
        << "round " << r << ": the flag is set before the partner's kernel ran";
    gio::shmem_barrier_all();  // both PEs tested before either kernel sets a flag
    put_then_flag<<<1, 256, 0, stream>>>(run().handle, data.get<int>(), source.get<int>(), n,
                                         100000 * r + 1000 * run().my_pe, word, r, run().peer);
    gio::shmem_uint64_wait_until(word, gio::SHMEM_CMP_EQ, static_cast<std::uint64_t>(r));
    const std::vector<int> got = own_copy(data.get<int>(), n);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += got[i] != 100000 * r + 1000 * run().peer + static_cast<int>(i);
    stale_rounds += wrong != 0;
    EXPECT_EQ(gio::shmem_uint64_test(word, gio::SHMEM_CMP_EQ, static_cast<std::uint64_t>(r)), 1);
    gpu::stream_sync(stream);
    gio::shmem_barrier_all();  // both PEs read their data before the next round overwrites it
  }
  EXPECT_EQ(stale_rounds, 0) << "PE " << run().my_pe << ": after the wait, the partner's data was stale in "
                             << stale_rounds << " of " << rounds << " rounds";
  gpu::stream_destroy(stream);
}

}  // namespace
}  // namespace gio_test
