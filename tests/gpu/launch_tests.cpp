// gio/launch.hpp: launch_collective runs a grid whose workgroups wait for each other when the
// grid fits on the GPU at once, and refuses (gio::error naming the grid and the limit, nothing
// launched) when it cannot; max_coresident_wgs follows the kernel's resources.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gio/launch.hpp"
#include "gio/platform/strong.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

constexpr unsigned launch_threads = 256;
constexpr std::uint64_t grid_wait_ns = 10'000'000'000ull;

// Every workgroup arrives, then waits (bounded) until every workgroup of the grid has: only
// finishes in time if they are all resident together.
__global__ void __launch_bounds__(launch_threads) grid_barrier_kernel(unsigned* arrived, unsigned* timed_out) {
  if (gio::platform::thread_in_wg() != 0) return;
  gio::platform::atomic_rmw_sys_bits<gio::platform::rmw::add>(arrived, 1u);
  const std::uint64_t start = gio::platform::timer_ns();
  while (gio::platform::ld_acquire_sys(arrived) < gio::platform::num_wgs()) {
    if (gio::platform::timer_ns() - start > grid_wait_ns) {
      gio::platform::atomic_rmw_sys_bits<gio::platform::rmw::add>(timed_out, 1u);
      return;
    }
  }
}

// Which GPU a PE uses (docs/running.md): node-local PE p on GPU p mod the GPUs in use, made the
// current device by shmem_init (so launches after init go there), and the PEs sharing it counted
// in this PE's gpu_share.
TEST(DeviceSelection, InitMakesThisPEsGpuCurrent) {
  const gio::runtime_report rep = gio::shmem_runtime_report();
  const int current = gpu::current_device(), visible = gpu::device_count();
  const char* configured = std::getenv("GIO_NUM_GPUS");
  const int in_use = configured && std::atoi(configured) > 0 ? std::atoi(configured) : visible;
  EXPECT_EQ(current, rep.gpu) << "shmem_init leaves this PE's GPU current";
  EXPECT_EQ(rep.gpu, rep.node_pe % in_use) << "node-local PE " << rep.node_pe << " of " << in_use << " GPUs";
  int sharing = 0;
  for (int pe = 0; pe < rep.node_pes; ++pe) sharing += pe % in_use == rep.gpu;
  EXPECT_EQ(gio::shmem_gpu_share().pes, sharing) << gio::shmem_gpu_share().describe();
}

TEST(LaunchCollective, CoresidentGridRuns) {
  const int max = gio::max_coresident_wgs(grid_barrier_kernel, launch_threads);
  ASSERT_GT(max, 0);
  // Workgroups per SM x this PE's share of the SMs (all of them, unless MPS runs several PEs on
  // this GPU), less the SM the software NIC model's engine needs when it serves gda.
  const gio::gpu_share share = gio::shmem_gpu_share();
  const int sms = share.multiprocessors(gpu::sm_count()) - gio::reserved_multiprocessors();
  EXPECT_EQ(max % sms, 0) << "max_coresident_wgs: workgroups per SM x SMs (" << share.describe() << ")";
  // Under MPS the share leaves room for the other PEs' grids: the whole of it runs beside them.
  // Time-sliced PEs on one GPU (no MPS) keep to half, as before the share existed.
  const unsigned grid = static_cast<unsigned>(gpus_shared() && !share.limits() ? max / 2 : max);
  device_buffer counters(2 * sizeof(unsigned));
  gpu::fill(counters.get(), 0, counters.size());
  const gpu::stream_t stream = gpu::stream_create();
  gio::launch_collective(grid_barrier_kernel, dim3(grid), dim3(launch_threads), 0, stream, counters.get<unsigned>(),
                         counters.get<unsigned>() + 1);
  gpu::stream_sync(stream);
  gpu::stream_destroy(stream);
  unsigned got[2] = {};
  gpu::to_host(got, counters.get(), sizeof got);
  EXPECT_EQ(got[0], grid) << "workgroups that arrived";
  EXPECT_EQ(got[1], 0u) << "workgroups that waited " << grid_wait_ns / 1'000'000'000ull << " s for the others";
}

