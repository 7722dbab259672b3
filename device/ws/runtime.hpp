// The work-stealing runtime's host part: sizes the workers, allocates the queues (symmetric heap,
// or one pinned host area per node), and runs a program's persistent kernel, over a comm (gio's
// by default, comm_gio.hpp). Header-only and built by the GPU compiler, because the kernel is
// instantiated for the user's program.
#pragma once
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gio/device/ws/comm_gio.hpp"
#include "gio/device/ws/worker.hpp"
#include "gio/host.hpp"

namespace gio::ws {

// One persistent kernel per PE, one worker per workgroup.
template <class Program, class Queues>
__global__ void worker_kernel(typename Queues::comm::handle h, Program program, run_config cfg) {
  using comm = typename Queues::comm;
  __shared__ typename comm::ctx_storage storage;
  __shared__ detail::worker_state state;
  extern __shared__ uint4 gio_ws_dynamic_shared[];  // the local queue, then the damping bits
  const typename comm::ctx& c = comm::open_wg(h, storage);
  task* local = reinterpret_cast<task*>(gio_ws_dynamic_shared);
  const Queues queues(c, cfg);
  detail::worker<Program, Queues> w(program, cfg, queues, state, local,
                                    reinterpret_cast<std::uint32_t*>(local + cfg.local_capacity));
  w.run();
}

// Host placement's probe: every thread of every PE's GPU adds to one word of the node's host
// area at once; the total says whether GPU atomics on pinned host memory are atomic across GPUs.
__global__ void probe_host_atomics(std::uint64_t* word, unsigned rounds) {
  for (unsigned i = 0; i < rounds; ++i) platform::atomic_rmw_sys_bits<platform::rmw::add>(word, std::uint64_t{1});
}
// And message passing through it, as the queues use it: workgroup 0 stores a payload (plain
// store), fences and sets a flag (atomic); workgroup 1 reads the flag (atomic), fences, and must
// read that round's payload. Counts the rounds where it did not.
__global__ void probe_host_message_passing(std::uint64_t* payload, std::uint64_t* flag, unsigned rounds,
                                           unsigned long long* stale) {
  if (platform::thread_in_wg() != 0) return;
  constexpr unsigned patience = 1u << 20;  // polls before a round counts as failed (never hang)
  for (std::uint64_t r = 1; r <= rounds; ++r) {
    unsigned polls = 0;
    if (platform::wg_id() == 0) {
      *reinterpret_cast<volatile std::uint64_t*>(payload) = r;
      platform::fence_acq_rel_system();
      platform::atomic_rmw_sys_bits<platform::rmw::exchange>(flag, r);
      while (platform::atomic_rmw_sys_bits<platform::rmw::or_>(flag, std::uint64_t{0}) != 0 && ++polls < patience) {
      }
      if (polls == patience) atomicAdd(stale, 1ull);
    } else {
      while (platform::atomic_rmw_sys_bits<platform::rmw::or_>(flag, std::uint64_t{0}) != r && ++polls < patience) {
      }
      platform::fence_acq_rel_system();
      if (*payload != r) atomicAdd(stale, 1ull);
      platform::atomic_rmw_sys_bits<platform::rmw::exchange>(flag, std::uint64_t{0});
    }
  }
}

struct options {
  int workers = 0;                      // per PE; 0 = as many as can be co-resident on the GPU
  unsigned threads = 256;               // per worker
  std::uint32_t local_capacity = 1024;  // tasks in shared memory per worker
  std::uint32_t public_capacity = 4096; // tasks per public queue (a power of two, at most 2^19)
  std::uint32_t spill_capacity = 16384; // tasks per worker's spill stack
  std::uint32_t max_steal = 0;          // most tasks one steal takes; 0 = local_capacity / 2
  std::uint32_t phase_tasks = 0;        // most tasks one phase runs (any free thread takes the
                                        // next); 0 = threads. More evens out irregular tasks;
                                        // spawns need room above them in the local queue
  double same_gpu_bias = 0.95;          // probability that a thief's victim is on its own GPU
                                        // (measured, docs/worksteal.md "Victim selection")
  double same_node_bias = 0.9;          // of the rest, probability that it is on this node
  termination term = termination::counter;
  std::uint32_t share_min_ns = 4000;    // a worker holding at most a phase of tasks that spawn
                                        // nothing shares them only if its last phase took this
                                        // long (sharing costs a release, a steal and an acquire)
  std::uint32_t watch_busy_phases = 0;  // > 0: worker 0 also reads PE 0's abort word every this many
                                        // phases while it has work (a busy PE learns of another's
                                        // failure; the link to PE 0 stays in use); 0: only when idle
  scheduling sched = scheduling::stealing;
  placement where = placement::symmetric;
  int pes = 0;                          // PEs that run workers (0 .. pes-1); 0 = all
  std::uint64_t seed = 0x5eed;
};

// run() found that a worker failed: thrown on every PE (the others name the failed PE).
struct run_failure : error {
  using error::error;
};
// The placement asked for cannot work on this machine (thrown on every PE, at construction).
struct placement_unsupported : error {
  using error::error;
};
// The options cannot work (thrown on every PE, at construction: every PE checks the same values).
struct config_error : error {
  using error::error;
};

struct run_result {
  double seconds = 0;                 // this PE: first worker's start to last worker's exit
  std::uint64_t started_ns = 0;       // the first worker's start, on this PE's GPU clock (%globaltimer on NVIDIA)
  std::vector<worker_stats> workers;  // this PE's workers
  run_error error = run_error::none;
  std::uint32_t error_worker = 0;
  std::uint64_t executed() const {
    std::uint64_t n = 0;
    for (const auto& w : workers) n += w.executed;
    return n;
  }
};

template <class Program, class Comm = gio_comm> class runtime {
 public:
  // Collective over every PE: the same options everywhere. Throws gio::error naming the cause.
  explicit runtime(const options& opt) : opt_(opt) {
    me_ = Comm::my_pe();
    pes_ = opt.pes > 0 ? opt.pes : Comm::n_pes();
    if (pes_ > Comm::n_pes()) refuse("options.pes = " + std::to_string(pes_) + " but only " + std::to_string(Comm::n_pes()) + " PEs run");
    validate();
    refuse_unstealable_pes();
    workers_ = agree_on_workers();
    total_ = static_cast<std::uint32_t>(workers_) * static_cast<std::uint32_t>(pes_);
    if (total_ > 65536) refuse("too many workers in all (" + std::to_string(total_) + "; at most 65536)");
    allocate();
  }
  ~runtime() {
    if (opt_.where == placement::symmetric) {
      Comm::release(sym_area_);
    } else if (host_area_) {
      static_cast<void>(platform::host_unregister(host_area_));  // teardown: nothing to do about a failure
      munmap(host_area_, host_bytes_);
      if (host_owner_) shm_unlink(host_name_.c_str());
    }
    for (void* p : device_) static_cast<void>(platform::gpu_free(p));
  }
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  int workers() const { return workers_; }
  int pes() const { return pes_; }
  bool participating() const { return me_ < pes_; }

  // Collective: resets the queues, launches the workers on the participating PEs, waits for them.
  // `initial_count` tasks program.initial(i) makes start on this PE. Throws gio::error when a
  // worker failed (spill overflow, unknown tag, a wait that outlasted GIO_WAIT_TIMEOUT).
  run_result run(const Program& program, std::uint64_t initial_count) {
    reset();
    run_config cfg = cfg_;
    cfg.initial_count = participating() ? initial_count : 0;
    Comm::barrier_all();  // every queue reset before any thief looks
    run_result result;
    if (participating()) {
      const std::size_t shared = worker_shared_bytes(opt_.local_capacity, total_);
      with_kernel([&](auto kernel) {
        Comm::launch(kernel, static_cast<unsigned>(workers_), opt_.threads, shared, Comm::kernel_handle(), program, cfg);
      });
      check_gpu(platform::gpu_synchronize(), "running the workers");
      result.workers.resize(workers_);
      check_gpu(platform::gpu_copy(result.workers.data(), stats_, workers_ * sizeof(worker_stats)), "reading the statistics");
      std::uint64_t stamps[2];
      std::uint32_t err = 0;
      std::uint64_t detail_word = 0;
      check_gpu(platform::gpu_copy(stamps, stamps_, sizeof stamps), "reading the timestamps");
      check_gpu(platform::gpu_copy(&err, error_, sizeof err), "reading the error word");
      check_gpu(platform::gpu_copy(&detail_word, error_detail_, sizeof detail_word), "reading the error word");
      result.seconds = stamps[1] > stamps[0] ? (stamps[1] - stamps[0]) * 1e-9 : 0;
      result.started_ns = stamps[0];
      result.error = static_cast<run_error>(err);
      result.error_worker = static_cast<std::uint32_t>(detail_word >> 32);
    }
    Comm::barrier_all();  // nobody resets its queues while another PE's thief still reads them
    agree_on_errors(result);
    return result;
  }

  static std::string describe(const run_result& r) {
    std::string worker = "worker " + std::to_string(r.error_worker) + ": ";
    switch (r.error) {
      case run_error::spill_overflow:
        return worker + "spawned tasks overflowed the local queue and the spill stack (raise local_capacity or spill_capacity)";
      case run_error::unknown_tag: return worker + "a task's tag is not in the program's task_list";
      case run_error::wait_timeout: return worker + "thieves did not finish copying within GIO_WAIT_TIMEOUT";
      default: return "no error";
    }
  }

 private:
  [[noreturn]] void fail(const std::string& cause) const { throw error(me_, "gio::ws: " + cause); }
  [[noreturn]] void refuse(const std::string& cause) const { throw config_error(me_, "gio::ws: " + cause); }
  void check_gpu(platform::launch_status s, const char* what) const {
    if (!platform::launch_ok(s)) fail(std::string(what) + ": " + platform::launch_error_text(s));
  }

  // Collective: `mine` combined over every PE (min or max).
  template <class T> T over_every_pe(T mine, reduce_op op) {
    return static_cast<T>(Comm::over_every_pe(static_cast<long long>(mine), op));
  }

  // f(the worker kernel of this run's placement; host queues only where the comm has them).
  template <class F> decltype(auto) with_kernel(F&& f) const {
    if constexpr (Comm::host_placement) {
      if (opt_.where == placement::host) return f(worker_kernel<Program, host_queues<Comm>>);
    }
    return f(worker_kernel<Program, symmetric_queues<Comm>>);
  }

  // Every PE throws run_failure when a worker of any PE failed: the failed PE with its worker,
  // the others naming it.
  void agree_on_errors(const run_result& r) {
    const int worst = over_every_pe(r.error == run_error::none ? 0 : static_cast<int>(r.error) << 16 | me_, reduce_op::max);
    if (worst == 0) return;
    if (r.error != run_error::none) throw run_failure(me_, "gio::ws: " + describe(r));
    run_result other;
    other.error = static_cast<run_error>(worst >> 16);
    const std::string what = describe(other);
    throw run_failure(me_, "gio::ws: a worker of PE " + std::to_string(worst & 0xffff) + " failed: " +
                               what.substr(what.find(": ") + 2));
  }

  void validate() const {
    const auto pow2 = [](std::uint32_t v) { return v && !(v & (v - 1)); };
    // 2^19 at most: the 20-bit steal count must not wrap within an epoch (at most the queue's
    // steals plus the thieves' failed ones, which damping bounds).
    if (!pow2(opt_.public_capacity) || opt_.public_capacity > sws_max_capacity / 2)
      refuse("public_capacity must be a power of two up to 2^19 (got " + std::to_string(opt_.public_capacity) + ")");
    if (opt_.local_capacity < 2 * opt_.threads)
      refuse("local_capacity (" + std::to_string(opt_.local_capacity) + ") must hold two phases of " +
           std::to_string(opt_.threads) + " threads");
    if (opt_.threads == 0 || opt_.threads > 1024) refuse("threads must be 1 to 1024");
    if (max_steal() > opt_.local_capacity / 2) refuse("max_steal must be at most local_capacity / 2");
    if (opt_.phase_tasks > opt_.local_capacity) refuse("phase_tasks must be at most local_capacity");
    if (opt_.same_gpu_bias < 0 || opt_.same_gpu_bias > 1 || opt_.same_node_bias < 0 || opt_.same_node_bias > 1)
      refuse("the victim biases are probabilities (0 to 1)");
    if (opt_.where == placement::host && !Comm::host_placement) refuse("placement::host needs gio's comm");
  }
  std::uint32_t max_steal() const { return opt_.max_steal ? opt_.max_steal : opt_.local_capacity / 2; }

  // Collective: every PE refuses when any PE's thieves cannot reach a PE. Each PE judges from its
  // own view of the others; one that refused alone would leave the rest waiting in the next
  // collective (as the host placement's probe once did), so the verdict is taken together.
  void refuse_unstealable_pes() {
    std::string why;
    for (int pe = 0; pe < pes_ && why.empty(); ++pe) why = Comm::unstealable(pe);
    const int refusing = over_every_pe(why.empty() ? -1 : me_, reduce_op::max);
    if (refusing < 0) return;
    refuse(why.empty() ? "PE " + std::to_string(refusing) + "'s thieves cannot reach every PE"
                       : "thieves cannot reach every PE: " + why);
  }

  // Every PE runs the same worker count: the fewest any GPU can hold, or the one asked for, which
  // must fit everywhere (a worker that never starts would hang the termination detection).
  int agree_on_workers() {
    const std::size_t shared = worker_shared_bytes(opt_.local_capacity, 65536);
    // A local queue past the launch's default shared memory limit (48 KiB on NVIDIA) needs the
    // kernel's limit raised; beyond what the GPU has, the query below refuses it and says why.
    with_kernel([&](auto kernel) {
      if (!platform::launch_ok(platform::allow_dynamic_shared(reinterpret_cast<const void*>(kernel), shared)))
        static_cast<void>(platform::gpu_last_error());
    });
    const int fit = with_kernel([&](auto kernel) { return Comm::max_coresident(kernel, opt_.threads, shared); });
    const int fewest = over_every_pe(participating() ? fit : 1 << 30, reduce_op::min);
    if (fewest < 1) {
      int gpu = 0;
      check_gpu(platform::current_gpu(&gpu), "finding the current GPU");
      // The kernel's own figures (registers, launch bounds, shared memory), whatever the comm.
      const std::string why = with_kernel([&](auto kernel) {
        return gio::detail::workgroup_misfit(reinterpret_cast<const void*>(kernel), opt_.threads, shared, gpu);
      });
      refuse("not even one worker of " + std::to_string(opt_.threads) + " threads fits on a GPU" +
             (why.empty() ? std::string() : " (" + why + ")"));
    }
    if (opt_.workers > fewest)
      refuse(std::to_string(opt_.workers) + " workers per PE cannot all be co-resident: at most " + std::to_string(fewest) +
           " fit on every GPU at " + std::to_string(opt_.threads) + " threads and " + std::to_string(shared) +
           " bytes of shared memory");
    return opt_.workers > 0 ? opt_.workers : fewest;
  }

  template <class T> T* device_array(std::size_t count) {
    void* p = nullptr;
    check_gpu(platform::gpu_malloc(&p, count * sizeof(T)), "allocating device memory");
    device_.push_back(p);
    return static_cast<T*>(p);
  }

  void allocate() {
    const std::uint64_t headers = std::uint64_t{static_cast<std::uint32_t>(workers_)} * sizeof(queue_header);
    const std::uint64_t rings = std::uint64_t{static_cast<std::uint32_t>(workers_)} * opt_.public_capacity * sizeof(task);
    queue_bytes_ = headers + rings;
    cfg_ = run_config{};
    cfg_.workers = static_cast<std::uint32_t>(workers_);
    cfg_.pes = static_cast<std::uint32_t>(pes_);
    cfg_.local_capacity = opt_.local_capacity;
    cfg_.public_capacity = opt_.public_capacity;
    cfg_.spill_capacity = opt_.spill_capacity;
    cfg_.max_steal = max_steal();
    cfg_.phase_tasks = opt_.phase_tasks ? opt_.phase_tasks : opt_.threads;
    cfg_.same_gpu_bias = static_cast<std::uint32_t>(opt_.same_gpu_bias * 65536.0);
    cfg_.same_node_bias = static_cast<std::uint32_t>(opt_.same_node_bias * 65536.0);
    cfg_.term = opt_.term;
    cfg_.watch_busy_phases = opt_.watch_busy_phases;
    cfg_.share_min_ns = opt_.share_min_ns;
    cfg_.sched = opt_.sched;
    cfg_.where = opt_.where;
    cfg_.ring_offset = headers;
    cfg_.seed = opt_.seed;
    cfg_.wait_timeout_ns = Comm::wait_timeout_ns();
    if (opt_.where == placement::symmetric) {
      sym_area_ = static_cast<char*>(Comm::allocate(queue_bytes_ + sizeof(termination_words)));
      if (!sym_area_) refuse("the public queues need " + std::to_string(queue_bytes_ >> 20) + " MiB of symmetric heap");
      cfg_.queues = sym_area_;
      cfg_.term_words = reinterpret_cast<termination_words*>(sym_area_ + queue_bytes_);
    } else if constexpr (Comm::host_placement) {
      map_host_area();
    }
    cfg_.spill = device_array<task>(std::size_t{static_cast<std::uint32_t>(workers_)} * opt_.spill_capacity);
    cfg_.initial_next = device_array<unsigned long long>(1);
    cfg_.stats = stats_ = device_array<worker_stats>(workers_);
    cfg_.error = error_ = device_array<std::uint32_t>(1);
    cfg_.error_detail = error_detail_ = device_array<std::uint64_t>(1);
    cfg_.timestamps = stamps_ = device_array<std::uint64_t>(2);
    // Victims: the other participating PEs, those of this node first (by distance).
    std::vector<std::int32_t> near, far;
    std::vector<std::uint8_t> distance(pes_);
    for (int pe = 0; pe < pes_; ++pe) {
      distance[pe] = static_cast<std::uint8_t>(Comm::distance(pe));
      if (pe != me_) (distance[pe] < 2 ? near : far).push_back(pe);
    }
    cfg_.near_count = static_cast<std::uint32_t>(near.size());
    near.insert(near.end(), far.begin(), far.end());
    near.push_back(0);  // never empty
    std::int32_t* near_dev = device_array<std::int32_t>(near.size());
    std::uint8_t* distance_dev = device_array<std::uint8_t>(distance.size());
    check_gpu(platform::gpu_copy(near_dev, near.data(), near.size() * sizeof(std::int32_t)), "copying the victim list");
    check_gpu(platform::gpu_copy(distance_dev, distance.data(), distance.size()), "copying the distances");
    cfg_.near_pes = near_dev;
    cfg_.pe_distance = distance_dev;
  }

  // The thesis's design: every PE's queues in one pinned host area of the node (POSIX shared
  // memory, mapped into each GPU). Needs every participating PE on this node.
  void map_host_area() {
    const int node_pes = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    if (node_pes < pes_) refuse("placement::host needs every participating PE on one node");
    cfg_.pe_stride = (queue_bytes_ + 4095) / 4096 * 4096;
    cfg_.term_stride = sizeof(termination_words);
    host_bytes_ = cfg_.pe_stride * pes_ + cfg_.term_stride * pes_;
    // A name every PE of the node agrees on: node PE 0's process id, broadcast.
    long long* sym = static_cast<long long*>(shmem_malloc(2 * sizeof(long long)));
    const long long id = static_cast<long long>(getpid());
    shmem_putmem(sym, &id, sizeof id, me_);
    shmem_broadcastmem(SHMEM_TEAM_SHARED, sym + 1, sym, sizeof id, 0);
    long long owner_id = 0;
    shmem_getmem(&owner_id, sym + 1, sizeof owner_id, me_);
    shmem_free(sym);
    host_name_ = "/gio-ws-" + std::to_string(owner_id);
    host_owner_ = shmem_team_my_pe(SHMEM_TEAM_SHARED) == 0;
    if (host_owner_) {
      const int fd = shm_open(host_name_.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
      if (fd < 0 || ftruncate(fd, static_cast<off_t>(host_bytes_)) != 0)
        fail("cannot create the host queue area " + host_name_ + ": " + std::strerror(errno));
      close(fd);
    }
    shmem_barrier_all();
    const int fd = shm_open(host_name_.c_str(), O_RDWR, 0600);
    if (fd < 0) fail("cannot open the host queue area " + host_name_ + ": " + std::strerror(errno));
    void* p = mmap(nullptr, host_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) fail("cannot map the host queue area: " + std::string(std::strerror(errno)));
    host_area_ = static_cast<char*>(p);
    void* device = nullptr;
    check_gpu(platform::host_register_mapped(host_area_, host_bytes_, &device), "pinning the host queue area");
    cfg_.queues = static_cast<char*>(device);
    cfg_.term_words = reinterpret_cast<termination_words*>(static_cast<char*>(device) + cfg_.pe_stride * pes_);
    probe_host_placement();
  }

  // The host placement needs GPU atomics on host memory that are atomic across the node's GPUs
  // (PCIe AtomicOps, or a coherent link). Every participating PE adds to one word at once; a
  // lost update means they are not, and every PE refuses the placement. Each PE reads the total
  // itself, and the reads need not agree, so the verdict is combined over every PE before anyone
  // throws: a PE refusing alone would leave the others in the next collective call.
  void probe_host_placement() {
    constexpr unsigned blocks = 64, threads = 128, rounds = 64;
    auto* word = reinterpret_cast<std::uint64_t*>(host_area_ + cfg_.pe_stride * pes_);  // PE 0's termination words
    if (me_ == 0) *word = 0;
    shmem_barrier_all();
    if (participating()) {
      probe_host_atomics<<<blocks, threads>>>(reinterpret_cast<std::uint64_t*>(cfg_.term_words), rounds);
      check_gpu(platform::gpu_last_error(), "launching the host-atomics probe");
      check_gpu(platform::gpu_synchronize(), "running the host-atomics probe");
    }
    shmem_barrier_all();
    const std::uint64_t want = std::uint64_t{blocks} * threads * rounds * static_cast<std::uint64_t>(pes_);
    const std::uint64_t seen = *reinterpret_cast<volatile std::uint64_t*>(word);
    // The word is PE 0's termination words, which PE 0 resets below: every PE has read it first.
    shmem_barrier_all();
    // Message passing on this PE's own words (its termination words, reset before every run).
    unsigned long long stale = 0;
    if (participating()) {
      auto* mine = reinterpret_cast<termination_words*>(reinterpret_cast<char*>(cfg_.term_words) + cfg_.term_stride * me_);
      std::memset(host_area_ + cfg_.pe_stride * pes_ + cfg_.term_stride * me_, 0, sizeof(termination_words));
      unsigned long long* count = device_array<unsigned long long>(1);
      check_gpu(platform::gpu_fill(count, 0, sizeof *count), "resetting the probe");
      probe_host_message_passing<<<2, 32>>>(&mine->unused1[0], &mine->unused2[0], 2000, count);
      check_gpu(platform::gpu_last_error(), "launching the host message-passing probe");
      check_gpu(platform::gpu_synchronize(), "running the host message-passing probe");
      check_gpu(platform::gpu_copy(&stale, count, sizeof stale), "reading the probe");
    }
    shmem_barrier_all();
    // Adds are only ever lost, so the fewest any PE read decides. A PE that runs no workers may be
    // on another node, whose area nobody added to: it abstains.
    const auto fewest_seen =
        static_cast<std::uint64_t>(over_every_pe(static_cast<long long>(participating() ? seen : want), reduce_op::min));
    if (fewest_seen != want)
      throw placement_unsupported(me_, "gio::ws: placement::host: GPU atomics on pinned host memory are not atomic "
                                       "across this node's GPUs (a probe counted " + std::to_string(fewest_seen) + " of " +
                                       std::to_string(want) + " adds)");
    const unsigned long long worst = over_every_pe(stale, reduce_op::max);
    if (worst != 0)
      throw placement_unsupported(me_, "gio::ws: placement::host: a store to pinned host memory was not visible after "
                                       "a fenced atomic flag in " + std::to_string(worst) + " of 2000 probe rounds");
  }

  // This PE's queues and termination words to zero (epoch 0, empty), its counters too.
  void reset() {
    if (opt_.where == placement::symmetric) {
      check_gpu(platform::gpu_fill(sym_area_, 0, queue_bytes_ + sizeof(termination_words)), "resetting the queues");
    } else if (me_ < pes_) {
      std::memset(host_area_ + cfg_.pe_stride * me_, 0, queue_bytes_);
      std::memset(host_area_ + cfg_.pe_stride * pes_ + cfg_.term_stride * me_, 0, cfg_.term_stride);
    }
    check_gpu(platform::gpu_fill(cfg_.initial_next, 0, sizeof(unsigned long long)), "resetting the initial set");
    check_gpu(platform::gpu_fill(stats_, 0, workers_ * sizeof(worker_stats)), "resetting the statistics");
    check_gpu(platform::gpu_fill(error_, 0, sizeof(std::uint32_t)), "resetting the error word");
    check_gpu(platform::gpu_fill(error_detail_, 0, sizeof(std::uint64_t)), "resetting the error word");
    const std::uint64_t stamps[2] = {~std::uint64_t{0}, 0};
    check_gpu(platform::gpu_copy(stamps_, stamps, sizeof stamps), "resetting the timestamps");
    check_gpu(platform::gpu_synchronize(), "resetting the queues");
  }

  options opt_;
  int me_ = 0, pes_ = 0, workers_ = 0;
  std::uint32_t total_ = 0;
  std::uint64_t queue_bytes_ = 0;
  run_config cfg_{};
  char* sym_area_ = nullptr;
  char* host_area_ = nullptr;
  std::size_t host_bytes_ = 0;
  std::string host_name_;
  bool host_owner_ = false;
  std::vector<void*> device_;
  worker_stats* stats_ = nullptr;
  std::uint32_t* error_ = nullptr;
  std::uint64_t* error_detail_ = nullptr;
  std::uint64_t* stamps_ = nullptr;
};

}  // namespace gio::ws
