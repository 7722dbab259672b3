// The host API across processes (mpirun -np N). In a GIO_GPU=none build every heap is POSIX
// shared memory mapped by its node-local peers, so puts, gets and shmem_ptr really move data
// between processes. Every test runs on every PE and makes the same collective calls in the
// same order; checks use EXPECT (not ASSERT) before barriers so a failing PE never leaves the
// others waiting.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gio/host.hpp"
#include "mp_test_support.hpp"

namespace gio {
namespace {

// Small on purpose: the exhaustion test must be able to ask for more than there is.
constexpr std::size_t heap_size = 1u << 20;
constexpr const char* heap_size_text = "1M";

// A symmetric array of every PE's view of some values: each PE fills its row locally, and
// rows() reads every PE's row with shmem_getmem.
class symmetric_table {
 public:
  explicit symmetric_table(std::size_t columns)
      : columns_(columns), mine_(static_cast<std::int64_t*>(shmem_calloc(columns, sizeof(std::int64_t)))) {}
  ~symmetric_table() { shmem_free(mine_); }
  std::int64_t* mine() { return mine_; }
  std::vector<std::vector<std::int64_t>> rows() {
    shmem_barrier_all();  // every PE has filled its row
    std::vector<std::vector<std::int64_t>> all(shmem_n_pes(), std::vector<std::int64_t>(columns_));
    for (int pe = 0; pe < shmem_n_pes(); ++pe) shmem_getmem(all[pe].data(), mine_, columns_ * sizeof(std::int64_t), pe);
    shmem_barrier_all();  // nobody frees or refills before everyone has read
    return all;
  }

 private:
  std::size_t columns_;
  std::int64_t* mine_;
};

unsigned char pattern_byte(int pe, std::size_t i) { return static_cast<unsigned char>(pe * 37 + i * 7 + 1); }

TEST(MpHost, InitializedWithLauncherRankAndSize) {
  EXPECT_TRUE(shmem_initialized());
  EXPECT_EQ(shmem_my_pe(), mp_test::launcher_rank());
  EXPECT_EQ(shmem_n_pes(), mp_test::launcher_size());
  EXPECT_GE(shmem_n_pes(), 2) << "run these tests under mpirun -np 2 or more";
}

TEST(MpHost, CollectiveAllocationsHaveTheSameOffsetOnEveryPE) {
  const std::size_t sizes[] = {8, 1000, 4096, 3, 65536, 256};
  std::vector<void*> blocks;
  for (std::size_t size : sizes) blocks.push_back(shmem_malloc(size));
  blocks.push_back(shmem_align(4096, 10));
  blocks.push_back(shmem_calloc(10, 24));
  {
    symmetric_table offsets(blocks.size());
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      EXPECT_NE(blocks[i], nullptr) << "block " << i;
      offsets.mine()[i] = static_cast<char*>(blocks[i]) - static_cast<char*>(blocks[0]);
    }
    const auto all = offsets.rows();
    for (int pe = 0; pe < shmem_n_pes(); ++pe) EXPECT_EQ(all[pe], all[shmem_my_pe()]) << "PE " << pe;
  }
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) shmem_free(*it);
}

TEST(MpHost, CallocZeroesReusedMemory) {
  constexpr std::size_t bytes = 8192;
  auto* dirty = static_cast<unsigned char*>(shmem_malloc(bytes));
  ASSERT_NE(dirty, nullptr);
  std::memset(dirty, 0xA5, bytes);
  shmem_free(dirty);
  auto* zeroed = static_cast<unsigned char*>(shmem_calloc(bytes / 8, 8));
  ASSERT_NE(zeroed, nullptr);
  EXPECT_EQ(zeroed, dirty) << "first fit reuses the block, so calloc must have cleared it";
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < bytes; ++i) nonzero += zeroed[i] != 0;
  EXPECT_EQ(nonzero, 0u);
  shmem_free(zeroed);
}

TEST(MpHost, AlignHonoursAlignment) {
  void* skew = shmem_malloc(1);  // so that an aligned block cannot be aligned by accident
  for (std::size_t alignment : {std::size_t{512}, std::size_t{4096}, std::size_t{65536}}) {
    void* p = shmem_align(alignment, 100);
    ASSERT_NE(p, nullptr) << alignment;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u) << alignment;
    shmem_free(p);
  }
  EXPECT_EQ(shmem_align(48, 100), nullptr) << "48 is not a power of two";
  shmem_free(skew);
}

