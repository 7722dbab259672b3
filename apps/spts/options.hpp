// The spts command line: what a run solves (a Matrix Market file or a generated class), which
// variants it measures and how. One declaration per option drives parsing and --help
// (support/options.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators.hpp"
#include "variants.hpp"

namespace spts {

// Which solve kernel runs (docs/spts.md, "The kernel"); `automatic` is resolved per matrix and
// per variant by plan_kernel below.
enum class kernel_choice { automatic, rounds, slots, indegree };
const char* name(kernel_choice k);

struct options {
  std::string matrix_path;                  // --matrix
  bool lower_of_general = false;            // --tril
  std::optional<generator_spec> generator;  // --gen
  std::uint64_t seed = 1;
  std::vector<variant> variants{variant::vendor, variant::single, variant::gio};  // run in this order
  push_mode push = push_mode::packed;
  bool mapped_pushes = true;  // --push-path auto: packed pushes as stores where every PE is mapped (else calls)
  std::int32_t block = 0;  // 0: default_block(n, PEs); contiguous_blocks: one range per PE (block_rows, partition.hpp)
  kernel_choice kernel = kernel_choice::automatic;
  // 0: the kernel's default. Rounds kernel: one 32-row sub-chunk (a wave solves its ticket's
  // sub-chunks one after another, so a longer ticket chains them; docs/spts.md, "Ticket size").
  // Slots kernel: four rows per slot of a wave (gpu::slots_rows_per_ticket). Indegree kernel:
  // roots (rows that read nothing) per ticket, 8 per lane of a wave (gpu::indegree_rows_per_ticket).
  std::int32_t rows_per_ticket = 0;
  std::int32_t entries_per_lane = 4;
  std::int32_t backoff_ns = 256;  // slots kernel: longest sleep of a wave that solved nothing
  int lane_rows = 2;               // indegree kernel: rows a lane solves per round (1, 2 or 4; docs/spts.md)
  std::int32_t stack_rows = indegree_stack_rows;  // indegree kernel: ready rows a wave keeps before the global queue
  std::int32_t pollers = 0;  // gio with the indegree kernel: idle waves that poll the queue (0: one per multiprocessor share)
  bool stack_fifo = false;   // --stack-order fifo: a wave takes its stack's oldest ready rows first, not its newest
  bool spare_takes = false;  // --queue-takes spare: a wave with free row slots takes queued rows too, not only an idle one
  bool one_pe_local = true;  // --one-pe local: gio on one PE runs single's kernels (nothing to push or hand over)
  std::int32_t workgroups = 0;  // 0: as many as fit on the GPU, shared among the PEs on it
  // Set by plan_kernel when --workgroups is not given: 1 caps the grid at one workgroup per
  // multiprocessor (chains); 0 keeps as many as fit.
  std::int32_t wgs_per_multiprocessor = 0;
  int warmup = 2;
  int repeats = 10;
  double timeout_seconds = 60;
  unsigned generator_threads = 0;  // 0: the node's hardware threads divided among its PEs
  std::string csv_path;
  std::string save_path;
  bool quiet = false;
  bool round_stats = false;  // print how the waves of the last solve advanced

  // What the output and the CSV call the input: the file's name or the generator spec.
  std::string input_name() const;
  bool wants(variant v) const;
};

// Parses argv. Returns std::nullopt when --help was given (the caller prints spts_help()).
// Throws support::usage_error naming the option and the problem.
std::optional<options> parse_options(int argc, const char* const* argv);

// What plan_kernel needs of the matrix (PE 0's matrix_stats, the same on every PE).
struct matrix_shape {
  double rows_per_level;
  std::int64_t longest_row_below_diagonal;  // strictly lower entries of the longest row
  std::int64_t densest_column;              // strictly lower entries of the densest column
};

// The kernel and ticket variant `v` uses (rows_per_ticket 0: the kernel's default), from --kernel
// and --rows-per-ticket where given, else from the matrix (docs/spts.md, "Which kernel"):
//  - fewer rows per level on average than one slots ticket (`slots_ticket`): chains of few rows,
//    where a wide ticket holds rows that wait on each other: rounds, 1-row tickets, and one
//    workgroup per multiprocessor unless --workgroups says otherwise (asic_320ks on an H200:
//    14 rows per level, 160 ms with slots, 40.4 ms with 1-row tickets and a full grid of 1320
//    workgroups, 29.4 ms with 132, cuSPARSE 33.1 ms: the waves that find nothing to solve only
//    add polls to L2);
//  - else, for `single` and for `gio` with packed pushes, every row and every column with at most
//    `slots_max_row` strictly lower entries: indegree (road networks on an H200: `single` 1.44 /
//    2.79 ms against slots' 10.05 / 16.63 and cuSPARSE's 1.79 / 2.64; `gio` on 1 PE 1.70 against
//    14.45 ms with slots, on 2 GPUs not yet measured; one lane per row and per column, so no hub
//    rows or columns);
//  - else every row with at most `slots_max_row` strictly lower entries: slots;
//  - else rounds (32-row tickets).
// gda and ikn keep the polling kernels: a hand-over is a store that must land without a quiet.
struct kernel_plan {
  kernel_choice kernel;
  std::int32_t rows_per_ticket;
  std::int32_t wgs_per_multiprocessor;  // 0: as many as fit
};
kernel_plan plan_kernel(const options& opt, variant v, const matrix_shape& shape, std::int32_t slots_max_row,
                        std::int32_t slots_ticket);
std::string spts_help();

}  // namespace spts
