// Device calls added with issue 26: the stand-alone signal update (shmem_signal_set / _add /
// _op), shmem_ptr, strided RMA (shmem_iput / shmem_iget), shmem_collect and shmem_alltoalls.
//
// Signal litmus: PE p's writer thread stores round r's value into every word of its peer's
// payload with shmem_p, then updates the peer's signal (SET to r + 1, or ADD 1) with the signal
// call alone; the peer's reader thread acquires the signal (shmem_signal_wait_until), checks
// every payload word (an older round's value is a violation, and so is a signal value other than
// the expected one), and acknowledges with shmem_p into the writer's ack word, which the writer
// waits for before the next round. Both PEs write and read at once, in two warps of one block.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gio/device.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"
#include "test_teams.hpp"

namespace gio_test {
namespace {

constexpr int payload_words = 32;

struct signal_litmus_args {
  std::uint64_t* payload;  // symmetric: payload_words
  std::uint64_t* signal;   // symmetric
  std::uint64_t* ack;      // symmetric
  std::uint32_t* violations;
  int rounds;
  int sig_op;
  int peer;
};

__global__ void signal_litmus_kernel(gio::device_handle h, signal_litmus_args a) {
  const gio::ctx c = gio::ctx_default(h);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane != 0) return;
  std::uint32_t bad = 0;
  for (int r = 0; r < a.rounds; ++r) {
    const std::uint64_t value = static_cast<std::uint64_t>(r) + 1;
    if (warp == 0) {  // writer: the payload, then the signal alone
      gio::shmem_wait_until(c, a.ack, gio::SHMEM_CMP_GE, static_cast<std::uint64_t>(r));
      for (int w = 0; w < payload_words; ++w) gio::shmem_p(c, a.payload + w, value * 1000 + w, a.peer);
      if (a.sig_op == gio::SHMEM_SIGNAL_ADD)
        gio::shmem_signal_add(c, a.signal, 1, a.peer);
      else if (r % 2 == 0)
        gio::shmem_signal_set(c, a.signal, value, a.peer);
      else
        gio::shmem_signal_op(c, a.signal, value, gio::SHMEM_SIGNAL_SET, a.peer);
    } else {  // reader: acquire the signal, check the payload, acknowledge
      const std::uint64_t seen = gio::shmem_signal_wait_until(c, a.signal, gio::SHMEM_CMP_GE, value);
      bad += seen != value;
      for (int w = 0; w < payload_words; ++w) bad += a.payload[w] != value * 1000 + w;
      gio::shmem_p(c, a.ack, value, a.peer);
    }
  }
  a.violations[warp] = bad;
}

class SignalOpLitmus : public ::testing::TestWithParam<int> {};

TEST_P(SignalOpLitmus, ObservedSignalMeansEarlierPuts) {
  const int rounds = lockstep(litmus_rounds());
  sym_buffer payload(payload_words * sizeof(std::uint64_t)), signal(sizeof(std::uint64_t)), ack(sizeof(std::uint64_t));
  device_buffer violations(2 * sizeof(std::uint32_t));
  gpu::fill(violations.get(), 0, violations.size());
  gio::shmem_barrier_all();
  const signal_litmus_args a{payload.get<std::uint64_t>(), signal.get<std::uint64_t>(), ack.get<std::uint64_t>(),
                             violations.get<std::uint32_t>(), rounds, GetParam(), run().peer};
  signal_litmus_kernel<<<1, 64>>>(run().handle, a);
  gpu::finish_launch("signal_litmus_kernel");
  gio::shmem_barrier_all();
  EXPECT_EQ(sum_counters(violations.get<std::uint32_t>(), 2), 0u)
      << rounds << " rounds with " << (GetParam() == gio::SHMEM_SIGNAL_ADD ? "shmem_signal_add" : "shmem_signal_set/op");
  std::uint64_t final_signal = 0;
  gpu::to_host(&final_signal, signal.get(), sizeof final_signal);
  EXPECT_EQ(final_signal, static_cast<std::uint64_t>(rounds)) << "the last round's signal";
}

INSTANTIATE_TEST_SUITE_P(MemoryModel, SignalOpLitmus, ::testing::Values(gio::SHMEM_SIGNAL_SET, gio::SHMEM_SIGNAL_ADD),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == gio::SHMEM_SIGNAL_ADD ? "add" : "set");
                         });

// The device's shmem_ptr names the same mapping as the host's, for every PE: the PE's own
// address for itself, a peer's mapped heap, and nullptr where only the NIC reaches.
__global__ void device_pointers_kernel(gio::device_handle h, const unsigned char* sym, void** out, int pes) {
  const gio::ctx c = gio::ctx_default(h);
  for (int pe = threadIdx.x; pe < pes; pe += blockDim.x) out[pe] = gio::shmem_ptr(c, sym + 8, pe);
}