TEST(MpHost, FreedMemoryIsReused) {
  void* first = shmem_malloc(10000);
  ASSERT_NE(first, nullptr);
  shmem_free(first);
  void* second = shmem_malloc(10000);
  EXPECT_EQ(second, first);
  shmem_free(second);
}

TEST(MpHost, ExhaustionReturnsNullOnEveryPEAndTheHeapStaysUsable) {
  EXPECT_EQ(shmem_malloc(2 * heap_size), nullptr);
  EXPECT_EQ(shmem_calloc(heap_size, 4), nullptr);
  void* p = shmem_malloc(heap_size / 2);
  EXPECT_NE(p, nullptr) << "a failed allocation must not leak heap";
  shmem_free(p);
}

// A count x size that overflows is not an allocation on any PE, and the call stays collective:
// every PE gets nullptr and nobody is left waiting.
TEST(MpHost, CallocOverflowReturnsNullOnEveryPE) {
  EXPECT_EQ(shmem_calloc(SIZE_MAX, 2), nullptr);
  void* after = shmem_malloc(64);  // still in step with the other PEs
  EXPECT_NE(after, nullptr);
  shmem_free(after);
}

// Freeing memory that shmem_malloc did not return is an error on the PE that did it, reported
// after the collective part of shmem_free, so the PEs that freed correctly are not left waiting.
TEST(MpHost, FreeingAForeignPointerFailsWithoutHangingThePeers) {
  int local = 0;
  const bool culprit = shmem_my_pe() == shmem_n_pes() - 1;
  try {
    shmem_free(culprit ? static_cast<void*>(&local) : nullptr);
    EXPECT_FALSE(culprit) << "freeing a non-symmetric pointer must throw";
  } catch (const error& e) {
    // The culprit always throws; in checked builds the others report the mismatched call too.
    EXPECT_EQ(e.pe(), shmem_my_pe());
    if (culprit) EXPECT_NE(std::string(e.what()).find("shmem_free"), std::string::npos) << e.what();
  }
  shmem_barrier_all();  // reached by every PE: nothing hung
}

TEST(MpHost, PutRingDeliversToTheNextPE) {
  for (std::size_t bytes : {std::size_t{1}, std::size_t{1000}, std::size_t{256 * 1024 + 5}}) {
    SCOPED_TRACE(bytes);
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int next = (me + 1) % n, previous = (me + n - 1) % n;
    auto* inbox = static_cast<unsigned char*>(shmem_calloc(bytes, 1));
    ASSERT_NE(inbox, nullptr);
    std::vector<unsigned char> mine(bytes);
    for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern_byte(me, i);

    shmem_putmem(inbox, mine.data(), bytes, next);
    shmem_barrier_all();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < bytes; ++i) wrong += inbox[i] != pattern_byte(previous, i);
    EXPECT_EQ(wrong, 0u) << "bytes from PE " << previous;

    std::vector<unsigned char> fetched(bytes);
    shmem_getmem(fetched.data(), inbox, bytes, next);  // what this PE put there
    EXPECT_EQ(fetched, mine);
    shmem_free(inbox);
  }
}

TEST(MpHost, ShmemPtrReachesEveryNodeLocalPeer) {
  auto* slots = static_cast<std::int64_t*>(shmem_calloc(shmem_n_pes(), sizeof(std::int64_t)));
  ASSERT_NE(slots, nullptr);
  EXPECT_EQ(shmem_ptr(slots, shmem_my_pe()), static_cast<void*>(slots)) << "this PE's own address";
  for (int pe = 0; pe < shmem_n_pes(); ++pe) {
    auto* remote = static_cast<std::int64_t*>(shmem_ptr(slots, pe));
    EXPECT_NE(remote, nullptr) << "PE " << pe << " is on this node";
    if (remote) remote[shmem_my_pe()] = 1000 + shmem_my_pe();  // a plain store into pe's heap
  }
  EXPECT_EQ(shmem_ptr(slots, shmem_n_pes()), nullptr) << "no such PE";
  int not_symmetric = 0;
  EXPECT_EQ(shmem_ptr(&not_symmetric, 0), nullptr) << "not a symmetric address";
  shmem_barrier_all();
  for (int pe = 0; pe < shmem_n_pes(); ++pe) EXPECT_EQ(slots[pe], 1000 + pe) << "store from PE " << pe;
  shmem_free(slots);
}

