// gio-gpu-bad-input <case>: one wrong call in a kernel built with GIO_CHECKS=1; the kernel must
// trap after printing "gio: PE <n>: <call> (<file>:<line>): <cause> ...". CTest runs each case
// as one PE (GIO_BOOTSTRAP=single) and matches the message (tests/gpu/CMakeLists.txt); if the
// kernel does not trap, this prints "no trap" and the match fails.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>

#include "gio/device.hpp"
#include "gio/host.hpp"
#include "gpu_runtime.hpp"

#if !(defined(GIO_CHECKS) && GIO_CHECKS)
#error "gio-gpu-bad-input tests the checked build: compile it with GIO_CHECKS=1"
#endif

namespace {

enum class bad { pe_out_of_range, not_symmetric, size_overflow, past_heap_end, bad_comparison, wait_timeout };

__global__ void bad_call_kernel(gio::device_handle h, bad which, int* sym, int* not_sym) {
  const gio::ctx c = gio::ctx_default(h);
  switch (which) {
    case bad::pe_out_of_range: gio::shmem_ctx_putmem(c, sym, not_sym, sizeof(int), 5); break;
    case bad::not_symmetric: gio::shmem_ctx_putmem(c, not_sym, sym, sizeof(int), 0); break;
    case bad::size_overflow: gio::shmem_put(c, sym, not_sym, SIZE_MAX / 2, 0); break;
    case bad::past_heap_end: gio::shmem_ctx_getmem(c, not_sym, sym, h.heap_size, 0); break;
    case bad::bad_comparison: gio::shmem_wait_until(c, sym, 9, 7); break;
    case bad::wait_timeout: gio::shmem_wait_until(c, sym, gio::SHMEM_CMP_EQ, 7); break;  // nobody writes 7
  }
}

struct named_case {
  const char* name;
  bad which;
};
constexpr named_case cases[] = {
    {"pe_out_of_range", bad::pe_out_of_range}, {"not_symmetric", bad::not_symmetric},
    {"size_overflow", bad::size_overflow},     {"past_heap_end", bad::past_heap_end},
    {"bad_comparison", bad::bad_comparison},   {"wait_timeout", bad::wait_timeout},
};

}  // namespace

int main(int argc, char** argv) {
  const named_case* chosen = nullptr;
  for (const named_case& c : cases)
    if (argc == 2 && std::strcmp(argv[1], c.name) == 0) chosen = &c;
  if (chosen == nullptr) {
    std::fprintf(stderr, "usage: %s <case>; cases:", argv[0]);
    for (const named_case& c : cases) std::fprintf(stderr, " %s", c.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  try {
    gio::shmem_init();
    int* sym = static_cast<int*>(gio::shmem_calloc(16, sizeof(int)));
    int* not_sym = static_cast<int*>(gio_test::gpu::alloc(16 * sizeof(int)));
    bad_call_kernel<<<1, 1>>>(gio::shmem_device_handle(), chosen->which, sym, not_sym);
    gio_test::gpu::finish_launch(chosen->name);
    std::printf("no trap: %s completed\n", chosen->name);
    gio_test::gpu::dealloc(not_sym);
    gio::shmem_free(sym);
    gio::shmem_finalize();
    return 0;
  } catch (const std::exception& e) {
    // The expected way out: the trap surfaces as a launch error (the context is unusable after).
    std::fflush(stdout);
    std::fprintf(stderr, "%s: kernel failed as expected: %s\n", chosen->name, e.what());
    return 1;
  }
}
