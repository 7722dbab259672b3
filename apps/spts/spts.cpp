// spts: the synchronisation-free sparse triangular solve of the GIO paper (§6.4) and its baselines.
// Every PE loads (or generates) the same L and b; the variants run in the order cpu, vendor,
// single, gio, each checked against ||L x - b|| / ||b|| <= 1e-10. docs/spts.md describes the
// algorithm, the options and the runs of the evaluation.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/csv.hpp"
#include "support/failure.hpp"
#include "support/gio_session.hpp"
#include "support/options.hpp"
#include "support/progress.hpp"
#include "generators.hpp"
#include "gio/host.hpp"
#include "gio/launch.hpp"
#include "support/gpu_runtime.hpp"
#include "indegree_kernel.hpp"
#include "matrix.hpp"
#include "matrix_market.hpp"
#include "options.hpp"
#include "partition.hpp"
#include "solve_kernel.hpp"
#include "vendor.hpp"

namespace spts {
namespace {

namespace runtime = support::gpu;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

std::string grouped(long long value) {  // 23,947,347
  std::string digits = std::to_string(value < 0 ? -value : value), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string gib(double bytes) { return format("%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0)); }

// ---- GPU memory ------------------------------------------------------------------------------

// Typed device memory of `count` elements, on support/gpu_runtime.hpp's owner.
template <class T>
class device_array {
 public:
  device_array() = default;
  explicit device_array(std::size_t count) : memory_(count * sizeof(T)), count_(count) {}
  explicit device_array(const std::vector<T>& host) : device_array(host.size()) {
    if (count_ > 0) runtime::copy_to_device(get(), host.data(), count_ * sizeof(T));
  }

  T* get() const { return memory_.as<T>(); }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) runtime::copy_to_host(host.data(), get(), count_ * sizeof(T));
    return host;
  }

 private:
  runtime::device_memory memory_;
  std::size_t count_ = 0;
};

// Symmetric words (every PE allocates the same); freed collectively, so it is made outside
// support::or_abort (a PE that aborts never frees it alone).
class symmetric_words {
 public:
  symmetric_words() = default;
  explicit symmetric_words(std::size_t count)
      : data_(static_cast<std::uint64_t*>(gio::shmem_malloc(std::max<std::size_t>(count, 1) * 8))) {}
  ~symmetric_words() {
    if (data_) gio::shmem_free(data_);
  }
  symmetric_words(const symmetric_words&) = delete;
  symmetric_words& operator=(const symmetric_words&) = delete;
  std::uint64_t* get() const { return data_; }

 private:
  std::uint64_t* data_ = nullptr;
};

// A GPU event for timing, destroyed with its scope.
struct gpu_event {
  runtime::event_t id = runtime::create_event();
  gpu_event() = default;
  gpu_event(const gpu_event&) = delete;
  gpu_event& operator=(const gpu_event&) = delete;
  ~gpu_event() {
    try {
      runtime::destroy_event(id);
    } catch (const runtime::error&) {  // after a GPU fault; the fault itself is reported
    }
  }
};

std::vector<std::uint64_t> download_words(const std::uint64_t* device, std::int64_t count) {
  std::vector<std::uint64_t> host(static_cast<std::size_t>(count));
  if (count > 0) runtime::copy_to_host(host.data(), device, host.size() * sizeof(std::uint64_t));
  return host;
}

std::vector<double> as_doubles(const std::vector<std::uint64_t>& bits) {
  std::vector<double> values(bits.size());
  if (!bits.empty()) std::memcpy(values.data(), bits.data(), bits.size() * sizeof(double));
  return values;
}

// ---- the run's setting -----------------------------------------------------------------------

struct problem {
  lower_matrix L;
  std::vector<double> b;
  std::vector<double> reference;  // the serial solve's x
  std::string origin;             // how the matrix was obtained, for the output
};

struct job {
  MPI_Comm comm;
  int pe, pes;
  int gpus;           // GPUs the PEs use
  int pes_on_my_gpu;  // PEs sharing this PE's GPU (their kernels share its multiprocessors)
  std::string gpu_name;
  std::size_t heap_bytes;  // this PE's symmetric heap
  const options& opt;
  const problem& prob;
};

// What one variant measured; times are the slowest PE's, per timed solve.
struct measurement {
  explicit measurement(variant v, push_mode p = push_mode::none, int pe_count = 1, int gpu_count = 1,
                       std::int32_t rows_per_block = 0)
      : which(v), push(p), pes(pe_count), gpus(gpu_count), block(rows_per_block) {}
  variant which;
  push_mode push;
  int pes, gpus;
  std::int32_t block;
  std::string kernel;  // the sync-free variants' (options' names), else empty
  std::vector<double> ms;
  double residual = 0, difference = 0;  // relative residual; max |x - x_cpu| / max |x_cpu|
  std::int64_t pushes = 0, remote_entries = 0;
  std::int32_t path_crossings = -1;  // distributed variants: most_path_crossings (PE 0 only)
  double analysis_ms = std::numeric_limits<double>::quiet_NaN();

  double median() const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t mid = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
  }
  double fastest() const { return *std::min_element(ms.begin(), ms.end()); }
  double slowest() const { return *std::max_element(ms.begin(), ms.end()); }
};

// The residual and the largest difference from the serial solve over the rows a PE checked;
// x is indexed by global row.
struct check_result {
  residual_sums sums;
  double max_difference = 0, max_reference = 0;
  std::int32_t worst_row = -1;
};

void check_row(check_result& r, const problem& p, const double* x, std::int32_t row) {
  const double residual = row_residual(p.L, x, p.b.data(), row);
  r.sums.residual_sq += residual * residual;
  r.sums.rhs_sq += p.b[row] * p.b[row];
  const double difference = std::fabs(x[row] - p.reference[row]);
  // A NaN (a row never solved, or never received) is the worst difference, and stays so.
  if (std::isnan(difference) ? !std::isnan(r.max_difference) : difference > r.max_difference)
    r.max_difference = difference, r.worst_row = row;
  r.max_reference = std::max(r.max_reference, std::fabs(p.reference[row]));
}

// Combines the PEs' checks; agrees on failure (every PE names the cause) or fills `m`.
void judge(const job& j, const check_result& mine, const double* x, measurement& m) {
  double sums[2] = {mine.sums.residual_sq, mine.sums.rhs_sq};
  double maxima[2] = {mine.max_difference, mine.max_reference};
  // NaN does not survive MPI_MAX reliably: a PE with a NaN difference reports infinity.
  if (std::isnan(maxima[0])) maxima[0] = INFINITY;
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, j.comm);
  MPI_Allreduce(MPI_IN_PLACE, maxima, 2, MPI_DOUBLE, MPI_MAX, j.comm);
  const residual_sums total{sums[0], sums[1]};
  m.residual = total.relative();
  m.difference = maxima[1] > 0 ? maxima[0] / maxima[1] : maxima[0];
  std::string cause;
  if (!(m.residual <= residual_tolerance)) {
    cause = std::string(name(m.which)) + ": ||L x - b|| / ||b|| = " + format("%.3e", m.residual) + " exceeds " +
            format("%.0e", residual_tolerance);
    if (mine.worst_row >= 0 && !(mine.sums.relative() <= residual_tolerance))
      cause += "; on this PE's rows " + format("%.3e", mine.sums.relative()) + ", worst at row " +
               std::to_string(mine.worst_row) + ": x = " + format("%.17g", x[mine.worst_row]) + ", serial solve " +
               format("%.17g", j.prob.reference[mine.worst_row]);
  }
  support::agree(j.comm, cause);
}

// Fails every PE (exit status 2) when `bytes` of GPU memory are not free on this PE's GPU (`here`:
// this PE takes part).
void require_gpu_memory(const job& j, bool here, double bytes, const std::string& what) {
  std::string cause;
  if (here) {
    const double free_bytes = static_cast<double>(runtime::free_memory());
    constexpr double margin = 64.0 * 1024 * 1024;  // the kernels' and libraries' own allocations
    if (bytes + margin > free_bytes)
      cause = what + " needs " + gib(bytes) + " of GPU memory, " + gib(free_bytes) + " is free on GPU " +
              std::to_string(runtime::current_device()) + ": the problem is too large for this GPU" +
              (j.pes_on_my_gpu > 1 ? " (shared by " + std::to_string(j.pes_on_my_gpu) + " PEs)" : "");
  }
  support::agree(j.comm, cause, support::exit_usage);
}

// ---- the sync-free kernel (single and gio) ----------------------------------------------------

std::vector<double> reciprocals(const std::vector<double>& values) {
  std::vector<double> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = 1.0 / values[i];
  return out;
}

// GPU memory of a PE's share of L (and of its consumer masks, or of the indegree kernel's lists,
// counts and queue).
double share_bytes(const pe_share& share, bool with_consumers, bool indegree) {
  const double rows = share.rows(), entries = static_cast<double>(share.col.size());
  return 4.0 * (rows + 1) + 12.0 * entries + 16.0 * rows + (with_consumers ? 8.0 * rows : 0.0) +
         (indegree ? 4.0 * entries + (sizeof(row_record) + 12.0 + (with_consumers ? 4.0 : 0.0)) * rows : 0.0);
}

// What the indegree kernel adds to a share in GPU memory. The counts, the queue and its tail are
// one block of 2 * capacity + 1 words (capacity: the most rows a PE holds), and with --round-stats
// the queue entries' time stamps after them (8-byte aligned): in gio the symmetric heap, where
// other PEs count off readers and hand rows over at the same offsets; for single this state's own
// memory. With --round-stats each row's solve time too (this PE's own memory: the host gathers
// them). Building the lists is the host's once-per-matrix setup, reported like the vendor's
// analysis, and so is writing the row records.
struct indegree_state {
  indegree_state(const pe_share& share, const dependents& d, std::int32_t capacity, std::int32_t* symmetric_counts,
                 bool timeline)
      : records(make_row_records(share, d)),
        dep_row(d.row),
        remote_ptr(d.remote_row.empty() ? std::vector<std::int32_t>{} : d.remote_ptr),  // read only for rows with remote readers
        remote_reader(d.remote_row),
        roots(d.roots),
        own_counts(symmetric_counts ? 0 : counts_words(capacity, timeline)),
        books(3),
        solved_at(timeline ? static_cast<std::size_t>(share.rows()) : 0),
        counts(symmetric_counts ? symmetric_counts : own_counts.get()),
        capacity(capacity),
        root_count(static_cast<std::int32_t>(d.roots.size())),
        pe_bits(d.pe_bits),
        timeline(timeline) {}
  // The stamps' first word: past the counts, the queue and its tail, rounded up to 8 bytes.
  static std::size_t stamps_offset(std::int32_t capacity) { return 2 * static_cast<std::size_t>(capacity) + 2; }
  static std::size_t counts_words(std::int32_t capacity, bool timeline) {
    return timeline ? stamps_offset(capacity) + 2 * static_cast<std::size_t>(capacity)
                    : 2 * static_cast<std::size_t>(capacity) + 1;
  }
  device_array<row_record> records;
  device_array<std::int32_t> dep_row, remote_ptr, remote_reader, roots, own_counts;
  device_array<std::uint32_t> books;  // the queue's head, the rows solved and the waves that left (gio)
  device_array<std::uint64_t> solved_at;  // --round-stats: when each row was solved (else empty)
  std::int32_t* counts;
  std::int32_t capacity, root_count, pe_bits;
  bool timeline;
  std::uint32_t* queue_tail() const { return reinterpret_cast<std::uint32_t*>(counts + 2 * std::size_t(capacity)); }
  std::uint64_t* queued_at() const {
    return timeline ? reinterpret_cast<std::uint64_t*>(counts + stamps_offset(capacity)) : nullptr;
  }
  gpu::indegree_args args(std::int32_t stack_rows, std::int32_t may_leave, bool spare_takes, bool stack_fifo) const {
    return {records.get(), dep_row.get(), remote_ptr.get(), remote_reader.get(), roots.get(),     root_count,
            pe_bits,       counts,        counts + capacity, books.get(),      queue_tail(),    books.get() + 1,
            books.get() + 2, may_leave,   stack_rows,      spare_takes,     stack_fifo,      queued_at(),
            timeline ? solved_at.get() : nullptr};
  }
};

// One PE's part of a solve with solve_kernel<Mode>: its rows in GPU memory, the launch shape, and
// timed runs.
template <push_mode Mode>
class syncfree_solver {
 public:
  // symmetric_counts: the indegree kernel's counts and queue in gio (else null). local: gio on one
  // PE, which runs single's kernels (Mode none): no PE reads its values or hands it rows, and its
  // local rows are the global ones, so the solve is single's on gio's memory (--one-pe).
  syncfree_solver(const lower_matrix& L, const pe_share& share, const block_cyclic& part, int pe, std::uint64_t* x,
                  std::uint64_t* ready, std::int32_t* symmetric_counts, const options& opt, int pes_on_gpu, bool local)
      : local_(Mode != push_mode::none && local),
        n_(part.n()),
        row_ptr_(share.row_ptr),
        col_(share.col),
        val_(share.val),
        inv_diag_(reciprocals(share.diag)),
        rhs_(share.rhs),
        consumers_(Mode == push_mode::none ? std::vector<std::uint64_t>{} : share.consumers),
        ticket_(1),
        stall_(1),
        stats_(1),
        kernel_(opt.kernel),  // resolved by plan_kernel in main
        lane_rows_(opt.lane_rows) {
    if constexpr (Mode == push_mode::packed)
      if (opt.mapped_pushes) map_peers(x, part.pes());
    const std::int32_t rows_per_ticket = opt.rows_per_ticket > 0          ? opt.rows_per_ticket
                                         : kernel_ == kernel_choice::slots    ? gpu::slots_rows_per_ticket
                                         : kernel_ == kernel_choice::indegree ? gpu::indegree_rows_per_ticket
                                                                              : 32;
    args_ = gpu::solve_args{row_ptr_.get(),
                            col_.get(),
                            val_.get(),
                            inv_diag_.get(),
                            rhs_.get(),
                            consumers_.get(),
                            peer_offsets_ ? peer_offsets_->get() : nullptr,
                            x,
                            ready,
                            ticket_.get(),
                            stall_.get(),
                            stats_.get(),
                            share.rows(),
                            divisor(part.block()),
                            part.pes(),
                            pe,
                            rows_per_ticket,
                            opt.entries_per_lane,
                            static_cast<std::uint64_t>(opt.timeout_seconds * 1e9),
                            static_cast<std::uint32_t>(opt.backoff_ns)};
    // As many workgroups as are resident at once (the kernel loops over tickets), shared among
    // the PEs whose kernels share the GPU. Under MPS gio's counts are already this PE's share
    // (gio::gpu_share); otherwise the GPU's, divided here.
    const gio::gpu_share share_of_gpu = gio::shmem_gpu_share();
    const int sharers = share_of_gpu.limits() ? 1 : pes_on_gpu;
    const int multiprocessors = share_of_gpu.multiprocessors(runtime::multiprocessor_count()) / sharers;
    const int resident =
        kernel_ == kernel_choice::slots      ? gio::max_coresident_wgs(slots_kernel(), gpu::block_threads)
        : kernel_ == kernel_choice::indegree ? gio::max_coresident_wgs(indegree_kernel(lane_rows_), gpu::block_threads)
                                             : gio::max_coresident_wgs(rounds_kernel(), gpu::block_threads);
    workgroups_ = opt.workgroups > 0 ? opt.workgroups : std::max(1, resident / sharers);
    if (opt.workgroups == 0 && opt.wgs_per_multiprocessor > 0)  // chains (plan_kernel)
      workgroups_ = std::max(1, std::min(workgroups_, opt.wgs_per_multiprocessor * multiprocessors));
    if (kernel_ == kernel_choice::indegree) {
      const auto start = clock_type::now();
      indegree_.emplace(share, make_dependents(L, part, pe), part.most_local_rows(), symmetric_counts, opt.round_stats);
      // gio: one wave per multiprocessor's share polls the queue while its PE has rows unsolved,
      // where other PEs can hand rows over: only to a PE with rows that read another PE's.
      pollers_ = share.remote_entries == 0 ? 0 : opt.pollers > 0 ? opt.pollers : std::max(1, multiprocessors);
      const int waves = workgroups_ * static_cast<int>(gpu::waves_per_block);
      indegree_args_ = indegree_->args(opt.stack_rows, std::max(0, waves - pollers_), opt.spare_takes, opt.stack_fifo);
      setup_ms_ = seconds_since(start) * 1e3;
    }
  }

