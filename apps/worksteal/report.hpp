// What a worksteal run reports: a line per variant on PE 0 and a CSV row (median of the timed
// runs, with the steals of the median run). Plain C++, shared by the GPU and GPU-less builds.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "support/csv.hpp"
#include "options.hpp"

namespace worksteal {

inline constexpr int distance_classes = 3;  // same GPU, another GPU of the node, another node

struct run_figures {
  double seconds = 0;   // the slowest PE's span
  double executed = 0;  // tasks run, every PE
  double steal_attempts[distance_classes] = {};
  double steal_successes[distance_classes] = {};
  double stolen_tasks[distance_classes] = {};
  double damped = 0;
  std::vector<double> pe_share;  // each PE's share of the executed tasks
  // Per PE, from its first worker's start (each GPU's own clock: the GPUs' clocks differ):
  std::vector<double> pe_seconds;              // until its last worker's exit
  std::vector<double> pe_initial_out_seconds;  // until its initial set ran out
  std::vector<double> pe_half_done_seconds;    // until half its workers had run their last tasks
  std::vector<double> pe_half_idle_seconds;    // until half its workers had first gone idle
  std::vector<double> pe_busy_seconds;         // until its last worker first went idle
  // Per PE, the first idle transition's steps, medians over its workers: the failed steal attempt,
  // closing the queue, the release fence, the idle count (worker_stats::idle_steps_ns).
  std::array<std::vector<double>, 4> pe_idle_step_seconds;
  int participants = 0;          // PEs that ran workers
  int workers_per_pe = 0;
  std::string result;            // what the check saw ("nodes ... leaves ... depth ...")
};

struct machine {
  int pes = 1;
  int gpus = 0;
  std::string gpu_name;
};

std::vector<std::string> csv_columns();
void print_header();
// `runs` are the timed runs of one variant (at least one).
void report(const machine& m, const options& opt, variant v, std::uint64_t items, const char* unit,
            const std::vector<run_figures>& runs, support::csv_appender* csv);
// The input's name in the CSV: the tree, the task count or the corpus.
std::string input_name(const options& opt);

}  // namespace worksteal
