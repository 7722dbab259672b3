// gio::ws checks a program's task types at compile time (device/ws/task.hpp). CTest compiles this
// file once per case (GIO_WS_CASE) and passes only when the compiler stops with that case's
// message; case 0 must compile, so that the other cases fail for their own reason only.
#include <cstdint>

#include "gio/device/ws/task.hpp"

struct fits {
  std::uint32_t words[7];  // 28 bytes: the payload limit
};
struct too_big {
  std::uint32_t words[8];  // 32 bytes
};
struct not_listed {
  int value;
};
struct not_trivially_copyable {
  int value;
  explicit not_trivially_copyable(int v) : value(v) {}
  not_trivially_copyable(const not_trivially_copyable& other) : value(other.value) {}
};

using tasks = gio::ws::task_list<fits, too_big, not_trivially_copyable>;

int main() {
#if GIO_WS_CASE == 0
  return static_cast<int>(gio::ws::make_task<tasks>(fits{}).tag);
#elif GIO_WS_CASE == 1
  return static_cast<int>(gio::ws::make_task<tasks>(too_big{}).tag);
#elif GIO_WS_CASE == 2
  return static_cast<int>(gio::ws::make_task<tasks>(not_listed{1}).tag);
#elif GIO_WS_CASE == 3
  return static_cast<int>(gio::ws::make_task<tasks>(not_trivially_copyable{1}).tag);
#endif
}
