// The worksteal driver: the work-stealing runtime (gio/ws.hpp) on its three workloads, each
// variant checked and timed (docs/worksteal.md), over one library: main.cpp runs it over gio
// (worksteal), main_nvshmem.cpp over NVSHMEM (worksteal-nvshmem). Included by exactly one GPU
// translation unit per program; the GPU-less build is cpu_main.cpp.
//
// A library is an App: `comm` (the runtime's comm, gio/device/ws/comm_gio.hpp), `kind` (the
// variants it runs, reference.hpp) and a `session` made once per program: it selects the GPU,
// starts the library (collective), says where this PE runs (gpu, gpu_name, node_pe, node_pes)
// and ends the library when destroyed.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/csv.hpp"
#include "support/failure.hpp"
#include "support/options.hpp"
#include "support/progress.hpp"
#include "corpus.hpp"
#include "gio/ws.hpp"
#include "support/gpu_runtime.hpp"
#include "options.hpp"
#include "programs.hpp"
#include "reference.hpp"
#include "report.hpp"
#include "uts_cpu.hpp"
#include "uts_trees.hpp"

namespace worksteal {
namespace driver {

namespace gpu = support::gpu;
static_assert(distance_classes == gio::ws::distance_classes, "the report's steal classes are the runtime's");

struct job {
  MPI_Comm comm;
  int pe, pes;
  const options& opt;
};

inline gio::ws::options runtime_options(const options& opt, variant v, int pes) {
  gio::ws::options o;
  o.workers = opt.workers;
  o.threads = static_cast<unsigned>(opt.threads);
  o.local_capacity = opt.local_queue;
  o.public_capacity = opt.public_queue;
  o.spill_capacity = opt.spill;
  o.max_steal = opt.max_steal;
  // UTS spawns up to 3 tasks per task and contains 2 (splitting a long document): one per thread
  // leaves them room, and a phase waits for one part at most. memset spawns nothing.
  o.phase_tasks = opt.phase_tasks ? opt.phase_tasks : opt.work == workload::memset ? opt.local_queue / 2 : 0;
  o.same_gpu_bias = opt.bias;
  o.same_node_bias = opt.node_bias;
  o.term = opt.termination == "tree" ? gio::ws::termination::tree : gio::ws::termination::counter;
  o.watch_busy_phases = opt.watch_busy;
  o.share_min_ns = opt.share_min_ns;
  o.sched = v == variant::static_share ? gio::ws::scheduling::fixed_share : gio::ws::scheduling::stealing;
  o.where = v == variant::host_queues ? gio::ws::placement::host : gio::ws::placement::symmetric;
  o.pes = v == variant::single ? 1 : pes;
  o.seed = opt.seed;
  return o;
}

// The runtime of the variant being measured, made once per variant (a collective allocation and,
// for host queues, the probe) rather than once per run. Options are fixed per variant.
template <class Program, class Comm> class runtime_cache {
 public:
  using runtime = gio::ws::runtime<Program, Comm>;
  runtime& get(variant v, const gio::ws::options& o) {
    if (!rt_ || v != v_) {
      rt_.reset();  // collective, before the next one allocates
      rt_ = std::make_unique<runtime>(o);
      v_ = v;
    }
    return *rt_;
  }

 private:
  std::unique_ptr<runtime> rt_;
  variant v_ = variant::cpu;
};

// One workload: its program per variant, what each run starts with on this PE, and its check.
class workload_runner {
 public:
  virtual ~workload_runner() = default;
  virtual std::string describe() const = 0;
  virtual std::uint64_t work_items() const = 0;  // what the rate counts (tasks, nodes, documents)
  virtual const char* unit() const = 0;
  // Runs once on o.pes PEs (the others idle); returns "" or why the result is wrong (every PE).
  virtual std::string run_once(const job& j, variant v, const gio::ws::options& o, run_figures& fig) = 0;
  virtual std::string run_cpu(const job& j, run_figures& fig) = 0;
};

// The per-worker figures of every PE, combined on every PE.
inline void gather(const job& j, const gio::ws::run_result& r, int participants, run_figures& fig) {
  std::vector<double> local(3 * gio::ws::distance_classes + 2, 0.0);
  for (const auto& w : r.workers) {
    for (int d = 0; d < gio::ws::distance_classes; ++d) {
      local[d] += static_cast<double>(w.steal_attempts[d]);
      local[gio::ws::distance_classes + d] += static_cast<double>(w.steal_successes[d]);
      local[2 * gio::ws::distance_classes + d] += static_cast<double>(w.stolen_tasks[d]);
    }
    local[3 * gio::ws::distance_classes] += static_cast<double>(w.damped);
  }
  local[3 * gio::ws::distance_classes + 1] = r.seconds;
  std::vector<double> sum(local.size());
  MPI_Allreduce(local.data(), sum.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_SUM, j.comm);
  for (int d = 0; d < gio::ws::distance_classes; ++d) {
    fig.steal_attempts[d] = sum[d];
    fig.steal_successes[d] = sum[gio::ws::distance_classes + d];
    fig.stolen_tasks[d] = sum[2 * gio::ws::distance_classes + d];
  }
  fig.damped = sum[3 * gio::ws::distance_classes];
  double slowest = r.seconds;
  MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, j.comm);
  fig.seconds = slowest;
  const double executed = static_cast<double>(r.executed());
  fig.pe_share.assign(j.pes, 0.0);
  MPI_Allgather(&executed, 1, MPI_DOUBLE, fig.pe_share.data(), 1, MPI_DOUBLE, j.comm);
  double total = 0;
  for (double e : fig.pe_share) total += e;
  for (double& e : fig.pe_share) e = total > 0 ? e / total : 0;
  fig.executed = total;
  fig.participants = participants;
  // Where a PE's time went (its own clock, from its first worker's start): until its initial set
  // ran out (its first worker to find it exhausted), until half its workers had run their last
  // tasks, until half and until all of them first went idle (workers that never did, as under
  // static assignment, count as busy to the PE's end), then the termination wait.
  const std::uint64_t span_ns = static_cast<std::uint64_t>(r.seconds * 1e9);
  const auto since_start = [&](std::uint64_t at) { return at > r.started_ns ? std::min(at - r.started_ns, span_ns) : span_ns; };
  std::uint64_t initial_out = span_ns;
  std::vector<std::uint64_t> done, idle;
  for (const auto& w : r.workers) {
    if (w.initial_out_ns) initial_out = std::min(initial_out, since_start(w.initial_out_ns));
    done.push_back(w.last_work_ns ? since_start(w.last_work_ns) : 0);
    idle.push_back(since_start(w.first_idle_ns));
  }
  const auto median = [](std::vector<std::uint64_t>& v) -> double {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2] * 1e-9;
  };
  const double busy = idle.empty() ? r.seconds : *std::max_element(idle.begin(), idle.end()) * 1e-9;
  // The first idle transition's steps, over the workers that went idle.
  std::vector<std::uint64_t> steps[4];
  for (const auto& w : r.workers)
    if (w.first_idle_ns)
      for (int k = 0; k < 4; ++k) steps[k].push_back(w.idle_steps_ns[k]);
  constexpr int per_pe = 9;
  const double mine[per_pe] = {r.seconds,        initial_out * 1e-9, median(done),     median(idle),    busy,
                               median(steps[0]), median(steps[1]),   median(steps[2]), median(steps[3])};
  std::vector<double> every(per_pe * static_cast<std::size_t>(j.pes));
  MPI_Allgather(mine, per_pe, MPI_DOUBLE, every.data(), per_pe, MPI_DOUBLE, j.comm);
  std::vector<double>* columns[per_pe] = {
      &fig.pe_seconds,          &fig.pe_initial_out_seconds, &fig.pe_half_done_seconds, &fig.pe_half_idle_seconds,
      &fig.pe_busy_seconds,     &fig.pe_idle_step_seconds[0], &fig.pe_idle_step_seconds[1],
      &fig.pe_idle_step_seconds[2], &fig.pe_idle_step_seconds[3]};
  for (int c = 0; c < per_pe; ++c) {
    columns[c]->clear();
    for (int pe = 0; pe < j.pes; ++pe) columns[c]->push_back(every[per_pe * pe + c]);
  }
  int workers = static_cast<int>(r.workers.size());
  MPI_Allreduce(MPI_IN_PLACE, &workers, 1, MPI_INT, MPI_MAX, j.comm);
  fig.workers_per_pe = workers;
}

