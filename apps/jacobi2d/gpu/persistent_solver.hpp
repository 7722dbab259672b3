// The host side of the gio and nvshmem variants (one template, `Comm` = gio_comm or nvshmem_comm):
// GPU choice, occupancy and the workgroup tiling agreed by every PE, the memory check, the
// library's init, one symmetric allocation for the kernel's state, and the runs.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/failure.hpp"
#include "support/node.hpp"
#include "core/host_relax.hpp"
#include "core/problem.hpp"
#include "core/solver.hpp"
#include "gpu/gpu_setup.hpp"
#include "gpu/persistent_kernel.hpp"
#include "support/gpu_runtime.hpp"

namespace jacobi {

// Where the kernel's state lies in its one symmetric allocation (byte offsets, 256-byte aligned).
// Only grids, ghost columns and rows, signals and the reduction's buffers need to be symmetric; the rest
// shares the allocation so that one memset clears every flag (signals through outcome).
struct persistent_memory {
  std::size_t grid[2], ghost_columns, ghost_rows, reduce_source, reduce_dest, residual_slots, decisions;
  std::size_t signals, done, decided, outcome;  // contiguous: the flags cleared before each run
  std::size_t flags_end, total;

  persistent_memory(const tile_layout& layout, const wg_tiling& tiling) {
    std::size_t at = 0;
    const auto take = [&](std::size_t bytes) {
      const std::size_t offset = at;
      at += (bytes + 255) / 256 * 256;
      return offset;
    };
    const std::size_t grid_bytes = static_cast<std::size_t>(layout.elements()) * sizeof(double);
    const std::size_t workgroups = static_cast<std::size_t>(tiling.count());
    grid[0] = take(grid_bytes);
    grid[1] = take(grid_bytes);
    ghost_columns = take(4 * static_cast<std::size_t>(layout.ny) * sizeof(double));
    ghost_rows = take(4 * static_cast<std::size_t>(layout.nx) * sizeof(double));
    reduce_source = take(sizeof(double));
    reduce_dest = take(sizeof(double));
    residual_slots = take(2 * workgroups * sizeof(double));
    decisions = take(2 * sizeof(double));
    signals = take(side_count * static_cast<std::size_t>(std::max(tiling.wx, tiling.wy)) * flag_stride * sizeof(std::uint64_t));
    done = take(workgroups * flag_stride * sizeof(std::uint64_t));
    decided = take(sizeof(std::uint64_t));
    outcome = take(sizeof(run_outcome));
    flags_end = at;
    total = at;
  }
};

template <class Comm>
class persistent_solver final : public solver {
 public:
  explicit persistent_solver(const solver_setup& setup)
      : opt_(setup.opt), dec_(setup.dec), comm_(setup.comm), layout_(make_layout(dec_.tile.nx, dec_.tile.ny)),
        gpu_(select_gpu(comm_)), threads_(static_cast<unsigned>(opt_.wg_threads > 0 ? opt_.wg_threads : default_persistent_threads)),
        tiling_(agree_on_tiling()), memory_(layout_, tiling_), shared_bytes_(persistent_shared_bytes(threads_, tiling_.ty)) {
    // Heap: the allocation and the library's own use of the heap, in whole 2 MiB pages. The
    // tiling above fills the whole GPU, the most workgroups and so the most memory there can be:
    // the library gives this PE its share of the GPU (several PEs under MPS) only once it runs.
    constexpr std::size_t page = std::size_t(2) << 20;
    const std::size_t heap = (memory_.total + Comm::heap_slack_bytes + page - 1) / page * page;
    require_gpu_memory(comm_, gpu_, heap + Comm::library_bytes,
                       std::string(Comm::traits.system) + "'s symmetric heap of " + gibibytes(double(heap)) + " and its own state");
    // The user's setting wins; a heap too small for the allocation fails every PE below.
    setenv(Comm::traits.heap_size_variable, std::to_string(heap).c_str(), 0);
    session_ = std::make_unique<library_session>(comm_);
    if (session_->report.gpu >= 0 && session_->report.gpu != gpu_.device)
      throw std::runtime_error(std::string(Comm::traits.system) + " chose GPU " + std::to_string(session_->report.gpu) +
                               ", this PE selected " + std::to_string(gpu_.device));
    if (Comm::my_pe() != dec_.pe) throw std::runtime_error("the library's PE number differs from the MPI rank");
    tiling_ = agree_on_tiling();  // in this PE's share of its GPU
    memory_ = persistent_memory(layout_, tiling_);
    shared_bytes_ = persistent_shared_bytes(threads_, tiling_.ty);
    block_ = std::make_unique<symmetric_block>(memory_.total);
    support::agree(comm_, block_->base ? "" : std::string(Comm::traits.system) + " could not allocate " + std::to_string(memory_.total) +
                                               " bytes of symmetric memory: make " + Comm::traits.heap_size_variable +
                                               " larger than that, or unset it", support::exit_usage);
    progress_ = std::make_unique<pinned_buffer>(sizeof(std::uint64_t));
    initial_ = initial_tile(dec_, layout_);
    handle_ = Comm::device_handle();
  }