  // Words of the indegree kernel's counts and queue for `part` (gio allocates them symmetric).
  static std::size_t indegree_counts_words(const block_cyclic& part, bool timeline) {
    return indegree_state::counts_words(part.most_local_rows(), timeline);
  }

  int workgroups() const { return workgroups_; }
  // Host setup before the first solve (the indegree kernel's lists), in ms; 0 for the others.
  double setup_ms() const { return setup_ms_; }
  // "slots kernel, 256-row tickets" or "rounds kernel, ...", for the output.
  std::string kernel_description() const {
    switch (kernel_) {
      case kernel_choice::slots:
        return "slots kernel (" + std::to_string(gpu::slots_per_lane) + " rows per lane), " +
               std::to_string(args_.rows_per_ticket) + "-row tickets";
      case kernel_choice::indegree:
        return "indegree kernel (" + std::to_string(lane_rows_) + " rows per lane), " +
               grouped(indegree_args_.root_count) + " roots in " + std::to_string(args_.rows_per_ticket) +
               "-root tickets" +
               (Mode == push_mode::none || local_ ? std::string() : ", " + std::to_string(pollers_) + " waves poll when idle") +
               (indegree_args_.spare_takes ? ", waves with free row slots take queued rows" : "") +
               (indegree_args_.stack_fifo ? ", stacks give their oldest rows first" : "") +
               ", readers' lists built in " + format("%.0f", setup_ms_) + " ms (not in the solve time)";
      default:
        return "rounds kernel, " + std::to_string(args_.rows_per_ticket) + "-row tickets";
    }
  }
  // "" for single; else how pushes and remote counts reach the other PEs, for the output.
  std::string path_description() const {
    if constexpr (Mode == push_mode::none) return "";
    if (local_) return ", single's kernel on gio's memory (one PE: nothing to push; --one-pe)";
    return mapped() ? ", pushes as stores to shmem_ptr addresses" : ", pushes through gio calls";
  }

