#include "reference.hpp"

#include "support/failure.hpp"
#include "support/options.hpp"

#include <chrono>
#include <cstdio>
#include <vector>

namespace worksteal {
namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
void one_pe(run_figures& fig, double executed) {
  fig.executed = executed;
  fig.participants = 1;
  fig.pe_share = {1.0};
}
}  // namespace

bool parse_run_options(int argc, char** argv, MPI_Comm comm, build_kind kind, options& opt,
                       const uts::named_tree*& tree) {
  int pe = 0;
  MPI_Comm_rank(comm, &pe);
  std::string help, cause;
  try {
    if (!parse_options(argc, argv, opt, help)) {
      if (pe == 0) std::fputs(help.c_str(), stdout);
      return false;
    }
    for (variant v : opt.variants) {
      if (kind == build_kind::cpu_only && v != variant::cpu)
        throw support::usage_error(std::string("--variant ") + name_of(v) + ": this build has no GPU (GIO_GPU=none): only cpu");
      if (kind == build_kind::gpu && v == variant::nvshmem)
        throw support::usage_error("--variant nvshmem runs in worksteal-nvshmem, built where NVSHMEM is found (docs/worksteal.md)");
      if (kind == build_kind::nvshmem && v != variant::nvshmem)
        throw support::usage_error(std::string("--variant ") + name_of(v) + ": worksteal-nvshmem runs only --variant nvshmem; "
                                   "the other variants are worksteal's");
    }
    if (opt.work == workload::uts && !(tree = uts::find_tree(opt.tree)))
      throw support::usage_error("--tree: unknown tree '" + opt.tree + "' (one of " + uts::tree_names() + ")");
  } catch (const support::usage_error& e) {
    cause = std::string(e.what()) + " (worksteal --help lists the options)";
  }
  support::agree(comm, cause, support::exit_usage);
  return true;
}

std::string judge_uts(const uts::named_tree& tree, const uts::tree_count& c, run_figures& fig) {
  fig.result = "nodes " + std::to_string(c.nodes) + " leaves " + std::to_string(c.leaves) + " depth " + std::to_string(c.depth);
  if (c.nodes == tree.nodes && c.leaves == tree.leaves && c.depth == tree.depth) return "";
  return "uts " + std::string(tree.name) + ": counted " + fig.result + ", published nodes " + std::to_string(tree.nodes) +
         " leaves " + std::to_string(tree.leaves) + " depth " + std::to_string(tree.depth);
}

std::string judge_contains(std::uint64_t hits, std::uint64_t expected, run_figures& fig) {
  fig.result = std::to_string(hits) + " documents hold it";
  if (hits == expected) return "";
  return "contains: counted " + std::to_string(hits) + " documents, the CPU counts " + std::to_string(expected);
}

std::string cpu_memset(std::uint64_t tasks, run_figures& fig) {
  std::vector<std::uint64_t> slots(tasks, 0);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < tasks; ++i) slots[i] += 1;
  fig.seconds = seconds_since(t0);
  one_pe(fig, static_cast<double>(tasks));
  std::uint64_t wrong = 0;
  for (std::uint64_t s : slots) wrong += s != 1;
  fig.result = "every slot written once";
  return wrong ? std::to_string(wrong) + " slots not written exactly once" : "";
}

std::string cpu_uts(const uts::named_tree& tree, run_figures& fig) {
  const auto t0 = std::chrono::steady_clock::now();
  const uts::tree_count c = uts::count_tree(tree.params);
  fig.seconds = seconds_since(t0);
  one_pe(fig, static_cast<double>(c.nodes));
  return judge_uts(tree, c, fig);
}

std::string cpu_contains(const corpus& c, const std::string& word, std::uint64_t expected, run_figures& fig) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t hits = count_containing(c, word);
  fig.seconds = seconds_since(t0);
  one_pe(fig, static_cast<double>(c.documents()));
  return judge_contains(hits, expected, fig);
}

}  // namespace worksteal