  run_result run(const run_request& request) override {
    namespace gpu = support::gpu;
    char* base = block_->base;
    // u_0 in both grids (their rings too), every flag and signal 0.
    for (int g = 0; g < 2; ++g) gpu::copy_to_device(base + memory_.grid[g], initial_.data(), initial_.size() * sizeof(double));
    gpu::fill(base + memory_.signals, 0, memory_.flags_end - memory_.signals);
    volatile std::uint64_t* progress = progress_->as<std::uint64_t>();
    *progress = 0;
    gpu::synchronize();
    // No PE's kernel may write a neighbour's signals before the neighbour has cleared them.
    MPI_Barrier(comm_);

    persistent_args a = arguments(request);
    const auto start = std::chrono::steady_clock::now();
    Comm::launch(&relax_persistent<Comm>, static_cast<unsigned>(tiling_.count()), threads_, shared_bytes_, handle_, a);
    gpu::check_launch("relax_persistent");
    while (!gpu::idle(nullptr)) {
      if (request.progress) request.progress(static_cast<std::int64_t>(*progress));
      std::this_thread::yield();
    }
    gpu::synchronize();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    run_outcome outcome{};
    gpu::copy_to_host(&outcome, base + memory_.outcome, sizeof outcome);
    if (outcome.iterations <= 0) throw std::runtime_error("the persistent kernel ended without an outcome");
    last_ = outcome.iterations;
    return {outcome.iterations, outcome.residual, outcome.converged != 0, seconds};
  }

  std::vector<double> tile() override {
    std::vector<double> grid(initial_.size());
    support::gpu::copy_to_host(grid.data(), block_->base + memory_.grid[last_ % 2], grid.size() * sizeof(double));
    return interior_of(layout_, grid);
  }

  int device() const override { return gpu_.device; }

  launch_shape shape() const override {
    return {tiling_.count(), threads_,
            std::to_string(tiling_.wx) + "x" + std::to_string(tiling_.wy) + " tiles of " + std::to_string(tiling_.tx) +
                "x" + std::to_string(tiling_.ty) + " at " + std::to_string(points_per_trip()) +
                (points_per_trip() == 1 ? " point" : " points") + " per trip"};
  }

 private:
  // The library from init to finalize (collective both ways). Teardown errors are reported, not
  // thrown: destructors also run while a job_failure unwinds.
  struct library_session {
    explicit library_session(MPI_Comm comm) : report(Comm::init(comm)) {}
    ~library_session() {
      try {
        Comm::finalize();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: finalizing %s: %s\n", support::program_name().c_str(), Comm::traits.system, e.what());
      }
    }
    support::library_init_report report;
  };
  // One collective allocation; null on every PE when the heap has no room.
  struct symmetric_block {
    explicit symmetric_block(std::size_t bytes) : base(static_cast<char*>(Comm::malloc(bytes))) {}
    ~symmetric_block() {
      try {
        if (base) Comm::free(base);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: freeing symmetric memory: %s\n", support::program_name().c_str(), e.what());
      }
    }
    char* base;
  };

