// A task-parallel program on gio's work-stealing runtime (gio::ws): a binary tree of tasks that
// only PE 0 starts. Each task counts itself and, above the leaves, spawns its two children; the
// other PEs' workers get work only by stealing it. Every task runs exactly once, so the PEs'
// counts add up to the tree's size.
//
//   mpirun -np 2 ./worksteal_tree
#include <gio/host.hpp>
#include <gio/ws.hpp>

#include <cstdint>
#include <cstdio>

namespace {
constexpr std::uint32_t depth = 16;  // a tree of 2^17 - 1 tasks per root
constexpr std::uint64_t roots = 4;

struct tree_program;
// A task type: a trivially copyable functor of at most 28 bytes, run by one thread.
struct subtree {
  std::uint32_t levels;  // levels below this task
  template <class Spawn> GIO_DEVICE void operator()(const tree_program&, Spawn& spawn) const {
    spawn.tally(0, 1);  // this task ran (summed per worker, read after the run)
    if (levels > 0) {
      spawn.spawn(subtree{levels - 1});
      spawn.spawn(subtree{levels - 1});
    }
  }
};
struct tree_program {
  using tasks = gio::ws::task_list<subtree>;  // the program's task types (the tag is the index)
  GIO_DEVICE gio::ws::task initial(std::uint64_t) const { return gio::ws::make_task<tasks>(subtree{depth}); }
};
}  // namespace

int main() {
  gio::shmem_init();
  const int me = gio::shmem_my_pe();
  bool right = false;
  {
    gio::ws::options options;  // every worker the GPU can hold, counter termination, symmetric queues
    gio::ws::runtime<tree_program> runtime(options);  // collective: the same options on every PE
    const gio::ws::run_result result = runtime.run(tree_program{}, me == 0 ? roots : 0);
    std::uint64_t ran = 0, stolen = 0;
    for (const gio::ws::worker_stats& w : result.workers) {
      ran += w.tally[0];
      for (std::uint64_t s : w.stolen_tasks) stolen += s;
    }
    // The PEs' counts, summed: symmetric buffers (GPU memory in GPU builds), written through gio.
    auto* mine = static_cast<std::uint64_t*>(gio::shmem_malloc(sizeof(std::uint64_t)));
    auto* total = static_cast<std::uint64_t*>(gio::shmem_malloc(sizeof(std::uint64_t)));
    gio::shmem_putmem(mine, &ran, sizeof ran, me);
    gio::shmem_barrier_all();
    gio::shmem_uint64_sum_reduce(gio::SHMEM_TEAM_WORLD, total, mine, 1);
    std::uint64_t sum = 0;
    gio::shmem_getmem(&sum, total, sizeof sum, me);
    const std::uint64_t expected = roots * ((std::uint64_t{1} << (depth + 1)) - 1);
    right = sum == expected;
    std::printf("worksteal_tree: PE %d ran %llu tasks (%llu stolen) on %d workers in %.3f ms; all PEs %llu of %llu\n",
                me, static_cast<unsigned long long>(ran), static_cast<unsigned long long>(stolen), runtime.workers(),
                result.seconds * 1e3, static_cast<unsigned long long>(sum), static_cast<unsigned long long>(expected));
    gio::shmem_free(total);
    gio::shmem_free(mine);
  }
  gio::shmem_finalize();
  return right ? 0 : 1;
}
