// gio::device_library (device/library.hpp): this binary is compiled with GIO_DEVICE_LIBRARY, so
// its collectives and its network path are calls into the library's entries. The kernel of issue
// 25's register goal (int64 and double sum and max reductions, broadcastmem and fcollectmem at
// workgroup scope, no launch bounds) must then fit 1024 threads and give the results the inline
// collectives give (tests/gpu's collective tests check those for every type and team); so must a
// kernel of workgroup puts, an atomic and a put with signal, whose inline form carries the network
// path's entries.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gio/device.hpp"
#include "gio/platform/launch.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

static_assert(gio::detail::calls_device_library, "this binary must be compiled with GIO_DEVICE_LIBRARY");

constexpr std::size_t n = 3000;  // not a multiple of the 16-byte packs: the reductions' tails run too
constexpr unsigned threads = 1024;

// What element k of PE pe's sources holds in round r.
std::int64_t int_source(int pe, std::size_t k, int r) { return 1000 * (pe + 1) + static_cast<std::int64_t>(k) + 7 * r; }
double double_source(int pe, std::size_t k, int r) { return 0.5 * (pe + 1) + static_cast<double>(k) + r; }
unsigned char byte_source(int pe, std::size_t k, int r) { return static_cast<unsigned char>(pe * 31 + k * 3 + r); }

// Symmetric layout: ints (sum, max, source), doubles (sum, max, source), bytes (broadcast dest,
// broadcast source, fcollect source, fcollect dest of n * n_pes).
struct six_buffers {
  std::int64_t* ints;
  double* doubles;
  unsigned char* bytes;
};

__global__ void six_collectives(gio::device_handle h, six_buffers b) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  const gio::shmem_team_t world = gio::SHMEM_TEAM_WORLD;
  gio::shmem_int64_sum_reduce_wg(c, world, b.ints, b.ints + 2 * n, n);
  gio::shmem_int64_max_reduce_wg(c, world, b.ints + n, b.ints + 2 * n, n);
  gio::shmem_double_sum_reduce_wg(c, world, b.doubles, b.doubles + 2 * n, n);
  gio::shmem_double_max_reduce_wg(c, world, b.doubles + n, b.doubles + 2 * n, n);
  gio::shmem_broadcastmem_wg(c, world, b.bytes, b.bytes + n, n, 0);
  gio::shmem_fcollectmem_wg(c, world, b.bytes + 3 * n, b.bytes + 2 * n, n);
}

// Workgroup puts of `n` ints to the peer, a fetch-add on its counter and a put with signal of
// the first `n` ints again into its second block: every call whose inline form reaches the
// network path's entries.
__global__ void puts_atomic_signal(gio::device_handle h, int* dest, const int* source, std::uint64_t* counter,
                                   std::uint64_t* signal, int peer) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  gio::shmem_ctx_putmem_wg(c, dest, source, n * sizeof(int), peer);
  if (threadIdx.x == 0) gio::shmem_ctx_uint64_atomic_fetch_add(c, counter, 1, peer);
  gio::shmem_ctx_putmem_signal_wg(c, dest + n, source, n * sizeof(int), signal, 1, gio::SHMEM_SIGNAL_ADD, peer);
  gio::shmem_ctx_quiet(c);
}

template <class Kernel> void expect_fits_a_thousand_threads(Kernel kernel, const char* name) {
  gio::platform::kernel_resources r{};
  ASSERT_TRUE(gio::platform::launch_ok(gio::platform::kernel_resources_of(reinterpret_cast<const void*>(kernel), &r)));
  EXPECT_LE(r.registers_per_thread, 64) << name << ": the library's register cap should bound the kernel's count";
  EXPECT_GE(r.max_threads_per_wg, static_cast<int>(threads)) << name;
}

TEST(DeviceLibrary, KernelsFitAThousandThreadsWithoutLaunchBounds) {
  expect_fits_a_thousand_threads(&six_collectives, "six_collectives");
  expect_fits_a_thousand_threads(&puts_atomic_signal, "puts_atomic_signal");
}

