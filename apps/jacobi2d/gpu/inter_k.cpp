#include "gpu/inter_k.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "core/host_relax.hpp"
#include "core/problem.hpp"
#include "gpu/device_common.hpp"
#include "gpu/gpu_setup.hpp"
#include "support/gpu_runtime.hpp"

namespace jacobi {

namespace gpu = support::gpu;

namespace {

struct rect {
  std::int64_t x0, y0, width, height;
};

// Up to four rectangles of the tile, one kernel over all their points.
struct rect_list {
  rect r[4];
  std::int32_t count;
  std::int64_t first_point[5];  // prefix sums of the rectangles' points
  std::int64_t points() const { return first_point[count]; }
};

rect_list make_rect_list(std::vector<rect> rects) {
  rect_list list{};
  list.first_point[0] = 0;
  for (const rect& r : rects) {
    if (r.width <= 0 || r.height <= 0) continue;
    list.r[list.count] = r;
    list.first_point[list.count + 1] = list.first_point[list.count] + r.width * r.height;
    ++list.count;
  }
  return list;
}

// One thread per point of the rectangles: the update; the tile's first and last columns also go
// to `west_edge` / `east_edge` (contiguous, for the copy to the host). With `block_max`, each
// block's largest change. Without `compute` the kernel only launches (the breakdown's overhead).
__global__ void relax_rects(tile_layout layout, const double* src, double* dst, rect_list rects, double* block_max,
                            double* west_edge, double* east_edge, int compute) {
  extern __shared__ double scratch[];
  if (!compute) return;
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double largest = 0;
  if (k < rects.first_point[rects.count]) {
    int r = 0;
    while (k >= rects.first_point[r + 1]) ++r;
    const std::int64_t local = k - rects.first_point[r];
    const std::int64_t y = rects.r[r].y0 + local / rects.r[r].width, x = rects.r[r].x0 + local % rects.r[r].width;
    const std::int64_t i = layout.at(x, y);
    const double u = relax(src[i - layout.pitch], src[i + layout.pitch], src[i - 1], src[i + 1]);
    dst[i] = u;
    largest = change(u, src[i]);
    if (west_edge != nullptr && x == 0) west_edge[y] = u;
    if (east_edge != nullptr && x == layout.nx - 1) east_edge[y] = u;
  }
  if (block_max != nullptr) {
    largest = wg_max(largest, scratch);
    if (threadIdx.x == 0) block_max[blockIdx.x] = largest;
  }
}

// Received W/E halos (contiguous) into the ring columns.
__global__ void columns_into_ring(tile_layout layout, double* grid, const double* west, const double* east) {
  const std::int64_t y = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (y >= layout.ny) return;
  if (west != nullptr) grid[layout.at(-1, y)] = west[y];
  if (east != nullptr) grid[layout.at(layout.nx, y)] = east[y];
}

std::int64_t blocks_for(std::int64_t points, unsigned threads) { return (points + threads - 1) / threads; }

class inter_k_solver final : public solver {
 public:
  inter_k_solver(const solver_setup& setup, bool overlap)
      : dec_(setup.dec), comm_(setup.comm), overlap_(overlap), layout_(make_layout(dec_.tile.nx, dec_.tile.ny)),
        gpu_(select_gpu(comm_)),
        threads_(static_cast<unsigned>(setup.opt.wg_threads > 0 ? setup.opt.wg_threads : default_inter_k_threads)),
        full_(make_rect_list({{0, 0, layout_.nx, layout_.ny}})),
        interior_(make_rect_list({{1, 1, layout_.nx - 2, layout_.ny - 2}})),
        boundary_(make_rect_list({{0, 0, layout_.nx, 1},
                                  {0, layout_.ny - 1, layout_.nx, layout_.ny > 1 ? 1 : 0},
                                  {0, 1, 1, layout_.ny - 2},
                                  {layout_.nx - 1, 1, layout_.nx > 1 ? 1 : 0, layout_.ny - 2}})),
        block_slots_(std::max(blocks_for(full_.points(), threads_),
                              blocks_for(boundary_.points(), threads_) + blocks_for(interior_.points(), threads_))) {
    const std::size_t grid_bytes = static_cast<std::size_t>(layout_.elements()) * sizeof(double);
    const std::size_t column_bytes = static_cast<std::size_t>(layout_.ny) * sizeof(double);
    require_gpu_memory(comm_, gpu_, 2 * grid_bytes + 4 * column_bytes + block_slots_ * sizeof(double),
                       "two grids of " + gibibytes(double(grid_bytes)));
    for (auto& g : grids_) g = std::make_unique<device_buffer>(grid_bytes);
    for (int s = 0; s < side_count; ++s) {
      if (dec_.neighbour[s] < 0) continue;
      const std::size_t bytes = static_cast<std::size_t>(halo_length(layout_, s)) * sizeof(double);
      host_send_[s] = std::make_unique<pinned_buffer>(bytes);
      host_receive_[s] = std::make_unique<pinned_buffer>(bytes);
      if (is_row_side(s)) continue;
      edge_[s] = std::make_unique<device_buffer>(bytes);
      ring_[s] = std::make_unique<device_buffer>(bytes);
    }
    block_max_ = std::make_unique<device_buffer>(block_slots_ * sizeof(double));
    host_block_max_ = std::make_unique<pinned_buffer>(block_slots_ * sizeof(double));
    main_ = gpu::create_stream(false);
    edge_stream_ = gpu::create_stream(true);
    initial_ = initial_tile(dec_, layout_);
  }