  // One solve: reset x (and the ready words), line up the PEs, then the kernel between two events.
  // x is reset in every mode, so that a value a solve fails to deliver cannot be the previous one.
  double run(bool distributed) {
    gpu::reset_kernel<<<1024, 256>>>(args_.x, n_, gpu::unsolved, args_.ticket, args_.stall, args_.stats);
    runtime::check_launch("reset_kernel");
    if constexpr (has_ready_flags<Mode>) {
      gpu::reset_kernel<<<1024, 256>>>(args_.ready, n_, 0, nullptr, nullptr, nullptr);
      runtime::check_launch("reset_kernel");
    }
    if (indegree_) {
      gpu::reset_indegree_kernel<<<1024, 256>>>(args_, indegree_args_);
      runtime::check_launch("reset_indegree_kernel");
    }
    if (distributed) gio::shmem_barrier_all_on_stream(gio::stream_t{});  // nobody pushes into an x being reset
    runtime::record_event(start_.id);
    launch();
    runtime::record_event(stop_.id);
    return runtime::elapsed_ms(start_.id, stop_.id);
  }

  std::vector<double> solution() const { return as_doubles(download_words(args_.x, n_)); }

  // --round-stats, indegree kernel: when each of this PE's rows was solved in the last solve (ns
  // of its GPU's clock, by local row); empty for the other kernels.
  std::vector<std::uint64_t> solve_times() const {
    return indegree_ ? indegree_->solved_at.download() : std::vector<std::uint64_t>{};  // empty without --round-stats
  }

