// worksteal-steal-latency (over gio) and worksteal-steal-latency-nvshmem: what one steal costs the
// thief (docs/worksteal.md), through the runtime's own placement and thief code
// (gio/device/ws: symmetric_queues over the App's comm, claim_slice, report_copied): the fetch-add
// that claims a slice of a victim's public queue with its acquire, the workgroup copy of 32 tasks
// into shared memory, and the completion add, timed with the GPU's global timer on the thief. The
// victim is another workgroup of the same GPU, or (with 2 PEs) a workgroup of the other PE's GPU.
// Median of `--rounds` steals after a warm-up. Included by one translation unit per program.
//
//   mpirun -np 1|2 worksteal-steal-latency[-nvshmem] [--rounds N]
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "gio/ws.hpp"
#include "reference.hpp"
#include "support/failure.hpp"
#include "support/gpu_runtime.hpp"
#include "support/options.hpp"

namespace worksteal::steal_latency {

namespace gpu = support::gpu;
namespace ws = gio::ws;

constexpr std::uint32_t slice = 32;            // tasks per steal
constexpr std::uint32_t capacity = 4 * slice;  // the victim's ring
constexpr unsigned threads = 128;
constexpr std::uint64_t patience_ns = 10'000'000'000ull;  // a round's wait that gives up (never hang)
constexpr unsigned long long failed = ~0ull;               // a round's time when it went wrong

struct shared_words {  // symmetric: one worker's queue as the runtime lays it out, and a flag
  ws::queue_header header;
  ws::task ring[capacity];
  std::uint64_t round_ready;  // the victim's round, for the thief
};

// The runtime's layout for one worker with a `capacity`-task ring at `w`.
inline ws::run_config layout_of(shared_words* w) {
  ws::run_config cfg{};
  cfg.workers = 1;
  cfg.public_capacity = capacity;
  cfg.queues = reinterpret_cast<char*>(w);
  cfg.ring_offset = offsetof(shared_words, ring);
  return cfg;
}

// Polls `pe`'s `word` through the placement until it reaches `value`, then acquires (as the
// worker's waits do: what was written before the word is visible after); false after patience_ns.
template <class Queues> GIO_DEVICE bool wait_at_least(const Queues& q, std::uint64_t* word, int pe, std::uint64_t value) {
  const std::uint64_t start = gio::platform::timer_ns();
  while (q.fetch(word, pe) < value)
    if (gio::platform::timer_ns() - start > patience_ns) return false;
  gio::platform::fence_acq_rel_system();
  return true;
}

// Victim: publishes 2 x slice tasks per round (so steal 0 takes exactly `slice` with
// max_steal = slice), waits for the thief's completion, closes the epoch. Thief: waits for the
// round, then claim + copy + completion, timed.
template <class Comm>
__global__ void __launch_bounds__(threads)
    steal_rounds(typename Comm::handle h, ws::run_config cfg, shared_words* w, int victim_pe, int thief_pe,
                 unsigned victim_wg, unsigned thief_wg, int distance, unsigned rounds, unsigned long long* times) {
  __shared__ typename Comm::ctx_storage storage;
  __shared__ ws::task local[slice];
  __shared__ std::uint64_t word;
  __shared__ int gave_up;
  const typename Comm::ctx& c = Comm::open_wg(h, storage);
  const ws::symmetric_queues<Comm> q(c, cfg);
  const int me = q.my_pe();
  const bool leader = threadIdx.x == 0;
  if (leader) gave_up = 0;
  __syncthreads();
  if (me == victim_pe && blockIdx.x == victim_wg) {
    ws::task* ring = q.ring(me, 0);
    for (unsigned r = 1; r <= rounds && !gave_up; ++r) {
      const std::uint32_t tail = (r * 2 * slice) & ws::sws_position_mask;
      for (unsigned i = threadIdx.x; i < 2 * slice; i += blockDim.x) {
        ws::task t{};
        t.tag = r;
        ring[(tail + i) % capacity] = t;
      }
      __syncthreads();
      if (leader) {
        ws::sws_word open;
        open.tail = tail;
        open.count = 2 * slice;
        open.epoch = r & 1u;
        q.fence();  // the workgroup's ring stores (after the barrier) before the word
        q.set(&q.header(me, 0)->meta, ws::sws_pack(open), me);
        q.fence();
        q.set(&w->round_ready, r, thief_pe);  // the thief's copy of the flag
        // Rounds of this epoch's parity so far, each one slice.
        if (!wait_at_least(q, &q.header(me, 0)->completed[r & 1u], me, std::uint64_t{(r + (r & 1u)) / 2} * slice))
          gave_up = 1;
      }
      __syncthreads();
    }
  } else if (me == thief_pe && blockIdx.x == thief_wg) {
    const ws::task* ring = q.ring(victim_pe, 0);
    for (unsigned r = 1; r <= rounds; ++r) {
      if (leader && !wait_at_least(q, &w->round_ready, me, r)) gave_up = 1;
      __syncthreads();
      if (gave_up) {
        if (leader) times[r - 1] = failed;
        break;
      }
      const std::uint64_t start = gio::platform::timer_ns();
      const ws::victim_path path = q.path_to(victim_pe);  // every thread's own: the copy needs it too
      if (leader) word = ws::sws_pack(ws::claim_slice(q, &q.header(victim_pe, 0)->meta, victim_pe, distance, path));
      __syncthreads();
      const ws::sws_word seen = ws::sws_unpack(word);
      const ws::sws_slice s = ws::sws_steal_slice(seen.count, seen.steals, slice);
      q.get_wg(local, ring + (seen.tail + s.offset) % capacity, s.size, victim_pe, path);
      __syncthreads();
      if (leader) {
        ws::report_copied(q, &q.header(victim_pe, 0)->completed[seen.epoch], s.size, victim_pe, distance == 0, path);
        times[r - 1] = gio::platform::timer_ns() - start;
        if (s.size != slice || local[0].tag != r || local[slice - 1].tag != r) times[r - 1] = failed;  // wrong slice
      }
      __syncthreads();
    }
  }
}

template <class App> int run(int argc, char** argv, MPI_Comm comm) {
  using Comm = typename App::comm;
  const std::string program = std::string("worksteal-steal-latency") + (App::kind == build_kind::nvshmem ? "-nvshmem" : "");
  int pe = 0, pes = 1;
  MPI_Comm_rank(comm, &pe);
  MPI_Comm_size(comm, &pes);
  unsigned rounds = 2000;
  std::string cause;
  try {
    support::option_parser p(program, std::string("One steal's cost to the thief over ") + App::name +
                                          ": claim, copy of 32 tasks, completion.");
    p.value("--rounds", "N", "steals timed per case (default 2000)",
            [&](const std::string& v) { rounds = static_cast<unsigned>(support::parse_positive("--rounds", v)); });
    if (!p.parse(argc, argv)) {
      if (pe == 0) std::fputs(p.help().c_str(), stdout);
      return 0;
    }
    if (pes > 2) throw support::usage_error("run with 1 or 2 PEs");
  } catch (const support::usage_error& e) {
    cause = e.what();
  }
  support::agree(comm, cause, support::exit_usage);
  const typename App::session session(comm);
  auto* w = static_cast<shared_words*>(Comm::allocate(sizeof(shared_words)));
  if (!w) cause = "the symmetric heap has no room for " + std::to_string(sizeof(shared_words)) + " bytes";
  support::agree(comm, cause);
  gpu::device_memory times(rounds * sizeof(unsigned long long));
  struct which { const char* name; int victim_pe, thief_pe; unsigned victim_wg, thief_wg; };
  std::vector<which> cases{{"same GPU", 0, 0, 0, 1}};
  if (pes == 2) {
    const bool shared = Comm::distance(1 - pe) == 0;  // both PEs on one GPU (as in gpu-check's one-GPU run)
    cases.push_back({shared ? "other PE on the same GPU" : "across NVLink (other PE's GPU)", 0, 1, 0, 0});
    support::agree(comm, Comm::unstealable(1 - pe).empty() ? "" : "the other PE: " + Comm::unstealable(1 - pe));
  }
  for (const which& k : cases) {
    gpu::fill(w, 0, sizeof(shared_words));
    gpu::fill(times.as<void>(), 0, rounds * sizeof(unsigned long long));
    gpu::synchronize();
    Comm::barrier_all();
    steal_rounds<Comm><<<2, threads>>>(Comm::kernel_handle(), layout_of(w), w, k.victim_pe, k.thief_pe, k.victim_wg,
                                       k.thief_wg, Comm::distance(k.victim_pe), rounds, times.as<unsigned long long>());
    gpu::check_launch("steal_rounds");
    gpu::synchronize();
    Comm::barrier_all();
    if (pe == k.thief_pe) {
      std::vector<unsigned long long> t(rounds);
      gpu::copy_to_host(t.data(), times.as<void>(), rounds * sizeof(unsigned long long));
      const bool bad = std::count(t.begin(), t.end(), failed) > 0;
      std::vector<unsigned long long> timed(t.begin() + rounds / 10, t.end());  // the first tenth warms up
      std::sort(timed.begin(), timed.end());
      std::printf("steal latency (%s), %s: median %.3f us, p10 %.3f, p90 %.3f (%zu steals of %u tasks)%s\n", App::name,
                  k.name, timed[timed.size() / 2] * 1e-3, timed[timed.size() / 10] * 1e-3,
                  timed[timed.size() * 9 / 10] * 1e-3, timed.size(), slice, bad ? "  FAILED" : "");
      std::fflush(stdout);
      if (bad) cause = std::string("a steal took the wrong slice, or a wait gave up after 10 s (") + k.name + ")";
    }
    support::agree(comm, cause);
  }
  Comm::release(w);
  return 0;
}

// main() of a steal-latency program over App's library.
template <class App> int run_program(int argc, char** argv) {
  support::set_program_name(argv[0]);
  return support::run_mpi_main(argc, argv, MPI_THREAD_SERIALIZED,
                               [&](MPI_Comm comm) { return run<App>(argc, argv, comm); });
}

}  // namespace worksteal::steal_latency