  ~inter_k_solver() override {
    try {
      gpu::destroy_stream(main_);
      gpu::destroy_stream(edge_stream_);
    } catch (const gpu::error&) {
    }
  }

  run_result run(const run_request& request) override {
    for (auto& g : grids_) gpu::copy_to_device(g->as<double>(), initial_.data(), initial_.size() * sizeof(double));
    gpu::synchronize();
    MPI_Barrier(comm_);
    const auto start = std::chrono::steady_clock::now();
    run_result result;
    for (std::int64_t t = 1; t <= request.plan.max_iterations; ++t) {
      const double local = iterate(t, request);
      if (request.progress) request.progress(t);
      if (!request.plan.residual_due(t)) continue;
      double global = local;
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm_);
      result = {t, global, request.plan.stops_at(global), 0};
      if (result.converged) break;
    }
    gpu::synchronize(main_);
    gpu::synchronize(edge_stream_);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    last_ = result.iterations;
    return result;
  }

  std::vector<double> tile() override {
    std::vector<double> grid(initial_.size());
    gpu::copy_to_host(grid.data(), grids_[last_ % 2]->as<double>(), grid.size() * sizeof(double));
    return interior_of(layout_, grid);
  }

  int device() const override { return gpu_.device; }
  launch_shape shape() const override { return {blocks_for(full_.points(), threads_), threads_, ""}; }

 private:
  bool exchanges(const run_request& request) const {
    if (!request.what.comm) return false;
    return std::any_of(dec_.neighbour.begin(), dec_.neighbour.end(), [](int pe) { return pe >= 0; });
  }

  // Launches the update of `rects`; block maxima from slot `first_slot` on when the residual is due.
  void launch(const rect_list& rects, const double* src, double* dst, bool residual, std::int64_t first_slot,
              bool compute, gpu::stream_t stream) {
    if (rects.count == 0) return;
    const std::int64_t blocks = blocks_for(rects.points(), threads_);
    double* maxima = residual ? block_max_->as<double>() + first_slot : nullptr;
    const std::size_t shared = residual ? threads_ * sizeof(double) : 0;
    relax_rects<<<static_cast<unsigned>(blocks), threads_, shared, stream>>>(
        layout_, src, dst, rects, maxima, edge_[west] ? edge_[west]->as<double>() : nullptr,
        edge_[east] ? edge_[east]->as<double>() : nullptr, compute ? 1 : 0);
    gpu::check_launch("relax_rects");
  }

  // The edges of dst to pinned host memory, on `stream`.
  void edges_to_host(const double* dst, gpu::stream_t stream) {
    for (int s = 0; s < side_count; ++s) {
      if (dec_.neighbour[s] < 0) continue;
      const std::size_t bytes = static_cast<std::size_t>(halo_length(layout_, s)) * sizeof(double);
      const double* from = s == north ? dst + layout_.at(0, 0)
                         : s == south ? dst + layout_.at(0, layout_.ny - 1)
                                      : edge_[s]->as<double>();
      gpu::copy_to_host_async(host_send_[s]->as<double>(), from, bytes, stream);
    }
  }

