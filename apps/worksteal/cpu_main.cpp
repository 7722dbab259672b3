// worksteal of a build without a GPU (GIO_GPU=none): the cpu variant alone, with the same options,
// checks and report as the GPU build, so CI runs the workloads' references and checks.
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "support/failure.hpp"
#include "support/options.hpp"
#include "options.hpp"
#include "reference.hpp"

int main(int argc, char** argv) {
  support::set_program_name(argv[0]);
  return support::run_mpi_main(argc, argv, MPI_THREAD_SINGLE, [&](MPI_Comm comm) {
    using namespace worksteal;
    int pe = 0, pes = 1;
    MPI_Comm_rank(comm, &pe);
    MPI_Comm_size(comm, &pes);
    options opt;
    const uts::named_tree* tree = nullptr;
    if (!parse_run_options(argc, argv, comm, build_kind::cpu_only, opt, tree)) return 0;
    std::string cause;
    std::optional<corpus> text;
    std::uint64_t expected = 0;
    if (pe == 0 && opt.work == workload::contains) {
      try {
        text = opt.corpus_file.empty() ? synthetic_corpus(opt.documents, opt.word) : read_corpus(opt.corpus_file);
        expected = count_containing(*text, opt.word);
      } catch (const std::exception& e) {
        cause = e.what();
      }
    }
    support::agree(comm, cause, support::exit_usage);
    std::vector<run_figures> runs;
    for (int i = 0; i < opt.warmup + opt.repeats; ++i) {
      run_figures fig;
      std::string wrong;
      if (pe == 0) {
        if (opt.work == workload::memset) wrong = cpu_memset(opt.tasks, fig);
        if (opt.work == workload::uts) wrong = cpu_uts(*tree, fig);
        if (opt.work == workload::contains) wrong = cpu_contains(*text, opt.word, expected, fig);
      }
      support::agree(comm, wrong.empty() ? "" : "cpu: " + wrong);
      if (i >= opt.warmup) runs.push_back(fig);
    }
    if (pe == 0) {
      const std::uint64_t items = opt.work == workload::memset ? opt.tasks
                                  : opt.work == workload::uts  ? tree->nodes
                                                               : text->documents();
      if (!opt.quiet) print_header();
      std::unique_ptr<support::csv_appender> csv;
      if (!opt.csv.empty()) csv = std::make_unique<support::csv_appender>(opt.csv, csv_columns());
      report(machine{pes, 0, "none"}, opt, variant::cpu, items,
             opt.work == workload::memset ? "tasks" : opt.work == workload::uts ? "nodes" : "documents", runs, csv.get());
    }
    return 0;
  });
}