TEST(DeviceLibrary, PutsAtomicAndSignalDeliver) {
  const int me = run().my_pe, peer = run().peer;
  sym_buffer data(2 * n * sizeof(int)), words(2 * sizeof(std::uint64_t));
  device_buffer source(n * sizeof(int));
  const int rounds = lockstep(20);
  for (int r = 1; r <= rounds; ++r) {
    std::vector<int> mine(n);
    for (std::size_t k = 0; k < n; ++k) mine[k] = 100000 * r + 1000 * me + static_cast<int>(k);
    gpu::to_device(source.get(), mine.data(), n * sizeof(int));
    gio::shmem_barrier_all();
    puts_atomic_signal<<<1, threads>>>(run().handle, data.get<int>(), source.get<int>(), words.get<std::uint64_t>(),
                                       words.get<std::uint64_t>() + 1, peer);
    gpu::finish_launch("puts_atomic_signal");
    gio::shmem_barrier_all();
    std::vector<int> got(2 * n);
    std::uint64_t counters[2] = {};
    gpu::to_host(got.data(), data.get(), got.size() * sizeof(int));
    gpu::to_host(counters, words.get(), sizeof counters);
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < 2 * n; ++k) wrong += got[k] != 100000 * r + 1000 * peer + static_cast<int>(k % n);
    ASSERT_EQ(wrong, 0u) << "PE " << me << ", round " << r << ": ints that are not the peer's";
    ASSERT_EQ(counters[0], static_cast<std::uint64_t>(r)) << "the peer's fetch-adds";
    ASSERT_EQ(counters[1], static_cast<std::uint64_t>(r)) << "the peer's signal adds";
  }
}

TEST(DeviceLibrary, SixCollectivesGiveTheInlineResults) {
  const int n_pes = run().n_pes, me = run().my_pe;
  sym_buffer ints(3 * n * sizeof(std::int64_t)), doubles(3 * n * sizeof(double)), bytes((3 + n_pes) * n);
  const six_buffers b{ints.get<std::int64_t>(), doubles.get<double>(), bytes.get()};
  const int rounds = lockstep(20);
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::int64_t> int_src(n);
    std::vector<double> double_src(n);
    std::vector<unsigned char> byte_src(n);
    for (std::size_t k = 0; k < n; ++k) {
      int_src[k] = int_source(me, k, r);
      double_src[k] = double_source(me, k, r);
      byte_src[k] = byte_source(me, k, r);
    }
    gpu::to_device(b.ints + 2 * n, int_src.data(), n * sizeof(std::int64_t));
    gpu::to_device(b.doubles + 2 * n, double_src.data(), n * sizeof(double));
    gpu::to_device(b.bytes + n, byte_src.data(), n);
    gpu::to_device(b.bytes + 2 * n, byte_src.data(), n);
    gio::shmem_barrier_all();
    six_collectives<<<1, threads>>>(run().handle, b);
    gpu::finish_launch("six_collectives");
    gio::shmem_barrier_all();

    std::vector<std::int64_t> got_ints(2 * n);
    std::vector<double> got_doubles(2 * n);
    std::vector<unsigned char> got_bytes(n * (3 + n_pes));
    gpu::to_host(got_ints.data(), b.ints, got_ints.size() * sizeof(std::int64_t));
    gpu::to_host(got_doubles.data(), b.doubles, got_doubles.size() * sizeof(double));
    gpu::to_host(got_bytes.data(), b.bytes, got_bytes.size());
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < n; ++k) {
      std::int64_t int_sum = 0;
      double double_sum = 0;
      for (int pe = 0; pe < n_pes; ++pe) {
        int_sum += int_source(pe, k, r);
        double_sum += double_source(pe, k, r);
      }
      wrong += got_ints[k] != int_sum;
      wrong += got_ints[n + k] != int_source(n_pes - 1, k, r);
      wrong += got_doubles[k] != double_sum;
      wrong += got_doubles[n + k] != double_source(n_pes - 1, k, r);
      wrong += got_bytes[k] != byte_source(0, k, r);
      for (int pe = 0; pe < n_pes; ++pe) wrong += got_bytes[3 * n + pe * n + k] != byte_source(pe, k, r);
    }
    ASSERT_EQ(wrong, 0u) << "PE " << me << ", round " << r << ": elements that differ from the closed forms";
  }
}

}  // namespace
}  // namespace gio_test
