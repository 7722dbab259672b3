// A persistent kernel: as many workgroups as can be resident at once (gio::launch_collective
// checks that they are), iterating without returning to the host. In each iteration every
// workgroup adds 1 to a counter on the next PE; then the workgroups of this PE meet (they wait
// for each other, which is why they must all be resident), workgroup 0 joins the other PEs in a
// device barrier, and releases its workgroups into the next iteration.
//
//   mpirun -np 2 ./persistent_kernel
#include <gio/device.hpp>
#include <gio/host.hpp>
#include <gio/launch.hpp>

#include <cstdint>
#include <cstdio>

namespace {
constexpr int iterations = 100, threads = 128;

// counters[0]: additions from the previous PE; [1]: this PE's workgroups arrived; [2]: iterations
// released.
__global__ void iterate_kernel(gio::device_handle h, std::uint64_t* counters) {
  __shared__ gio::ctx storage;
  const gio::ctx& ctx = gio::ctx_create_wg(h, storage);
  const int me = gio::shmem_my_pe(ctx), next = (me + 1) % gio::shmem_n_pes(ctx);
  const std::uint64_t workgroups = gridDim.x;
  for (std::uint64_t it = 1; it <= iterations; ++it) {
    if (threadIdx.x == 0) {
      gio::shmem_atomic_add(ctx, counters, std::uint64_t{1}, next);
      gio::shmem_quiet(ctx);                                            // the addition is done
      gio::shmem_atomic_add(ctx, counters + 1, std::uint64_t{1}, me);  // and this workgroup is here
      if (blockIdx.x == 0) {
        gio::shmem_wait_until(ctx, counters + 1, gio::SHMEM_CMP_GE, it * workgroups);
        gio::shmem_barrier_all(ctx);  // every PE's workgroups have added
        gio::shmem_atomic_set(ctx, counters + 2, it, me);
      }
      gio::shmem_wait_until(ctx, counters + 2, gio::SHMEM_CMP_GE, it);
    }
    __syncthreads();
  }
}
}  // namespace

int main() {
  gio::shmem_init();
  const int me = gio::shmem_my_pe();
  auto* counters = static_cast<std::uint64_t*>(gio::shmem_calloc(3, sizeof(std::uint64_t)));
  const int workgroups = gio::max_coresident_wgs(iterate_kernel, threads);
  // Every PE adds as many times as it has workgroups; PEs on other GPUs may have other counts.
  auto* sizes = static_cast<int*>(gio::shmem_malloc(sizeof(int)));
  gio::shmem_int_p(sizes, workgroups, me);
  gio::launch_collective(iterate_kernel, dim3(workgroups), dim3(threads), 0, nullptr, gio::shmem_device_handle(),
                         counters);
  gio::shmem_barrier_all();
  const int previous = (me + gio::shmem_n_pes() - 1) % gio::shmem_n_pes();
  const std::uint64_t expected = static_cast<std::uint64_t>(iterations) * gio::shmem_int_g(sizes, previous);
  const std::uint64_t got = gio::shmem_uint64_g(counters, me);
  std::printf("persistent_kernel: PE %d ran %d workgroups x %d iterations; %llu of %llu additions arrived\n", me,
              workgroups, iterations, static_cast<unsigned long long>(got), static_cast<unsigned long long>(expected));
  gio::shmem_free(sizes);
  gio::shmem_free(counters);
  gio::shmem_finalize();
  return got == expected ? 0 : 1;
}
