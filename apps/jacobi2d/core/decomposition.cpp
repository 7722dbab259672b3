#include "core/decomposition.hpp"

#include <cstdlib>
#include <tuple>

namespace jacobi {

std::string to_string(pe_grid grid) { return std::to_string(grid.px) + "x" + std::to_string(grid.py); }
std::string to_string(extent e) { return std::to_string(e.nx) + "x" + std::to_string(e.ny); }

namespace {
bool divides(extent global, pe_grid grid) { return global.nx % grid.px == 0 && global.ny % grid.py == 0; }
}  // namespace

pe_grid_choice choose_pe_grid(int n_pes, extent global) {
  if (n_pes < 1) return {{0, 0}, "no PEs"};
  if (static_cast<std::int64_t>(n_pes) > global.nx * global.ny)
    return {{0, 0}, "too many PEs: " + std::to_string(n_pes) + " PEs for a " + to_string(global) +
                        " grid (each PE needs at least one point)"};
  bool found = false;
  pe_grid best{0, 0};
  std::tuple<std::int64_t, int, int> best_cost{};
  for (int px = 1; px <= n_pes; ++px) {
    if (n_pes % px) continue;
    const pe_grid grid{px, n_pes / px};
    if (!divides(global, grid)) continue;
    const std::int64_t halo = (grid.px - 1) * global.ny + (grid.py - 1) * global.nx;
    const std::tuple<std::int64_t, int, int> cost{halo, std::abs(grid.px - grid.py), -grid.px};
    if (!found || cost < best_cost) {
      found = true;
      best = grid;
      best_cost = cost;
    }
  }
  if (!found)
    return {{0, 0}, "no PE grid of " + std::to_string(n_pes) + " PEs divides the " + to_string(global) +
                        " grid into equal tiles (px x py = " + std::to_string(n_pes) +
                        " with px dividing " + std::to_string(global.nx) + " and py dividing " +
                        std::to_string(global.ny) + "); change --size or the number of PEs"};
  return {best, ""};
}

std::string check_pe_grid(int n_pes, extent global, pe_grid grid) {
  if (static_cast<std::int64_t>(grid.px) * grid.py != n_pes)
    return "--pe-grid " + to_string(grid) + " has " + std::to_string(std::int64_t(grid.px) * grid.py) +
           " PEs, but the job has " + std::to_string(n_pes);
  if (!divides(global, grid))
    return "the " + to_string(global) + " grid does not divide over a " + to_string(grid) +
           " PE grid (equal tiles need " + std::to_string(global.nx) + " % " + std::to_string(grid.px) + " == 0 and " +
           std::to_string(global.ny) + " % " + std::to_string(grid.py) + " == 0)";
  return "";
}

decomposition decompose(extent global, pe_grid grid, int pe) {
  decomposition d{};
  d.global = global;
  d.grid = grid;
  d.pe = pe;
  d.pe_x = pe % grid.px;
  d.pe_y = pe / grid.px;
  d.tile = {global.nx / grid.px, global.ny / grid.py};
  d.x0 = d.pe_x * d.tile.nx;
  d.y0 = d.pe_y * d.tile.ny;
  d.neighbour[north] = d.pe_y > 0 ? pe - grid.px : -1;
  d.neighbour[south] = d.pe_y + 1 < grid.py ? pe + grid.px : -1;
  d.neighbour[west] = d.pe_x > 0 ? pe - 1 : -1;
  d.neighbour[east] = d.pe_x + 1 < grid.px ? pe + 1 : -1;
  return d;
}

wg_tiling_choice choose_wg_tiling(extent tile, std::int64_t max_wgs, std::int64_t max_rows) {
  bool found = false;
  wg_tiling best{};
  std::tuple<std::int64_t, std::int64_t, std::int64_t> best_cost{};
  // Widths: 32, 64, ... up to the first that covers the tile (which is then the tile's width).
  for (std::int64_t width = 32;; width += 32) {
    const std::int64_t tx = width < tile.nx ? width : tile.nx;
    const std::int64_t wx = (tile.nx + tx - 1) / tx;
    if (wx <= max_wgs) {
      const std::int64_t rows_of_wgs = max_wgs / wx;
      const std::int64_t ty = (tile.ny + rows_of_wgs - 1) / rows_of_wgs;
      const std::int64_t wy = (tile.ny + ty - 1) / ty;
      const std::tuple<std::int64_t, std::int64_t, std::int64_t> cost{tx * ty, tx + ty, wx * wy};
      if (ty <= max_rows && (!found || cost < best_cost)) {
        found = true;
        best = {static_cast<std::int32_t>(wx), static_cast<std::int32_t>(wy), tx, ty};
        best_cost = cost;
      }
    }
    if (tx == tile.nx) break;
  }
  if (!found)
    return {{}, "a " + to_string(tile) + " tile per PE does not fit " + std::to_string(max_wgs) +
                    " co-resident workgroups of at most " + std::to_string(max_rows) +
                    " rows each; use more PEs or a smaller grid"};
  return {best, ""};
}

}  // namespace jacobi
