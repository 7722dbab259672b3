// RMA from kernels and from the host, byte-exact: every put/get binding (generic template, byte
// form, every typed name from gio::types::rma_types) at every cooperation scope, blocking and
// _nbi, over size classes from 1 B to 1 MiB + 3 and misaligned source/destination offsets;
// shmem_p/g for every type; shmem_ptr; the host-initiated and stream-ordered calls.
// Each PE pair moves data both ways at once; harness.cpp checks every destination byte,
// including that nothing outside the requested range changed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu_runtime.hpp"

#include "rma_families.hpp"

namespace gio_test {
namespace {

std::vector<family> families() {
  std::vector<family> out{{"mem", &run_family_block<mem_rma, unsigned char>}};
  for (auto shard : {rma_shard_0, rma_shard_1, rma_shard_2, rma_shard_3})
    for (auto& f : shard()) out.push_back(f);
  return out;
}

class DeviceRma : public ::testing::TestWithParam<family> {};

TEST_P(DeviceRma, EveryCallScopeSizeAndOffset) { GetParam().run(GetParam().name); }

INSTANTIATE_TEST_SUITE_P(Bindings, DeviceRma, ::testing::ValuesIn(families()),
                         [](const ::testing::TestParamInfo<family>& info) { return info.param.name; });

// ---- shmem_ptr --------------------------------------------------------------------------------
// Plain loads and stores through the address shmem_ptr gave: write the peer's copy, read it back.
__global__ void store_through_kernel(unsigned char* remote, const unsigned char* local, std::size_t n) {
  for (std::size_t i = gio::platform::wg_id() * wg_threads + gio::platform::thread_in_wg(); i < n; i += std::size_t(gio::platform::num_wgs()) * wg_threads)
    remote[i] = local[i];
}

TEST(SymmetricPointer, NonNullAndUsableFromKernels) {
  unsigned char* sym = staging_sym().get();
  unsigned char* local = staging_local().get();
  EXPECT_EQ(gio::shmem_ptr(sym, run().my_pe), sym) << "shmem_ptr to this PE is the address itself";
  auto* remote = static_cast<unsigned char*>(gio::shmem_ptr(sym, run().peer));
  ASSERT_NE(remote, nullptr) << "PE " << run().peer << " shares the node: its heap must be mapped";
  constexpr std::size_t n = (std::size_t(64) << 10) + 5;
  const std::vector<transfer_case> one{{0, 0, n}};
  exchange_and_verify("shmem_ptr stores", local, sym, n + guard, one, [&] {
    store_through_kernel<<<16, wg_threads>>>(remote, local, n);
    gpu::finish_launch("store_through_kernel");
  });
  exchange_and_verify("shmem_ptr loads", sym, local, n + guard, one, [&] {
    store_through_kernel<<<16, wg_threads>>>(local, remote, n);
    gpu::finish_launch("store_through_kernel (loads)");
  });
}

// ---- Host-initiated RMA -----------------------------------------------------------------------
std::vector<transfer_case> host_cases(std::size_t& extent) { return block_cases(1, false, extent); }

TEST(HostRma, PutmemGetmem) {
  std::size_t extent = 0;
  const std::vector<transfer_case> cases = host_cases(extent);
  unsigned char* sym = staging_sym().get();
  unsigned char* local = staging_local().get();
  const int peer = run().peer;
  exchange_and_verify("host shmem_putmem", local, sym, extent, cases, [&] {
    for (const transfer_case& k : cases) gio::shmem_putmem(sym + k.dst, local + k.src, k.bytes, peer);
  });
  exchange_and_verify("host shmem_getmem", sym, local, extent, cases, [&] {
    for (const transfer_case& k : cases) gio::shmem_getmem(local + k.dst, sym + k.src, k.bytes, peer);
  });
}

// The stream forms: after the stream passes shmem_barrier_all_on_stream, every PE's earlier
// stream-ordered puts (completed by its shmem_quiet_on_stream) have landed.
TEST(HostRma, OnStream) {
  std::size_t extent = 0;
  const std::vector<transfer_case> cases = host_cases(extent);
  unsigned char* sym = staging_sym().get();
  unsigned char* local = staging_local().get();
  const int peer = run().peer;
  const gpu::stream_t stream = gpu::stream_create();
  exchange_and_verify("host shmem_putmem_on_stream", local, sym, extent, cases, [&] {
    for (const transfer_case& k : cases) gio::shmem_putmem_on_stream(sym + k.dst, local + k.src, k.bytes, peer, stream);
    gio::shmem_quiet_on_stream(stream);
    gio::shmem_barrier_all_on_stream(stream);
    gpu::stream_sync(stream);
  }, /*then_barrier=*/false);
  exchange_and_verify("host shmem_getmem_on_stream", sym, local, extent, cases, [&] {
    for (const transfer_case& k : cases) gio::shmem_getmem_on_stream(local + k.dst, sym + k.src, k.bytes, peer, stream);
    gpu::stream_sync(stream);
  });
  gpu::stream_destroy(stream);
}

// shmem_barrier_all_on_stream is the kernels' world barrier, with one count: rounds that alternate
// a stream barrier with a kernel calling shmem_barrier_all, and in each round the peer's store
// before the stream barrier must be seen after it. A count out of step between the two forms
// would hang (the ctest timeout) or let a check run before the peer's store (a stale word).
__global__ void store_round_kernel(gio::device_handle h, std::uint64_t* word, std::uint64_t round, int peer) {
  gio::shmem_ctx_uint64_p(gio::ctx_default(h), word, round, peer);
}
__global__ void check_round_kernel(const std::uint64_t* word, std::uint64_t round, unsigned* stale) {
  if (gio::platform::ld_relaxed_sys(word) != round) atomicAdd(stale, 1u);
}
__global__ void kernel_barrier_kernel(gio::device_handle h) { gio::shmem_barrier_all(gio::ctx_default(h)); }

TEST(HostRma, StreamBarrierIsTheKernelsBarrier) {
  sym_buffer word(sizeof(std::uint64_t));
  device_buffer stale(sizeof(unsigned));
  gpu::fill(stale.get(), 0, sizeof(unsigned));
  const gpu::stream_t stream = gpu::stream_create();
  const int rounds = lockstep_rounds();  // GIO_LITMUS_ROUNDS (2000; fewer under the sanitizers)
  // Each of the test's kernels launched once before any of them waits behind the stream barrier:
  // under lazy loading a first launch waits for the GPU's running work, and over the NIC model the
  // barrier's kernel waits for the model's engine kernel (docs/transports.md, "Kernel loading").
  // (The warm-up's check counts into a word nobody reads: the peer's store of 0 may not be there yet.)
  device_buffer ignored(sizeof(unsigned));
  store_round_kernel<<<1, 1, 0, stream>>>(run().handle, word.get<std::uint64_t>(), 0, run().peer);
  check_round_kernel<<<1, 1, 0, stream>>>(word.get<std::uint64_t>(), 0, ignored.get<unsigned>());
  kernel_barrier_kernel<<<1, 1, 0, stream>>>(run().handle);
  gpu::stream_sync(stream);
  gio::shmem_barrier_all();
  for (int r = 1; r <= rounds; ++r) {
    store_round_kernel<<<1, 1, 0, stream>>>(run().handle, word.get<std::uint64_t>(), r, run().peer);
    gio::shmem_barrier_all_on_stream(stream);
    check_round_kernel<<<1, 1, 0, stream>>>(word.get<std::uint64_t>(), r, stale.get<unsigned>());
    kernel_barrier_kernel<<<1, 1, 0, stream>>>(run().handle);  // the peer's next store waits for the check
  }
  gpu::stream_sync(stream);
  unsigned seen = 0;
  gpu::to_host(&seen, stale.get(), sizeof seen);
  EXPECT_EQ(seen, 0u) << "PE " << run().my_pe << ": the peer's store before a stream barrier was not seen after it in "
                      << seen << " of " << rounds << " rounds";
  gpu::stream_destroy(stream);
  gio::shmem_barrier_all();  // the next test may reuse the symmetric word
}

}  // namespace
}  // namespace gio_test