  // How the waves of the last solve advanced (--round-stats), with its time.
  std::string round_summary(double ms) const {
    const gpu::round_stats s = stats_.download()[0];
    if (s.waves == 0) return "no wave left the kernel";
    std::string queued;
    if (indegree_) {
      std::uint32_t tail = 0;
      runtime::copy_to_host(&tail, indegree_->queue_tail(), sizeof tail);
      queued = "; " + grouped(tail) + " ready rows went through the global queue";
      char line[448];
      if (s.last_exit_ns != 0 &&
          std::snprintf(line, sizeof line, "; timeline (us after this PE's first wave entered at %llu ns): first wave left %.1f, "
                         "half the waves %.1f, last row solved %.1f, last wave left %.1f; %llu rows taken from the queue "
                         "waited there %.2f us on average, %.1f at most",
                         s.first_entry_ns, 1e-3 * double(s.first_exit_ns - s.first_entry_ns),
                         s.half_exit_ns ? 1e-3 * double(s.half_exit_ns - s.first_entry_ns) : 0.0,
                         s.last_solve_ns ? 1e-3 * double(s.last_solve_ns - s.first_entry_ns) : 0.0,
                         1e-3 * double(s.last_exit_ns - s.first_entry_ns), s.queue_takes,
                         s.queue_takes ? 1e-3 * double(s.queue_wait_ns) / double(s.queue_takes) : 0.0,
                         1e-3 * double(s.queue_wait_max_ns)) > 0)
        queued += line;
    }
    char text[320];
    std::snprintf(text, sizeof text,
                  "%llu waves; rounds per wave: most %llu, mean %.1f, with a row solved %.1f (most %llu); %.2f us per round "
                  "of the busiest wave",
                  s.waves, s.most_rounds, double(s.rounds) / double(s.waves), double(s.solving_rounds) / double(s.waves),
                  s.most_solving_rounds, s.most_rounds ? ms * 1e3 / double(s.most_rounds) : 0.0);
    return text + queued;
  }

  // Why the last solve stopped early (or, indegree kernel, read an x before it was solved), or "".
  std::string stall_cause(const block_cyclic& part, double timeout_seconds) const {
    const gpu::stall_report report = stall_.download()[0];
    if (report.stalled == gpu::no_stall) return "";
    if (report.stalled == gpu::stall_early_read)
      return "row " + std::to_string(report.first_row) + " was handed out, but x[" +
             std::to_string(report.waiting_for) + "] stayed unsolved for " + format("%g", timeout_seconds) +
             " s: the row's count of unsolved entries reached 0 too early, or the value never arrived (an ordering "
             "bug)";
    if (report.stalled == gpu::stall_lost_entry)
      return "entry " + std::to_string(report.first_row) + " of the ready queue was claimed but stayed unwritten for " +
             format("%g", timeout_seconds) + " s (a lost hand-over)";
    std::string cause = "the solve made no progress for " + format("%g", timeout_seconds) + " s";
    if (report.rows == 1)
      cause += ": row " + std::to_string(report.first_row) + " waits";
    else if (report.rows > 1)
      cause += ": rows " + std::to_string(report.first_row) + " to " +
               std::to_string(report.first_row + report.rows - 1) + " wait";
    if (report.rows > 0 && report.waiting_for >= 0)
      cause += " for x[" + std::to_string(report.waiting_for) + "] (row of PE " +
               std::to_string(part.owner(report.waiting_for)) + ")";
    return cause + " (--timeout sets the limit)";
  }

 private:
  bool local_;
  std::int64_t n_;
  device_array<std::int32_t> row_ptr_, col_;
  device_array<double> val_, inv_diag_, rhs_;
  device_array<std::uint64_t> consumers_;
  device_array<std::uint32_t> ticket_;
  device_array<gpu::stall_report> stall_;
  device_array<gpu::round_stats> stats_;
  kernel_choice kernel_;
  int lane_rows_;
  int pollers_ = 0;
  std::optional<indegree_state> indegree_;
  gpu::indegree_args indegree_args_{};
  double setup_ms_ = 0;
  gpu::solve_args args_{};
  int workgroups_ = 1;
  gpu_event start_, stop_;
  std::optional<device_array<std::ptrdiff_t>> peer_offsets_;  // set: push_path::mapped

  // push_path::mapped when every PE's heap is mapped in this GPU's address space: each PE's
  // offset from this PE's addresses, from shmem_ptr (the same for every symmetric word).
  void map_peers(std::uint64_t* x, int pes) {
    std::vector<std::ptrdiff_t> offsets(static_cast<std::size_t>(pes));
    for (int pe = 0; pe < pes; ++pe) {
      char* there = static_cast<char*>(gio::shmem_ptr(x, pe));
      if (there == nullptr) return;  // reached over the network: gio's calls
      offsets[static_cast<std::size_t>(pe)] = there - reinterpret_cast<char*>(x);
    }
    peer_offsets_.emplace(offsets);
  }
  bool mapped() const { return peer_offsets_.has_value(); }

  // The kernels of this mode on this PE's path (mapped exists for packed pushes only).
  using solve_entry = void (*)(gpu::solve_args, gio::device_handle);
  solve_entry rounds_kernel() const {
    if (local_) return gpu::solve_kernel<push_mode::none>;
    if constexpr (Mode == push_mode::packed)
      if (mapped()) return gpu::solve_kernel<Mode, push_path::mapped>;
    return gpu::solve_kernel<Mode>;
  }
  solve_entry slots_kernel() const {
    if (local_) return gpu::solve_slots_kernel<push_mode::none>;
    if constexpr (Mode == push_mode::packed)
      if (mapped()) return gpu::solve_slots_kernel<Mode, push_path::mapped>;
    return gpu::solve_slots_kernel<Mode>;
  }
  using indegree_entry = void (*)(gpu::solve_args, gpu::indegree_args, gio::device_handle);
  template <push_path Path, push_mode M = Mode> static indegree_entry indegree_kernel_on(int lane_rows) {
    return lane_rows == 1   ? gpu::solve_indegree_kernel<1, M, Path>
           : lane_rows == 2 ? gpu::solve_indegree_kernel<2, M, Path>
                            : gpu::solve_indegree_kernel<4, M, Path>;  // options accept 1, 2 and 4 only
  }
  indegree_entry indegree_kernel(int lane_rows) const {
    if (local_) return indegree_kernel_on<push_path::calls, push_mode::none>(lane_rows);
    if constexpr (Mode == push_mode::packed)
      return mapped() ? indegree_kernel_on<push_path::mapped>(lane_rows) : indegree_kernel_on<push_path::calls>(lane_rows);
    else if constexpr (Mode == push_mode::none)
      return indegree_kernel_on<push_path::calls>(lane_rows);
    else
      throw std::logic_error("the indegree kernel pushes packed words only (the options refuse other modes)");
  }

