#include "options.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "partition.hpp"
#include "support/options.hpp"

namespace spts {

namespace {

std::vector<variant> parse_variant_list(const std::string& text) {
  std::vector<variant> chosen;
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    try {
      const variant v = parse_variant(item);
      if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) chosen.push_back(v);
    } catch (const std::invalid_argument& e) {
      throw support::usage_error(std::string("--variant: ") + e.what());
    }
  }
  if (chosen.empty()) throw support::usage_error("--variant needs at least one of gio, gda, ikn, single, vendor, cpu");
  if (std::count_if(chosen.begin(), chosen.end(), is_distributed) > 1)
    throw support::usage_error("--variant: gio, gda and ikn choose gio's transport for the whole run: one of them per run");
  // Baselines first, so that each later variant's speedup over them can be printed.
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

std::int32_t positive_int(const char* option, const std::string& text, std::int64_t largest = 1'000'000'000) {
  const std::int64_t value = support::parse_positive(option, text);
  if (value > largest)
    throw support::usage_error(std::string(option) + " " + text + " is too large (at most " + std::to_string(largest) +
                            ")");
  return static_cast<std::int32_t>(value);
}

// Builds the parser; `o` receives the values (nullptr: only for the help text).
support::option_parser make_parser(options* o) {
  options scratch;
  options& opt = o ? *o : scratch;
  std::string classes;
  for (const auto& c : matrix_classes())
    classes += std::string("\n  ") + c.name + std::string(13 - std::string(c.name).size(), ' ') + c.model;
  support::option_parser p(
      "spts",
      "Solves L x = b for a sparse lower-triangular L with the synchronisation-free algorithm (GIO paper\n"
      "§6.4): one GPU (single), distributed over the PEs with gio pushing solved values from inside\n"
      "the kernel (gio), the vendor library (vendor) and a serial CPU solve (cpu). Every variant's\n"
      "x is checked: ||L x - b|| / ||b|| <= 1e-10, or the run fails. Run under mpirun, one PE per\n"
      "process; single, vendor and cpu run on PE 0.");
  p.value("--matrix", "FILE",
          "read L from a Matrix Market file (coordinate; real, integer or pattern;\n"
          "general or symmetric). A general file must be lower triangular and keeps its\n"
          "values and diagonal; symmetric and pattern files give their lower triangle with\n"
          "a dominant diagonal 1 + sum |l_ij| (pattern files get generated values)",
          [&](const std::string& v) { opt.matrix_path = v; });
  p.flag("--tril",
         "with --matrix: use the lower triangle of a general matrix (entries above\nthe diagonal are dropped) instead "
         "of rejecting it",
         [&] { opt.lower_of_general = true; });
  p.value("--gen", "CLASS[:SCALE]",
          "generate L like a matrix of the GIO paper's Table 1 (same rows and nnz(L)),\n"
          "both times SCALE (default 1: full size), e.g. road_usa:0.01. Classes:" +
              classes,
          [&](const std::string& v) {
            try {
              opt.generator = parse_generator_spec(v);
            } catch (const std::invalid_argument& e) {
              throw support::usage_error(std::string("--gen: ") + e.what());
            }
          });
  p.value("--seed", "N", "seed of the generator and of pattern files' values (default 1)",
          [&](const std::string& v) { opt.seed = static_cast<std::uint64_t>(support::parse_non_negative("--seed", v)); });
  p.value("--variant", "LIST",
          "comma-separated variants to measure (default vendor,single,gio):\n"
          "gio     distributed over all PEs, block-cyclic rows, pushes from the kernel\n"
          "gda     gio with every other PE through the NIC (the kernel rings it); ikn: through\n"
          "        the IKN CPU proxy. No NIC here: set GIO_GDA_NIC_MODEL (the software model)\n"
          "single  the same kernel on PE 0's GPU alone, no communication\n"
          "vendor  cuSPARSE SpSV (CUDA) or rocSPARSE csrsv (HIP) on PE 0's GPU\n"
          "cpu     serial forward substitution on PE 0 (the reference every run is checked\n"
          "        against is computed in any case; this times it)",
          [&](const std::string& v) { opt.variants = parse_variant_list(v); });
  p.value("--push-path", "PATH",
          "how packed pushes and the indegree kernel's remote counts reach other PEs (default auto):\n"
          "auto   stores and atomics on shmem_ptr's addresses when every PE's heap is mapped on this\n"
          "       GPU (NVLink, PCIe), else gio's calls\n"
          "calls  gio's calls (shmem_p, shmem_atomic_fetch_add) through a context always",
          [&](const std::string& v) {
            opt.mapped_pushes = support::parse_choice("--push-path", v, {"auto", "calls"}) == "auto";
          });
  p.value("--push", "MODE",
          "how gio sends a solved x value to the PEs that read it (default packed):\n"
          "packed  shmem_p of the 8-byte x word; its unsolved bit pattern is the flag\n"
          "signal  shmem_put_signal: x, then a ready word\n"
          "fence   shmem_p of x to each reader, shmem_fence, shmem_p of a ready word\n"
          "amo     shmem_atomic_set of the packed word",
          [&](const std::string& v) {
            try {
              opt.push = parse_push_mode(v);
            } catch (const std::invalid_argument& e) {
              throw support::usage_error(std::string("--push: ") + e.what());
            }
          });
  p.value("--block", "ROWS",
          "rows per block of the block-cyclic distribution (gio); default: n / (16 PEs),\n"
          "clamped to [32, 16384]; `contiguous`: one range of n / PEs rows per PE",
          [&](const std::string& v) { opt.block = v == "contiguous" ? contiguous_blocks : positive_int("--block", v); });
  p.value("--kernel", "KIND",
          "the solve kernel of single and gio (default auto):\n"
          "rounds  a wavefront solves a ticket's rows a sub-chunk of up to one wavefront at\n"
          "        a time, 1 to 64 lanes per row (any row length)\n"
          "slots   every lane holds 4 rows of its own and refills a slot as soon as its row\n"
          "        is solved (rows of at most 16 entries: road networks, circuits)\n"
          "indegree each row counts its unsolved entries, and the lane that solves a\n"
          "        row's last dependency solves the row next; nothing polls (the host\n"
          "        builds each row's readers once, untimed). gio: a reader on another PE\n"
          "        is counted off there with a remote atomic and handed to that PE's queue\n"
          "        (single and gio with --push packed only)\n"
          "auto    rounds with 1-row tickets when a level has fewer rows on average than one\n"
          "        slots ticket (long chains); else, for single and for gio with --push\n"
          "        packed, indegree when no row and no column has more than 16 strictly lower\n"
          "        entries; else slots when every row has at most 16; else rounds",
          [&](const std::string& v) {
            if (v == "auto")
              opt.kernel = kernel_choice::automatic;
            else if (v == "rounds")
              opt.kernel = kernel_choice::rounds;
            else if (v == "slots")
              opt.kernel = kernel_choice::slots;
            else if (v == "indegree")
              opt.kernel = kernel_choice::indegree;
            else
              throw support::usage_error("--kernel: unknown kernel '" + v + "' (auto, rounds, slots or indegree)");
          });
  p.value("--rows-per-ticket", "N",
          "consecutive rows a wavefront takes at a time (at most 65536; default 32 with\n"
          "the rounds kernel, 4 x 4 x the wavefront's width with slots: 512 on NVIDIA;\n"
          "indegree: roots per ticket, 8 x the wavefront's width)",
          [&](const std::string& v) {
            // Bounded so that the ticket counter (32 bits) cannot wrap while every wave takes one more.
            opt.rows_per_ticket = positive_int("--rows-per-ticket", v, 65536);
          });
  p.value("--entries-per-lane", "N",
          "most entries of a row one lane reads: a row gets the fewest lanes (a power\n"
          "of two up to the wavefront) that keeps to it (default 4)",
          [&](const std::string& v) { opt.entries_per_lane = positive_int("--entries-per-lane", v); });
  p.value("--backoff", "NS",
          "slots kernel: a wavefront that solved nothing in a round sleeps, 32 ns after\n"
          "the first such round, doubling up to NS (default 256; 0: never sleeps); gio\n"
          "with the indegree kernel: the same between a poller's polls of its queue",
          [&](const std::string& v) {
            opt.backoff_ns = static_cast<std::int32_t>(std::min<std::int64_t>(support::parse_non_negative("--backoff", v), 1'000'000));
          });
  p.value("--lane-rows", "N",
          "indegree kernel: rows a lane solves per round, their loads in flight together\n"
          "(1, 2 or 4; default 2)",
          [&](const std::string& v) {
            if (v != "1" && v != "2" && v != "4") throw support::usage_error("--lane-rows: 1, 2 or 4 (got '" + v + "')");
            opt.lane_rows = std::stoi(v);
          });
  p.value("--stack-rows", "N",
          "indegree kernel: rows a wavefront keeps in shared memory when its lanes make\n"
          "more rows ready than they solve next; the rest go to a global queue (0 to " +
              std::to_string(indegree_stack_rows) + ",\ndefault " + std::to_string(indegree_stack_rows) +
              "; 0 sends every such row through the queue)",
          [&](const std::string& v) {
            const std::int64_t rows = support::parse_non_negative("--stack-rows", v);
            if (rows > indegree_stack_rows)
              throw support::usage_error("--stack-rows: at most " + std::to_string(indegree_stack_rows) +
                                      " (the kernel's shared-memory stack)");
            opt.stack_rows = static_cast<std::int32_t>(rows);
          });
  p.value("--stack-order", "ORDER",
          "indegree kernel: which rows a wavefront takes from its stack: `lifo`\n"
          "(default), the newest; `fifo`, the oldest (a ring of the same size)",
          [&](const std::string& v) { opt.stack_fifo = support::parse_choice("--stack-order", v, {"lifo", "fifo"}) == "fifo"; });
  p.value("--pollers", "N",
          "gio with the indegree kernel: wavefronts per PE that stay and poll the PE's\n"
          "queue for rows other PEs hand over, once they have nothing to do (the others\n"
          "leave); default: the GPU's multiprocessors divided among the PEs on it; none\n"
          "on a PE none of whose rows reads another PE's (no row can be handed to it)",
          [&](const std::string& v) { opt.pollers = positive_int("--pollers", v); });
  p.value("--queue-takes", "WHEN",
          "indegree kernel: which wavefronts take rows from the global queue (rows their\n"
          "owner's stack had no room for, and in gio rows other PEs hand over): `idle`\n"
          "(default), only one that holds no row; `spare`, also one whose lanes have\n"
          "free row slots, once every root is handed out",
          [&](const std::string& v) {
            opt.spare_takes = support::parse_choice("--queue-takes", v, {"idle", "spare"}) == "spare";
          });
  p.value("--one-pe", "KERNELS",
          "gio on one PE: `local` (default) runs single's kernels, since no other PE\n"
          "reads its values or hands it rows; `distributed` runs gio's own kernels\n"
          "there, to measure what their per-row work costs (docs/spts.md)",
          [&](const std::string& v) {
            opt.one_pe_local = support::parse_choice("--one-pe", v, {"local", "distributed"}) == "local";
          });
  p.value("--workgroups", "N",
          "workgroups of the solve kernel (default: as many as fit on the GPU at once,\n"
          "divided among the PEs that share it; for chains of few rows per level, where\n"
          "--kernel auto takes 1-row tickets, one per multiprocessor)",
          [&](const std::string& v) { opt.workgroups = positive_int("--workgroups", v); });
  p.value("--warmup", "N", "untimed solves before the timed ones (default 2)", [&](const std::string& v) {
    opt.warmup = static_cast<int>(std::min<std::int64_t>(support::parse_non_negative("--warmup", v), 1000));
  });
  p.value("--repeats", "N", "timed solves per variant; the median is reported (default 10)",
          [&](const std::string& v) { opt.repeats = positive_int("--repeats", v); });
  p.value("--timeout", "SECONDS",
          "a wavefront that makes no progress this long stops the solve, which then\n"
          "fails naming the rows and the x it waited for (default 60)",
          [&](const std::string& v) {
            opt.timeout_seconds = support::parse_number("--timeout", v);
            if (!(opt.timeout_seconds > 0)) throw support::usage_error("--timeout must be positive");
          });
  p.value(
      "--gen-threads", "N", "threads generating the matrix on each PE (default: hardware threads / PEs per node)",
      [&](const std::string& v) { opt.generator_threads = static_cast<unsigned>(positive_int("--gen-threads", v)); });
  p.value("--csv", "FILE", "append one row per variant to FILE (header written when the file is new)",
          [&](const std::string& v) { opt.csv_path = v; });
  p.value("--save", "FILE", "write L (with its diagonal) to FILE as Matrix Market, then solve",
          [&](const std::string& v) { opt.save_path = v; });
  p.flag("--quiet", "no progress line", [&] { opt.quiet = true; });
  p.flag("--round-stats",
         "after each sync-free variant, print how its waves advanced in the last solve:\n"
         "rounds per wave (most, mean, with a row solved) and the time per round",
         [&] { opt.round_stats = true; });
  p.epilogue(
      "Exit status: 0 when every variant's check passed; 1 for a failed check, a stalled solve or\n"
      "a GPU error; 2 for bad options or input (unreadable or malformed file, too many PEs, a\n"
      "problem larger than GPU memory or the symmetric heap). Every PE prints why.\n"
      "\n"
      "Examples:\n"
      "  mpirun -np 2 spts --gen road_usa:0.01 --csv spts.csv\n"
      "  mpirun -np 1 spts --matrix L.mtx --variant single,vendor,cpu\n"
      "The gio variant keeps x (and the ready words of --push signal/fence) in the symmetric heap:\n"
      "8 bytes per row (16), within GIO_SYMMETRIC_SIZE (default 1G).");
  return p;
}

}  // namespace