TEST(LaunchCollective, OversizedGridThrowsAndLaunchesNothing) {
  const int max = gio::max_coresident_wgs(grid_barrier_kernel, launch_threads);
  ASSERT_GT(max, 0);
  device_buffer counters(2 * sizeof(unsigned));
  gpu::fill(counters.get(), 0, counters.size());
  const gpu::stream_t stream = gpu::stream_create();
  bool threw = false;
  try {
    gio::launch_collective(grid_barrier_kernel, dim3(static_cast<unsigned>(max + 1)), dim3(launch_threads), 0, stream,
                           counters.get<unsigned>(), counters.get<unsigned>() + 1);
  } catch (const gio::error& e) {
    threw = true;
    const std::string what = e.what();
    EXPECT_EQ(e.pe(), run().my_pe);
    EXPECT_EQ(what.rfind("gio: PE " + std::to_string(run().my_pe) + ": launch_collective", 0), 0u) << what;
    EXPECT_NE(what.find("cannot be co-resident"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(max + 1)), std::string::npos) << "names the requested grid: " << what;
    EXPECT_NE(what.find("at most " + std::to_string(max)), std::string::npos) << "names the limit: " << what;
  }
  EXPECT_TRUE(threw) << "launch_collective accepted a grid of " << max + 1 << " workgroups; at most " << max << " fit";
  gpu::stream_sync(stream);
  gpu::stream_destroy(stream);
  unsigned got[2] = {};
  gpu::to_host(got, counters.get(), sizeof got);
  EXPECT_EQ(got[0], 0u) << "the refused kernel ran anyway";
}

// A workgroup the kernel cannot have at all (here more threads than its launch bounds allow) is
// explained with the kernel's figures, and nothing runs; max_coresident_wgs says 0.
TEST(LaunchCollective, ExplainsAWorkgroupTheKernelCannotHave) {
  constexpr unsigned too_many = 2 * launch_threads;
  EXPECT_EQ(gio::max_coresident_wgs(grid_barrier_kernel, too_many), 0);
  device_buffer counters(2 * sizeof(unsigned));
  gpu::fill(counters.get(), 0, counters.size());
  std::string what;
  try {
    gio::launch_collective(grid_barrier_kernel, dim3(1), dim3(too_many), 0, gio::stream_t{}, counters.get<unsigned>(),
                           counters.get<unsigned>() + 1);
  } catch (const gio::error& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("launch_collective: a workgroup of " + std::to_string(too_many) + " threads"), std::string::npos)
      << what;
  EXPECT_NE(what.find("launch bounds at most " + std::to_string(launch_threads) + " threads per workgroup fit"),
            std::string::npos)
      << what;
  unsigned got[2] = {};
  gpu::to_host(got, counters.get(), sizeof got);
  EXPECT_EQ(got[0], 0u) << "the refused kernel ran anyway";
}

TEST(LaunchCollective, LimitFollowsSharedMemory) {
  const int plain = gio::max_coresident_wgs(grid_barrier_kernel, launch_threads, 0);
  const int heavy = gio::max_coresident_wgs(grid_barrier_kernel, launch_threads, 40 << 10);
  EXPECT_GT(heavy, 0);
  EXPECT_LT(heavy, plain) << "40 KiB of dynamic shared memory per workgroup must lower the limit";
  const unsigned grid = static_cast<unsigned>(gpus_shared() ? heavy / 2 : heavy);
  device_buffer counters(2 * sizeof(unsigned));
  gpu::fill(counters.get(), 0, counters.size());
  const gpu::stream_t stream = gpu::stream_create();
  gio::launch_collective(grid_barrier_kernel, dim3(grid), dim3(launch_threads), 40 << 10, stream, counters.get<unsigned>(),
                         counters.get<unsigned>() + 1);
  gpu::stream_sync(stream);
  EXPECT_THROW(gio::launch_collective(grid_barrier_kernel, dim3(static_cast<unsigned>(heavy + 1)), dim3(launch_threads),
                                      40 << 10, stream, counters.get<unsigned>(), counters.get<unsigned>() + 1),
               gio::error);
  gpu::stream_sync(stream);
  gpu::stream_destroy(stream);
  unsigned got[2] = {};
  gpu::to_host(got, counters.get(), sizeof got);
  EXPECT_EQ(got[0], grid);
  EXPECT_EQ(got[1], 0u);
}

}  // namespace
}  // namespace gio_test
