#include "options.hpp"

#include <sstream>

#include "support/options.hpp"

namespace worksteal {

const char* name_of(workload w) {
  switch (w) {
    case workload::memset: return "memset";
    case workload::uts: return "uts";
    default: return "contains";
  }
}

const char* name_of(variant v) {
  switch (v) {
    case variant::ws: return "ws";
    case variant::static_share: return "static";
    case variant::host_queues: return "host-queues";
    case variant::single: return "single";
    case variant::nvshmem: return "nvshmem";
    default: return "cpu";
  }
}

namespace {

std::vector<variant> parse_variants(const std::string& text) {
  std::vector<variant> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const std::string v = support::parse_choice("--variant", item, {"ws", "static", "host-queues", "single", "nvshmem", "cpu"});
    for (variant candidate : {variant::ws, variant::static_share, variant::host_queues, variant::single, variant::nvshmem,
                              variant::cpu})
      if (v == name_of(candidate)) out.push_back(candidate);
  }
  if (out.empty()) throw support::usage_error("--variant: give at least one variant");
  return out;
}

std::uint32_t parse_u32(const char* option, const std::string& v, bool zero_ok = false) {
  const std::int64_t n = zero_ok ? support::parse_non_negative(option, v) : support::parse_positive(option, v);
  if (n > 0x7fffffff) throw support::usage_error(std::string(option) + ": " + v + " is too large");
  return static_cast<std::uint32_t>(n);
}

double parse_probability(const char* option, const std::string& v) {
  const double p = support::parse_number(option, v);
  if (p < 0 || p > 1) throw support::usage_error(std::string(option) + ": " + v + " is not a probability (0 to 1)");
  return p;
}

}  // namespace

bool parse_options(int argc, const char* const* argv, options& opt, std::string& help) {
  support::option_parser p("worksteal",
                        "In-kernel multi-GPU work stealing on gio (docs/worksteal.md): runs a workload with each\n"
                        "variant, checks its result, and reports the rate and the steals. Run under mpirun, one PE per GPU.");
  p.value("--workload", "W", "memset | uts | contains (default uts)", [&](const std::string& v) {
    const std::string w = support::parse_choice("--workload", v, {"memset", "uts", "contains"});
    opt.work = w == "memset" ? workload::memset : w == "uts" ? workload::uts : workload::contains;
  });
  p.value("--variant", "V,...", "ws, static, host-queues, single, nvshmem, cpu (default ws)",
          [&](const std::string& v) { opt.variants = parse_variants(v); });
  p.value("--tree", "T", "uts: a sample tree, T1 T2 T3 T4 T5 T1L T2L T3L T1XL (default T1)",
          [&](const std::string& v) { opt.tree = v; });
  p.value("--tasks", "N", "memset: tasks in all (default 1M)",
          [&](const std::string& v) { opt.tasks = static_cast<std::uint64_t>(support::parse_positive("--tasks", v)); });
  p.value("--documents", "N", "contains: documents of the synthetic corpus (default 256K)", [&](const std::string& v) {
    opt.documents = static_cast<std::uint64_t>(support::parse_positive("--documents", v));
  });
  p.value("--corpus", "FILE", "contains: one document per line instead of the synthetic corpus",
          [&](const std::string& v) { opt.corpus_file = v; });
  p.value("--word", "WORD", "contains: the word searched for (default worksteal)", [&](const std::string& v) {
    if (v.empty()) throw support::usage_error("--word: the word is empty");
    opt.word = v;
  });
  p.value("--workers", "N", "workers (workgroups) per PE; default as many as are co-resident",
          [&](const std::string& v) { opt.workers = static_cast<int>(parse_u32("--workers", v)); });
  p.value("--threads", "N", "threads per worker (default 256)",
          [&](const std::string& v) { opt.threads = static_cast<int>(parse_u32("--threads", v)); });
  p.value("--local-queue", "N", "tasks in a worker's local queue, in shared memory (default 1024)",
          [&](const std::string& v) { opt.local_queue = parse_u32("--local-queue", v); });
  p.value("--public-queue", "N", "tasks in a worker's public queue, a power of two (default 4096)",
          [&](const std::string& v) { opt.public_queue = parse_u32("--public-queue", v); });
  p.value("--spill", "N", "tasks in a worker's spill stack (default 16384)",
          [&](const std::string& v) { opt.spill = parse_u32("--spill", v); });
  p.value("--max-steal", "N", "most tasks one steal takes (default half the local queue)",
          [&](const std::string& v) { opt.max_steal = parse_u32("--max-steal", v); });
  p.value("--phase-tasks", "N", "tasks a phase runs, taken by whichever thread is free (default: memset half the local queue, "
          "uts and contains one per thread)",
          [&](const std::string& v) { opt.phase_tasks = parse_u32("--phase-tasks", v); });
  p.value("--bias", "P", "probability that a victim is on the thief's own GPU (default 0.95)",
          [&](const std::string& v) { opt.bias = parse_probability("--bias", v); });
  p.value("--node-bias", "P", "of the other victims, probability that one is on this node (default 0.9)",
          [&](const std::string& v) { opt.node_bias = parse_probability("--node-bias", v); });
  p.value("--termination", "T", "counter | tree (default counter)", [&](const std::string& v) {
    opt.termination = support::parse_choice("--termination", v, {"counter", "tree"});
  });
  p.value("--watch-busy", "N", "worker 0 reads PE 0's abort word every N phases while busy (default 0: when idle)",
          [&](const std::string& v) { opt.watch_busy = parse_u32("--watch-busy", v, true); });
  p.value("--share-min-ns", "NS",
          "a worker shares a phase's worth of tasks that spawn nothing only if its last phase took NS "
          "(default 4000; 0: always)",
          [&](const std::string& v) { opt.share_min_ns = parse_u32("--share-min-ns", v, true); });
  p.value("--piece", "N",
          "contains: a task searches at most N places of a document, longer ones are split (default 64; "
          "0: one task per document)",
          [&](const std::string& v) { opt.piece = parse_u32("--piece", v, true); });
  p.value("--warmup", "N", "untimed runs per variant (default 1)",
          [&](const std::string& v) { opt.warmup = static_cast<int>(support::parse_non_negative("--warmup", v)); });
  p.value("--repeats", "N", "timed runs per variant; the median is reported (default 5)",
          [&](const std::string& v) { opt.repeats = static_cast<int>(parse_u32("--repeats", v)); });
  p.value("--seed", "N", "seed of the victim choice (default 1)",
          [&](const std::string& v) { opt.seed = static_cast<std::uint64_t>(support::parse_positive("--seed", v)); });
  p.value("--csv", "FILE", "append one row per variant to FILE", [&](const std::string& v) { opt.csv = v; });
  p.flag("--quiet", "only errors", [&] { opt.quiet = true; });
  p.epilogue(
      "Every run is checked (memset: every slot written exactly once; uts: the published node counts;\n"
      "contains: the CPU's count); a failed check exits 1, bad options 2.\n");
  if (!p.parse(argc, argv)) {
    help = p.help();
    return false;
  }
  return true;
}

}  // namespace worksteal