  // Every PE uses the same tiling (workgroups facing each other across a PE boundary must cover
  // the same segment): sized by the smallest co-residency of any PE's GPU.
  wg_tiling agree_on_tiling() {
    const std::int64_t rows_bound = std::min<std::int64_t>(max_tile_rows, layout_.ny);
    int coresident = Comm::max_coresident(&relax_persistent<Comm>, threads_, persistent_shared_bytes(threads_, rows_bound));
    // NVSHMEM sizes for the whole GPU (what it reports); under MPS, where PEs share a GPU, each
    // takes an equal part, as gio does for itself (docs/running.md).
    if (Comm::traits.needs_gpu_per_pe && gpu_.pes_on_device > 1) coresident /= gpu_.pes_on_device;
    MPI_Allreduce(MPI_IN_PLACE, &coresident, 1, MPI_INT, MPI_MIN, comm_);
    const std::int64_t limit = opt_.workgroups > 0 ? std::min<std::int64_t>(opt_.workgroups, coresident) : coresident;
    const wg_tiling_choice choice = choose_wg_tiling(dec_.tile, limit, max_tile_rows);
    support::agree(comm_, choice.error.empty() ? "" : choice.error + " (" + std::to_string(threads_) + " threads each)",
                support::exit_usage);
    return choice.tiling;
  }

  std::int32_t points_per_trip() const {
    if (opt_.halo == halo_transfer::p) return 1;  // each point leaves as it is updated
    return static_cast<std::int32_t>(opt_.points_per_trip > 0 ? opt_.points_per_trip : max_points_per_trip);
  }

  persistent_args arguments(const run_request& request) const {
    char* base = block_->base;
    persistent_args a{};
    a.layout = layout_;
    a.tiling = tiling_;
    a.plan = request.plan;
    a.transfer = opt_.halo;
    a.compute = request.what.compute ? 1 : 0;
    a.comm = request.what.comm ? 1 : 0;
    a.my_pe = dec_.pe;
    for (int s = 0; s < side_count; ++s) a.neighbour_pe[s] = dec_.neighbour[s];
    a.segments = std::max(tiling_.wx, tiling_.wy);
    a.points_per_trip = points_per_trip();
    a.wait_timeout_ns = static_cast<std::uint64_t>(opt_.wait_timeout * 1e9);
    a.grid[0] = reinterpret_cast<double*>(base + memory_.grid[0]);
    a.grid[1] = reinterpret_cast<double*>(base + memory_.grid[1]);
    a.ghost_columns = reinterpret_cast<double*>(base + memory_.ghost_columns);
    a.ghost_rows = reinterpret_cast<double*>(base + memory_.ghost_rows);
    a.signals = reinterpret_cast<std::uint64_t*>(base + memory_.signals);
    a.reduce_source = reinterpret_cast<double*>(base + memory_.reduce_source);
    a.reduce_dest = reinterpret_cast<double*>(base + memory_.reduce_dest);
    a.done = reinterpret_cast<std::uint64_t*>(base + memory_.done);
    a.residual_slots = reinterpret_cast<double*>(base + memory_.residual_slots);
    a.decided = reinterpret_cast<std::uint64_t*>(base + memory_.decided);
    a.decisions = reinterpret_cast<double*>(base + memory_.decisions);
    a.outcome = reinterpret_cast<run_outcome*>(base + memory_.outcome);
    a.progress = progress_->as<std::uint64_t>();
    return a;
  }

  const options& opt_;
  decomposition dec_;
  MPI_Comm comm_;
  tile_layout layout_;
  gpu_choice gpu_;
  unsigned threads_;
  wg_tiling tiling_;
  persistent_memory memory_;
  std::size_t shared_bytes_;
  std::unique_ptr<library_session> session_;
  std::unique_ptr<symmetric_block> block_;  // freed before the session ends (members go in reverse)
  std::unique_ptr<pinned_buffer> progress_;
  std::vector<double> initial_;
  typename Comm::handle handle_{};
  std::int64_t last_ = 0;
};

// A variant's factory: skips (exit 77 on every PE) where the library cannot run several PEs on one
// GPU: without MPS.
template <class Comm>
std::unique_ptr<solver> make_persistent_solver(const solver_setup& setup) {
  if (Comm::traits.needs_gpu_per_pe) {
    const gpu_choice gpu = select_gpu(setup.comm);
    support::agree(setup.comm,
                gpu.shared && !support::mps_daemon_running()
                    ? std::string("skipped: ") + Comm::traits.system +
                          " needs one GPU per PE or MPS (docs/running.md); run one PE per GPU, or start MPS"
                    : "",
                support::exit_skipped);
  }
  return std::make_unique<persistent_solver<Comm>>(setup);
}

}  // namespace jacobi
