// Host calls that run a gio kernel (host atomics here) must start while a user kernel is waiting
// for them. Under CUDA's lazy loading a kernel's code loads at its first launch and the load can
// wait for the GPU's running work (CUDA Programming Guide, "Lazy Loading", concurrent
// execution): unless gio loads its kernels at init, the atomic below would wait for the kernel
// that waits for it. ctest runs this test on its own (gpu_host_ops_while_kernel_waits), so that
// the atomic is the first launch of its kernel in the process.
#include <cstdint>

#include "gio/platform/platform.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

// Waits for `word` to become nonzero, for at most `budget_ns`; writes what it saw.
__global__ void wait_for_word(const std::uint64_t* word, std::uint64_t* seen, unsigned long long budget_ns) {
  const unsigned long long start = gio::platform::timer_ns();
  std::uint64_t value = 0;
  while ((value = gio::platform::ld_acquire_sys_bits(word)) == 0 && gio::platform::timer_ns() - start < budget_ns) {
  }
  *seen = value;
}

TEST(HostOpsWhileKernelsWait, HostAtomicReachesAWaitingKernel) {
  sym_buffer word(sizeof(std::uint64_t));
  device_buffer seen(sizeof(std::uint64_t));
  const gpu::stream_t stream = gpu::stream_create();
  constexpr unsigned long long budget_ns = 10'000'000'000ull;
  wait_for_word<<<1, 1, 0, stream>>>(word.get<std::uint64_t>(), seen.get<std::uint64_t>(), budget_ns);
  gio::shmem_atomic_set(word.get<std::uint64_t>(), std::uint64_t{7}, run().my_pe);
  gpu::stream_sync(stream);
  gpu::stream_destroy(stream);
  std::uint64_t value = 0;
  gpu::to_host(&value, seen.get(), sizeof value);
  EXPECT_EQ(value, 7u) << "PE " << run().my_pe
                       << ": the host atomic's kernel did not run while a kernel waited for it (10 s)";
  gio::shmem_barrier_all();
}

}  // namespace
}  // namespace gio_test
