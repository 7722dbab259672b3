// The dma-buf export the mlx5 NIC registers the heap through when no peer-memory kernel module is
// loaded (host/gpu/gpu_api.hpp, export_dmabuf). No NIC is needed to check the export itself: the
// file descriptor must cover exactly the range asked for, and a range the driver cannot export
// must come back as -1 with a reason, never as a descriptor of something else.
#include <sys/types.h>
#include <unistd.h>

#include <string>

#include "gpu/gpu_api.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

TEST(DmaBufExport, CoversExactlyTheRangeOrSaysWhyNot) {
  constexpr std::size_t bytes = std::size_t{4} << 20;  // a multiple of the host page
  device_buffer memory(bytes);
  std::string why;
  const int fd = gio::gpu::export_dmabuf(memory.get<char>(), bytes, &why);
  if (fd < 0) {
    EXPECT_FALSE(why.empty()) << "no descriptor and no reason";
    GTEST_SKIP() << "no dma-buf export on this machine: " << why;
  }
  EXPECT_EQ(lseek(fd, 0, SEEK_END), static_cast<off_t>(bytes)) << "the dma-buf's size is not the range's";
  close(fd);
  // Not aligned to the host page: the driver refuses, and the reason says so.
  why.clear();
  EXPECT_LT(gio::gpu::export_dmabuf(memory.get<char>() + 1, 4096, &why), 0);
  EXPECT_FALSE(why.empty());
}

}  // namespace
}  // namespace gio_test
