// worksteal's command line (support's option_parser: one declaration per option drives the
// parsing and --help). Bad input throws support::usage_error naming the option and the value.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace worksteal {

enum class workload { memset, uts, contains };
// ws: work stealing over gio (queues in the symmetric heap); static: each worker a fixed equal
// share; host-queues: work stealing with the queues in pinned host memory (the thesis's design);
// single: ws on PE 0's GPU alone; nvshmem: ws over NVSHMEM (gio's runtime through a shim);
// cpu: the serial reference.
enum class variant { ws, static_share, host_queues, single, nvshmem, cpu };

const char* name_of(workload w);
const char* name_of(variant v);

struct options {
  workload work = workload::uts;
  std::vector<variant> variants{variant::ws};
  std::string tree = "T1";                 // uts
  std::uint64_t tasks = 1u << 20;          // memset
  std::uint64_t documents = 1u << 18;      // contains, synthetic corpus
  std::string corpus_file;                 // contains, one document per line
  std::string word = "worksteal";          // contains
  std::uint32_t piece = 64;                // contains: most start positions one task searches; 0: whole documents
  int workers = 0;                         // per PE, 0 = as many as are co-resident
  int threads = 256;
  std::uint32_t local_queue = 1024;
  std::uint32_t public_queue = 4096;
  std::uint32_t spill = 16384;
  std::uint32_t max_steal = 0;             // 0 = local_queue / 2
  std::uint32_t phase_tasks = 0;           // 0 = per workload: memset local_queue / 2, else one per thread
  double bias = 0.95;                      // probability of a victim on the thief's own GPU
  double node_bias = 0.9;
  std::string termination = "counter";     // counter | tree
  std::uint32_t watch_busy = 0;             // gio::ws::options::watch_busy_phases
  std::uint32_t share_min_ns = 4000;        // gio::ws::options::share_min_ns
  int warmup = 1;
  int repeats = 5;
  std::string csv;
  bool quiet = false;
  std::uint64_t seed = 1;
};

// Returns false when --help was given (the help text is then in `help`).
bool parse_options(int argc, const char* const* argv, options& opt, std::string& help);

}  // namespace worksteal
