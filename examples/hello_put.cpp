// The first gio kernel: PE 0's workgroup puts 64 integers into PE 1's symmetric array, fences,
// and raises a flag; PE 1 waits for the flag, after which the data is there.
//
//   mpirun -np 2 ./hello_put
#include <gio/device.hpp>
#include <gio/host.hpp>

#include <cstdint>
#include <cstdio>

namespace {
constexpr int count = 64;

__global__ void hello_kernel(gio::device_handle h, int* data, std::uint64_t* flag) {
  __shared__ gio::ctx storage;
  const gio::ctx& ctx = gio::ctx_create_wg(h, storage);  // the whole workgroup, once
  if (gio::shmem_my_pe(ctx) == 0) {
    __shared__ int values[count];
    for (int i = threadIdx.x; i < count; i += blockDim.x) values[i] = 100 + i;
    __syncthreads();  // a group call may read any part of its source
    gio::shmem_put_wg(ctx, data, values, count, 1);
    if (threadIdx.x == 0) {
      gio::shmem_fence(ctx);  // the data reaches PE 1 before the flag
      gio::shmem_p(ctx, flag, std::uint64_t{1}, 1);
    }
  } else if (gio::shmem_my_pe(ctx) == 1 && threadIdx.x == 0) {
    gio::shmem_wait_until(ctx, flag, gio::SHMEM_CMP_EQ, std::uint64_t{1});
  }
}
}  // namespace

int main() {
  gio::shmem_init();
  const int me = gio::shmem_my_pe(), pes = gio::shmem_n_pes();
  auto* data = static_cast<int*>(gio::shmem_calloc(count, sizeof(int)));
  auto* flag = static_cast<std::uint64_t*>(gio::shmem_calloc(1, sizeof(std::uint64_t)));
  if (pes >= 2) hello_kernel<<<1, 128>>>(gio::shmem_device_handle(), data, flag);
  gio::shmem_barrier_all();  // quiets this PE's GPU work (the kernel has finished), then syncs
  int wrong = 0;
  if (me == 1) {
    int got[count];
    gio::shmem_getmem(got, data, sizeof got, me);
    for (int i = 0; i < count; ++i) wrong += got[i] != 100 + i;
    std::printf("hello_put: PE 1 received %d of %d integers from PE 0\n", count - wrong, count);
  }
  if (pes < 2 && me == 0) std::printf("hello_put: run with mpirun -np 2\n");
  gio::shmem_free(flag);
  gio::shmem_free(data);
  gio::shmem_finalize();
  return wrong == 0 && pes >= 2 ? 0 : 1;  // (no gio call after finalize)
}