  void launch() {
    const gio::device_handle handle = gio::shmem_device_handle();
    switch (kernel_) {
      case kernel_choice::slots:
        slots_kernel()<<<workgroups_, gpu::block_threads>>>(args_, handle);
        return runtime::check_launch("solve_slots_kernel");
      case kernel_choice::indegree:
        indegree_kernel(lane_rows_)<<<workgroups_, gpu::block_threads>>>(args_, indegree_args_, handle);
        return runtime::check_launch("solve_indegree_kernel");
      default:
        rounds_kernel()<<<workgroups_, gpu::block_threads>>>(args_, handle);
        return runtime::check_launch("solve_kernel");
    }
  }
};

// --round-stats, indegree kernel: PE 0 gathers every PE's solve times (`mine`, by local row; empty
// where the variant does not run) into global row order and prints the path the solve waited on
// (walk_solved_path). Collective.
void print_solved_path(const job& j, variant which, const block_cyclic& part, const std::vector<std::uint64_t>& mine) {
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(j.pe == 0 ? j.pes : 0), offsets;
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, j.comm);
  std::vector<std::uint64_t> by_pe;
  if (j.pe == 0) {
    offsets.assign(static_cast<std::size_t>(j.pes), 0);
    for (int p = 1; p < j.pes; ++p) offsets[p] = offsets[p - 1] + counts[p - 1];
    by_pe.resize(static_cast<std::size_t>(offsets.back() + counts.back()));
  }
  MPI_Gatherv(mine.data(), count, MPI_UINT64_T, by_pe.data(), counts.data(), offsets.data(), MPI_UINT64_T, 0, j.comm);
  if (j.pe != 0) return;
  std::vector<std::uint64_t> solved_at(static_cast<std::size_t>(part.n()), 0);
  for (int p = 0; p < j.pes; ++p)
    for (int local = 0; local < counts[p]; ++local) solved_at[part.global_row(p, local)] = by_pe[offsets[p] + local];
  try {
    const solved_path path = walk_solved_path(j.prob.L, part, solved_at);
    const auto mean_us = [](std::uint64_t ns, std::int64_t hops) { return hops ? 1e-3 * double(ns) / double(hops) : 0.0; };
    std::printf("spts: %s, the path the last solve waited on (from the row solved last, back through each row's entry "
                "solved last): %d rows over %.1f us, %d PE changes; hops on one PE %lld, mean %.2f us; across PEs "
                "%lld, mean %.2f us; longest hop %.1f us (%s)\n",
                name(which), path.rows, 1e-3 * double(path.last_ns - path.first_ns), path.pe_changes,
                static_cast<long long>(path.local_hops), mean_us(path.local_hop_ns, path.local_hops),
                static_cast<long long>(path.remote_hops), mean_us(path.remote_hop_ns, path.remote_hops),
                1e-3 * double(path.longest_hop_ns), path.longest_hop_remote ? "across PEs" : "on one PE");
  } catch (const std::invalid_argument& e) {
    std::printf("spts: %s, no solved path: %s\n", name(which), e.what());
  }
}

