#include "core/host_relax.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

#include "core/problem.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace jacobi {

double sweep(const tile_layout& layout, const double* src, double* dst, bool residual) {
  double largest = 0;
#pragma omp parallel for schedule(static) reduction(max : largest)
  for (std::int64_t y = 0; y < layout.ny; ++y) {
    const double* in = src + layout.at(0, y);
    double* out = dst + layout.at(0, y);
    const std::int64_t pitch = layout.pitch;
    double row_largest = 0;
    for (std::int64_t x = 0; x < layout.nx; ++x) {
      const double u = relax(in[x - pitch], in[x + pitch], in[x - 1], in[x + 1]);
      out[x] = u;
      if (residual) row_largest = max_of(row_largest, change(u, in[x]));
    }
    largest = max_of(largest, row_largest);
  }
  return largest;
}

std::int64_t halo_length(const tile_layout& layout, int s) { return is_row_side(s) ? layout.nx : layout.ny; }

namespace {
// The first point of the tile's edge on side s (ring = false) or of the ring beyond it (true),
// and the step between its points.
struct line {
  std::int64_t first, step;
};
line side_line(const tile_layout& layout, int s, bool ring) {
  const std::int64_t outside = ring ? 1 : 0;
  switch (s) {
    case north: return {layout.at(0, -outside), 1};
    case south: return {layout.at(0, layout.ny - 1 + outside), 1};
    case west: return {layout.at(-outside, 0), layout.pitch};
    default: return {layout.at(layout.nx - 1 + outside, 0), layout.pitch};
  }
}
}  // namespace

void copy_edge(const tile_layout& layout, const double* grid, int s, double* out) {
  const line l = side_line(layout, s, false);
  for (std::int64_t i = 0; i < halo_length(layout, s); ++i) out[i] = grid[l.first + i * l.step];
}

void copy_into_ring(const tile_layout& layout, double* grid, int s, const double* in) {
  const line l = side_line(layout, s, true);
  for (std::int64_t i = 0; i < halo_length(layout, s); ++i) grid[l.first + i * l.step] = in[i];
}

void exchange_halos(MPI_Comm comm, const decomposition& d, const tile_layout& layout, const halo_buffers& buffers) {
  MPI_Request requests[2 * side_count];
  int pending = 0;
  for (int s = 0; s < side_count; ++s) {
    if (d.neighbour[s] < 0) continue;
    const int count = static_cast<int>(halo_length(layout, s));
    MPI_Irecv(buffers.receive[s], count, MPI_DOUBLE, d.neighbour[s], s, comm, &requests[pending++]);
    // It arrives on the neighbour's opposite side, and is tagged so.
    MPI_Isend(buffers.send[s], count, MPI_DOUBLE, d.neighbour[s], opposite(s), comm, &requests[pending++]);
  }
  MPI_Waitall(pending, requests, MPI_STATUSES_IGNORE);
}

run_result relax_on_host(const decomposition& d, const tile_layout& layout, std::array<std::vector<double>, 2>& grids,
                         const run_request& request, MPI_Comm comm) {
  const schedule& plan = request.plan;
  std::array<std::vector<double>, side_count> send, receive;
  halo_buffers buffers;
  for (int s = 0; s < side_count; ++s) {
    send[s].resize(static_cast<std::size_t>(halo_length(layout, s)));
    receive[s].resize(send[s].size());
    buffers.send[s] = send[s].data();
    buffers.receive[s] = receive[s].data();
  }
  const bool exchange = comm != MPI_COMM_NULL && request.what.comm;
  if (comm != MPI_COMM_NULL) MPI_Barrier(comm);
  const auto start = std::chrono::steady_clock::now();
  run_result result;
  for (std::int64_t t = 1; t <= plan.max_iterations; ++t) {
    const double* src = grids[(t - 1) % 2].data();
    double* dst = grids[t % 2].data();
    const bool residual_due = plan.residual_due(t);
    const double local = request.what.compute ? sweep(layout, src, dst, residual_due) : 0.0;
    if (exchange) {
      for (int s = 0; s < side_count; ++s)
        if (d.neighbour[s] >= 0) copy_edge(layout, dst, s, buffers.send[s]);
      exchange_halos(comm, d, layout, buffers);
      for (int s = 0; s < side_count; ++s)
        if (d.neighbour[s] >= 0) copy_into_ring(layout, dst, s, buffers.receive[s]);
    }
    if (request.progress) request.progress(t);
    if (!residual_due) continue;
    double global = local;
    if (comm != MPI_COMM_NULL) MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
    result = {t, global, plan.stops_at(global), 0};
    if (result.converged) break;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

reference_solution solve_reference(extent global, const schedule& plan,
                                   const std::function<void(std::int64_t)>& progress) {
  const decomposition whole = decompose(global, {1, 1}, 0);
  const tile_layout layout = make_layout(global.nx, global.ny);
  std::array<std::vector<double>, 2> grids{initial_tile(whole, layout), {}};
  grids[1] = grids[0];
  const run_result r = relax_on_host(whole, layout, grids, {plan, {}, progress}, MPI_COMM_NULL);
  return {interior_of(layout, grids[r.iterations % 2]), r.iterations, r.residual, r.converged};
}

std::vector<double> interior_of(const tile_layout& layout, const std::vector<double>& grid) {
  std::vector<double> out(static_cast<std::size_t>(layout.nx * layout.ny));
  for (std::int64_t y = 0; y < layout.ny; ++y)
    std::memcpy(out.data() + y * layout.nx, grid.data() + layout.at(0, y), sizeof(double) * layout.nx);
  return out;
}

std::vector<double> assemble(extent global, pe_grid grid, const std::vector<double>& tiles) {
  std::vector<double> out(static_cast<std::size_t>(global.nx * global.ny));
  const extent tile{global.nx / grid.px, global.ny / grid.py};
  const std::int64_t tile_points = tile.nx * tile.ny;
  for (int pe = 0; pe < grid.px * grid.py; ++pe) {
    const decomposition d = decompose(global, grid, pe);
    for (std::int64_t y = 0; y < tile.ny; ++y)
      std::memcpy(out.data() + (d.y0 + y) * global.nx + d.x0, tiles.data() + pe * tile_points + y * tile.nx,
                  sizeof(double) * tile.nx);
  }
  return out;
}

std::string compare_bitwise(extent global, const std::vector<double>& got, const std::vector<double>& expected) {
  if (got.size() != expected.size())
    return "the grid has " + std::to_string(got.size()) + " points, the reference " + std::to_string(expected.size());
  std::int64_t differing = 0, first = -1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &expected[i], sizeof(double)) == 0) continue;
    if (differing++ == 0) first = static_cast<std::int64_t>(i);
  }
  if (differing == 0) return "";
  char values[96];
  std::snprintf(values, sizeof values, "%.17g, the reference %.17g", got[first], expected[first]);
  return std::to_string(differing) + " of " + std::to_string(got.size()) + " points differ from the reference; the first at (" +
         std::to_string(first % global.nx) + ", " + std::to_string(first / global.nx) + ") holds " + values;
}

void set_host_threads(std::int64_t threads) {
#ifdef _OPENMP
  if (threads > 0) omp_set_num_threads(static_cast<int>(threads));
#else
  (void)threads;
#endif
}

int host_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace jacobi
