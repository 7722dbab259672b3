#include "core/driver.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "support/csv.hpp"
#include "support/failure.hpp"
#include "support/progress.hpp"
#include "core/host_relax.hpp"
#include "support/node.hpp"
#include "core/options.hpp"
#include "core/report.hpp"

namespace jacobi {

namespace {

struct job {
  const options& opt;
  const decomposition& dec;
  MPI_Comm comm;
  int rank, size;
  bool shows_progress() const { return rank == 0 && !opt.quiet; }
};

struct timed_runs {
  run_result last;
  std::vector<double> seconds;  // per repetition: the slowest PE's
};

timed_runs time_runs(solver& s, const job& j, parts what) {
  const options& opt = j.opt;
  if (opt.warmup > 0) s.run({{std::min(opt.warmup, opt.iterations), 0, -1}, what, {}});
  timed_runs runs;
  for (std::int64_t rep = 0; rep < opt.reps; ++rep) {
    support::progress_line line(opt.variant + " " + to_string(opt.size) + " (" + parts_name(what) + ", run " +
                                 std::to_string(rep + 1) + "/" + std::to_string(opt.reps) + ")",
                             opt.iterations, j.shows_progress());
    runs.last = s.run({opt.plan(), what, [&](std::int64_t done) { line.update(done); }});
    runs.seconds.push_back(runs.last.seconds);
  }
  MPI_Allreduce(MPI_IN_PLACE, runs.seconds.data(), static_cast<int>(runs.seconds.size()), MPI_DOUBLE, MPI_MAX, j.comm);
  return runs;
}

// Gathers the grid to PE 0 and compares it, the iteration count and the residual with the
// reference, bit for bit. Every PE fails if they differ.
void check_against_reference(solver& s, const job& j, const run_result& result) {
  const std::vector<double> tile = s.tile();
  std::vector<double> tiles(j.rank == 0 ? tile.size() * static_cast<std::size_t>(j.size) : 0);
  MPI_Gather(tile.data(), static_cast<int>(tile.size()), MPI_DOUBLE, tiles.data(), static_cast<int>(tile.size()),
             MPI_DOUBLE, 0, j.comm);
  std::string cause;
  if (j.rank == 0) {
    set_host_threads(j.opt.threads);
    support::progress_line line("single-PE reference " + to_string(j.opt.size), j.opt.iterations, j.shows_progress());
    const reference_solution reference =
        solve_reference(j.opt.size, j.opt.plan(), [&](std::int64_t done) { line.update(done); });
    line.finish();
    char text[160];
    if (result.iterations != reference.iterations) {
      cause = "stopped after " + std::to_string(result.iterations) + " iterations, the reference after " +
              std::to_string(reference.iterations);
    } else {
      cause = compare_bitwise(j.opt.size, assemble(j.opt.size, j.dec.grid, tiles), reference.grid);
      if (cause.empty() && std::memcmp(&result.residual, &reference.residual, sizeof(double)) != 0) {
        std::snprintf(text, sizeof text, "residual %.17g, the reference's %.17g", result.residual, reference.residual);
        cause = text;
      }
    }
    if (cause.empty())
      std::printf("  check: passed: grid (%lld points), iteration count (%lld) and residual equal the\n"
                  "  single-PE reference bit for bit\n",
                  static_cast<long long>(reference.grid.size()), static_cast<long long>(reference.iterations));
  }
  support::agree(j.comm, cause.empty() ? "" : "check failed: " + cause, support::exit_failure);
}

void print_setup(const job& j, const solver& s, int devices) {
  if (j.rank != 0) return;
  const options& opt = j.opt;
  const launch_shape shape = s.shape();
  std::printf("%s: %s%s | %s points on %d PE%s (%s PE grid, %s each) | %d %s\n", support::program_name().c_str(),
              opt.variant.c_str(), is_persistent(opt.variant) ? (" (halo " + to_string(opt.halo) + ")").c_str() : "",
              to_string(opt.size).c_str(), j.size, j.size == 1 ? "" : "s", to_string(j.dec.grid).c_str(),
              to_string(j.dec.tile).c_str(), devices, s.device() >= 0 ? (devices == 1 ? "GPU" : "GPUs") : "PEs on CPUs");
  if (s.device() >= 0)
    std::printf("  %lld workgroups of %lld threads%s%s\n", static_cast<long long>(shape.workgroups),
                static_cast<long long>(shape.threads), shape.tiling.empty() ? "" : ": ", shape.tiling.c_str());
  else
    std::printf("  OpenMP threads per PE: %lld\n", static_cast<long long>(shape.threads));
  if (opt.tolerance >= 0)
    std::printf("  convergence mode: tolerance %g, residual every %lld iterations, at most %lld\n", opt.tolerance,
                static_cast<long long>(opt.residual_every), static_cast<long long>(opt.iterations));
  std::fflush(stdout);
}

void print_measurement(const measurement& m, const std::optional<double>& baseline) {
  char spread[96] = " (1 run)";
  if (m.reps > 1) std::snprintf(spread, sizeof spread, " (median of %d runs; min %.3f, max %.3f)", m.reps, m.us_min, m.us_max);
  std::printf("  %-10s %lld iterations%s: %.3f us/iteration%s, residual %.6g\n", m.parts.c_str(),
              static_cast<long long>(m.iterations), m.converged ? " (converged)" : "", m.us_per_iteration, spread,
              m.residual);
  if (m.efficiency)
    std::printf("             weak-scaling efficiency %.1f%% against the 1-%s row of the CSV (%.3f us/iteration)\n",
                100.0 * *m.efficiency, m.variant == "cpu" ? "PE" : "GPU", *baseline);
  std::fflush(stdout);
}

int drive(int argc, char** argv, const std::vector<variant>& here, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<std::string> names;
  for (const variant& v : here) names.push_back(v.name);

  options opt;
  std::string problem;
  bool help = false;
  try {
    help = !parse_options(argc, argv, names, opt);
  } catch (const support::usage_error& e) {
    problem = std::string(e.what()) + " (see --help)";
  }
  support::agree(comm, problem, support::exit_usage);
  if (help) {
    if (rank == 0) std::fputs(make_parser(opt, names).help().c_str(), stdout);
    return 0;
  }

  pe_grid grid = opt.pe_grid_request;
  if (grid.px > 0) {
    problem = check_pe_grid(size, opt.size, grid);
  } else {
    const pe_grid_choice choice = choose_pe_grid(size, opt.size);
    grid = choice.grid;
    problem = choice.error;
  }
  if (problem.empty() && opt.check && opt.size.nx / grid.px * (opt.size.ny / grid.py) > INT_MAX)
    problem = "--check gathers each PE's tile in one message: tiles of at most 2^31 - 1 points";
  support::agree(comm, problem, support::exit_usage);
  const decomposition dec = decompose(opt.size, grid, rank);
  const job j{opt, dec, comm, rank, size};

  // PE 0 opens the CSV now, so that a bad path fails before the run.
  std::unique_ptr<support::csv_appender> csv;
  support::csv_table earlier;
  if (rank == 0 && !opt.csv.empty()) {
    try {
      earlier = support::read_csv(opt.csv);
      csv = std::make_unique<support::csv_appender>(opt.csv, csv_columns());
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  support::agree(comm, problem, support::exit_usage);

  const variant& chosen = *std::find_if(here.begin(), here.end(), [&](const variant& v) { return opt.variant == v.name; });
  std::unique_ptr<solver> s;
  support::or_abort(comm, [&] {
    s = chosen.make({opt, dec, comm});
    const int devices = support::count_devices(comm, s->device());
    print_setup(j, *s, devices);

    std::vector<parts> configurations{{!opt.no_compute, !opt.no_comm}};
    if (opt.breakdown) configurations = {{true, true}, {true, false}, {false, true}, {false, false}};
    std::vector<double> us;
    for (const parts what : configurations) {
      const timed_runs runs = time_runs(*s, j, what);
      measurement m;
      m.variant = opt.variant;
      m.halo = is_persistent(opt.variant) ? to_string(opt.halo) : "-";
      m.parts = parts_name(what);
      m.size = opt.size;
      m.pes = size;
      m.devices = devices;
      m.grid = dec.grid;
      m.shape = s->shape();
      m.iterations = runs.last.iterations;
      m.residual = runs.last.residual;
      m.converged = runs.last.converged;
      m.reps = static_cast<int>(runs.seconds.size());
      const double per_iteration = 1e6 / static_cast<double>(std::max<std::int64_t>(runs.last.iterations, 1));
      m.us_per_iteration = median(runs.seconds) * per_iteration;
      m.us_min = *std::min_element(runs.seconds.begin(), runs.seconds.end()) * per_iteration;
      m.us_max = *std::max_element(runs.seconds.begin(), runs.seconds.end()) * per_iteration;
      us.push_back(m.us_per_iteration);
      const std::optional<double> baseline = devices > 1 ? find_baseline_us(earlier, m) : std::nullopt;
      if (baseline && m.us_per_iteration > 0) m.efficiency = *baseline / m.us_per_iteration;
      if (rank == 0) print_measurement(m, baseline);
      if (opt.check && what.compute && what.comm) {
        check_against_reference(*s, j, runs.last);
        m.check = "passed";
      }
      if (csv) csv->row(csv_fields(m));
    }
    if (opt.breakdown && rank == 0) {
      const breakdown b = break_down(us[0], us[1], us[2], us[3]);
      std::printf("  breakdown (us/iteration): compute %.3f, communication %.3f, overhead %.3f, hidden by overlap %.3f,\n"
                  "  total %.3f\n", b.compute, b.comm, b.overhead, b.hidden, b.total);
    }
  });
  s.reset();  // frees collectively (and finalizes the library) while every PE is here
  return 0;
}

}  // namespace

int run_program(int argc, char** argv, const std::vector<variant>& here) {
  return support::run_mpi_main(argc, argv, MPI_THREAD_SERIALIZED,
                            [&](MPI_Comm comm) { return drive(argc, argv, here, comm); });
}

}  // namespace jacobi