// Items 0..n-1 in blocks of per_pe = ceil(n / participants): item i belongs to PE i / per_pe, at
// i % per_pe of that PE's symmetric array; this PE's block is [first, end) (empty off the run).
struct block_share {
  std::uint64_t per_pe, first, end;
  block_share(std::uint64_t n, int participants, int pe)
      : per_pe(std::max<std::uint64_t>(1, (n + participants - 1) / participants)),
        first(pe < participants ? std::min(n, per_pe * pe) : 0),
        end(pe < participants ? std::min(n, per_pe * (pe + 1)) : 0) {}
};

// memset: slot i on the PE owning index i; every slot must end at exactly 1.
template <class Comm> class memset_runner : public workload_runner {
 public:
  explicit memset_runner(const job& j) : n_(j.opt.tasks) {
    slots_ = static_cast<std::uint64_t*>(Comm::allocate(n_ * sizeof(std::uint64_t)));  // zeroed before each run
    if (!slots_) throw gio::error(j.pe, "memset: " + std::to_string(n_ * 8 >> 20) + " MiB of slots do not fit in the symmetric heap");
  }
  ~memset_runner() override { Comm::release(slots_); }
  std::string describe() const override { return "memset of " + std::to_string(n_) + " tasks"; }
  std::uint64_t work_items() const override { return n_; }
  const char* unit() const override { return "tasks"; }

  std::string run_once(const job& j, variant v, const gio::ws::options& o, run_figures& fig) override {
    const int participants = o.pes;
    const block_share mine(n_, participants, j.pe);
    const std::uint64_t per_pe = mine.per_pe, count = mine.end - mine.first;
    memset_program p{slots_, per_pe, mine.first};
    gpu::fill(slots_, 0, n_ * sizeof(std::uint64_t));
    gpu::synchronize();
    const gio::ws::run_result r = runtimes_.get(v, o).run(p, count);
    gather(j, r, participants, fig);
    // This PE's slots (the first per_pe of its array): those it owns must be 1, the rest 0.
    const std::uint64_t slots = std::min(per_pe, n_);
    std::vector<std::uint64_t> seen(slots);
    gpu::copy_to_host(seen.data(), slots_, slots * sizeof(std::uint64_t));
    unsigned long long wrong = 0, first_wrong = ~0ull;
    for (std::uint64_t i = 0; i < slots; ++i) {
      const std::uint64_t index = p.first + i;
      const std::uint64_t want = i < count ? 1 : 0;
      if (seen[i] != want) {
        ++wrong;
        first_wrong = std::min<unsigned long long>(first_wrong, index);
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, j.comm);
    MPI_Allreduce(MPI_IN_PLACE, &first_wrong, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, j.comm);
    if (fig.executed != static_cast<double>(n_))
      return "executed " + std::to_string(static_cast<unsigned long long>(fig.executed)) + " tasks, expected " + std::to_string(n_);
    if (wrong) return std::to_string(wrong) + " slots not written exactly once (first: index " + std::to_string(first_wrong) + ")";
    fig.result = "every slot written once";
    return "";
  }
  std::string run_cpu(const job&, run_figures& fig) override { return cpu_memset(n_, fig); }

 private:
  std::uint64_t n_;
  std::uint64_t* slots_ = nullptr;
  runtime_cache<memset_program, Comm> runtimes_;
};

// uts: the host expands the tree breadth-first until there is a task per worker or so (counting
// what it made), the GPUs the rest; the totals must equal the published ones.
template <class Comm> class uts_runner : public workload_runner {
 public:
  explicit uts_runner(const uts::named_tree& tree) : tree_(tree) {}
  std::string describe() const override {
    return std::string("uts ") + tree_.name + " (" + std::to_string(tree_.nodes) + " nodes published)";
  }
  std::uint64_t work_items() const override { return tree_.nodes; }
  const char* unit() const override { return "nodes"; }

  std::string run_once(const job& j, variant v, const gio::ws::options& o, run_figures& fig) override {
    const int participants = o.pes;
    auto& rt = runtimes_.get(v, o);
    expand(static_cast<std::uint64_t>(rt.workers()) * participants * 4);
    const std::uint64_t k = frontier_.size();
    const std::uint64_t first = j.pe < participants ? k * j.pe / participants : 0;
    const std::uint64_t end = j.pe < participants ? k * (j.pe + 1) / participants : 0;
    gpu::device_memory mine(std::max<std::uint64_t>(1, end - first) * sizeof(gio::ws::task));
    if (end > first) gpu::copy_to_device(mine.as<void>(), frontier_.data() + first, (end - first) * sizeof(gio::ws::task));
    const uts_program p{tree_.params, mine.as<gio::ws::task>()};
    const gio::ws::run_result r = rt.run(p, end - first);
    gather(j, r, participants, fig);
    unsigned long long leaves = 0, depth = 0;
    for (const auto& w : r.workers) {
      leaves += w.tally[0];
      depth = std::max<unsigned long long>(depth, w.tally_max);
    }
    MPI_Allreduce(MPI_IN_PLACE, &leaves, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, j.comm);
    MPI_Allreduce(MPI_IN_PLACE, &depth, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, j.comm);
    const uts::tree_count total{host_.nodes + static_cast<std::uint64_t>(fig.executed), host_.leaves + leaves,
                                std::max<std::int32_t>(host_.depth, static_cast<std::int32_t>(depth))};
    return judge_uts(tree_, total, fig);
  }
  std::string run_cpu(const job&, run_figures& fig) override { return cpu_uts(tree_, fig); }

 private:
  // Breadth-first from the root until at least `target` nodes wait for their children.
  void expand(std::uint64_t target) {
    if (!frontier_.empty() && expanded_for_ == target) return;
    expanded_for_ = target;
    frontier_.clear();
    host_ = uts::tree_count{};
    std::vector<uts::node> level{uts::root(tree_.params)};
    host_.nodes = 1;
    std::size_t at = 0;
    while (at < level.size() && level.size() - at < target) {
      const uts::node n = level[at++];
      const int kids = uts::num_children(tree_.params, n);
      if (kids == 0) ++host_.leaves;
      for (int i = 0; i < kids; ++i) {
        level.push_back(uts::child(n, i));
        ++host_.nodes;
        host_.depth = std::max(host_.depth, level.back().height);
      }
    }
    for (; at < level.size(); ++at) {
      const uts::node& n = level[at];
      const int kids = uts::num_children(tree_.params, n);
      if (kids == 0) {
        ++host_.leaves;
        continue;
      }
      uts_children t{{n.digest[0], n.digest[1], n.digest[2], n.digest[3], n.digest[4]},
                     static_cast<std::uint16_t>(n.height), 0, static_cast<std::uint16_t>(kids)};
      frontier_.push_back(gio::ws::make_task<uts_program::tasks>(t));
    }
  }

  const uts::named_tree& tree_;
  std::vector<gio::ws::task> frontier_;
  std::uint64_t expanded_for_ = 0;
  uts::tree_count host_;
  runtime_cache<uts_program, Comm> runtimes_;
};

// contains: the corpus on every GPU; PE p starts with its contiguous share of the documents.
template <class Comm> class contains_runner : public workload_runner {
 public:
  explicit contains_runner(const job& j)
      : corpus_(j.opt.corpus_file.empty() ? synthetic_corpus(j.opt.documents, j.opt.word) : read_corpus(j.opt.corpus_file)),
        word_(j.opt.word),
        text_(std::max<std::size_t>(1, corpus_.text.size())),
        offsets_(corpus_.offsets.size() * sizeof(std::uint64_t)),
        word_dev_(word_.size()),
        piece_(j.opt.piece) {
    if (!corpus_.text.empty()) gpu::copy_to_device(text_.as<void>(), corpus_.text.data(), corpus_.text.size());
    gpu::copy_to_device(offsets_.as<void>(), corpus_.offsets.data(), corpus_.offsets.size() * sizeof(std::uint64_t));
    gpu::copy_to_device(word_dev_.as<void>(), word_.data(), word_.size());
    expected_ = count_containing(corpus_, word_);
    for (std::uint64_t d = 0; d < corpus_.documents(); ++d) {
      const std::uint64_t size = corpus_.offsets[d + 1] - corpus_.offsets[d];
      if (piece_ != 0 && size > 0xffffffffu)
        throw gio::error(j.pe, "contains: document " + std::to_string(d) + " is longer than 4 GiB, the most --piece can split");
      tasks_ += size < word_.size() ? 1 : contains_tasks_for(size - word_.size() + 1, piece_);
    }
    // With --piece, a flag per document of this PE's share, for the largest share (one PE: the
    // `single` variant); whole documents need none.
    flag_words_ = piece_ ? corpus_.documents() : 1;
    found_ = static_cast<std::uint64_t*>(Comm::allocate(flag_words_ * sizeof(std::uint64_t)));
    if (!found_) throw gio::error(j.pe, "contains: the documents' flags do not fit in the symmetric heap");
  }
  ~contains_runner() override { Comm::release(found_); }
  std::string describe() const override {
    return "contains '" + word_ + "' in " + std::to_string(corpus_.documents()) + " documents (" +
           std::to_string(corpus_.text.size() >> 20) + " MiB, " + std::to_string(expected_) + " hold it)";
  }
  std::uint64_t work_items() const override { return corpus_.documents(); }
  const char* unit() const override { return "documents"; }

  std::string run_once(const job& j, variant v, const gio::ws::options& o, run_figures& fig) override {
    const int participants = o.pes;
    const block_share mine(corpus_.documents(), participants, j.pe);
    const contains_program p{text_.as<char>(), offsets_.as<std::uint64_t>(), word_dev_.as<char>(),
                             static_cast<std::uint32_t>(word_.size()), piece_, mine.first, mine.per_pe, found_};
    gpu::fill(found_, 0, std::min(mine.per_pe, flag_words_) * sizeof(std::uint64_t));
    gpu::synchronize();
    const gio::ws::run_result r = runtimes_.get(v, o).run(p, mine.end - mine.first);
    gather(j, r, participants, fig);
    unsigned long long hits = 0;
    for (const auto& w : r.workers) hits += w.tally[0];
    MPI_Allreduce(MPI_IN_PLACE, &hits, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, j.comm);
    if (fig.executed != static_cast<double>(tasks_))
      return "executed " + std::to_string(static_cast<unsigned long long>(fig.executed)) + " tasks, expected " +
             std::to_string(tasks_) + " for " + std::to_string(corpus_.documents()) + " documents";
    return judge_contains(hits, expected_, fig);
  }
  std::string run_cpu(const job&, run_figures& fig) override { return cpu_contains(corpus_, word_, expected_, fig); }

 private:
  corpus corpus_;
  std::string word_;
  gpu::device_memory text_, offsets_, word_dev_;
  std::uint32_t piece_;
  std::uint64_t expected_ = 0;
  std::uint64_t tasks_ = 0;  // what the split trees of every document make
  std::uint64_t* found_ = nullptr;
  std::uint64_t flag_words_ = 1;
  runtime_cache<contains_program, Comm> runtimes_;
};

template <class App> int run(int argc, char** argv, MPI_Comm comm) {
  using comm_type = typename App::comm;
  int pe = 0, pes = 1;
  MPI_Comm_rank(comm, &pe);
  MPI_Comm_size(comm, &pes);
  options opt;
  const uts::named_tree* tree = nullptr;
  if (!parse_run_options(argc, argv, comm, App::kind, opt, tree)) return 0;
  std::string cause;

  const typename App::session session(comm);
  int gpus = session.node_pe == 0 ? std::min(session.node_pes, gpu::device_count()) : 0;
  MPI_Allreduce(MPI_IN_PLACE, &gpus, 1, MPI_INT, MPI_SUM, comm);

  const job j{comm, pe, pes, opt};
  std::unique_ptr<workload_runner> work;
  int status = support::exit_usage;
  try {
    if (opt.work == workload::memset) work = std::make_unique<memset_runner<comm_type>>(j);
    if (opt.work == workload::uts) work = std::make_unique<uts_runner<comm_type>>(*tree);
    if (opt.work == workload::contains) work = std::make_unique<contains_runner<comm_type>>(j);
  } catch (const std::exception& e) {
    cause = e.what();
  }
  support::agree(comm, cause, status);

  std::unique_ptr<support::csv_appender> csv;
  if (pe == 0 && !opt.csv.empty()) {
    try {
      csv = std::make_unique<support::csv_appender>(opt.csv, csv_columns());
    } catch (const std::exception& e) {
      cause = e.what();
    }
  }
  support::agree(comm, cause, support::exit_usage);
  const machine where{pes, gpus, session.gpu_name};
  if (pe == 0 && !opt.quiet) {
    std::printf("worksteal: %s; %d PE%s on %d GPU%s (%s); %d warm-up and %d timed runs per variant\n",
                work->describe().c_str(), pes, pes > 1 ? "s" : "", gpus, gpus > 1 ? "s" : "", session.gpu_name.c_str(),
                opt.warmup, opt.repeats);
    print_header();
  }

  int skipped = 0;
  for (const variant v : opt.variants) {
    std::vector<run_figures> runs;
    std::string unsupported;
    const int total_runs = opt.warmup + opt.repeats;
    support::progress_line progress(std::string("worksteal ") + name_of(v), total_runs, pe == 0 && !opt.quiet);
    for (int i = 0; i < total_runs; ++i) {
      run_figures fig;
      std::string wrong;
      try {
        if (v == variant::cpu) {
          if (pe == 0) wrong = work->run_cpu(j, fig);
          fig.pe_share.assign(pes, 0.0);
          fig.pe_share[0] = 1;
        } else {
          wrong = work->run_once(j, v, runtime_options(opt, v, pes), fig);
        }
      } catch (const gio::ws::run_failure& e) {  // thrown on every PE; anything else ends the job
        wrong = e.what();
      } catch (const gio::ws::placement_unsupported& e) {  // likewise
        unsupported = e.what();
        break;
      } catch (const gio::ws::config_error& e) {  // likewise: options no GPU here can run
        support::agree(comm, std::string(name_of(v)) + ": " + e.what(), support::exit_usage);
      }
      support::agree(comm, wrong.empty() ? "" : std::string(name_of(v)) + ": " + wrong);
      if (v == variant::cpu) {
        MPI_Bcast(&fig.seconds, 1, MPI_DOUBLE, 0, comm);
        fig.participants = 1;
      }
      if (i >= opt.warmup) runs.push_back(fig);
      progress.update(i + 1);
    }
    progress.finish();
    if (!unsupported.empty()) {
      if (pe == 0) std::printf("%-12s skipped: %s\n", name_of(v), unsupported.c_str());
      ++skipped;
      continue;
    }
    if (pe == 0) report(where, opt, v, work->work_items(), work->unit(), runs, csv.get());
  }
  // Every variant asked for was impossible here: the CTest skip code.
  return skipped == static_cast<int>(opt.variants.size()) ? support::exit_skipped : 0;
}

}  // namespace driver

// main() of a worksteal program over App's library.
template <class App> int run_program(int argc, char** argv) {
  support::set_program_name(argv[0]);
  return support::run_mpi_main(argc, argv, MPI_THREAD_SERIALIZED,
                               [&](MPI_Comm comm) { return driver::run<App>(argc, argv, comm); });
}

}  // namespace worksteal
