// Command line of gio-bench and gio-bench-nvshmem (host code only; both binaries share it), on
// support's option parser.
#pragma once
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "support/options.hpp"

namespace bench {

using support::usage_error;

struct launch_shape {
  unsigned workgroups;  // 0: as many as the GPU has multiprocessors, times `per_sm`
  unsigned per_sm;      // multiplier when workgroups == 0
  unsigned threads;
};

struct options {
  bool help = false;
  std::string csv_path;
  std::vector<std::string> benchmarks;  // names from benchmark_names
  std::vector<scope> scopes{scope::thread, scope::wave, scope::wg};
  std::size_t min_size = 8;
  std::size_t max_size = std::size_t(4) << 20;
  unsigned wg_threads = 1024;
  std::vector<unsigned> multi_workgroups{1, 2, 4, 8, 16, 32, 64, 128};
  std::vector<std::size_t> multi_sizes{8, 4096, 65536};
  std::size_t bw_bytes = std::size_t(64) << 20;
  std::vector<launch_shape> bw_shapes{{0, 1, 1024}, {0, 1, 512}, {0, 1, 256}, {0, 2, 512}, {0, 4, 256}, {32, 0, 1024}};
  unsigned bw_iterations = 30;
  std::size_t signal_max_size = std::size_t(1) << 20;
  std::size_t coll_max_size = std::size_t(1) << 20;
  std::vector<launch_shape> amo_shapes{{0, 1, 1024}, {0, 1, 256}, {1, 0, 1024}, {1, 0, 32}};
  unsigned amo_ops = 16;
  unsigned repetitions = 7;
  double target_ms = 10.0;
  unsigned max_iterations = 20000;
  std::size_t heap_bytes = std::size_t(1) << 30;

  bool wants(const std::string& name) const {
    for (const auto& b : benchmarks)
      if (b == name) return true;
    return false;
  }
};

// Every benchmark, and those run without --bench: the point-to-point set of the first release
// (interk only where the binary runs the host baselines). The others run when named.
inline constexpr const char* benchmark_names = "init,p,put,multi,bw,interk,signal,amo,amo_rate,barrier,coll";
inline constexpr const char* default_benchmarks = "init,p,put,multi,bw,interk";

inline const char* scope_name(scope s) {
  switch (s) {
    case scope::thread: return "thread";
    case scope::wave: return "wave";
    case scope::wg: return "wg";
  }
  return "?";
}

inline std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = text.find(',', begin);
    const std::string item = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (!item.empty()) items.push_back(item);
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return items;
}

// "4096", "64K", "4M", "1G" (binary units, optional trailing "B" or "iB").
inline std::size_t parse_size(const std::string& text) {
  char* end = nullptr;
  const unsigned long long number = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str()) throw usage_error("not a size: '" + text + "'");
  std::string unit(end);
  if (unit == "B" || unit == "iB") unit.clear();
  if (unit.size() > 1 && (unit.substr(1) == "B" || unit.substr(1) == "iB")) unit = unit.substr(0, 1);
  std::size_t shift = 0;
  if (unit == "K" || unit == "k") shift = 10;
  else if (unit == "M" || unit == "m") shift = 20;
  else if (unit == "G" || unit == "g") shift = 30;
  else if (!unit.empty()) throw usage_error("not a size: '" + text + "'");
  return static_cast<std::size_t>(number) << shift;
}

inline unsigned parse_count(const std::string& text) {
  char* end = nullptr;
  const unsigned long value = std::strtoul(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || value == 0) throw usage_error("not a positive count: '" + text + "'");
  return static_cast<unsigned>(value);
}

// "BxT": B workgroups of T threads; B may be "sm", "2sm", ... (multiples of the SM count).
inline launch_shape parse_shape(const std::string& text) {
  const std::size_t x = text.find('x');
  if (x == std::string::npos) throw usage_error("launch shape '" + text + "' is not BxT");
  const std::string blocks = text.substr(0, x);
  const unsigned threads = parse_count(text.substr(x + 1));
  const std::size_t sm = blocks.find("sm");
  if (sm == std::string::npos) return {parse_count(blocks), 0, threads};
  if (sm + 2 != blocks.size()) throw usage_error("launch shape '" + text + "': write B as N or Nsm");
  return {0, sm == 0 ? 1u : parse_count(blocks.substr(0, sm)), threads};
}

template <class T, class Parse> std::vector<T> parse_list(const std::string& text, Parse parse) {
  std::vector<T> values;
  for (const auto& item : split_list(text)) values.push_back(parse(item));
  if (values.empty()) throw usage_error("empty list");
  return values;
}

