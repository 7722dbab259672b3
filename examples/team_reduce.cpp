// A device reduction in a team: the even PEs form a team (split on the host), and a workgroup on
// each of them sums a vector over the team inside a kernel; every member gets the same result.
//
//   mpirun -np 4 ./team_reduce
#include <gio/device.hpp>
#include <gio/host.hpp>

#include <cstdio>
#include <vector>

namespace {
constexpr int count = 1000;

__global__ void team_sum_kernel(gio::device_handle h, gio::shmem_team_t evens, long* sums, long* mine) {
  __shared__ gio::ctx storage;
  const gio::ctx& ctx = gio::ctx_create_wg(h, storage, evens);  // PEs numbered as in the team
  const int rank = gio::shmem_team_my_pe(ctx, evens);
  if (rank < 0) return;  // not a member
  for (int i = threadIdx.x; i < count; i += blockDim.x) mine[i] = rank + i;
  __syncthreads();
  gio::shmem_long_sum_reduce_wg(ctx, evens, sums, mine, count);
}
}  // namespace

int main() {
  gio::shmem_init();
  const int me = gio::shmem_my_pe(), pes = gio::shmem_n_pes();
  const int members = (pes + 1) / 2;
  gio::shmem_team_t evens = gio::SHMEM_TEAM_INVALID;
  gio::shmem_team_split_strided(gio::SHMEM_TEAM_WORLD, 0, 2, members, nullptr, 0, &evens);
  auto* sums = static_cast<long*>(gio::shmem_malloc(count * sizeof(long)));
  auto* mine = static_cast<long*>(gio::shmem_malloc(count * sizeof(long)));
  team_sum_kernel<<<1, 256>>>(gio::shmem_device_handle(), evens, sums, mine);
  gio::shmem_barrier_all();
  int wrong = 0;
  if (evens != gio::SHMEM_TEAM_INVALID) {
    std::vector<long> got(count);
    gio::shmem_getmem(got.data(), sums, count * sizeof(long), me);
    const long ranks = static_cast<long>(members) * (members - 1) / 2;  // 0 + 1 + ... + (members - 1)
    for (int i = 0; i < count; ++i) wrong += got[i] != ranks + static_cast<long>(members) * i;
    std::printf("team_reduce: PE %d (team PE %d of %d): %d of %d sums right\n", me,
                gio::shmem_team_my_pe(evens), members, count - wrong, count);
  }
  gio::shmem_team_destroy(evens);
  gio::shmem_free(mine);
  gio::shmem_free(sums);
  gio::shmem_finalize();
  return wrong == 0 ? 0 : 1;
}
