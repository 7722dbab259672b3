// Command line of gio-bench and gio-bench-nvshmem (host code only; both binaries share it).
#pragma once
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.hpp"

namespace bench {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

inline options parse_options(int argc, char** argv, bool host_baselines_by_default) {
  options opt;
  opt.benchmarks = split_list(default_benchmarks);
  if (!host_baselines_by_default) opt.benchmarks.pop_back();  // "interk" is last
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    const std::size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    if (arg == "--help" || arg == "-h") {
      opt.help = true;
      continue;
    }
    if (eq == std::string::npos) {
      if (i + 1 >= argc) throw usage_error(arg + " needs a value");
      value = argv[++i];
    }
    if (arg == "--csv") opt.csv_path = value;
    else if (arg == "--bench") {
      opt.benchmarks = parse_list<std::string>(value == "all" ? benchmark_names : value, [](const std::string& s) { return s; });
      const std::vector<std::string> known = split_list(benchmark_names);
      for (const auto& b : opt.benchmarks) {
        bool found = false;
        for (const auto& k : known) found = found || k == b;
        if (!found) throw usage_error("unknown benchmark '" + b + "' (" + benchmark_names + ")");
      }
    } else if (arg == "--scopes") opt.scopes = parse_list<scope>(value, parse_scope);
    else if (arg == "--min-size") opt.min_size = parse_size(value);
    else if (arg == "--max-size") opt.max_size = parse_size(value);
    else if (arg == "--wg-threads") opt.wg_threads = parse_count(value);
    else if (arg == "--multi-wgs") opt.multi_workgroups = parse_list<unsigned>(value, parse_count);
    else if (arg == "--multi-sizes") opt.multi_sizes = parse_list<std::size_t>(value, parse_size);
    else if (arg == "--bw-bytes") opt.bw_bytes = parse_size(value);
    else if (arg == "--bw-shapes") opt.bw_shapes = parse_list<launch_shape>(value, parse_shape);
    else if (arg == "--bw-iters") opt.bw_iterations = parse_count(value);
    else if (arg == "--signal-max-size") opt.signal_max_size = parse_size(value);
    else if (arg == "--coll-max-size") opt.coll_max_size = parse_size(value);
    else if (arg == "--amo-shapes") opt.amo_shapes = parse_list<launch_shape>(value, parse_shape);
    else if (arg == "--amo-ops") opt.amo_ops = parse_count(value);
    else if (arg == "--reps") opt.repetitions = parse_count(value);
    else if (arg == "--target-ms") {
      opt.target_ms = std::strtod(value.c_str(), nullptr);
      if (!(opt.target_ms > 0)) throw usage_error("--target-ms needs a positive number");
    } else if (arg == "--max-iters") opt.max_iterations = parse_count(value);
    else if (arg == "--heap") opt.heap_bytes = parse_size(value);
    else throw usage_error("unknown option '" + arg + "'");
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
  std::printf(
      "%s: GPU-initiated communication benchmarks for %s (run under mpirun, 2 or more PEs;\n"
      "PE 0 and PE 1 take part, one GPU each or sharing one).\n"
      "\n"
      "Prints one CSV row per measurement: system,benchmark,scope,size_bytes,workgroups,threads,value,unit\n"
      "  init_time, gpu_memory    host wall time of the library's init (ms, max over PEs) and the\n"
      "                           device memory it took (MiB, free-memory delta; device-wide, so PEs\n"
      "                           sharing a GPU see each other); size_bytes = symmetric heap size\n"
      "  pingpong_p               one thread: shmem_p(flag) to the peer, which waits and answers\n"
      "  pingpong_put             put at thread/wave/wg scope, then fence + p(flag); the peer waits\n"
      "                           and replies the same way. value = one-way latency (us)\n"
      "  pingpong_multi_wg        N workgroups of one wave each ping-pong at once on their own flags\n"
      "                           (GIO paper Fig. 5b); value = mean one-way latency per workgroup\n"
      "  put_bw_uni, put_bw_bi    B workgroups x T threads each put_nbi_wg a slice, then quiet;\n"
      "                           GB/s (1e9 B/s), bi = both directions together\n"
      "  inter-k, inter-k-empty   (system column) host MPI between kernels: D2H into pinned memory,\n"
      "                           MPI_Send/Recv, H2D; -empty adds an empty kernel launch + sync per step\n"
      "Run only when named in --bench (or --bench all):\n"
      "  pingpong_put_signal      (signal) put-with-signal at thread/wave/wg scope, signal SET to a\n"
      "                           sequence number; the peer waits with signal_wait_until(GE) and\n"
      "                           replies the same way; one-way us, 8 B .. --signal-max-size\n"
      "  amo_fetch_add, amo_compare_swap, amo_fetch\n"
      "                           (amo) one thread, uint64 AMOs on the peer, each call's arguments\n"
      "                           depending on the previous result; us per call\n"
      "  amo_rate_fetch_add, amo_rate_add         (amo_rate) every thread of a BxT grid issues\n"
      "  amo_rate_fetch_add_spread, amo_rate_add_spread   --amo-ops remote adds of 1 to one shared\n"
      "                           counter, or (_spread) to its own counter (128 B apart); the add\n"
      "                           forms are completed by quiet; Mops/s; final counters are checked\n"
      "  barrier_all, sync_all    (barrier) one workgroup per PE, every PE; the thread/wave/wg form\n"
      "                           in a loop; us per call\n"
      "  reduce_int64_sum, reduce_double_sum, broadcast, fcollect, alltoall\n"
      "                           (coll) world-team collectives at wg scope, one workgroup per PE,\n"
      "                           every PE; us per call; size = the reduced/broadcast array, or the\n"
      "                           block per PE (fcollect, alltoall); broadcast root is PE 0;\n"
      "                           results are checked against closed forms once per size\n"
      "Latencies are device-timed (global timer) over many iterations after warm-up; each row is the\n"
      "median of --reps repetitions. Received data is checked after every configuration.\n"
      "\n"
      "Options (sizes take K/M/G suffixes; lists are comma separated):\n"
      "  --csv FILE          also write the rows to FILE\n"
      "  --bench LIST        which benchmarks: %s, or all\n"
      "                      (default: %s%s)\n"
      "  --scopes LIST       scopes of pingpong_put, pingpong_put_signal, barrier_all and sync_all:\n"
      "                      thread,wave,wg (default: all)\n"
      "  --min-size SIZE     smallest pingpong_put / inter-k message (default 8)\n"
      "  --max-size SIZE     largest, sizes double in between (default 4M)\n"
      "  --wg-threads N      threads per workgroup at wg scope (default 1024)\n"
      "  --multi-wgs LIST    workgroup counts of pingpong_multi_wg (default 1,2,4,8,16,32,64,128)\n"
      "  --multi-sizes LIST  message sizes of pingpong_multi_wg (default 8,4K,64K)\n"
      "  --bw-bytes SIZE     bytes per bandwidth iteration, split over the workgroups (default 64M)\n"
      "  --bw-shapes LIST    launch shapes BxT; B may be Nsm = N x the GPU's multiprocessors\n"
      "                      (default smx1024,smx512,smx256,2smx512,4smx256,32x1024)\n"
      "  --bw-iters N        puts per workgroup per timed launch (default 30)\n"
      "  --signal-max-size SIZE  largest pingpong_put_signal message (default 1M)\n"
      "  --coll-max-size SIZE    largest collective size, from max(8, --min-size) (default 1M)\n"
      "  --amo-shapes LIST   launch shapes BxT of amo_rate (default smx1024,smx256,1x1024,1x32)\n"
      "  --amo-ops N         remote adds per thread per amo_rate launch (default 16)\n"
      "  --reps N            repetitions per row, the median is reported (default 7)\n"
      "  --target-ms X       timed length of one latency repetition; sets its iteration count\n"
      "                      (default 10)\n"
      "  --max-iters N       cap on that iteration count (default 20000)\n"
      "  --heap SIZE         symmetric heap per PE, unless the library's variable is set (default 1G)\n"
      "  --help              this text\n"
      "\n"
      "Exit status: 0 done, 2 bad usage, 77 skipped (this library cannot run this PE layout),\n"
      "1 error (a failed call or a data check; the message names the PE).\n",
      program, system, benchmark_names, default_benchmarks,
      host_baselines_by_default ? "" : "; interk only in gio-bench");
}

}  // namespace bench