// The sync-free solve of `part`'s rows: on every PE for gio, on PE 0 alone for single.
template <push_mode Mode>
measurement measure_syncfree(const job& j, variant which, const block_cyclic& part) {
  const options& opt = j.opt;
  const bool distributed = is_distributed(which);
  const bool here = distributed || j.pe == 0;
  const int my_part = distributed ? j.pe : 0;
  measurement m(which, Mode, distributed ? j.pes : 1, distributed ? j.gpus : 1, part.block());
  // gio on one PE runs single's kernels (syncfree_solver's `local`); the CSV's kernel says so, and
  // whether busy waves take queued rows (--queue-takes spare).
  const bool local = which == variant::gio && j.pes == 1 && opt.one_pe_local;
  const bool indegree = opt.kernel == kernel_choice::indegree;
  m.kernel = std::string(name(opt.kernel)) + (local ? "/single" : "") + (indegree && opt.spare_takes ? "/spare-takes" : "") +
             (indegree && opt.stack_fifo ? "/fifo-stack" : "");

  // What can be wrong with the setup is found on every PE before anything is allocated.
  std::string cause;
  std::optional<pe_share> share;
  if (here) {
    try {
      share = make_share(j.prob.L, j.prob.b, part, my_part);
    } catch (const std::exception& e) {
      cause = e.what();
    }
  }
  support::agree(j.comm, cause, support::exit_usage);
  const double x_bytes = 8.0 * part.n() * (has_ready_flags<Mode> ? 2 : 1);
  const bool symmetric_counts = distributed && opt.kernel == kernel_choice::indegree;
  const std::size_t counts_words = symmetric_counts ? syncfree_solver<Mode>::indegree_counts_words(part, opt.round_stats) : 0;
  const double symmetric_bytes = x_bytes + 4.0 * static_cast<double>(counts_words);
  if (distributed && symmetric_bytes + 1024.0 * 1024 > static_cast<double>(j.heap_bytes))
    cause = std::string(has_ready_flags<Mode> ? "x and its ready words need " : "x needs ") + gib(x_bytes) +
            (symmetric_counts ? ", the indegree kernel's counts and queue " + gib(4.0 * counts_words) : "") +
            " of symmetric heap, but GIO_SYMMETRIC_SIZE is " + gib(static_cast<double>(j.heap_bytes)) +
            ": set GIO_SYMMETRIC_SIZE to at least " + gib(symmetric_bytes + 64.0 * 1024 * 1024);
  support::agree(j.comm, cause, support::exit_usage);
  const double bytes =
      here ? share_bytes(*share, distributed, opt.kernel == kernel_choice::indegree) + (distributed ? 0.0 : x_bytes) : 0.0;
  require_gpu_memory(j, here, bytes, std::string("the ") + name(which) + " solve");

  // gio: x (and the ready words) in the symmetric heap, where the readers' pushes land. Collective.
  // The indegree kernel's counts and queue too.
  std::optional<symmetric_words> sym_x, sym_ready, sym_counts;
  if (distributed) {
    sym_x.emplace(part.n());
    if constexpr (has_ready_flags<Mode>) sym_ready.emplace(part.n());
    if (symmetric_counts) sym_counts.emplace((counts_words + 1) / 2);
    if (!sym_x->get() || (sym_ready && !sym_ready->get()) || (sym_counts && !sym_counts->get()))
      support::agree(j.comm,
                  "the symmetric heap has no room for x and the solve's words (" + gib(symmetric_bytes) +
                      "): raise GIO_SYMMETRIC_SIZE",
                  support::exit_usage);
  }

  support::or_abort(j.comm, [&] {
    std::optional<device_array<std::uint64_t>> plain_x;
    std::unique_ptr<syncfree_solver<Mode>> solver;
    if (here) {
      if (!distributed) plain_x.emplace(static_cast<std::size_t>(part.n()));
      std::uint64_t* x = distributed ? sym_x->get() : plain_x->get();
      solver = std::make_unique<syncfree_solver<Mode>>(
          j.prob.L, *share, part, my_part, x, sym_ready ? sym_ready->get() : nullptr,
          sym_counts ? reinterpret_cast<std::int32_t*>(sym_counts->get()) : nullptr, opt,
          distributed ? j.pes_on_my_gpu : 1, local);
      m.pushes = share->pushes;
      m.remote_entries = share->remote_entries;
      if (opt.kernel == kernel_choice::indegree) m.analysis_ms = solver->setup_ms();
      if (j.pe == 0 && !opt.quiet)
        std::printf("spts: %s: %s, %d workgroups of %u threads%s\n", name(which),
                    (solver->kernel_description() + solver->path_description()).c_str(), solver->workgroups(), gpu::block_threads,
                    distributed ? " on each PE" : "");
    }
    std::int64_t totals[2] = {m.pushes, m.remote_entries};
    MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT64_T, MPI_SUM, j.comm);
    m.pushes = totals[0], m.remote_entries = totals[1];

    const int runs = opt.warmup + opt.repeats;
    support::progress_line progress(std::string("spts: ") + name(which) + " solves", runs, j.pe == 0 && !opt.quiet);
    for (int r = 0; r < runs; ++r) {
      double ms = 0;
      std::string stall;
      check_result mine;
      std::vector<double> x;
      if (here) {
        ms = solver->run(distributed);
        stall = solver->stall_cause(part, opt.timeout_seconds);
        x = solver->solution();  // this PE's copy: its rows and the values pushed to it
        if (stall.empty())
          for (std::int32_t local = 0; local < share->rows(); ++local)
            check_row(mine, j.prob, x.data(), part.global_row(my_part, local));
      }
      support::agree(j.comm, stall.empty() ? "" : std::string(name(which)) + ": " + stall);
      judge(j, mine, x.data(), m);
      const double own_ms = ms;  // this PE's kernel: set beside the slowest PE's, it shows imbalance
      MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, j.comm);
      if (r >= opt.warmup) m.ms.push_back(ms);
      progress.update(r + 1);
      if (opt.round_stats && here && r + 1 == runs)
        std::printf("spts: %s on PE %d, last solve (%.3f ms; this PE's kernel %.3f ms): %s\n", name(which), j.pe, ms,
                    own_ms, solver->round_summary(own_ms).c_str());
      if (opt.round_stats && opt.kernel == kernel_choice::indegree && r + 1 == runs)
        print_solved_path(j, which, part, here ? solver->solve_times() : std::vector<std::uint64_t>{});
    }
  });
  return m;
}

measurement measure_syncfree(const job& j, variant which, const block_cyclic& part) {
  switch (which == variant::single ? push_mode::none : j.opt.push) {
    case push_mode::none:
      return measure_syncfree<push_mode::none>(j, which, part);
    case push_mode::packed:
      return measure_syncfree<push_mode::packed>(j, which, part);
    case push_mode::signal:
      return measure_syncfree<push_mode::signal>(j, which, part);
    case push_mode::fence:
      return measure_syncfree<push_mode::fence>(j, which, part);
    case push_mode::amo:
      return measure_syncfree<push_mode::amo>(j, which, part);
  }
  throw std::logic_error("unknown push mode");
}

// ---- vendor and cpu ---------------------------------------------------------------------------

measurement measure_vendor(const job& j) {
  const lower_matrix& L = j.prob.L;
  const bool here = j.pe == 0;
  measurement m(variant::vendor);
  std::string cause;
  if (L.nnz() > std::numeric_limits<std::int32_t>::max())
    cause = "vendor: nnz(L) = " + grouped(L.nnz()) + " does not fit the 32-bit indices the vendor solve is given";
  support::agree(j.comm, cause, support::exit_usage);
  const double n = L.n, nnz = static_cast<double>(L.nnz());
  // CSR with the diagonal, b and x; the library's analysis keeps about as much again.
  require_gpu_memory(j, here, 2 * (4 * (n + 1) + 12 * nnz + 16 * n), "the vendor solve");

  support::or_abort(j.comm, [&] {
    std::optional<device_array<std::int32_t>> row_ptr, col;
    std::optional<device_array<double>> val, b;
    std::optional<device_array<std::uint64_t>> x;
    std::unique_ptr<vendor_solver> solver;
    std::string failure;
    if (here) {
      std::vector<std::int32_t> host_row_ptr(static_cast<std::size_t>(L.n) + 1), host_col;
      std::vector<double> host_val;
      host_col.reserve(static_cast<std::size_t>(L.nnz()));
      host_val.reserve(static_cast<std::size_t>(L.nnz()));
      for (std::int32_t row = 0; row < L.n; ++row) {
        for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k)
          host_col.push_back(L.col[k]), host_val.push_back(L.val[k]);
        host_col.push_back(row), host_val.push_back(L.diag[row]);  // the diagonal last: columns stay sorted
        host_row_ptr[row + 1] = static_cast<std::int32_t>(host_col.size());
      }
      row_ptr.emplace(host_row_ptr), col.emplace(host_col), val.emplace(host_val), b.emplace(j.prob.b);
      x.emplace(static_cast<std::size_t>(L.n));
      const device_csr csr{L.n, static_cast<std::int32_t>(L.nnz()), row_ptr->get(), col->get(), val->get()};
      try {
        solver = std::make_unique<vendor_solver>(csr, b->get(), reinterpret_cast<double*>(x->get()));
        m.analysis_ms = solver->analysis_ms();
      } catch (const std::exception& e) {
        failure = e.what();
      }
    }
    support::agree(j.comm, failure);

    const int runs = j.opt.warmup + j.opt.repeats;
    support::progress_line progress("spts: vendor solves", runs, here && !j.opt.quiet);
    std::optional<gpu_event> start, stop;
    if (here) start.emplace(), stop.emplace();
    for (int r = 0; r < runs; ++r) {
      double ms = 0;
      check_result mine;
      std::vector<double> solution;
      if (here) {
        gpu::reset_kernel<<<1024, 256>>>(x->get(), L.n, gpu::unsolved, nullptr, nullptr, nullptr);  // a row it skips shows
        runtime::check_launch("reset_kernel");
        runtime::record_event(start->id);
        solver->solve();
        runtime::record_event(stop->id);
        ms = runtime::elapsed_ms(start->id, stop->id);
        solution = as_doubles(x->download());
        for (std::int32_t row = 0; row < L.n; ++row) check_row(mine, j.prob, solution.data(), row);
      }
      judge(j, mine, solution.data(), m);
      MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, j.comm);
      if (r >= j.opt.warmup) m.ms.push_back(ms);
      progress.update(r + 1);
    }
  });
  return m;
}

