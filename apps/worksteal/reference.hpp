// The serial CPU reference of each workload (the `cpu` variant) and the checks every variant's
// result goes through. Plain C++: the GPU-less build runs these alone.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>

#include "corpus.hpp"
#include "options.hpp"
#include "report.hpp"
#include "uts_cpu.hpp"
#include "uts_trees.hpp"

namespace worksteal {

// What a program runs: gpu = worksteal over gio (every variant but nvshmem); nvshmem =
// worksteal-nvshmem (the nvshmem variant only); cpu_only = the GPU-less build (cpu only).
enum class build_kind { gpu, nvshmem, cpu_only };

// Collective: parses the command line on every PE and checks what this build can run (the tree
// exists; each variant in the program that runs it). Bad input ends every PE with exit
// status 2 and the cause; --help prints the help on PE 0 and returns false.
bool parse_run_options(int argc, char** argv, MPI_Comm comm, build_kind kind, options& opt,
                       const uts::named_tree*& tree);

// "" when right, else what is wrong; fig.result gets what was seen.
std::string judge_uts(const uts::named_tree& tree, const uts::tree_count& counted, run_figures& fig);
std::string judge_contains(std::uint64_t hits, std::uint64_t expected, run_figures& fig);

// One timed serial run on this process (fig.seconds, executed, result).
std::string cpu_memset(std::uint64_t tasks, run_figures& fig);
std::string cpu_uts(const uts::named_tree& tree, run_figures& fig);
std::string cpu_contains(const corpus& c, const std::string& word, std::uint64_t expected, run_figures& fig);

}  // namespace worksteal
