// How init and the collective heap fail. A failed init ends MPI, so each test needs processes
// of its own: CTest runs this program once per test (--gtest_filter), under mpirun or directly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "gio/host.hpp"
#include "mp_test_support.hpp"

extern char** environ;

namespace gio {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The error shmem_init throws, or a test failure (and a clean finalize) if it succeeds.
error init_error() {
  try {
    shmem_init();
  } catch (const error& e) {
    EXPECT_FALSE(shmem_initialized()) << "a failed init leaves nothing initialized";
    return e;
  }
  ADD_FAILURE() << "shmem_init succeeded";
  shmem_finalize();
  return error(-2, "(no error)");
}

// Init fails on this PE with an error of this PE that contains every one of `parts`.
void expect_init_error_saying(std::initializer_list<const char*> parts) {
  const error e = init_error();
  EXPECT_EQ(e.pe(), mp_test::launcher_rank()) << e.what();
  for (const char* part : parts) EXPECT_TRUE(contains(e.what(), part)) << "no \"" << part << "\" in: " << e.what();
}

// Removes every variable a launcher sets, so this process looks like one started by hand.
void forget_launcher() {
  std::vector<std::string> names;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    for (const char* prefix : {"OMPI_", "PMIX_", "PMI_", "MPI_LOCALNRANKS"}) {
      if (text.rfind(prefix, 0) == 0) names.push_back(text.substr(0, text.find('=')));
    }
  }
  for (const auto& name : names) ::unsetenv(name.c_str());
}

TEST(InitErrors, MallocBeforeInitThrows) {
  try {
    shmem_malloc(64);
    ADD_FAILURE() << "shmem_malloc before shmem_init did not throw";
  } catch (const error& e) {
    EXPECT_EQ(e.pe(), -1);
    EXPECT_EQ(std::string(e.what()).rfind("gio: PE ?: ", 0), 0u) << e.what();
    EXPECT_TRUE(contains(e.what(), "shmem_malloc")) << e.what();
    EXPECT_TRUE(contains(e.what(), "shmem_init")) << e.what();
  }
  EXPECT_THROW(shmem_my_pe(), error);
  EXPECT_THROW(shmem_barrier_all(), error);
}

TEST(InitErrors, MalformedSymmetricSizeFailsEveryPE) {
  ASSERT_EQ(::setenv("GIO_SYMMETRIC_SIZE", "12Q", 1), 0);
  expect_init_error_saying({"GIO_SYMMETRIC_SIZE=\"12Q\"", "expected"});
}

TEST(InitErrors, OnePEFailingFailsEveryPE) {
  constexpr int failing_pe = 1;
  const int me = mp_test::launcher_rank();
  ASSERT_GE(mp_test::launcher_size(), 2) << "run under mpirun -np 2 or more";
  if (me == failing_pe) ASSERT_EQ(::setenv("GIO_SYMMETRIC_SIZE", "lots", 1), 0);
  const error e = init_error();
  EXPECT_EQ(e.pe(), me) << e.what();
  const std::string cause = mp_test::cause_of(e.what());
  EXPECT_TRUE(contains(cause, "GIO_SYMMETRIC_SIZE=\"lots\"")) << e.what();
  if (me != failing_pe) EXPECT_TRUE(contains(cause, "PE 1 ")) << "names the failed PE: " << e.what();
}

// Forcing the NIC transports where they cannot run (this GPU-less build) fails on every PE with
// the cause, instead of leaving PEs unreachable.
TEST(InitErrors, ForcedGdaWithoutGpuFailsEveryPE) {
  ASSERT_EQ(::setenv("GIO_TRANSPORT", "gda", 1), 0);
  expect_init_error_saying({"opening the NIC for gda", "GIO_TRANSPORT=gda", "no GPU"});
}

TEST(InitErrors, ForcedIknWithoutGpuFailsEveryPE) {
  ASSERT_EQ(::setenv("GIO_TRANSPORT", "ikn", 1), 0);
  expect_init_error_saying({"opening the NIC for ikn", "GIO_TRANSPORT=ikn", "hence no ikn"});
}