measurement measure_cpu(const job& j) {
  measurement m(variant::cpu, push_mode::none, 1, 0);
  const int runs = j.opt.warmup + j.opt.repeats;
  support::progress_line progress("spts: cpu solves", runs, j.pe == 0 && !j.opt.quiet);
  for (int r = 0; r < runs; ++r) {
    double ms = 0;
    check_result mine;
    std::vector<double> x;
    if (j.pe == 0) {
      const clock_type::time_point start = clock_type::now();
      x = solve_serial(j.prob.L, j.prob.b);
      ms = 1e3 * seconds_since(start);
      for (std::int32_t row = 0; row < j.prob.L.n; ++row) check_row(mine, j.prob, x.data(), row);
    }
    judge(j, mine, x.data(), m);
    MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, j.comm);
    if (r >= j.opt.warmup) m.ms.push_back(ms);
    progress.update(r + 1);
  }
  return m;
}

// ---- input and output -------------------------------------------------------------------------

problem load_problem(const options& opt, int pe, int pes_on_node) {
  problem p;
  const clock_type::time_point start = clock_type::now();
  if (opt.generator) {
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const unsigned threads =
        opt.generator_threads ? opt.generator_threads : std::max(1u, hardware / std::max(pes_on_node, 1));
    if (pe == 0 && !opt.quiet) std::printf("spts: generating %s ...\n", opt.input_name().c_str()), std::fflush(stdout);
    p.L = generate(*opt.generator, opt.seed, threads);
    p.origin = std::string("generated, seed ") + std::to_string(opt.seed) + ": " + info(opt.generator->id).model +
               "; off-diagonal values in +-[0.1, 1), dominant diagonal 1 + sum |l_ij|";
  } else {
    if (pe == 0 && !opt.quiet) std::printf("spts: reading %s ...\n", opt.matrix_path.c_str()), std::fflush(stdout);
    matrix_market_input in = read_matrix_market(opt.matrix_path, {opt.lower_of_general, opt.seed});
    p.L = std::move(in.L);
    p.origin = in.origin;
  }
  p.b = make_rhs(p.L);
  p.reference = solve_serial(p.L, p.b);
  if (pe == 0 && !opt.quiet) std::printf("spts: input ready in %.1f s\n", seconds_since(start));
  return p;
}

const std::vector<std::string> csv_columns{"matrix",      "rows",
                                           "nnz",         "levels",
                                           "parallelism", "variant",
                                           "push",        "pes",
                                           "gpus",        "gpu",
                                           "block",       "repeats",
                                           "median_ms",   "min_ms",
                                           "max_ms",      "gflops",
                                           "residual",    "max_rel_difference",
                                           "pushes",      "remote_entries",
                                           "analysis_ms", "kernel",
                                           "path_crossings"};

void report(const job& j, const matrix_stats& stats, const measurement& m, const std::vector<measurement>& earlier,
            support::csv_appender* csv) {
  if (j.pe != 0) return;
  const double median = m.median();
  const double gflops = 2.0 * static_cast<double>(stats.nnz) / (median * 1e-3) / 1e9;
  std::string speedups;
  for (variant baseline : {variant::vendor, variant::single}) {
    std::string cell = "-";
    for (const measurement& e : earlier)
      if (e.which == baseline && e.which != m.which) cell = format("%.2fx", e.median() / median);
    char text[16];
    std::snprintf(text, sizeof text, " %10s", cell.c_str());
    speedups += text;
  }
  std::printf("%-8s %4d %4d %12.4f %12.4f %12.4f %9.2f %10.2e%s\n", name(m.which), m.pes, m.gpus, median, m.fastest(),
              m.slowest(), gflops, m.residual, speedups.c_str());
  if (is_distributed(m.which))
    std::printf("         push %s, block %s rows: %s x values pushed per solve, %s of %s entries read a remote row, "
                "at most %s PE changes on a dependency path of at most %s rows\n",
                name(m.push), grouped(m.block).c_str(), grouped(m.pushes).c_str(), grouped(m.remote_entries).c_str(),
                grouped(j.prob.L.strict_nnz()).c_str(), grouped(m.path_crossings).c_str(), grouped(stats.levels).c_str());
  if (m.which == variant::vendor)
    std::printf("         %s, analysis %.3f ms (not in the solve time)\n", vendor_solver::name(), m.analysis_ms);
  std::fflush(stdout);
  if (!csv) return;
  auto number = [](double v, const char* pattern = "%.6g") {
    return std::isnan(v) ? std::string() : format(pattern, v);
  };
  csv->row({j.opt.input_name(),
            std::to_string(stats.rows),
            std::to_string(stats.nnz),
            std::to_string(stats.levels),
            number(stats.parallelism),
            name(m.which),
            name(m.push),
            std::to_string(m.pes),
            std::to_string(m.gpus),
            m.which == variant::cpu ? "cpu" : j.gpu_name,
            std::to_string(m.block),
            std::to_string(m.ms.size()),
            number(median),
            number(m.fastest()),
            number(m.slowest()),
            number(gflops),
            number(m.residual, "%.3e"),
            number(m.difference, "%.3e"),
            std::to_string(m.pushes),
            std::to_string(m.remote_entries),
            number(m.analysis_ms),
            m.kernel,
            m.path_crossings < 0 ? std::string() : std::to_string(m.path_crossings)});
}

// ---- the program ------------------------------------------------------------------------------

