// worksteal-steal-latency: what one steal costs the thief (docs/worksteal.md): the fetch-add that
// claims a slice of a victim's public queue, the workgroup copy of 32 tasks into shared memory,
// and the completion add, timed with %globaltimer on the thief, through the runtime's own
// placement (device/ws/placement.hpp). The victim is another workgroup of the same GPU, or (with 2
// PEs) a workgroup of the other PE's GPU. Median of `--rounds` steals after a warm-up.
//
//   mpirun -np 1|2 worksteal-steal-latency [--rounds N]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "support/failure.hpp"
#include "support/options.hpp"
#include "gio/device.hpp"
#include "gio/ws.hpp"
#include "support/gpu_runtime.hpp"

namespace {

namespace gpu = support::gpu;
namespace ws = gio::ws;

constexpr std::uint32_t slice = 32;            // tasks per steal
constexpr std::uint32_t capacity = 4 * slice;  // the victim's ring
constexpr unsigned threads = 128;

struct shared_words {      // symmetric
  ws::queue_header header;
  ws::task ring[capacity];
  std::uint64_t round_ready;  // the victim's round, for the thief
};

// Victim: publishes 2 x slice tasks per round (so steal 0 takes exactly `slice` with
// max_steal = slice), waits for the thief's completion, closes the epoch. Thief: waits for the
// round, then claim + copy + completion, timed.
__global__ void __launch_bounds__(threads)
    steal_rounds(gio::device_handle h, shared_words* w, int victim_pe, int thief_pe, unsigned victim_wg, unsigned thief_wg,
                 unsigned rounds, unsigned long long* times) {
  __shared__ gio::ctx storage;
  __shared__ ws::task local[slice];
  __shared__ std::uint64_t word;
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  const int me = gio::shmem_my_pe(c);
  const bool leader = threadIdx.x == 0;
  const unsigned wg = blockIdx.x;
  if (me == victim_pe && wg == victim_wg) {
    for (unsigned r = 1; r <= rounds; ++r) {
      const std::uint32_t tail = (r * 2 * slice) & ws::sws_position_mask;
      for (unsigned i = threadIdx.x; i < 2 * slice; i += blockDim.x) {
        ws::task t{};
        t.tag = r;
        w->ring[(tail + i) % capacity] = t;
      }
      __syncthreads();
      if (leader) {
        ws::sws_word open;
        open.tail = tail;
        open.count = 2 * slice;
        open.epoch = r & 1u;
        gio::shmem_fence(c);
        gio::shmem_ctx_uint64_atomic_set(c, &w->header.meta, ws::sws_pack(open), me);
        gio::shmem_fence(c);
        gio::shmem_ctx_uint64_atomic_set(c, &w->round_ready, r, thief_pe);  // the thief's copy of the flag
        // Rounds of this epoch's parity so far, each one slice.
        gio::shmem_uint64_wait_until(c, &w->header.completed[r & 1u], gio::SHMEM_CMP_GE,
                                     std::uint64_t{(r + (r & 1u)) / 2} * slice);
      }
      __syncthreads();
    }
  } else if (me == thief_pe && wg == thief_wg) {
    for (unsigned r = 1; r <= rounds; ++r) {
      if (leader) gio::shmem_uint64_wait_until(c, &w->round_ready, gio::SHMEM_CMP_GE, std::uint64_t{r});
      __syncthreads();
      const std::uint64_t start = gio::platform::timer_ns();
      if (leader) {
        word = gio::shmem_ctx_uint64_atomic_fetch_add(c, &w->header.meta, ws::sws_steal_increment, victim_pe);
        gio::platform::fence_acq_rel_system();
      }
      __syncthreads();
      const ws::sws_word seen = ws::sws_unpack(word);
      const ws::sws_slice s = ws::sws_steal_slice(seen.count, seen.steals, slice);
      gio::shmem_ctx_getmem_wg(c, local, w->ring + (seen.tail + s.offset) % capacity, s.size * sizeof(ws::task), victim_pe);
      if (leader) {
        gio::shmem_fence(c);
        gio::shmem_ctx_uint64_atomic_add(c, &w->header.completed[seen.epoch], s.size, victim_pe);
        times[r - 1] = gio::platform::timer_ns() - start;
        if (s.size != slice || local[0].tag != r || local[slice - 1].tag != r) times[r - 1] = ~0ull;  // wrong slice
      }
      __syncthreads();
    }
  }
}

int run(int argc, char** argv, MPI_Comm comm) {
  int pe = 0, pes = 1;
  MPI_Comm_rank(comm, &pe);
  MPI_Comm_size(comm, &pes);
  unsigned rounds = 2000;
  std::string cause;
  try {
    support::option_parser p("worksteal-steal-latency", "One steal's cost to the thief: claim, copy of 32 tasks, completion.");
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
  gio::shmem_init();
  gpu::set_device(gio::shmem_runtime_report().gpu);
  auto* w = static_cast<shared_words*>(gio::shmem_calloc(1, sizeof(shared_words)));
  gpu::device_memory times(rounds * sizeof(unsigned long long));
  struct which { const char* name; int victim_pe, thief_pe; unsigned victim_wg, thief_wg; };
  std::vector<which> cases{{"same GPU", 0, 0, 0, 1}};
  if (pes == 2) cases.push_back({"across NVLink (other PE's GPU)", 0, 1, 0, 0});
  for (const which& k : cases) {
    gpu::fill(w, 0, sizeof(shared_words));
    gpu::synchronize();
    gio::shmem_barrier_all();
    steal_rounds<<<2, threads>>>(gio::shmem_device_handle(), w, k.victim_pe, k.thief_pe, k.victim_wg, k.thief_wg, rounds,
                                 times.as<unsigned long long>());
    gpu::check_launch("steal_rounds");
    gpu::synchronize();
    gio::shmem_barrier_all();
    if (pe == k.thief_pe) {
      std::vector<unsigned long long> t(rounds);
      gpu::copy_to_host(t.data(), times.as<void>(), rounds * sizeof(unsigned long long));
      const bool bad = std::count(t.begin(), t.end(), ~0ull) > 0;
      std::vector<unsigned long long> timed(t.begin() + rounds / 10, t.end());  // the first tenth warms up
      std::sort(timed.begin(), timed.end());
      std::printf("steal latency, %s: median %.3f us, p10 %.3f, p90 %.3f (%zu steals of %u tasks)%s\n", k.name,
                  timed[timed.size() / 2] * 1e-3, timed[timed.size() / 10] * 1e-3, timed[timed.size() * 9 / 10] * 1e-3,
                  timed.size(), slice, bad ? "  WRONG SLICE SEEN" : "");
      std::fflush(stdout);
      if (bad) cause = "a steal took the wrong slice";
    }
    support::agree(comm, cause);
  }
  gio::shmem_free(w);
  gio::shmem_finalize();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  support::set_program_name(argv[0]);
  return support::run_mpi_main(argc, argv, MPI_THREAD_SERIALIZED, [&](MPI_Comm comm) { return run(argc, argv, comm); });
}
