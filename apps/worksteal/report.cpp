#include "report.hpp"

#include <algorithm>
#include <cstdio>

namespace worksteal {

std::string input_name(const options& opt) {
  switch (opt.work) {
    case workload::memset: return std::to_string(opt.tasks);
    case workload::uts: return opt.tree;
    default: return opt.corpus_file.empty() ? "synthetic:" + std::to_string(opt.documents) : opt.corpus_file;
  }
}

std::vector<std::string> csv_columns() {
  return {"workload", "input", "variant", "pes", "gpus", "gpu", "participants", "workers_per_pe", "threads",
          "termination", "bias", "median_s", "min_s", "max_s", "items", "rate_per_s", "steals_attempted_gpu",
          "steals_attempted_node", "steals_attempted_remote", "steals_succeeded_gpu", "steals_succeeded_node",
          "steals_succeeded_remote", "stolen_tasks", "damped", "pe_shares", "result", "pe_seconds",
          "pe_initial_out_seconds", "pe_half_done_seconds", "pe_half_idle_seconds", "pe_busy_seconds",
          "watch_busy_phases", "pe_idle_steal_us", "pe_idle_close_us", "pe_idle_fence_us", "pe_idle_count_us"};
}

void print_header() {
  std::printf("%-12s %4s %7s %10s %10s %10s %12s %22s %22s  %s\n", "variant", "PEs", "workers", "median ms", "min ms",
              "max ms", "rate/s", "steals tried g/n/r", "steals won g/n/r", "PE shares");
}

namespace {
std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}
// "a;b;c" of v's values times scale, as the PE shares are written.
std::string joined(const std::vector<double>& v, double scale) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ";" : "") + fmt("%.3f", v[i] * scale);
  return out;
}
std::string triple(const double (&v)[distance_classes]) {
  return fmt("%.0f", v[0]) + "/" + fmt("%.0f", v[1]) + "/" + fmt("%.0f", v[2]);
}
}  // namespace

void report(const machine& m, const options& opt, variant v, std::uint64_t items, const char* unit,
            const std::vector<run_figures>& runs, support::csv_appender* csv) {
  std::vector<const run_figures*> sorted;
  for (const auto& r : runs) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->seconds < b->seconds; });
  const run_figures& med = *sorted[sorted.size() / 2];
  const double rate = med.seconds > 0 ? static_cast<double>(items) / med.seconds : 0;
  const std::string shares = joined(med.pe_share, 1);
  std::printf("%-12s %4d %7d %10.3f %10.3f %10.3f %12.4g %22s %22s  %s  [%s]\n", name_of(v), med.participants,
              med.workers_per_pe, med.seconds * 1e3, sorted.front()->seconds * 1e3, sorted.back()->seconds * 1e3, rate,
              triple(med.steal_attempts).c_str(), triple(med.steal_successes).c_str(), shares.c_str(),
              med.result.c_str());
  std::printf("%-12s %s/s: %.4g\n", "", unit, rate);
  const std::string spans = joined(med.pe_seconds, 1e3), out = joined(med.pe_initial_out_seconds, 1e3),
                    done = joined(med.pe_half_done_seconds, 1e3), half = joined(med.pe_half_idle_seconds, 1e3),
                    busy = joined(med.pe_busy_seconds, 1e3);
  std::string steps[4];
  for (int k = 0; k < 4; ++k) steps[k] = joined(med.pe_idle_step_seconds[k], 1e6);
  if (med.participants > 1) {
    std::printf("%-12s per PE, ms: initial set out %s; half the workers done %s, idle %s; all idle %s; span %s\n", "",
                out.c_str(), done.c_str(), half.c_str(), busy.c_str(), spans.c_str());
    std::printf("%-12s per PE, first idle transition (median over workers), us: steal %s; close %s; fence %s; "
                "count %s\n", "", steps[0].c_str(), steps[1].c_str(), steps[2].c_str(), steps[3].c_str());
  }
  std::fflush(stdout);
  if (!csv) return;
  double stolen = 0;
  for (double s : med.stolen_tasks) stolen += s;
  csv->row({name_of(opt.work), input_name(opt), name_of(v), std::to_string(m.pes), std::to_string(m.gpus), m.gpu_name,
            std::to_string(med.participants), std::to_string(med.workers_per_pe), std::to_string(opt.threads),
            opt.termination, fmt("%.3f", opt.bias), fmt("%.9f", med.seconds), fmt("%.9f", sorted.front()->seconds),
            fmt("%.9f", sorted.back()->seconds), std::to_string(items), fmt("%.6g", rate),
            fmt("%.0f", med.steal_attempts[0]), fmt("%.0f", med.steal_attempts[1]), fmt("%.0f", med.steal_attempts[2]),
            fmt("%.0f", med.steal_successes[0]), fmt("%.0f", med.steal_successes[1]),
            fmt("%.0f", med.steal_successes[2]), fmt("%.0f", stolen), fmt("%.0f", med.damped), shares, med.result,
            spans, out, done, half, busy, std::to_string(opt.watch_busy), steps[0], steps[1], steps[2], steps[3]});
}

}  // namespace worksteal
