// gio-bench-floor: the hardware floor of the 1-thread flag ping-pong on this machine, next to
// gio's own calls, in one run (2 PEs under mpirun). Lent machines differ by up to 0.2 us in this
// floor, so gio's figures are reported beside the floor measured with them.
//   floor              st.relaxed.sys to the address shmem_ptr gives; poll with ld.acquire.sys
//   gio                shmem_p + shmem_wait_until, context in shared memory (ctx_create_wg)
//   gio-ctx-registers  the same calls with ctx_default (context in registers)
// Output: gio-bench's CSV rows (rows.hpp), system,pingpong_p,thread,8,1,1,<one-way us>,us (median of
// 7 runs).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gio/device.hpp"
#include "gio/host.hpp"
#include "rows.hpp"
#include "support/gpu_runtime.hpp"

namespace {

using u64 = std::uint64_t;
enum class path { floor, gio_shared_ctx, gio_register_ctx };

template <path P>
__global__ void flag_pingpong(gio::device_handle h, u64* flag, u64* peer_flag_raw, int peer, bool initiator,
                              unsigned warmup, unsigned timed, u64 first, u64* elapsed_ns) {
  __shared__ gio::ctx storage;
  const gio::ctx& shared_ctx = gio::ctx_create_wg(h, storage);
  const gio::ctx register_ctx = gio::ctx_default(h);
  const gio::ctx& c = P == path::gio_register_ctx ? register_ctx : shared_ctx;
  auto send = [&](u64 s) {
    if constexpr (P == path::floor) gio::platform::st_relaxed_sys(peer_flag_raw, s);
    else gio::shmem_p(c, flag, s, peer);
  };
  auto wait = [&](u64 s) {
    if constexpr (P == path::floor) {
      while (gio::platform::ld_acquire_sys(flag) != s) {}
    } else {
      gio::shmem_wait_until(c, flag, gio::SHMEM_CMP_EQ, s);
    }
  };
  u64 start = 0;
  for (unsigned i = 0; i < warmup + timed; ++i) {
    if (i == warmup) start = gio::platform::timer_ns();
    const u64 s = first + i;
    if (initiator) {
      send(s);
      wait(s);
    } else {
      wait(s);
      send(s);
    }
  }
  if (initiator) *elapsed_ns = gio::platform::timer_ns() - start;
}

template <path P> double one_way_us(u64* flag, int me, u64& sequence) {
  constexpr unsigned warmup = 1000, timed = 20000, runs = 7;
  const int peer = 1 - me;
  u64* elapsed = static_cast<u64*>(support::gpu::malloc_device(sizeof(u64)));
  std::vector<double> us;
  for (unsigned r = 0; r < runs; ++r) {
    gio::shmem_barrier_all();
    flag_pingpong<P><<<1, 1>>>(gio::shmem_device_handle(), flag, static_cast<u64*>(gio::shmem_ptr(flag, peer)), peer,
                               me == 0, warmup, timed, sequence, elapsed);
    support::gpu::check_launch("flag_pingpong");
    support::gpu::synchronize();
    sequence += warmup + timed;
    u64 ns = 0;
    support::gpu::copy_to_host(&ns, elapsed, sizeof ns);
    us.push_back(double(ns) / (2.0 * timed) / 1e3);
  }
  support::gpu::free_device(elapsed);
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::string csv_path;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--csv") csv_path = argv[i + 1];
  int status = 0;
  try {
    gio::shmem_init();
    const int me = gio::shmem_my_pe();
    if (gio::shmem_n_pes() != 2) throw gio::error(me, "gio-bench-floor runs on exactly 2 PEs");
    auto* flag = static_cast<u64*>(gio::shmem_calloc(16, sizeof(u64)));
    u64 sequence = 1;
    const double floor_us = one_way_us<path::floor>(flag, me, sequence);
    const double shared_us = one_way_us<path::gio_shared_ctx>(flag, me, sequence);
    const double register_us = one_way_us<path::gio_register_ctx>(flag, me, sequence);
    if (me == 0) {
      bench::csv_writer out(csv_path, true);
      out.row("floor", "pingpong_p", "thread", sizeof(u64), 1, 1, floor_us, "us");
      out.row("gio-shared-ctx", "pingpong_p", "thread", sizeof(u64), 1, 1, shared_us, "us");
      out.row("gio-ctx-registers", "pingpong_p", "thread", sizeof(u64), 1, 1, register_us, "us");
    }
    gio::shmem_free(flag);
    gio::shmem_finalize();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
