// jacobi2d's command line: the options, their defaults, --help, and the checks between options.
// One parser for every binary (jacobi2d, jacobi2d-nvshmem, the CPU-only jacobi2d of GIO_GPU=none);
// the binary's variants set the default and the help's variant list.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "support/options.hpp"
#include "core/decomposition.hpp"
#include "core/grid.hpp"

namespace jacobi {

// Every variant of the app, whichever binary has it.
struct variant_info {
  const char* name;
  const char* summary;
  const char* binary;  // which program runs it
};
const std::vector<variant_info>& all_variants();
bool is_persistent(const std::string& variant);  // gio, nvshmem: the one-kernel design

struct options {
  std::string variant;
  extent size{1024, 1024};
  pe_grid pe_grid_request{0, 0};  // 0 x 0: chosen (choose_pe_grid)
  std::int64_t iterations = 1000;
  double tolerance = -1;          // < 0: fixed mode
  std::int64_t residual_every = 100;
  bool residual_every_given = false;
  halo_transfer halo = halo_transfer::signal;
  bool halo_given = false;
  bool no_comm = false;
  bool no_compute = false;
  bool breakdown = false;
  std::int64_t warmup = 10;
  std::int64_t reps = 3;
  std::int64_t wg_threads = 0;    // 0: the variant's default
  std::int64_t workgroups = 0;    // 0: as many as can be co-resident
  std::int64_t points_per_trip = 0;  // 0: the halo's default (max_points_per_trip with signal, 1 with p)
  bool check = false;
  std::string csv;
  std::int64_t threads = 0;       // OpenMP threads of the cpu variant and the reference; 0: OpenMP's default
  double wait_timeout = 60;       // seconds a device wait may last before it reports and traps; 0: no limit
  bool quiet = false;

  schedule plan() const { return {iterations, tolerance >= 0 ? residual_every : 0, tolerance}; }
};

inline constexpr std::int64_t default_persistent_threads = 512;
inline constexpr std::int64_t default_inter_k_threads = 256;
inline constexpr std::int64_t max_wg_threads = 1024;

// The parser for `opt`, for a binary whose variants are `here` (the first is the default).
support::option_parser make_parser(options& opt, const std::vector<std::string>& here);
// Parses argv (after setting the defaults) and checks the options against each other. Returns
// false when --help was given. Throws support::usage_error.
bool parse_options(int argc, const char* const* argv, const std::vector<std::string>& here, options& opt);
// The checks between options, as an error text (empty when fine).
std::string check_options(const options& opt, const std::vector<std::string>& here);

std::string to_string(halo_transfer halo);

}  // namespace jacobi