TEST(MpHost, BarrierCompletesPutsAndSeparatesRounds) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  auto* seen = static_cast<std::int64_t*>(shmem_calloc(n, sizeof(std::int64_t)));
  ASSERT_NE(seen, nullptr);
  int late = 0;
  for (std::int64_t round = 1; round <= 50; ++round) {
    for (int pe = 0; pe < n; ++pe) shmem_putmem(&seen[me], &round, sizeof round, pe);
    shmem_barrier_all();  // every PE's round-r puts are now here
    for (int pe = 0; pe < n; ++pe) late += seen[pe] != round;
    shmem_barrier_all();  // nobody starts round r+1 before everyone has checked round r
  }
  EXPECT_EQ(late, 0);
  shmem_free(seen);
}

TEST(MpHost, DeviceHandleOfAnotherLayoutIsRefused) {
  EXPECT_EQ(shmem_device_handle().abi_version, handle_abi_version);
  EXPECT_EQ(shmem_device_handle().my_pe, shmem_my_pe());
  try {
    (void)detail::device_handle_for(handle_abi_version + 1);
    ADD_FAILURE() << "a caller compiled for another device_handle layout got one";
  } catch (const error& e) {
    EXPECT_EQ(e.pe(), shmem_my_pe());
    const std::string what = e.what();
    EXPECT_NE(what.find("version " + std::to_string(handle_abi_version + 1)), std::string::npos) << what;
    EXPECT_NE(what.find("libgio's is version " + std::to_string(handle_abi_version)), std::string::npos) << what;
  }
}

TEST(MpHost, OutOfRangePEIsAnErrorNamingThisPE) {
  auto* buffer = static_cast<char*>(shmem_malloc(64));
  char byte = 0;
  try {
    shmem_putmem(buffer, &byte, 1, shmem_n_pes());
    ADD_FAILURE() << "putmem to PE " << shmem_n_pes() << " did not throw";
  } catch (const error& e) {
    EXPECT_EQ(e.pe(), shmem_my_pe());
    EXPECT_NE(std::string(e.what()).find("PE " + std::to_string(shmem_n_pes())), std::string::npos) << e.what();
  }
  shmem_free(buffer);
}

// The typed and generic host RMA of host_generated.hpp: each PE puts to the next, reads back.
template <class T> void typed_ring(void (*put)(T*, const T*, std::size_t, int), void (*get)(T*, const T*, std::size_t, int),
                                   void (*p)(T*, T, int), T (*g)(const T*, int)) {
  constexpr std::size_t n = 37;
  const int me = shmem_my_pe(), pes = shmem_n_pes(), next = (me + 1) % pes, previous = (me + pes - 1) % pes;
  auto* inbox = static_cast<T*>(shmem_calloc(n + 1, sizeof(T)));
  ASSERT_NE(inbox, nullptr);
  std::vector<T> mine(n);
  for (std::size_t i = 0; i < n; ++i) mine[i] = static_cast<T>(me * 100 + i);
  put(inbox, mine.data(), n, next);
  p(inbox + n, static_cast<T>(me + 7), next);
  shmem_barrier_all();
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(inbox[i], static_cast<T>(previous * 100 + i)) << "element " << i;
  EXPECT_EQ(inbox[n], static_cast<T>(previous + 7));
  std::vector<T> back(n);
  get(back.data(), inbox, n, next);
  EXPECT_EQ(back, mine);
  EXPECT_EQ(g(inbox + n, next), static_cast<T>(me + 7));
  shmem_barrier_all();  // nobody frees while a peer still reads
  shmem_free(inbox);
}

TEST(MpHost, TypedHostRmaMovesElementsOfEachType) {
  typed_ring<int>(shmem_int_put, shmem_int_get, shmem_int_p, shmem_int_g);
  typed_ring<double>(shmem_double_put_nbi, shmem_double_get_nbi, shmem_double_p, shmem_double_g);
  typed_ring<std::uint64_t>(shmem_put<std::uint64_t>, shmem_get<std::uint64_t>, shmem_p<std::uint64_t>,
                            shmem_g<std::uint64_t>);
  typed_ring<char>(shmem_char_put, shmem_char_get_nbi, shmem_char_p, shmem_char_g);
  shmem_quiet();
}

