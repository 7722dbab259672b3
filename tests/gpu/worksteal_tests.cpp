// What in-kernel work stealing needs from gio (MGWS thesis §4-5), exercised the way a stealer
// uses it: every workgroup of every PE steals chunks of its partner's task array.
//  * a 64-bit fetch_add returning the packed old word (high half: the steal index, low half: a
//    tag that must come back unchanged);
//  * a workgroup-cooperative get whose destination is ordinary shared memory (LDS) or ordinary
//    global memory, not symmetric;
//  * an atomic fetch used as a remote atomic load, fetch_or on a remote bit mask, and
//    compare_swap electing exactly one workgroup.
// Every chunk must be stolen exactly once and arrive intact.
#include <cstdint>
#include <vector>

#include "gio/device.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

constexpr unsigned chunks = 512;        // tasks per PE, in chunks of chunk_ints
constexpr unsigned chunk_ints = 96;     // 384 bytes: not a multiple of the workgroup size
constexpr unsigned stealers = 96;       // workgroups per PE
constexpr unsigned stealer_threads = 128;
constexpr std::uint64_t tag = 0x5a5a1234u;  // low half of the queue word

// Layout of the symmetric words of one PE.
struct queue_words {
  std::uint64_t next;       // packed: (next chunk index << 32) | tag
  std::uint64_t done_mask;  // bit (wg % 64) set by the stealers that finished
  std::uint64_t owner;      // 0, then the 1 + workgroup id of the elected stealer
};

GIO_HOST_DEVICE int task_value(int pe, unsigned index) { return static_cast<int>(pe * 1000003u + index * 7u + 1u); }

struct steal_counts {
  std::uint32_t claimed[chunks];  // how often each chunk of the partner was stolen
  std::uint32_t bad_words;        // elements that arrived wrong (shared-memory gets)
  std::uint32_t bad_global;       // elements that arrived wrong (global-memory gets)
  std::uint32_t bad_tag;          // packed words whose low half changed
  std::uint32_t elected;          // workgroups whose compare_swap won
  std::uint64_t mask_seen;        // the remote mask as one atomic fetch saw it at the end
};

__global__ void __launch_bounds__(stealer_threads)
    steal_kernel(gio::device_handle h, queue_words* words, const int* tasks, int* global_scratch, int peer,
                 steal_counts* out) {
  __shared__ gio::ctx storage;
  __shared__ int chunk[chunk_ints];
  __shared__ std::uint64_t packed;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  const unsigned wg = gio::platform::wg_id();
  const bool leader = threadIdx.x == 0;
  int* my_global = global_scratch + wg * chunk_ints;
  for (;;) {
    if (leader) packed = gio::shmem_ctx_uint64_atomic_fetch_add(c, &words->next, std::uint64_t{1} << 32, peer);
    __syncthreads();
    const std::uint64_t old = packed;
    const unsigned index = static_cast<unsigned>(old >> 32);
    if (leader && (old & 0xffffffffu) != tag) atomicAdd(&out->bad_tag, 1u);
    if (index >= chunks) break;
    // The whole workgroup fetches the chunk into shared memory, then into ordinary global memory.
    gio::shmem_get_wg(c, chunk, tasks + index * chunk_ints, chunk_ints, peer);
    gio::shmem_get_wg(c, my_global, tasks + index * chunk_ints, chunk_ints, peer);
    for (unsigned i = threadIdx.x; i < chunk_ints; i += blockDim.x) {
      if (chunk[i] != task_value(peer, index * chunk_ints + i)) atomicAdd(&out->bad_words, 1u);
      if (my_global[i] != task_value(peer, index * chunk_ints + i)) atomicAdd(&out->bad_global, 1u);
    }
    if (leader) atomicAdd(&out->claimed[index], 1u);
    __syncthreads();  // `chunk` and `packed` are reused by the next steal
  }
  if (leader) {
    gio::shmem_ctx_uint64_atomic_fetch_or(c, &words->done_mask, std::uint64_t{1} << (wg % 64), peer);
    if (gio::shmem_ctx_uint64_atomic_compare_swap(c, &words->owner, 0, wg + 1, peer) == 0) atomicAdd(&out->elected, 1u);
  }
}

// After every stealer finished (a grid-wide condition): one atomic fetch of the remote mask.
__global__ void read_mask_kernel(gio::device_handle h, queue_words* words, int peer, steal_counts* out) {
  out->mask_seen = gio::shmem_ctx_uint64_atomic_fetch(gio::ctx_default(h), &words->done_mask, peer);
}

TEST(WorkStealing, PackedFetchAddCooperativeGetsIntoSharedAndGlobalMemory) {
  const run_info& r = run();
  sym_buffer words_buf(sizeof(queue_words));
  sym_buffer tasks_buf(sizeof(int) * chunks * chunk_ints);
  device_buffer scratch(sizeof(int) * chunk_ints * stealers);
  device_buffer counts(sizeof(steal_counts));
  auto* words = words_buf.get<queue_words>();

  std::vector<int> tasks(chunks * chunk_ints);
  for (unsigned i = 0; i < tasks.size(); ++i) tasks[i] = task_value(r.my_pe, i);
  gpu::to_device(tasks_buf.get(), tasks.data(), sizeof(int) * tasks.size());
  const queue_words start{tag, 0, 0};
  gpu::to_device(words, &start, sizeof start);
  gpu::fill(counts.get(), 0, sizeof(steal_counts));
  gio::shmem_barrier_all();  // every queue is set up before anyone steals from it

  steal_kernel<<<stealers, stealer_threads>>>(r.handle, words, tasks_buf.get<int>(), scratch.get<int>(), r.peer,
                                             counts.get<steal_counts>());
  gpu::finish_launch("steal_kernel");
  gio::shmem_barrier_all();  // every stealer of every PE is done
  read_mask_kernel<<<1, 1>>>(r.handle, words, r.peer, counts.get<steal_counts>());
  gpu::finish_launch("read_mask_kernel");

  steal_counts seen{};
  gpu::to_host(&seen, counts.get(), sizeof seen);
  for (unsigned i = 0; i < chunks; ++i) EXPECT_EQ(seen.claimed[i], 1u) << "chunk " << i << " of PE " << r.peer;
  EXPECT_EQ(seen.bad_words, 0u) << "elements wrong after shmem_get_wg into shared memory";
  EXPECT_EQ(seen.bad_global, 0u) << "elements wrong after shmem_get_wg into global memory";
  EXPECT_EQ(seen.bad_tag, 0u) << "the packed word's low half changed";
  EXPECT_EQ(seen.elected, 1u) << "compare_swap must elect exactly one stealer of this PE";
  const std::uint64_t all_bits = stealers >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << stealers) - 1;
  EXPECT_EQ(seen.mask_seen, all_bits) << "fetch_or bits seen through an atomic fetch";

  // This PE's own queue, as its partner's stealers left it.
  queue_words end{};
  gpu::to_host(&end, words, sizeof end);
  EXPECT_EQ(end.next & 0xffffffffu, tag);
  EXPECT_EQ(end.next >> 32, chunks + stealers) << "one fetch_add per steal plus one failed steal per workgroup";
  EXPECT_GE(end.owner, 1u);
  EXPECT_LE(end.owner, stealers);
  gio::shmem_barrier_all();  // nobody frees the buffers while a partner still reads them
}

}  // namespace
}  // namespace gio_test
