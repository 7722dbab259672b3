// What the work-stealing kernel is given (by value) and where its shared state lives. Both
// compilers see this header: the host part fills run_config, the kernel reads it.
#pragma once
#include <cstdint>
#include <type_traits>

#include "gio/device/ws/task.hpp"

namespace gio::ws {

enum class termination : std::uint32_t {
  counter = 0,  // one count of idle workers, on PE 0
  tree = 1,     // a two-level tree: each PE counts its idle workers, PE 0 counts the PEs whose workers all are
};
enum class placement : std::uint32_t {
  symmetric = 0,  // public queues in the symmetric heap: peers steal through gio (load/store or gda)
  host = 1,       // public queues of every PE of the node in one pinned host area (the thesis's design)
};
enum class scheduling : std::uint32_t {
  stealing = 0,     // work stealing with termination detection
  fixed_share = 1,  // each worker runs its equal share of the initial tasks and what they spawn
};

// A worker's public queue header; the ring of tasks follows the headers (layout below).
struct alignas(128) queue_header {
  std::uint64_t meta;             // the SWS word (sws.hpp)
  std::uint64_t unused0[7];
  std::uint64_t completed[2];     // per epoch: tasks whose copy thieves finished (they add to it)
  std::uint64_t unused1[6];
};
static_assert(sizeof(queue_header) == 128, "one header per worker, metadata and completions on separate lines");

// Termination words of one PE: counter mode uses PE 0's idle_workers; tree mode every PE's
// idle_workers (its own workers) and PE 0's idle_pes.
// PE 0's abort word stops every worker when one fails. Each PE's `verdict` is what its watcher
// (its worker 0, once idle) last saw of PE 0's words: 0 nothing yet, a run_error code, or
// verdict_all_idle; the PE's other idle workers read only it (docs/worksteal.md, "Termination
// detection").
struct alignas(128) termination_words {
  std::uint64_t idle_workers;
  std::uint64_t unused0[15];
  std::uint64_t idle_pes;
  std::uint64_t unused1[15];
  std::uint64_t abort;
  std::uint64_t unused2[15];
  std::uint64_t verdict;
  std::uint64_t unused3[15];
};
static_assert(sizeof(termination_words) == 512, "the counts, the abort word and the verdict on separate lines");
inline constexpr std::uint64_t verdict_all_idle = ~std::uint64_t{0};

// Victims by distance: on this GPU (this PE, or a PE sharing the GPU), another GPU of this node,
// another node.
inline constexpr int distance_classes = 3;

struct worker_stats {
  std::uint64_t executed;
  std::uint64_t steal_attempts[distance_classes];   // fetch-adds on a victim's word
  std::uint64_t steal_successes[distance_classes];  // of which took tasks
  std::uint64_t stolen_tasks[distance_classes];
  std::uint64_t damped;      // victims skipped after one fetch showed no work
  std::uint64_t released;    // tasks moved from the local to the public queue
  std::uint64_t acquired;    // tasks moved back from the public queue
  std::uint64_t spilled;     // tasks that overflowed the local queue into the spill stack
  std::uint64_t idle_entries;  // times the worker counted itself idle
  std::uint64_t tally[2];      // the program's sums (spawner::tally)
  std::uint64_t tally_max;     // the program's maximum (spawner::tally_max)
  std::uint64_t first_idle_ns;  // when the worker first counted itself idle (this GPU's clock; 0: never)
  std::uint64_t initial_out_ns;  // when it first found its PE's initial set exhausted (0: never)
  std::uint64_t last_work_ns;    // when a phase of tasks last left it with nothing queued (0: never)
  // The first idle transition step by step, ns (0: never idle): the steal attempt that failed,
  // closing the queue (its lock, the thieves' completions, the new epoch), the release fence,
  // the idle count. Saturates at ~4.3 s.
  std::uint32_t idle_steps_ns[4];
};
static_assert(sizeof(worker_stats) == 184, "read back as an array");

enum class run_error : std::uint32_t {
  none = 0,
  spill_overflow = 1,   // spawned tasks exceeded the local queue plus the spill stack
  unknown_tag = 2,      // a task whose tag is not in the program's task list
  wait_timeout = 3,     // a wait for thieves' completions outlasted GIO_WAIT_TIMEOUT
};

struct run_config {
  std::uint32_t workers;          // per PE, the same on every participating PE
  std::uint32_t pes;              // participating PEs: 0 .. pes-1
  std::uint32_t local_capacity;   // tasks in each worker's shared-memory queue
  std::uint32_t public_capacity;  // tasks in each public queue (a power of two)
  std::uint32_t spill_capacity;   // tasks in each worker's spill stack (device memory)
  std::uint32_t max_steal;        // most tasks one steal takes
  std::uint32_t phase_tasks;      // most tasks a phase takes from the local queue
  std::uint32_t same_gpu_bias;    // probability x 65536 that a thief picks a victim on its own GPU
  std::uint32_t same_node_bias;   // of the rest, probability x 65536 that it stays in the node
  termination term;
  std::uint32_t watch_busy_phases;  // options::watch_busy_phases
  std::uint32_t share_min_ns;     // options::share_min_ns
  scheduling sched;
  placement where;
  std::uint32_t near_count;       // other PEs of this node (their GPUs or this one)
  char* queues;                   // headers then rings: symmetric (same address on every PE), or host
  std::uint64_t pe_stride;        // host placement: bytes from one PE's queues to the next
  std::uint64_t ring_offset;      // from `queues` to the first ring
  termination_words* term_words;  // symmetric, or host (one per PE, pe_stride_term apart)
  std::uint64_t term_stride;      // host placement: bytes between PEs' termination words
  task* spill;                    // this PE's device memory: workers x spill_capacity
  std::uint64_t initial_count;    // tasks Program::initial(i) makes on this PE
  unsigned long long* initial_next;  // this PE's claim counter over them (device memory)
  worker_stats* stats;            // this PE's device memory, one per worker
  std::uint32_t* error;           // run_error, first one wins
  std::uint64_t* error_detail;    // worker and value of the first error
  const std::int32_t* near_pes;   // near_count PEs of this node, then the others (pes - 1 in all)
  const std::uint8_t* pe_distance;  // per PE: 0 this GPU, 1 this node, 2 another node
  std::uint64_t seed;
  std::uint64_t* timestamps;      // this PE's device memory: [0] first worker start, [1] last exit (ns)
  std::uint64_t wait_timeout_ns;  // bound of the runtime's own waits; 0 = none
};
static_assert(std::is_trivially_copyable_v<run_config>, "passed to the kernel by value");

// Bytes of dynamic shared memory a worker needs.
GIO_HOST_DEVICE_INLINE std::uint64_t worker_shared_bytes(std::uint32_t local_capacity, std::uint32_t total_workers) {
  return std::uint64_t{local_capacity} * sizeof(task) + ((total_workers + 31) / 32) * 4;
}

}  // namespace gio::ws