inline scope parse_scope(const std::string& text) {
  for (scope s : {scope::thread, scope::wave, scope::wg})
    if (text == scope_name(s)) return s;
  throw usage_error("unknown scope '" + text + "' (thread, wave, wg)");
}

// The command line, each option declared once for parsing and --help (support/options.hpp).
// `opt` receives the values; `system` and `host_baselines_by_default` name the binary's library.
inline support::option_parser make_parser(options& opt, const char* program, const char* system,
                                          bool host_baselines_by_default) {
  support::option_parser p(program, std::string("GPU-initiated communication benchmarks for ") + system +
                                        R"( (run under mpirun, 2 or more PEs;
PE 0 and PE 1 take part, one GPU each or sharing one).

Prints one CSV row per measurement: system,benchmark,scope,size_bytes,workgroups,threads,value,unit
  init_time, gpu_memory    host wall time of the library's init (ms, max over PEs) and the
                           device memory it took (MiB, free-memory delta; device-wide, so PEs
                           sharing a GPU see each other); size_bytes = symmetric heap size
  pingpong_p               one thread: shmem_p(flag) to the peer, which waits and answers
  pingpong_put             put at thread/wave/wg scope, then fence + p(flag); the peer waits
                           and replies the same way. value = one-way latency (us)
  pingpong_multi_wg        N workgroups of one wave each ping-pong at once on their own flags
                           (GIO paper Fig. 5b); value = mean one-way latency per workgroup
  put_bw_uni, put_bw_bi    B workgroups x T threads each put_nbi_wg a slice, then quiet;
                           GB/s (1e9 B/s), bi = both directions together
  inter-k, inter-k-empty   (system column) host MPI between kernels: D2H into pinned memory,
                           MPI_Send/Recv, H2D; -empty adds an empty kernel launch + sync per step
Run only when named in --bench (or --bench all):
  pingpong_put_signal      (signal) put-with-signal at thread/wave/wg scope, signal SET to a
                           sequence number; the peer waits with signal_wait_until(GE) and
                           replies the same way; one-way us, 8 B .. --signal-max-size
  amo_fetch_add, amo_compare_swap, amo_fetch
                           (amo) one thread, uint64 AMOs on the peer, each call's arguments
                           depending on the previous result; us per call
  amo_rate_fetch_add, amo_rate_add         (amo_rate) every thread of a BxT grid issues
  amo_rate_fetch_add_spread, amo_rate_add_spread   --amo-ops remote adds of 1 to one shared
                           counter, or (_spread) to its own counter (128 B apart); the add
                           forms are completed by quiet; Mops/s; final counters are checked
  barrier_all, sync_all    (barrier) one workgroup per PE, every PE; the thread/wave/wg form
                           in a loop; us per call
  reduce_int64_sum, reduce_double_sum, broadcast, fcollect, alltoall
                           (coll) world-team collectives at wg scope, one workgroup per PE,
                           every PE; us per call; size = the reduced/broadcast array, or the
                           block per PE (fcollect, alltoall); broadcast root is PE 0;
                           results are checked against closed forms once per size
Latencies are device-timed (global timer) over many iterations after warm-up; each row is the
median of --reps repetitions. Received data is checked after every configuration.
Sizes take K/M/G suffixes; lists are comma separated.)");
  const auto size_of = [](std::size_t& field) { return [&field](const std::string& v) { field = parse_size(v); }; };
  const auto count_of = [](unsigned& field) { return [&field](const std::string& v) { field = parse_count(v); }; };
  p.value("--csv", "FILE", "also write the rows to FILE", [&opt](const std::string& v) { opt.csv_path = v; });
  p.value("--bench", "LIST",
          std::string("which benchmarks: ") + benchmark_names + ", or all\n(default: " + default_benchmarks +
              (host_baselines_by_default ? "" : "; interk only in gio-bench") + ")",
          [&opt](const std::string& v) {
            opt.benchmarks = parse_list<std::string>(v == "all" ? benchmark_names : v, [](const std::string& s) { return s; });
            const std::vector<std::string> known = split_list(benchmark_names);
            for (const auto& b : opt.benchmarks) {
              bool found = false;
              for (const auto& k : known) found = found || k == b;
              if (!found) throw usage_error("unknown benchmark '" + b + "' (" + benchmark_names + ")");
            }
          });
  p.value("--scopes", "LIST", "scopes of pingpong_put, pingpong_put_signal, barrier_all and sync_all:\nthread,wave,wg (default: all)",
          [&opt](const std::string& v) { opt.scopes = parse_list<scope>(v, parse_scope); });
  p.value("--min-size", "SIZE", "smallest pingpong_put / inter-k message (default 8)", size_of(opt.min_size));
  p.value("--max-size", "SIZE", "largest, sizes double in between (default 4M)", size_of(opt.max_size));
  p.value("--wg-threads", "N", "threads per workgroup at wg scope (default 1024)", count_of(opt.wg_threads));
  p.value("--multi-wgs", "LIST", "workgroup counts of pingpong_multi_wg (default 1,2,4,8,16,32,64,128)",
          [&opt](const std::string& v) { opt.multi_workgroups = parse_list<unsigned>(v, parse_count); });
  p.value("--multi-sizes", "LIST", "message sizes of pingpong_multi_wg (default 8,4K,64K)",
          [&opt](const std::string& v) { opt.multi_sizes = parse_list<std::size_t>(v, parse_size); });
  p.value("--bw-bytes", "SIZE", "bytes per bandwidth iteration, split over the workgroups (default 64M)",
          size_of(opt.bw_bytes));
  p.value("--bw-shapes", "LIST",
          "launch shapes BxT; B may be Nsm = N x the GPU's multiprocessors\n"
          "(default smx1024,smx512,smx256,2smx512,4smx256,32x1024)",
          [&opt](const std::string& v) { opt.bw_shapes = parse_list<launch_shape>(v, parse_shape); });
  p.value("--bw-iters", "N", "puts per workgroup per timed launch (default 30)", count_of(opt.bw_iterations));
  p.value("--signal-max-size", "SIZE", "largest pingpong_put_signal message (default 1M)", size_of(opt.signal_max_size));
  p.value("--coll-max-size", "SIZE", "largest collective size, from max(8, --min-size) (default 1M)",
          size_of(opt.coll_max_size));
  p.value("--amo-shapes", "LIST", "launch shapes BxT of amo_rate (default smx1024,smx256,1x1024,1x32)",
          [&opt](const std::string& v) { opt.amo_shapes = parse_list<launch_shape>(v, parse_shape); });
  p.value("--amo-ops", "N", "remote adds per thread per amo_rate launch (default 16)", count_of(opt.amo_ops));
  p.value("--reps", "N", "repetitions per row, the median is reported (default 7)", count_of(opt.repetitions));
  p.value("--target-ms", "X", "timed length of one latency repetition; sets its iteration count (default 10)",
          [&opt](const std::string& v) {
            opt.target_ms = std::strtod(v.c_str(), nullptr);
            if (!(opt.target_ms > 0)) throw usage_error("--target-ms needs a positive number");
          });
  p.value("--max-iters", "N", "cap on that iteration count (default 20000)", count_of(opt.max_iterations));
  p.value("--heap", "SIZE", "symmetric heap per PE, unless the library's variable is set (default 1G)",
          size_of(opt.heap_bytes));
  p.epilogue("Exit status: 0 done, 2 bad usage, 77 skipped (this library cannot run this PE layout),\n"
             "1 error (a failed call or a data check; the message names the PE).");
  return p;
}