TEST(SymmetricPointer, DeviceAndHostAgreeForEveryPE) {
  unsigned char* sym = staging_sym().get();
  const int pes = run().n_pes;
  device_buffer out(pes * sizeof(void*));
  device_pointers_kernel<<<1, 64>>>(run().handle, sym, out.get<void*>(), pes);
  gpu::finish_launch("device_pointers_kernel");
  std::vector<void*> device(pes);
  gpu::to_host(device.data(), out.get(), pes * sizeof(void*));
  for (int pe = 0; pe < pes; ++pe) EXPECT_EQ(device[pe], gio::shmem_ptr(sym + 8, pe)) << "PE " << pe;
  EXPECT_EQ(device[run().my_pe], sym + 8) << "this PE's own address";
}

// Strided RMA: the workgroup puts every second element of a local array into every third slot
// of the peer's symmetric array (generic form); one thread gets them back with the sized form.
constexpr std::size_t strided_count = 1000;

__global__ void strided_kernel(gio::device_handle h, long* slots, const long* local, long* back, int peer) {
  __shared__ gio::ctx storage;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  gio::shmem_iput_wg(c, slots, local, 3, 2, strided_count, peer);
  if (threadIdx.x == 0) {
    gio::shmem_quiet(c);
    gio::shmem_ctx_iget64(c, back, slots, 1, 3, strided_count, peer);  // what this PE put there
  }
}

TEST(DeviceStrided, IputAndIgetMoveEveryStrideElement) {
  static_assert(sizeof(long) == 8, "shmem_ctx_iget64 reads longs here");
  const int me = run().my_pe, peer = run().peer;
  sym_buffer slots(3 * strided_count * sizeof(long));
  device_buffer local(2 * strided_count * sizeof(long)), back(strided_count * sizeof(long));
  std::vector<long> mine(2 * strided_count);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = me * 1000000L + static_cast<long>(i);
  gpu::to_device(local.get(), mine.data(), local.size());
  gio::shmem_barrier_all();
  strided_kernel<<<1, 128>>>(run().handle, slots.get<long>(), local.get<long>(), back.get<long>(), peer);
  gpu::finish_launch("strided_kernel");
  gio::shmem_barrier_all();  // the peer's puts have landed here
  std::vector<long> got(3 * strided_count), fetched(strided_count);
  gpu::to_host(got.data(), slots.get(), slots.size());
  gpu::to_host(fetched.data(), back.get(), back.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < strided_count; ++i) {
    wrong += got[3 * i] != peer * 1000000L + static_cast<long>(2 * i);
    wrong += got[3 * i + 1] != 0 || got[3 * i + 2] != 0;  // between the strides: untouched
    wrong += fetched[i] != mine[2 * i];
  }
  EXPECT_EQ(wrong, 0u) << "of " << strided_count << " elements put, left alone and fetched";
}

// shmem_collect on every test team, rounds back to back with counts that differ per PE and per
// round (zero included), so a round's count words are rewritten while peers may still be leaving
// the round before; the workgroup form (generic) and the thread form (typed) in turn.
constexpr int collect_rounds = 6;
constexpr std::size_t collect_max_count = 4;
GIO_HOST_DEVICE std::size_t collect_count(int team_pe, int round) { return (3 * team_pe + round) % 5 % 4; }
GIO_HOST_DEVICE long collect_value(int world_pe, int round, std::size_t k) {
  return world_pe * 100000L + round * 100L + static_cast<long>(k);
}

struct collect_args {
  gio::shmem_team_t team;
  long* dest;          // symmetric: collect_rounds x capacity
  const long* source;  // symmetric: collect_rounds x collect_max_count
  std::size_t capacity;
  int team_pe;
};

__global__ void collect_kernel(gio::device_handle h, collect_args a) {
  const gio::ctx c = gio::ctx_default(h);
  for (int r = 0; r < collect_rounds; ++r) {
    long* dest = a.dest + r * a.capacity;
    const long* source = a.source + r * collect_max_count;
    const std::size_t count = collect_count(a.team_pe, r);
    if (r % 2 == 0)
      gio::shmem_collect_wg(c, a.team, dest, source, count);
    else if (threadIdx.x == 0)
      gio::shmem_long_collect(c, a.team, dest, source, count);
    __syncthreads();
  }
}