// Strided RMA: every third element of a local array to every second slot of the next PE's, and
// back with the strides swapped; the slots in between stay untouched.
TEST(MpHost, StridedPutAndGetMoveEveryStrideElement) {
  constexpr std::size_t n = 29;
  const int me = shmem_my_pe(), pes = shmem_n_pes(), next = (me + 1) % pes, previous = (me + pes - 1) % pes;
  auto* slots = static_cast<std::int64_t*>(shmem_malloc(2 * n * sizeof(std::int64_t)));
  ASSERT_NE(slots, nullptr);
  for (std::size_t i = 0; i < 2 * n; ++i) slots[i] = -1;
  std::vector<std::int64_t> local(3 * n);
  for (std::size_t i = 0; i < local.size(); ++i) local[i] = me * 1000 + static_cast<std::int64_t>(i);
  shmem_barrier_all();  // every PE's slots are reset before any put lands
  shmem_int64_iput(slots, local.data(), 2, 3, n, next);
  shmem_barrier_all();
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(slots[2 * i], previous * 1000 + static_cast<std::int64_t>(3 * i)) << "slot " << 2 * i;
    EXPECT_EQ(slots[2 * i + 1], -1) << "slot " << 2 * i + 1 << " between strides";
  }
  std::vector<std::int64_t> back(3 * n, 0);
  shmem_iget(back.data(), slots, 3, 2, n, next);  // generic form: next's slots hold my values
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(back[3 * i], local[3 * i]) << "element " << 3 * i;
    EXPECT_EQ(back[3 * i + 1], 0);
  }
  // The sized forms move bytes of the named width; stride 1 is a contiguous copy.
  std::uint16_t halves[4] = {1, 2, 3, 4};
  shmem_barrier_all();
  shmem_iput16(slots, halves, 1, 1, 4, next);
  std::uint16_t read[4] = {};
  shmem_iget16(read, slots, 1, 1, 4, next);
  EXPECT_EQ(std::vector<std::uint16_t>(read, read + 4), std::vector<std::uint16_t>(halves, halves + 4));
  shmem_barrier_all();  // nobody frees while a peer still reads
  shmem_free(slots);
}

TEST(MpHost, StridedRmaRefusesBadStridesOverflowAndForeignMemory) {
  auto* slots = static_cast<int*>(shmem_malloc(16 * sizeof(int)));
  ASSERT_NE(slots, nullptr);
  int local[16] = {};
  const auto fails = [](const char* what, const std::function<void()>& call, const std::string& expected) {
    try {
      call();
      ADD_FAILURE() << what << " did not throw";
    } catch (const error& e) {
      EXPECT_EQ(e.pe(), shmem_my_pe()) << what;
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << what << ": " << e.what();
    }
  };
  const int next = (shmem_my_pe() + 1) % shmem_n_pes();
  fails("stride 0", [&] { shmem_int_iput(slots, local, 0, 1, 4, next); }, "shmem_int_iput: strides must be at least 1");
  fails("negative stride", [&] { shmem_int_iget(local, slots, 1, -2, 4, next); }, "strides must be at least 1");
  fails("overflowing span", [&] { shmem_iput32(slots, local, PTRDIFF_MAX, 1, 3, next); }, "overflow");
  fails("past the heap's end", [&] { shmem_int_iput(slots, local, std::ptrdiff_t(heap_size), 1, 2, next); },
        "shmem_int_iput");
  fails("not symmetric", [&] { shmem_int_iget(local, local, 1, 1, 4, next); }, "shmem_int_iget");
  shmem_barrier_all();
  shmem_free(slots);
}