kernel_plan plan_kernel(const options& opt, variant v, const matrix_shape& shape, std::int32_t slots_max_row,
                        std::int32_t slots_ticket) {
  if (opt.kernel != kernel_choice::automatic) return {opt.kernel, opt.rows_per_ticket, 0};
  if (shape.rows_per_level < static_cast<double>(slots_ticket))  // chains
    return {kernel_choice::rounds, opt.rows_per_ticket > 0 ? opt.rows_per_ticket : 1, opt.workgroups == 0 ? 1 : 0};
  const bool short_rows = shape.longest_row_below_diagonal <= slots_max_row;
  const bool indegree_runs = v == variant::single || (v == variant::gio && opt.push == push_mode::packed);
  if (indegree_runs && short_rows && shape.densest_column <= slots_max_row)
    return {kernel_choice::indegree, opt.rows_per_ticket, 0};
  return {short_rows ? kernel_choice::slots : kernel_choice::rounds, opt.rows_per_ticket, 0};
}

const char* name(kernel_choice k) {
  switch (k) {
    case kernel_choice::automatic:
      return "auto";
    case kernel_choice::rounds:
      return "rounds";
    case kernel_choice::slots:
      return "slots";
    case kernel_choice::indegree:
      return "indegree";
  }
  return "?";
}

