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
  iput_bad_stride, iget_span_overflow, collect_not_symmetric, signal_op_unknown, signal_set_pe_out_of_range,
  signal_add_not_symmetric, alltoalls_bad_stride, amo_pe_out_of_range
};

// `team`: a team of one PE (this one), made by shmem_team_split_strided before the launch. One
// kernel per case: hipcc takes several times longer over one kernel that holds all
// checked calls (docs/results.md, "Build and registers").
template <bad which>
__global__ void bad_call_kernel(gio::device_handle h, int* sym, int* not_sym, gio::shmem_team_t team) {
  const gio::ctx c = gio::ctx_default(h);
  if constexpr (which == bad::pe_out_of_range) gio::shmem_ctx_putmem(c, sym, not_sym, sizeof(int), 5);
  if constexpr (which == bad::not_symmetric) gio::shmem_ctx_putmem(c, not_sym, sym, sizeof(int), 0);
  if constexpr (which == bad::size_overflow) gio::shmem_put(c, sym, not_sym, SIZE_MAX / 2, 0);
  if constexpr (which == bad::past_heap_end) gio::shmem_ctx_getmem(c, not_sym, sym, h.heap_size, 0);
  if constexpr (which == bad::bad_comparison) gio::shmem_wait_until(c, sym, 9, 7);
  if constexpr (which == bad::wait_timeout) gio::shmem_wait_until(c, sym, gio::SHMEM_CMP_EQ, 7);  // nobody writes 7
  if constexpr (which == bad::amo_not_symmetric) gio::shmem_atomic_fetch_add(c, not_sym, 1, 0);
  if constexpr (which == bad::amo_misaligned)
    gio::shmem_ctx_int_atomic_add(c, reinterpret_cast<int*>(reinterpret_cast<char*>(sym) + 2), 1, 0);
  // The last slot of the team table holds no team on this PE: a handle of a team it is not in.
  if constexpr (which == bad::team_not_member) gio::shmem_team_sync(c, h.max_teams - 1);
  if constexpr (which == bad::invalid_team) gio::shmem_barrier(c, gio::SHMEM_TEAM_INVALID);
  if constexpr (which == bad::team_pe_out_of_range) {
    // PE 1 of a one-PE team (in the 2-PE run, PE 1 of WORLD exists: the team's size counts).
    const gio::ctx on_team = gio::ctx_default(h, team);
    gio::shmem_ctx_putmem(on_team, sym, not_sym, sizeof(int), 1);
  }
  if constexpr (which == bad::broadcast_root) gio::shmem_broadcast(c, gio::SHMEM_TEAM_WORLD, sym, sym + 4, 1, h.n_pes);
  if constexpr (which == bad::iput_bad_stride) gio::shmem_iput(c, sym, not_sym, 0, 1, 4, 0);
  if constexpr (which == bad::iget_span_overflow) gio::shmem_iget(c, not_sym, sym, 1, PTRDIFF_MAX, 3, 0);
  if constexpr (which == bad::collect_not_symmetric) gio::shmem_collect(c, gio::SHMEM_TEAM_WORLD, not_sym, sym, 2);
  if constexpr (which == bad::signal_op_unknown) gio::shmem_signal_op(c, reinterpret_cast<std::uint64_t*>(sym), 1, 7, 0);
  if constexpr (which == bad::signal_set_pe_out_of_range) gio::shmem_signal_set(c, reinterpret_cast<std::uint64_t*>(sym), 1, 5);
  if constexpr (which == bad::signal_add_not_symmetric)
    gio::shmem_signal_add(c, reinterpret_cast<std::uint64_t*>(not_sym), 1, 0);
  if constexpr (which == bad::alltoalls_bad_stride) gio::shmem_alltoalls(c, gio::SHMEM_TEAM_WORLD, sym, sym + 8, 1, 0, 2);
  // A negative PE: atomics check it before their one-test path reads the window (amo_core.hpp).
  if constexpr (which == bad::amo_pe_out_of_range) gio::shmem_atomic_fetch_add(c, sym, 1, -1);
}

// GIO_BAD_INPUT_NETWORK_SAMPLE (tests/gpu/CMakeLists.txt, compile-only sample builds): only the
// cases whose calls reach each kind of network entry (RMA, atomic, signal, collective) compile.
constexpr bool compiled(bad which) {
#if defined(GIO_BAD_INPUT_NETWORK_SAMPLE) && GIO_BAD_INPUT_NETWORK_SAMPLE
  return which == bad::pe_out_of_range || which == bad::amo_not_symmetric || which == bad::signal_add_not_symmetric ||
         which == bad::broadcast_root;
#else
  static_cast<void>(which);
  return true;
#endif
}

using bad_kernel = void (*)(gio::device_handle, int*, int*, gio::shmem_team_t);
struct named_case {
  const char* name;
  bad which;
  bad_kernel kernel;  // nullptr: not compiled in this build
};
template <bad which> constexpr named_case named(const char* name) {
  if constexpr (compiled(which)) return {name, which, bad_call_kernel<which>};
  else return {name, which, nullptr};
}
constexpr named_case cases[] = {
    named<bad::pe_out_of_range>("pe_out_of_range"),     named<bad::not_symmetric>("not_symmetric"),
    named<bad::size_overflow>("size_overflow"),         named<bad::past_heap_end>("past_heap_end"),
    named<bad::bad_comparison>("bad_comparison"),       named<bad::wait_timeout>("wait_timeout"),
    named<bad::amo_not_symmetric>("amo_not_symmetric"), named<bad::amo_misaligned>("amo_misaligned"),
    named<bad::team_not_member>("team_not_member"),     named<bad::invalid_team>("invalid_team"),
    named<bad::team_pe_out_of_range>("team_pe_out_of_range"), named<bad::broadcast_root>("broadcast_root"),
    named<bad::iput_bad_stride>("iput_bad_stride"),     named<bad::iget_span_overflow>("iget_span_overflow"),
    named<bad::collect_not_symmetric>("collect_not_symmetric"), named<bad::signal_op_unknown>("signal_op_unknown"),
    named<bad::signal_set_pe_out_of_range>("signal_set_pe_out_of_range"),
    named<bad::signal_add_not_symmetric>("signal_add_not_symmetric"),
    named<bad::alltoalls_bad_stride>("alltoalls_bad_stride"),
    named<bad::amo_pe_out_of_range>("amo_pe_out_of_range"),
};

}  // namespace

int main(int argc, char** argv) {
  const named_case* chosen = nullptr;
  for (const named_case& c : cases)
    if (argc == 2 && std::strcmp(argv[1], c.name) == 0) chosen = &c;
  if (chosen != nullptr && chosen->kernel == nullptr) {
    std::fprintf(stderr, "%s: not compiled in this build\n", chosen->name);
    return 2;
  }
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
    chosen->kernel<<<1, 1>>>(gio::shmem_device_handle(), sym, not_sym, team);
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
