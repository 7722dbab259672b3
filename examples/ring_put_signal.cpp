// A ring of notified puts (dCUDA's notified RMA): in each round every PE puts a block to the next
// PE together with a signal increment, and waits for the signal of its own block from the
// previous PE before the next round. Each round uses its own slot of the inbox.
//
//   mpirun -np 4 ./ring_put_signal
#include <gio/device.hpp>
#include <gio/host.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {
constexpr int block = 256, rounds = 8;

__device__ long value_of(int pe, int round, int i) { return pe * 1000000L + round * 1000L + i; }

__global__ void ring_kernel(gio::device_handle h, long* inbox, std::uint64_t* signal) {
  __shared__ gio::ctx storage;
  __shared__ long outbox[block];
  const gio::ctx& ctx = gio::ctx_create_wg(h, storage);
  const int me = gio::shmem_my_pe(ctx), next = (me + 1) % gio::shmem_n_pes(ctx);
  for (int round = 0; round < rounds; ++round) {
    for (int i = threadIdx.x; i < block; i += blockDim.x) outbox[i] = value_of(me, round, i);
    __syncthreads();
    // The block, then next's signal word increased by 1: whoever sees the increase sees the block.
    gio::shmem_put_signal_wg(ctx, inbox + round * block, outbox, block, signal, 1, gio::SHMEM_SIGNAL_ADD, next);
    if (threadIdx.x == 0) gio::shmem_signal_wait_until(ctx, signal, gio::SHMEM_CMP_GE, round + 1);
    __syncthreads();  // outbox is rewritten only after the round's block has arrived here
  }
}
}  // namespace

int main() {
  gio::shmem_init();
  const int me = gio::shmem_my_pe(), pes = gio::shmem_n_pes(), previous = (me + pes - 1) % pes;
  auto* inbox = static_cast<long*>(gio::shmem_calloc(rounds * block, sizeof(long)));
  auto* signal = static_cast<std::uint64_t*>(gio::shmem_calloc(1, sizeof(std::uint64_t)));
  ring_kernel<<<1, 256>>>(gio::shmem_device_handle(), inbox, signal);
  gio::shmem_barrier_all();
  std::vector<long> got(rounds * block);
  gio::shmem_getmem(got.data(), inbox, got.size() * sizeof(long), me);
  int wrong = 0;
  for (int round = 0; round < rounds; ++round)
    for (int i = 0; i < block; ++i) wrong += got[round * block + i] != previous * 1000000L + round * 1000L + i;
  std::printf("ring_put_signal: PE %d got %d rounds of %d values from PE %d, %d wrong\n", me, rounds, block,
              previous, wrong);
  gio::shmem_free(signal);
  gio::shmem_free(inbox);
  gio::shmem_finalize();
  return wrong == 0 ? 0 : 1;
}