TEST(MpHost, ReallocKeepsTheContentsAndStaysSymmetric) {
  const int me = shmem_my_pe(), next = (me + 1) % shmem_n_pes(), previous = (me + shmem_n_pes() - 1) % shmem_n_pes();
  auto* block = static_cast<unsigned char*>(shmem_malloc(100));
  ASSERT_NE(block, nullptr);
  for (std::size_t i = 0; i < 100; ++i) block[i] = pattern_byte(me, i);
  void* blocker = shmem_malloc(64);  // so that growing cannot stay in place by accident
  auto* grown = static_cast<unsigned char*>(shmem_realloc(block, 10000));
  ASSERT_NE(grown, nullptr);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < 100; ++i) wrong += grown[i] != pattern_byte(me, i);
  EXPECT_EQ(wrong, 0u) << "the first 100 bytes must survive growing";
  // Symmetric: a put into the grown block's far end lands in the next PE's grown block.
  const unsigned char marker = static_cast<unsigned char>(me + 1);
  shmem_putmem(grown + 9999, &marker, 1, next);
  shmem_barrier_all();
  EXPECT_EQ(grown[9999], static_cast<unsigned char>(previous + 1));
  auto* shrunk = static_cast<unsigned char*>(shmem_realloc(grown, 50));
  ASSERT_NE(shrunk, nullptr);
  wrong = 0;
  for (std::size_t i = 0; i < 50; ++i) wrong += shrunk[i] != pattern_byte(me, i);
  EXPECT_EQ(wrong, 0u) << "the first 50 bytes must survive shrinking";
  EXPECT_EQ(shmem_realloc(shrunk, 0), nullptr) << "size 0 frees";
  auto* fresh = static_cast<unsigned char*>(shmem_realloc(nullptr, 32));
  EXPECT_NE(fresh, nullptr) << "nullptr allocates";
  shmem_free(fresh);
  shmem_free(blocker);
  // Too large: nullptr on every PE, the old block kept.
  auto* kept = static_cast<unsigned char*>(shmem_malloc(16));
  kept[0] = 42;
  EXPECT_EQ(shmem_realloc(kept, heap_size * 4), nullptr);
  EXPECT_EQ(kept[0], 42);
  shmem_free(kept);
  // A pointer shmem_malloc never gave: an error naming this PE and the call, on every PE, and
  // the heap stays usable (every PE allocated and freed the new block before throwing).
  unsigned char not_symmetric[8] = {};
  try {
    shmem_realloc(not_symmetric, 64);
    ADD_FAILURE() << "shmem_realloc accepted a pointer outside the heap";
  } catch (const error& e) {
    EXPECT_TRUE(mp_test::names_pe_and_call(e.what(), "shmem_realloc: ")) << e.what();
  }
  void* after = shmem_malloc(64);
  EXPECT_NE(after, nullptr);
  shmem_free(after);
}

TEST(MpHost, MallocWithHintsAcceptsTheDefinedHintsAndNamesABadOne) {
  void* block = shmem_malloc_with_hints(256, SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE);
  EXPECT_NE(block, nullptr);
  shmem_free(block);
  try {
    shmem_malloc_with_hints(256, 1L << 7);
    ADD_FAILURE() << "an undefined hint bit must be refused";
  } catch (const error& e) {
    EXPECT_EQ(e.pe(), shmem_my_pe());
    EXPECT_NE(std::string(e.what()).find("shmem_malloc_with_hints"), std::string::npos) << e.what();
  }
  shmem_barrier_all();
}

// SHMEM_MALLOC_ATOMICS_REMOTE blocks gather at the heap's top end (the atomics area, whose atomics
// go through the NIC while a network transport is on: none here, so the handle's area stays empty),
// and shmem_realloc keeps a block there.
TEST(MpHost, AtomicsRemoteBlocksGatherAtTheHeapsTop) {
  const device_handle h0 = shmem_device_handle();
  char* const top = h0.heap_base + h0.heap_size;
  auto* plain = static_cast<char*>(shmem_malloc(4096));
  auto* a = static_cast<char*>(shmem_malloc_with_hints(4096, SHMEM_MALLOC_ATOMICS_REMOTE));
  auto* b = static_cast<char*>(shmem_malloc_with_hints(100, SHMEM_MALLOC_ATOMICS_REMOTE));
  ASSERT_TRUE(plain && a && b);
  EXPECT_EQ(a + 4096, top) << "the first block ends at the heap's end";
  EXPECT_EQ(b + 256, a) << "the next lies right below it (100 bytes rounded to 256)";
  EXPECT_LT(plain, b) << "plain blocks stay at the bottom";
  EXPECT_EQ(shmem_device_handle().atomics_area_bytes, 0u) << "no network transport: no atomics area";
  char* const old_b = b;
  auto* grown = static_cast<char*>(shmem_realloc(b, 8192));
  ASSERT_NE(grown, nullptr);
  EXPECT_GT(grown, plain + 4096) << "a reallocated block of the area stays at the top end";
  EXPECT_EQ(grown + 8192, old_b) << "the highest place that fits: right below the old block, live while copied";
  shmem_free(grown);
  shmem_free(a);
  shmem_free(plain);
}