// Uncached network buffers (GIO paper 5.1.2) need GPU memory: this GPU-less build refuses them on
// every PE, naming the variable and why (NVIDIA GPUs refuse them too; scripts/gpu-check.sh checks that).
TEST(InitErrors, UncachedNetBuffersWithoutGpuFailEveryPE) {
  ASSERT_EQ(::setenv("GIO_NET_BUFFERS", "uncached", 1), 0);
  expect_init_error_saying({"allocating the symmetric heap", "GIO_NET_BUFFERS=uncached", "no GPU"});
}

TEST(InitErrors, NotLaunchedByMpirunIsExplained) {
  forget_launcher();
  ASSERT_EQ(::setenv("GIO_BOOTSTRAP", "mpi", 1), 0);
  const error e = init_error();
  EXPECT_EQ(e.pe(), -1) << e.what();
  EXPECT_TRUE(contains(e.what(), "mpirun")) << e.what();
  EXPECT_TRUE(contains(e.what(), "GIO_BOOTSTRAP=single")) << "offers the alternative: " << e.what();
}

TEST(InitErrors, SingleBootstrapNeedsNoLauncher) {
  forget_launcher();
  ASSERT_EQ(::setenv("GIO_BOOTSTRAP", "single", 1), 0);
  ASSERT_EQ(::setenv("GIO_SYMMETRIC_SIZE", "4M", 1), 0);
  ASSERT_NO_THROW(shmem_init());
  EXPECT_EQ(shmem_my_pe(), 0);
  EXPECT_EQ(shmem_n_pes(), 1);
  auto* buffer = static_cast<char*>(shmem_malloc(16));
  ASSERT_NE(buffer, nullptr);
  const char text[] = "single PE heap";
  shmem_putmem(buffer, text, sizeof text, 0);
  shmem_barrier_all();
  EXPECT_STREQ(buffer, text);
  EXPECT_EQ(shmem_ptr(buffer, 0), static_cast<void*>(buffer));
  shmem_free(buffer);
  shmem_finalize();
  EXPECT_FALSE(shmem_initialized());
}

// shmem_init_thread initializes like shmem_init and provides at most SHMEM_THREAD_SERIALIZED;
// shmem_query_thread then reports what it provided.
TEST(InitThread, ProvidesAtMostSerializedAndQueryAgrees) {
  forget_launcher();
  ASSERT_EQ(::setenv("GIO_BOOTSTRAP", "single", 1), 0);
  ASSERT_EQ(::setenv("GIO_SYMMETRIC_SIZE", "4M", 1), 0);
  int provided = -1;
  ASSERT_EQ(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided), 0);
  EXPECT_TRUE(shmem_initialized());
  EXPECT_EQ(provided, SHMEM_THREAD_SERIALIZED) << "SHMEM_THREAD_MULTIPLE is not provided";
  int queried = -1;
  shmem_query_thread(&queried);
  EXPECT_EQ(queried, SHMEM_THREAD_SERIALIZED);
  shmem_finalize();
}

// The library checks collective arguments only in checked builds; the CI's checked build sets
// GIO_TEST_CHECKED so that this test runs there and is skipped elsewhere.
TEST(InitErrors, MismatchedCollectiveMallocNamesThePEs) {
  if (std::getenv("GIO_TEST_CHECKED") == nullptr) GTEST_SKIP() << "GIO_TEST_CHECKED unset: not a checked build";
  ASSERT_GE(mp_test::launcher_size(), 2) << "run under mpirun -np 2 or more";
  ASSERT_EQ(::setenv("GIO_SYMMETRIC_SIZE", "4M", 1), 0);
  shmem_init();
  const int me = shmem_my_pe();
  const int other = me == 0 ? 1 : 0;
  try {
    void* p = shmem_malloc(1024 * static_cast<std::size_t>(me + 1));
    ADD_FAILURE() << "mismatched shmem_malloc sizes were accepted (" << p << ")";
  } catch (const error& e) {
    EXPECT_EQ(e.pe(), me);
    const std::string cause = mp_test::cause_of(e.what());
    EXPECT_TRUE(contains(cause, "shmem_malloc")) << e.what();
    EXPECT_TRUE(contains(cause, "PE " + std::to_string(other))) << "names the other PE: " << e.what();
  }
  shmem_finalize();
}

}  // namespace
}  // namespace gio
