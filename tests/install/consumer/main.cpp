// Uses the installed headers and library: one PE without a launcher, a collective allocation,
// a host put to itself and a get back; and the work-stealing runtime's host-visible parts (a
// user's own task types in a task_list, dispatched by tag; the public queue's slice arithmetic).
#include <gio/device/ws/sws.hpp>
#include <gio/device/ws/task.hpp>
#include <gio/host.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>

// Checked device code comes with gio::checks only (tests/install/consumer/CMakeLists.txt).
#if defined(GIO_CHECKS) && GIO_CHECKS
static_assert(CONSUMER_EXPECTS_CHECKS == 1, "GIO_CHECKS reached a consumer that did not link gio::checks");
#else
static_assert(CONSUMER_EXPECTS_CHECKS == 0, "gio::checks did not define GIO_CHECKS");
#endif

namespace {
struct counter_program;
struct add_task {
  std::uint32_t amount;
  template <class Spawn> void operator()(const counter_program&, Spawn& total) const { total += amount; }
};
struct double_task {
  template <class Spawn> void operator()(const counter_program&, Spawn& total) const { total *= 2; }
};
struct counter_program {
  using tasks = gio::ws::task_list<add_task, double_task>;
};

bool tasks_dispatch() {
  using list = counter_program::tasks;
  std::uint64_t total = 0;
  const counter_program p{};
  const gio::ws::task work[] = {gio::ws::make_task<list>(add_task{20}), gio::ws::make_task<list>(double_task{}),
                                gio::ws::make_task<list>(add_task{2})};
  for (const gio::ws::task& t : work)
    if (!gio::ws::run_task<list>(t, p, total)) return false;
  return total == 42 && gio::ws::sws_steal_slice(100, 1, 512).offset == 50;
}
}  // namespace

int main() {
  if (!tasks_dispatch()) {
    std::printf("gio::ws task dispatch gave a wrong result\n");
    return 1;
  }
  gio::shmem_init();
  const int me = gio::shmem_my_pe();
  auto* buffer = static_cast<char*>(gio::shmem_malloc(64));
  const char message[] = "installed gio works";
  gio::shmem_putmem(buffer, message, sizeof message, me);
  char back[sizeof message] = {};
  gio::shmem_getmem(back, buffer, sizeof message, me);
  gio::shmem_free(buffer);
  gio::shmem_finalize();
  std::printf("%s\n", back);
  return std::strcmp(back, message) == 0 ? 0 : 1;
}