TEST(MpHost, InfoQueriesNameOpenShmem15AndGio) {
  int major = 0, minor = 0;
  shmem_info_get_version(&major, &minor);
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 5);
  char name[SHMEM_MAX_NAME_LEN];
  shmem_info_get_name(name);
  EXPECT_EQ(std::string(name).rfind("gio ", 0), 0u) << name;
  EXPECT_LT(std::strlen(name), static_cast<std::size_t>(SHMEM_MAX_NAME_LEN));
}

TEST(MpHost, AccessibilityOfPEsAndAddresses) {
  auto* sym = static_cast<int*>(shmem_malloc(sizeof(int)));
  int local = 0;
  for (int pe = 0; pe < shmem_n_pes(); ++pe) {
    EXPECT_EQ(shmem_pe_accessible(pe), 1) << "PE " << pe;
    EXPECT_EQ(shmem_addr_accessible(sym, pe), 1) << "PE " << pe;
    EXPECT_EQ(shmem_addr_accessible(&local, pe), 0) << "a stack variable is not symmetric";
  }
  EXPECT_EQ(shmem_pe_accessible(-1), 0);
  EXPECT_EQ(shmem_pe_accessible(shmem_n_pes()), 0);
  EXPECT_EQ(shmem_addr_accessible(sym, shmem_n_pes()), 0);
  shmem_free(sym);
}

TEST(MpHost, HostWaitUntilSeesAFlagAndTheDataBeforeIt) {
  struct words {
    std::int64_t data[64];
    int flag;
    short small;
  };
  auto* w = static_cast<words*>(shmem_calloc(1, sizeof(words)));
  const int me = shmem_my_pe(), next = (me + 1) % shmem_n_pes(), previous = (me + shmem_n_pes() - 1) % shmem_n_pes();
  EXPECT_EQ(shmem_int_test(&w->flag, SHMEM_CMP_EQ, 0), 1);
  EXPECT_EQ(shmem_int_test(&w->flag, SHMEM_CMP_GT, 0), 0);
  shmem_barrier_all();  // every PE tested its flag before anyone sets one
  std::vector<std::int64_t> data(64);
  for (int i = 0; i < 64; ++i) data[i] = me * 1000 + i;
  shmem_putmem(w->data, data.data(), sizeof w->data, next);
  shmem_quiet();
  shmem_int_p(&w->flag, me + 1, next);
  shmem_short_p(&w->small, static_cast<short>(-me - 1), next);
  shmem_int_wait_until(&w->flag, SHMEM_CMP_EQ, previous + 1);
  shmem_wait_until(&w->small, SHMEM_CMP_LT, short{0});
  std::size_t wrong = 0;
  for (int i = 0; i < 64; ++i) wrong += w->data[i] != previous * 1000 + i;
  EXPECT_EQ(wrong, 0u) << "the data put before the flag";
  EXPECT_EQ(shmem_short_test(&w->small, SHMEM_CMP_EQ, static_cast<short>(-previous - 1)), 1);
  try {
    shmem_int_test(&w->flag, 9, 0);
    ADD_FAILURE() << "comparison 9 must be refused";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("shmem_int_test"), std::string::npos) << e.what();
  }
  int not_symmetric = 0;
  EXPECT_THROW(shmem_int_test(&not_symmetric, SHMEM_CMP_EQ, 0), error);
  shmem_barrier_all();
  shmem_free(w);
}

TEST(MpHost, ThreadLevels) {
  int provided = -1;
  shmem_query_thread(&provided);
  EXPECT_EQ(provided, SHMEM_THREAD_SINGLE) << "shmem_init provides SHMEM_THREAD_SINGLE";
  try {
    shmem_init_thread(SHMEM_THREAD_MULTIPLE + 1, &provided);
    ADD_FAILURE() << "a level beyond SHMEM_THREAD_MULTIPLE must be refused";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("shmem_init_thread"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gio

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (gio::shmem_initialized()) return 2;
  ::setenv("GIO_SYMMETRIC_SIZE", gio::heap_size_text, 1);
  try {
    gio::shmem_init();
  } catch (const gio::error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  const int failed = RUN_ALL_TESTS();
  gio::shmem_finalize();
  if (gio::shmem_initialized()) {
    std::fprintf(stderr, "shmem_initialized() is still true after shmem_finalize\n");
    return 2;
  }
  return failed;
}
