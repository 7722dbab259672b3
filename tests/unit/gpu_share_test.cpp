// This PE's share of its GPU (gio::gpu_share, gio/host.hpp) and the MPS discovery behind it
// (host/topology.hpp): what launch_collective sizes co-resident grids by.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "gio/host.hpp"
#include "topology.hpp"

namespace {

TEST(GpuShare, WithoutMpsEveryPeMayFillTheGpu) {
  // Time-sliced processes each get the whole GPU in their slice.
  EXPECT_EQ((gio::gpu_share{1, false, 0}).multiprocessors(132), 132);
  EXPECT_EQ((gio::gpu_share{4, false, 0}).multiprocessors(132), 132);
  EXPECT_FALSE((gio::gpu_share{4, false, 0}).limits());
  EXPECT_EQ((gio::gpu_share{4, false, 0}).describe(), "4 PEs on this GPU, no MPS (their kernels time-slice the GPU)");
}

TEST(GpuShare, UnderMpsPesSplitTheGpuEvenly) {
  EXPECT_EQ((gio::gpu_share{1, true, 0}).multiprocessors(132), 132);
  EXPECT_FALSE((gio::gpu_share{1, true, 0}).limits());
  EXPECT_EQ((gio::gpu_share{2, true, 0}).multiprocessors(132), 66);
  EXPECT_EQ((gio::gpu_share{3, true, 0}).multiprocessors(132), 44);
  EXPECT_EQ((gio::gpu_share{5, true, 0}).multiprocessors(132), 26);  // rounded down: the sum fits
  EXPECT_EQ((gio::gpu_share{200, true, 0}).multiprocessors(132), 1);  // never none
  EXPECT_EQ((gio::gpu_share{2, true, 0}).describe(), "2 PEs on this GPU under MPS, an equal share each");
}

TEST(GpuShare, UnderMpsTheThreadPercentageDecides) {
  // The driver reports only the client's percentage of the multiprocessors (an H200 at 50%: 66 of
  // 132, session 20), but two PEs' grids of 132 workgroups on those 66 did not become co-resident
  // there: the clients' sets overlap. An equal share of what is reported, then.
  EXPECT_EQ((gio::gpu_share{2, true, 50}).multiprocessors(66), 33);
  EXPECT_EQ((gio::gpu_share{4, true, 25}).multiprocessors(33), 8);
  EXPECT_EQ((gio::gpu_share{1, true, 50}).multiprocessors(66), 66);  // a lone PE: what it is given
  EXPECT_TRUE((gio::gpu_share{1, true, 50}).limits());
  EXPECT_EQ((gio::gpu_share{2, true, 1}).multiprocessors(1), 1);  // never none
  EXPECT_EQ((gio::gpu_share{2, true, 25}).describe(), "2 PEs on this GPU under MPS, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25");
}

TEST(GpuShare, BeforeInitOnePeAndNoLimit) {
  const gio::gpu_share share = gio::shmem_gpu_share();
  EXPECT_EQ(share.pes, 1);
  EXPECT_FALSE(share.limits());
}

// A fake environment and a pipe directory of this test's own.
struct MpsDiscovery : ::testing::Test {
  std::map<std::string, std::string> vars;
  std::string dir;
  void SetUp() override {
    char pattern[] = "/tmp/gio-mps-test.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir = pattern;
    vars["CUDA_MPS_PIPE_DIRECTORY"] = dir;
  }
  void TearDown() override {
    std::remove((dir + "/control").c_str());
    ::rmdir(dir.c_str());
  }
  gio::mps_state discover() const {
    return gio::discover_mps([this](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    });
  }
};

TEST_F(MpsDiscovery, ActiveOnlyWhenTheDaemonsControlPipeExists) {
  EXPECT_FALSE(discover().active);
  EXPECT_EQ(discover().pipe_directory, dir);
  ASSERT_EQ(::mkfifo((dir + "/control").c_str(), 0600), 0);
  EXPECT_TRUE(discover().active);
}

TEST_F(MpsDiscovery, DefaultPipeDirectory) {
  vars.clear();
  EXPECT_EQ(discover().pipe_directory, "/tmp/nvidia-mps");
}

TEST_F(MpsDiscovery, ThreadPercentageOnlyWhenAWholeNumberFrom1To100) {
  EXPECT_EQ(discover().thread_percentage, 0);
  for (const auto& [text, expected] : std::map<std::string, int>{
           {"50", 50}, {"100", 100}, {"1", 1}, {"0", 0}, {"101", 0}, {"12.5", 0}, {"half", 0}, {"", 0}}) {
    vars["CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"] = text;
    EXPECT_EQ(discover().thread_percentage, expected) << "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=" << text;
  }
}

}  // namespace