  // MPI, then the received halos into dst's ring, on `stream`.
  void exchange_and_place(double* dst, gpu::stream_t stream) {
    halo_buffers buffers;
    for (int s = 0; s < side_count; ++s) {
      if (dec_.neighbour[s] < 0) continue;
      buffers.send[s] = host_send_[s]->as<double>();
      buffers.receive[s] = host_receive_[s]->as<double>();
    }
    exchange_halos(comm_, dec_, layout_, buffers);
    for (int s = 0; s < side_count; ++s) {
      if (dec_.neighbour[s] < 0) continue;
      const std::size_t bytes = static_cast<std::size_t>(halo_length(layout_, s)) * sizeof(double);
      double* to = s == north ? dst + layout_.at(0, -1) : s == south ? dst + layout_.at(0, layout_.ny) : ring_[s]->as<double>();
      gpu::copy_to_device_async(to, buffers.receive[s], bytes, stream);
    }
    if (ring_[west] || ring_[east]) {
      columns_into_ring<<<static_cast<unsigned>(blocks_for(layout_.ny, threads_)), threads_, 0, stream>>>(
          layout_, dst, ring_[west] ? ring_[west]->as<double>() : nullptr, ring_[east] ? ring_[east]->as<double>() : nullptr);
      gpu::check_launch("columns_into_ring");
    }
  }

  // The largest of `count` block maxima from slot `first`, copied on `stream` (synchronised later).
  void maxima_to_host(std::int64_t first, std::int64_t count, gpu::stream_t stream) {
    if (count > 0)
      gpu::copy_to_host_async(host_block_max_->as<double>() + first, block_max_->as<double>() + first,
                              static_cast<std::size_t>(count) * sizeof(double), stream);
  }
  double host_maximum(std::int64_t count) const {
    const double* m = host_block_max_->as<double>();
    double largest = 0;
    for (std::int64_t i = 0; i < count; ++i) largest = max_of(largest, m[i]);
    return largest;
  }

  // Iteration t; returns this PE's largest change when the residual is due.
  double iterate(std::int64_t t, const run_request& request) {
    const double* src = grids_[(t - 1) % 2]->as<double>();
    double* dst = grids_[t % 2]->as<double>();
    const bool residual = request.plan.residual_due(t);
    const bool compute = request.what.compute, exchange = exchanges(request);
    if (!overlap_) {
      launch(full_, src, dst, residual, 0, compute, main_);
      if (exchange) edges_to_host(dst, main_);
      if (residual) maxima_to_host(0, blocks_for(full_.points(), threads_), main_);
      gpu::synchronize(main_);  // the host waits for the kernel: the kernel boundary of Inter-K
      if (exchange) exchange_and_place(dst, main_);  // ordered before the next iteration's kernel
      return residual ? host_maximum(blocks_for(full_.points(), threads_)) : 0;
    }
    const std::int64_t boundary_blocks = blocks_for(boundary_.points(), threads_);
    const std::int64_t interior_blocks = blocks_for(interior_.points(), threads_);
    launch(boundary_, src, dst, residual, 0, compute, edge_stream_);
    if (exchange) edges_to_host(dst, edge_stream_);
    launch(interior_, src, dst, residual, boundary_blocks, compute, main_);
    if (residual) {
      maxima_to_host(0, boundary_blocks, edge_stream_);
      maxima_to_host(boundary_blocks, interior_blocks, main_);
    }
    gpu::synchronize(edge_stream_);
    if (exchange) exchange_and_place(dst, edge_stream_);  // while the interior kernel runs
    gpu::synchronize(edge_stream_);
    gpu::synchronize(main_);
    return residual ? host_maximum(boundary_blocks + interior_blocks) : 0;
  }

  decomposition dec_;
  MPI_Comm comm_;
  bool overlap_;
  tile_layout layout_;
  gpu_choice gpu_;
  unsigned threads_;
  rect_list full_, interior_, boundary_;
  std::int64_t block_slots_;
  std::array<std::unique_ptr<device_buffer>, 2> grids_;
  std::array<std::unique_ptr<device_buffer>, side_count> edge_, ring_;  // W/E only: packed edges, received columns
  std::array<std::unique_ptr<pinned_buffer>, side_count> host_send_, host_receive_;
  std::unique_ptr<device_buffer> block_max_;
  std::unique_ptr<pinned_buffer> host_block_max_;
  gpu::stream_t main_{}, edge_stream_{};
  std::vector<double> initial_;
  std::int64_t last_ = 0;
};

}  // namespace

std::unique_ptr<solver> make_inter_k_solver(const solver_setup& setup) {
  return std::make_unique<inter_k_solver>(setup, false);
}
std::unique_ptr<solver> make_inter_k_overlap_solver(const solver_setup& setup) {
  return std::make_unique<inter_k_solver>(setup, true);
}

}  // namespace jacobi
