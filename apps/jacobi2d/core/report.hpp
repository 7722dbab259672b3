// What a run reports: one measurement per CSV row, the weak-scaling baseline looked up in the
// CSV, and the breakdown of GIO Fig. 7 computed from the four runs of --breakdown.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support/csv.hpp"
#include "core/decomposition.hpp"
#include "core/solver.hpp"

namespace jacobi {

// Names of the `parts` column: which parts of an iteration ran.
const char* parts_name(parts what);

struct measurement {
  std::string variant;
  std::string halo;            // gio/nvshmem: signal or p; others "-"
  std::string parts;           // all, no-comm, no-compute, none
  extent size;
  int pes = 0;
  int devices = 0;             // distinct GPUs (GPU variants) or PEs (cpu): the weak-scaling unit
  pe_grid grid{0, 0};
  launch_shape shape;
  std::int64_t iterations = 0;
  double residual = 0;
  bool converged = false;
  int reps = 0;
  double us_per_iteration = 0; // median over the repetitions of the slowest PE's time
  double us_min = 0, us_max = 0;
  std::optional<double> efficiency;  // weak scaling, against a 1-device row of the CSV
  std::string check = "-";     // passed, or "-" when not checked

  std::int64_t points_per_device() const { return size.nx * size.ny / (devices > 0 ? devices : 1); }
};

const std::vector<std::string>& csv_columns();
std::vector<std::string> csv_fields(const measurement& m);

// The time per iteration of the latest row of `table` that is the weak-scaling baseline of `m`:
// same variant, halo and parts, one device, and the same points per device.
std::optional<double> find_baseline_us(const support::csv_table& table, const measurement& m);

// GIO Fig. 7 from the four runs: overhead = neither part (kernel launches, or the persistent
// kernel's synchronisation), compute = no-comm - overhead, comm = no-compute - overhead, and
// hidden = compute + comm + overhead - all: what overlapping saved (about 0 without overlap).
struct breakdown {
  double total, compute, comm, overhead, hidden;
};
breakdown break_down(double all, double no_comm, double no_compute, double neither);

double median(std::vector<double> values);

}  // namespace jacobi