int run(int argc, char** argv, MPI_Comm comm) {
  int pe = 0, pes = 1;
  MPI_Comm_rank(comm, &pe);
  MPI_Comm_size(comm, &pes);

  std::optional<options> parsed;
  std::string cause;
  try {
    parsed = parse_options(argc, argv);
    if (!parsed) {
      if (pe == 0) std::fputs(spts_help().c_str(), stdout);
      return 0;
    }
  } catch (const support::usage_error& e) {
    cause = std::string(e.what()) + " (spts --help lists the options)";
  }
  support::agree(comm, cause, support::exit_usage);
  const options& opt = *parsed;

  // gio first: it picks this PE's GPU, and every variant runs on that GPU. Its transport to the
  // other PEs is fixed at init: the gda and ikn variants choose it here.
  if (opt.wants(variant::gda)) ::setenv("GIO_TRANSPORT", "gda", 1);
  if (opt.wants(variant::ikn)) ::setenv("GIO_TRANSPORT", "ikn", 1);
  const support::gio_session session(comm);
  const gio::runtime_report rt = gio::shmem_runtime_report();
  runtime::set_device(rt.gpu);
  int pes_on_my_gpu = 0;
  for (int other = 0; other < pes; ++other)
    pes_on_my_gpu += other == pe || (gio::shmem_peer_report(other).caps & gio::peer_same_device) != 0;
  int gpus = rt.node_pe == 0 ? std::min(rt.node_pes, runtime::device_count()) : 0;
  MPI_Allreduce(MPI_IN_PLACE, &gpus, 1, MPI_INT, MPI_SUM, comm);

  std::optional<problem> prob;
  int input_status = support::exit_usage;
  try {
    prob = load_problem(opt, pe, rt.node_pes);
  } catch (const input_error& e) {
    cause = e.what();
  } catch (const std::invalid_argument& e) {
    cause = e.what();
  } catch (const std::exception& e) {
    cause = std::string("loading the input: ") + e.what();
    input_status = support::exit_failure;
  }
  support::agree(comm, cause, input_status);

  matrix_stats stats;
  if (pe == 0) {
    stats = analyse(prob->L);
    std::printf("spts: %s (%s)\n", opt.input_name().c_str(), prob->origin.c_str());
    std::printf("spts: %s rows, %s nnz(L), %s levels, parallelism %s rows/level, longest row %s, densest column %s\n",
                grouped(stats.rows).c_str(), grouped(stats.nnz).c_str(), grouped(stats.levels).c_str(),
                format("%.1f", stats.parallelism).c_str(), grouped(stats.max_row_nnz).c_str(),
                grouped(stats.max_column_nnz).c_str());
    std::printf("spts: %d PE%s on %d GPU%s (%s), %d warm-up and %d timed solves per variant\n", pes, pes > 1 ? "s" : "",
                gpus, gpus > 1 ? "s" : "", rt.gpu_name.c_str(), opt.warmup, opt.repeats);
    if (!opt.save_path.empty()) {
      try {
        write_matrix_market(prob->L, opt.save_path);
        std::printf("spts: wrote L to %s\n", opt.save_path.c_str());
      } catch (const input_error& e) {
        cause = e.what();
      }
    }
  }
  support::agree(comm, cause, support::exit_usage);

  // --kernel auto and an unset ticket, resolved per variant from PE 0's statistics so that every
  // PE agrees.
  double shape_words[3] = {stats.parallelism, static_cast<double>(stats.max_row_nnz - 1),
                           static_cast<double>(stats.max_column_nnz)};
  MPI_Bcast(shape_words, 3, MPI_DOUBLE, 0, comm);
  const matrix_shape shape{shape_words[0], static_cast<std::int64_t>(shape_words[1]),
                           static_cast<std::int64_t>(shape_words[2])};
  const auto planned = [&](variant v) {
    options planned_opt = opt;
    const kernel_plan plan = plan_kernel(opt, v, shape, gpu::slots_max_row, gpu::slots_rows_per_ticket);
    planned_opt.kernel = plan.kernel;
    planned_opt.rows_per_ticket = plan.rows_per_ticket;
    planned_opt.wgs_per_multiprocessor = plan.wgs_per_multiprocessor;
    return planned_opt;
  };

  std::unique_ptr<support::csv_appender> csv;
  if (pe == 0 && !opt.csv_path.empty()) {
    try {
      csv = std::make_unique<support::csv_appender>(opt.csv_path, csv_columns);
    } catch (const std::exception& e) {
      cause = e.what();
    }
  }
  support::agree(comm, cause, support::exit_usage);

  const job j{comm, pe, pes, gpus, pes_on_my_gpu, rt.gpu_name, rt.heap_size, opt, *prob};
  if (pe == 0)
    std::printf("%-8s %4s %4s %12s %12s %12s %9s %10s %10s %10s\n", "variant", "PEs", "GPUs", "median ms", "min ms",
                "max ms", "GFLOP/s", "residual", "vs vendor", "vs single");
  std::vector<measurement> done;
  for (const variant v : opt.variants) {
    if (v == variant::cpu) done.push_back(measure_cpu(j));
    if (v == variant::vendor) done.push_back(measure_vendor(j));
    const options variant_opt = planned(v);
    const job vj{comm, pe, pes, gpus, pes_on_my_gpu, rt.gpu_name, rt.heap_size, variant_opt, *prob};
    if (v == variant::single) done.push_back(measure_syncfree(vj, v, block_cyclic(prob->L.n, prob->L.n, 1)));
    if (is_distributed(v)) {
      std::optional<block_cyclic> part;
      try {
        part.emplace(prob->L.n, block_rows(opt.block, prob->L.n, pes), pes);
      } catch (const std::invalid_argument& e) {
        cause = opt.block == contiguous_blocks
                    ? "--block contiguous: " + std::to_string(prob->L.n) + " rows in ranges of " +
                          std::to_string(block_rows(opt.block, prob->L.n, pes)) + " leave a PE of " +
                          std::to_string(pes) + " without rows; give --block ROWS"
                    : std::string(e.what());
      }
      support::agree(comm, cause, support::exit_usage);
      done.push_back(measure_syncfree(vj, v, *part));
      if (pe == 0) done.back().path_crossings = most_path_crossings(prob->L, *part);
    }
    report(j, stats, done.back(), done, csv.get());
  }
  return 0;
}

}  // namespace
}  // namespace spts

int main(int argc, char** argv) {
  return support::run_mpi_main(argc, argv, MPI_THREAD_SERIALIZED,
                            [&](MPI_Comm comm) { return spts::run(argc, argv, comm); });
}