std::string options::input_name() const {
  if (generator) return to_string(*generator);
  const std::size_t slash = matrix_path.rfind('/');
  return slash == std::string::npos ? matrix_path : matrix_path.substr(slash + 1);
}

bool options::wants(variant v) const { return std::find(variants.begin(), variants.end(), v) != variants.end(); }

std::optional<options> parse_options(int argc, const char* const* argv) {
  options opt;
  if (!make_parser(&opt).parse(argc, argv)) return std::nullopt;
  if (opt.matrix_path.empty() == !opt.generator)
    throw support::usage_error("give either --matrix FILE or --gen CLASS[:SCALE]");
  if (opt.lower_of_general && opt.matrix_path.empty()) throw support::usage_error("--tril applies to --matrix only");
  if (opt.kernel == kernel_choice::indegree) {
    for (const variant v : opt.variants)
      if (v == variant::gda || v == variant::ikn)
        throw support::usage_error(std::string("--kernel indegree runs single and gio, not ") + name(v) +
                                " (its hand-overs of rows to other PEs are stores that must arrive without a "
                                "quiet: NVLink/PCIe peers only)");
    if (opt.wants(variant::gio) && opt.push != push_mode::packed)
      throw support::usage_error(std::string("--kernel indegree pushes x as packed words, not with --push ") +
                              name(opt.push) + ": leave --push at packed");
  }
  return opt;
}

std::string spts_help() { return make_parser(nullptr).help(); }

}  // namespace spts
