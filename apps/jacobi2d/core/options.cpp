#include "core/options.hpp"

#include <algorithm>

namespace jacobi {

const std::vector<variant_info>& all_variants() {
  static const std::vector<variant_info> variants{
      {"gio", "one persistent kernel for the whole relaxation: workgroups own tiles and wait only for\n"
              "their neighbours' flags; halos leave from inside the kernel (gio put-with-signal, or\n"
              "shmem_p per point: --halo); the residual is reduced on the device", "the jacobi2d of a GPU build"},
      {"nvshmem", "the same kernel source over NVSHMEM", "jacobi2d-nvshmem, built when NVSHMEM is found"},
      {"gda", "the gio kernel with every other PE reached through the NIC (GIO_TRANSPORT=gda: the\n"
              "kernel writes the WQEs and rings); without a NIC set GIO_GDA_NIC_MODEL (software model)",
       "the jacobi2d of a GPU build"},
      {"ikn", "the gio kernel over the IKN baseline (GIO_TRANSPORT=ikn: a CPU thread posts the WQEs the\n"
              "kernel asks for, GIO Section 6.1); without a NIC set GIO_GDA_NIC_MODEL", "the jacobi2d of a GPU build"},
      {"inter-k", "one kernel per iteration; halos by host MPI between kernels, staged through\n"
                  "pinned host memory; residual by MPI_Allreduce", "the jacobi2d of a GPU build"},
      {"inter-k-overlap", "boundary and interior kernels on two streams; the halo exchange (copies and\n"
                          "non-blocking MPI) overlaps the interior kernel", "the jacobi2d of a GPU build"},
      {"cpu", "OpenMP on the host, halos by MPI: shows the problem is big enough for GPUs", "jacobi2d"},
  };
  return variants;
}

bool is_persistent(const std::string& variant) {
  return variant == "gio" || variant == "nvshmem" || variant == "gda" || variant == "ikn";
}

std::string to_string(halo_transfer halo) {
  return halo == halo_transfer::signal ? "signal" : halo == halo_transfer::p ? "p" : "early";
}

support::option_parser make_parser(options& opt, const std::vector<std::string>& here) {
  // The variants, one paragraph each, for the help's epilogue.
  std::string variants_text = "Variants (--variant):\n";
  for (const variant_info& v : all_variants()) {
    const bool built = std::find(here.begin(), here.end(), v.name) != here.end();
    std::string summary = v.summary;
    for (std::size_t at = 0; (at = summary.find('\n', at)) != std::string::npos; at += 5) summary.replace(at, 1, "\n    ");
    variants_text += "  " + std::string(v.name) + (built ? "" : " (not in this program: in " + std::string(v.binary) + ")") +
                     "\n    " + summary + "\n";
  }
  support::option_parser p(
      "jacobi2d",
      "5-point Jacobi relaxation of Laplace's equation on a 2D grid of doubles, decomposed in two\n"
      "dimensions over the PEs (the GIO paper's Section 6.3). Run it under mpirun, one process per\n"
      "PE; a GPU variant's PE n uses GPU (node-local rank of n) mod (GPUs on the node). Prints the\n"
      "time per iteration (median of --reps runs of the slowest PE), the residual, and on request\n"
      "the breakdown and the check.");
  p.value("--variant", "NAME", "which variant runs (default " + here.front() + "; the list below)", [&](const std::string& v) {
    opt.variant = support::parse_choice("--variant", v, {"gio", "nvshmem", "gda", "ikn", "inter-k", "inter-k-overlap", "cpu"});
  });
  p.value("--size", "NX[xNY]",
          "global grid of NX x NY points (K = 1024: 2Kx1K); default 1024x1024.\n"
          "Weak scaling keeps NX*NY/GPUs fixed (docs/jacobi2d.md)",
          [&](const std::string& v) {
            const auto [nx, ny] = support::parse_extent("--size", v);
            opt.size = {nx, ny};
          });
  p.value("--pe-grid", "PXxPY",
          "PE grid (default: the factorisation of the PE count with equal tiles and\n"
          "the fewest halo points; ties to the squarer grid)",
          [&](const std::string& v) {
            const auto [px, py] = support::parse_extent("--pe-grid", v);
            if (px > (1 << 20) || py > (1 << 20)) throw support::usage_error("--pe-grid: '" + v + "' is too large");
            opt.pe_grid_request = {static_cast<int>(px), static_cast<int>(py)};
          });
  p.value("--iterations", "N", "iterations to run; with --tolerance, the most to run (default 1000)",
          [&](const std::string& v) { opt.iterations = support::parse_positive("--iterations", v); });
  p.value("--tolerance", "X",
          "convergence mode: stop after the first checked iteration whose residual\n"
          "max|u_t - u_(t-1)| is <= X (default: fixed mode, no convergence test)",
          [&](const std::string& v) {
            opt.tolerance = support::parse_number("--tolerance", v);
            if (opt.tolerance < 0) throw support::usage_error("--tolerance: '" + v + "' is negative");
          });
  p.value("--residual-every", "K",
          "convergence mode: reduce the residual after every K-th iteration\n"
          "(default 100); gio/nvshmem reduce it on the device while the other\n"
          "workgroups go on: they learn the verdict one iteration later",
          [&](const std::string& v) {
            opt.residual_every = support::parse_positive("--residual-every", v);
            opt.residual_every_given = true;
          });
  p.value("--halo", "signal|p|early",
          "gio/nvshmem halo transfer (default signal): signal = one put-with-signal\n"
          "per workgroup segment (columns packed in shared memory first); p = shmem_p\n"
          "of each halo point as it is computed, then fence and a flag; early = signal\n"
          "with the edges computed and sent first, the rest of the tile after",
          [&](const std::string& v) {
            const std::string h = support::parse_choice("--halo", v, {"signal", "p", "early"});
            opt.halo = h == "p" ? halo_transfer::p : h == "early" ? halo_transfer::early : halo_transfer::signal;
            opt.halo_given = true;
          });
  p.flag("--no-comm", "skip the halo exchange (compute + synchronisation; the result is wrong)",
         [&] { opt.no_comm = true; });
  p.flag("--no-compute", "skip the point updates (communication + synchronisation)",
         [&] { opt.no_compute = true; });
  p.flag("--breakdown",
         "run four times: everything, --no-comm, --no-compute, neither; print the\n"
         "compute, communication and overhead (kernel launches, or the persistent\n"
         "kernel's synchronisation) per iteration, and what overlap hid (GIO Fig. 7)",
         [&] { opt.breakdown = true; });
  p.value("--warmup", "N", "untimed iterations before the timed runs (default 10; 0: none)",
          [&](const std::string& v) { opt.warmup = support::parse_non_negative("--warmup", v); });
  p.value("--reps", "N", "timed runs, each from u_0; the median is reported (default 3)",
          [&](const std::string& v) { opt.reps = support::parse_positive("--reps", v); });
  p.value("--wg-threads", "N",
          "threads per workgroup, a multiple of 64 up to 1024 (default:\ngio/nvshmem " +
              std::to_string(default_persistent_threads) + ", Inter-K " + std::to_string(default_inter_k_threads) + ")",
          [&](const std::string& v) { opt.wg_threads = support::parse_positive("--wg-threads", v); });
  p.value("--workgroups", "N", "gio/nvshmem: at most N workgroups (default: all that can be co-resident)",
          [&](const std::string& v) { opt.workgroups = support::parse_positive("--workgroups", v); });
  p.value("--points-per-trip", "N",
          "gio/nvshmem: points a thread loads before it updates any, 1 or 2 (default 2\n"
          "with the signal halo; the p halo takes 1)",
          [&](const std::string& v) { opt.points_per_trip = support::parse_positive("--points-per-trip", v); });
  p.flag("--check",
         "gather the grid to PE 0; compare it, the iteration count and the residual\n"
         "with a single-PE CPU reference of the same problem, bit for bit (exit 1\n"
         "on a difference)",
         [&] { opt.check = true; });
  p.value("--csv", "FILE",
          "append one row per measurement to FILE (header when new; columns in\n"
          "docs/jacobi2d.md); a 1-GPU row of the same variant and points per GPU\n"
          "already there gives the weak-scaling efficiency",
          [&](const std::string& v) { opt.csv = v; });
  p.value("--threads", "N", "OpenMP threads of the cpu variant and the reference (default: OpenMP's)",
          [&](const std::string& v) { opt.threads = support::parse_positive("--threads", v); });
  p.value("--wait-timeout", "S",
          "gio/nvshmem: a workgroup that waits longer than S seconds for a neighbour\n"
          "prints what it waited for and stops the kernel (default 60; 0: no limit)",
          [&](const std::string& v) {
            opt.wait_timeout = support::parse_number("--wait-timeout", v);
            if (opt.wait_timeout < 0) throw support::usage_error("--wait-timeout: '" + v + "' is negative");
          });
  p.flag("--quiet", "no progress line (PE 0's stderr shows one for runs longer than 3 s)",
         [&] { opt.quiet = true; });
  p.epilogue(
      variants_text +
      "\nOutput (PE 0): the setup, then per measurement the time per iteration, and --breakdown's\n"
      "parts; the weak-scaling efficiency when --csv holds a 1-GPU row of the same variant and\n"
      "points per GPU; the check's verdict.\n"
      "Exit status: 0 done; 1 a failure (failed check, GPU or library error); 2 bad options, or a\n"
      "problem this job cannot run (a grid the PEs cannot share, larger than GPU memory); 77\n"
      "skipped (NVSHMEM with several PEs on one GPU). On an error every PE prints\n"
      "\"<program>: PE <n>: <cause>\" and exits non-zero; nothing is left running.\n"
      "Example: mpirun -np 2 jacobi2d --variant gio --size 2Kx1K --iterations 2000 --csv jacobi.csv");
  return p;
}

std::string check_options(const options& opt, const std::vector<std::string>& here) {
  if (std::find(here.begin(), here.end(), opt.variant) == here.end()) {
    for (const variant_info& v : all_variants())
      if (opt.variant == v.name) return "variant '" + opt.variant + "' is not in this program: it runs in " + v.binary;
  }
  const bool persistent = is_persistent(opt.variant);
  if (opt.residual_every_given && opt.tolerance < 0) return "--residual-every needs --tolerance (convergence mode)";
  if (opt.check && (opt.no_comm || opt.no_compute))
    return "--check needs every part of the iteration: not with --no-comm or --no-compute";
  if (opt.breakdown && (opt.no_comm || opt.no_compute))
    return "--breakdown runs with and without each part itself: not with --no-comm or --no-compute";
  if (opt.halo_given && !persistent) return "--halo applies to gio and nvshmem, not " + opt.variant;
  if (opt.workgroups > 0 && !persistent) return "--workgroups applies to gio and nvshmem, not " + opt.variant;
  if (opt.points_per_trip > 0) {
    if (!persistent) return "--points-per-trip applies to gio and nvshmem, not " + opt.variant;
    if (opt.points_per_trip > max_points_per_trip)
      return "--points-per-trip " + std::to_string(opt.points_per_trip) + " is not 1 or 2";
    if (opt.halo == halo_transfer::p && opt.points_per_trip != 1)
      return "--points-per-trip 2 needs the signal halo (the p halo sends each point as it is updated)";
  }
  if (opt.wg_threads > 0) {
    if (opt.variant == "cpu") return "--wg-threads applies to the GPU variants, not cpu (see --threads)";
    if (opt.wg_threads % 64 != 0 || opt.wg_threads > max_wg_threads)
      return "--wg-threads " + std::to_string(opt.wg_threads) + " is not a multiple of 64 up to " +
             std::to_string(max_wg_threads);
  }
  return "";
}

bool parse_options(int argc, const char* const* argv, const std::vector<std::string>& here, options& opt) {
  opt = options{};
  opt.variant = here.front();
  const support::option_parser parser = make_parser(opt, here);
  if (!parser.parse(argc, argv)) return false;
  const std::string problem = check_options(opt, here);
  if (!problem.empty()) throw support::usage_error(problem);
  return true;
}

}  // namespace jacobi
