// What the driver asks of a variant, and the interface every variant implements (cpu here; gio,
// nvshmem, inter-k and inter-k-overlap in gpu/). A solver is made once per job, after the options
// and the decomposition are accepted, and runs the relaxation as often as the driver asks
// (warm-up, repetitions, the breakdown's partial runs), each time from u_0.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/options.hpp"

namespace jacobi {

// Which parts of an iteration run. The GIO paper's Fig. 7 breakdown switches them off: without
// communication no halo moves (the result is wrong, the time is compute + synchronisation);
// without compute no point is updated (the time is communication + synchronisation).
struct parts {
  bool compute = true;
  bool comm = true;
};

struct run_request {
  schedule plan;
  parts what;
  // Called now and then with the iterations done so far (PE 0 shows it; may be empty).
  std::function<void(std::int64_t)> progress;
};

struct run_result {
  std::int64_t iterations = 0;  // the iteration whose values the grid holds
  double residual = 0;          // max |u_t - u_{t-1}| at that iteration, over the whole grid
  bool converged = false;
  double seconds = 0;           // this PE's time for the relaxation (after reset and a barrier)
};

// How the variant ran, for the report and the CSV (0 where it does not apply).
struct launch_shape {
  std::int64_t workgroups = 0;  // persistent kernel: workgroups; Inter-K: blocks of the full-tile kernel
  std::int64_t threads = 0;     // threads per workgroup / block; cpu: OpenMP threads
  std::string tiling;           // persistent kernel: "wx x wy tiles of tx x ty"
};

class solver {
 public:
  virtual ~solver() = default;
  // Collective. Resets the grid to u_0 and relaxes per `request`.
  virtual run_result run(const run_request& request) = 0;
  // This PE's tile after the last run: nx * ny values, row by row.
  virtual std::vector<double> tile() = 0;
  // The GPU this PE runs on (node-local ordinal), or -1 for a CPU variant.
  virtual int device() const = 0;
  virtual launch_shape shape() const = 0;
};

// What a variant's factory gets.
struct solver_setup {
  const options& opt;
  const decomposition& dec;
  MPI_Comm comm;
};

struct variant {
  const char* name;
  std::unique_ptr<solver> (*make)(const solver_setup&);
};

}  // namespace jacobi
