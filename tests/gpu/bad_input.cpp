// gio-gpu-bad-input <case>: one wrong call in a kernel built with GIO_CHECKS=1; the kernel must
// trap after printing "gio: PE <n>: <call> (<file>:<line>): <cause> ...". CTest runs each case
// as one PE (GIO_BOOTSTRAP=single; team_pe_out_of_range also as 2 PEs under mpirun, where PE 1 of
// WORLD exists but not of the one-PE team) and matches the message (tests/gpu/CMakeLists.txt);
// if the kernel does not trap, this prints "no trap" and the match fails.
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

enum class bad {
  pe_out_of_range, not_symmetric, size_overflow, past_heap_end, bad_comparison, wait_timeout,
  amo_not_symmetric, amo_misaligned, team_not_member, invalid_team, team_pe_out_of_range, broadcast_root,
  iput_bad_stride, iget_span_overflow, collect_not_symmetric, signal_op_unknown
};

// `team`: a team of one PE (this one), made by shmem_team_split_strided before the launch.
__global__ void bad_call_kernel(gio::device_handle h, bad which, int* sym, int* not_sym, gio::shmem_team_t team) {
  const gio::ctx c = gio::ctx_default(h);
  switch (which) {
    case bad::pe_out_of_range: gio::shmem_ctx_putmem(c, sym, not_sym, sizeof(int), 5); break;
    case bad::not_symmetric: gio::shmem_ctx_putmem(c, not_sym, sym, sizeof(int), 0); break;
    case bad::size_overflow: gio::shmem_put(c, sym, not_sym, SIZE_MAX / 2, 0); break;
    case bad::past_heap_end: gio::shmem_ctx_getmem(c, not_sym, sym, h.heap_size, 0); break;
    case bad::bad_comparison: gio::shmem_wait_until(c, sym, 9, 7); break;
    case bad::wait_timeout: gio::shmem_wait_until(c, sym, gio::SHMEM_CMP_EQ, 7); break;  // nobody writes 7
    case bad::amo_not_symmetric: gio::shmem_atomic_fetch_add(c, not_sym, 1, 0); break;
    case bad::amo_misaligned: gio::shmem_ctx_int_atomic_add(c, reinterpret_cast<int*>(reinterpret_cast<char*>(sym) + 2), 1, 0); break;
    // The last slot of the team table holds no team on this PE: a handle of a team it is not in.
    case bad::team_not_member: gio::shmem_team_sync(c, h.max_teams - 1); break;
    case bad::invalid_team: gio::shmem_barrier(c, gio::SHMEM_TEAM_INVALID); break;
    case bad::team_pe_out_of_range: {
      // PE 1 of a one-PE team (in the 2-PE run, PE 1 of WORLD exists: the team's size counts).
      const gio::ctx on_team = gio::ctx_default(h, team);
      gio::shmem_ctx_putmem(on_team, sym, not_sym, sizeof(int), 1);
      break;
    }
    case bad::broadcast_root: gio::shmem_broadcast(c, gio::SHMEM_TEAM_WORLD, sym, sym + 4, 1, h.n_pes); break;
    case bad::iput_bad_stride: gio::shmem_iput(c, sym, not_sym, 0, 1, 4, 0); break;
    case bad::iget_span_overflow: gio::shmem_iget(c, not_sym, sym, 1, PTRDIFF_MAX, 3, 0); break;
    case bad::collect_not_symmetric: gio::shmem_collect(c, gio::SHMEM_TEAM_WORLD, not_sym, sym, 2); break;
    case bad::signal_op_unknown:
      gio::shmem_signal_op(c, reinterpret_cast<std::uint64_t*>(sym), 1, 7, 0);
      break;
  }
}

struct named_case {
  const char* name;
  bad which;
};
constexpr named_case cases[] = {
    {"pe_out_of_range", bad::pe_out_of_range},     {"not_symmetric", bad::not_symmetric},
    {"size_overflow", bad::size_overflow},         {"past_heap_end", bad::past_heap_end},
    {"bad_comparison", bad::bad_comparison},       {"wait_timeout", bad::wait_timeout},
    {"amo_not_symmetric", bad::amo_not_symmetric}, {"amo_misaligned", bad::amo_misaligned},
    {"team_not_member", bad::team_not_member},     {"invalid_team", bad::invalid_team},
    {"team_pe_out_of_range", bad::team_pe_out_of_range}, {"broadcast_root", bad::broadcast_root},
    {"iput_bad_stride", bad::iput_bad_stride},     {"iget_span_overflow", bad::iget_span_overflow},
    {"collect_not_symmetric", bad::collect_not_symmetric}, {"signal_op_unknown", bad::signal_op_unknown},
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
    gio::shmem_team_t team = gio::SHMEM_TEAM_INVALID;
    // PE 0 alone: with 2 PEs, PE 1 gets SHMEM_TEAM_INVALID, and its context (a team of no PEs)
    // traps the same call, so that both PEs leave the same way.
    if (chosen->which == bad::team_pe_out_of_range &&
        gio::shmem_team_split_strided(gio::SHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, &team) != 0) {
      std::printf("shmem_team_split_strided failed\n");
      return 2;
    }
    bad_call_kernel<<<1, 1>>>(gio::shmem_device_handle(), chosen->which, sym, not_sym, team);
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