// Throws usage_error for an unknown option, a bad value or values that do not fit together.
inline options parse_options(int argc, char** argv, const char* system, bool host_baselines_by_default) {
  options opt;
  opt.benchmarks = split_list(default_benchmarks);
  if (!host_baselines_by_default) opt.benchmarks.pop_back();  // "interk" is last
  if (!make_parser(opt, argv[0], system, host_baselines_by_default).parse(argc, argv)) {
    opt.help = true;
    return opt;
  }
  if (opt.min_size == 0 || opt.min_size > opt.max_size) throw usage_error("need 0 < --min-size <= --max-size");
  if (opt.wants("signal") && opt.min_size > opt.signal_max_size) throw usage_error("need --min-size <= --signal-max-size");
  if (opt.coll_max_size < 8) throw usage_error("--coll-max-size is at least 8");
  if (opt.bw_bytes == 0) throw usage_error("--bw-bytes must be positive");
  if (opt.wg_threads > max_wg_threads) throw usage_error("--wg-threads is at most " + std::to_string(max_wg_threads));
  for (const auto* shapes : {&opt.bw_shapes, &opt.amo_shapes})
    for (const launch_shape& shape : *shapes)
      if (shape.threads > max_wg_threads) throw usage_error("launch shapes have at most " + std::to_string(max_wg_threads) + " threads");
  for (std::size_t s : opt.multi_sizes)
    if (s == 0) throw usage_error("--multi-sizes must be positive");
  return opt;
}

inline void print_help(const char* program, const char* system, bool host_baselines_by_default) {
  options scratch;
  std::fputs(make_parser(scratch, program, system, host_baselines_by_default).help().c_str(), stdout);
}

}  // namespace bench