TEST(DeviceCollect, ConcatenatesEveryMembersCountInTeamOrder) {
  scoped_teams teams;
  const int me = run().my_pe;
  const std::size_t capacity = collect_max_count * run().n_pes;
  sym_buffer dest(collect_rounds * capacity * sizeof(long)), source(collect_rounds * collect_max_count * sizeof(long));
  std::vector<long> mine(collect_rounds * collect_max_count);
  for (int r = 0; r < collect_rounds; ++r)
    for (std::size_t k = 0; k < collect_max_count; ++k) mine[r * collect_max_count + k] = collect_value(me, r, k);
  gpu::to_device(source.get(), mine.data(), source.size());
  for (const test_team& t : teams.get()) {
    gpu::fill(dest.get(), 0xff, dest.size());
    gio::shmem_barrier_all();
    if (t.member()) {
      collect_kernel<<<1, 128>>>(run().handle, {t.team, dest.get<long>(), source.get<long>(), capacity, t.my_team_pe()});
      gpu::finish_launch("collect_kernel");
    }
    gio::shmem_barrier_all();
    if (!t.member()) continue;
    std::vector<long> got(collect_rounds * capacity);
    gpu::to_host(got.data(), dest.get(), dest.size());
    std::size_t wrong = 0;
    for (int r = 0; r < collect_rounds; ++r) {
      std::size_t at = 0;
      for (int i = 0; i < t.size; ++i)
        for (std::size_t k = 0; k < collect_count(i, r); ++k) wrong += got[r * capacity + at++] != collect_value(t.world_of(i), r, k);
      for (; at < capacity; ++at) wrong += got[r * capacity + at] != -1;  // past the total: untouched
    }
    EXPECT_EQ(wrong, 0u) << "team " << t.name << " (" << t.size << " PEs), " << collect_rounds << " rounds";
  }
}

// shmem_alltoalls on every test team: block j of source, every second element, to member j,
// where it lands at this PE's block, every third element; the workgroup form (generic) and the
// thread form (typed) in turn.
constexpr std::size_t alltoalls_count = 5;
constexpr std::ptrdiff_t alltoalls_dst = 3, alltoalls_sst = 2;

__global__ void alltoalls_kernel(gio::device_handle h, gio::shmem_team_t team, long* dest, const long* source,
                                 bool workgroup) {
  const gio::ctx c = gio::ctx_default(h);
  if (workgroup)
    gio::shmem_alltoalls_wg(c, team, dest, source, alltoalls_dst, alltoalls_sst, alltoalls_count);
  else if (threadIdx.x == 0)
    gio::shmem_long_alltoalls(c, team, dest, source, alltoalls_dst, alltoalls_sst, alltoalls_count);
}

TEST(DeviceAlltoalls, StridedBlocksReachEveryMember) {
  scoped_teams teams;
  const int me = run().my_pe, pes = run().n_pes;
  const std::size_t dest_elems = pes * alltoalls_count * alltoalls_dst, source_elems = pes * alltoalls_count * alltoalls_sst;
  sym_buffer dest(dest_elems * sizeof(long)), source(source_elems * sizeof(long));
  for (bool workgroup : {true, false}) {
    for (const test_team& t : teams.get()) {
      // Block j, element k of this PE's source: who sends it, to which team PE, which element.
      std::vector<long> mine(source_elems, -2);
      for (int j = 0; j < t.size; ++j)
        for (std::size_t k = 0; k < alltoalls_count; ++k)
          mine[(j * alltoalls_count + k) * alltoalls_sst] = me * 10000L + j * 100L + static_cast<long>(k);
      gpu::to_device(source.get(), mine.data(), source.size());
      gpu::fill(dest.get(), 0xff, dest.size());
      gio::shmem_barrier_all();
      if (t.member()) {
        alltoalls_kernel<<<1, 128>>>(run().handle, t.team, dest.get<long>(), source.get<long>(), workgroup);
        gpu::finish_launch("alltoalls_kernel");
      }
      gio::shmem_barrier_all();
      if (!t.member()) continue;
      std::vector<long> got(dest_elems);
      gpu::to_host(got.data(), dest.get(), dest.size());
      std::size_t wrong = 0;
      for (std::size_t e = 0; e < dest_elems; ++e) {
        const std::size_t element = e / alltoalls_dst, i = element / alltoalls_count, k = element % alltoalls_count;
        const bool written = e % alltoalls_dst == 0 && i < static_cast<std::size_t>(t.size);
        const long expected =
            written ? t.world_of(static_cast<int>(i)) * 10000L + t.my_team_pe() * 100L + static_cast<long>(k) : -1;
        wrong += got[e] != expected;
      }
      EXPECT_EQ(wrong, 0u) << "team " << t.name << " (" << t.size << " PEs), " << (workgroup ? "workgroup" : "thread");
    }
  }
}

}  // namespace
}  // namespace gio_test
