// How the global grid is split: over the PEs (a px x py PE grid, GIO §6.3's 2D decomposition, equal
// tiles) and, inside one PE, over the persistent kernel's workgroups. Plain C++: the CPU variant,
// the GPU variants and the tests use it alike. Functions that can refuse their input return an
// error text (empty when fine) for the caller to report on every PE.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "core/grid.hpp"

namespace jacobi {

struct extent {
  std::int64_t nx, ny;
};
struct pe_grid {
  int px, py;
};

struct decomposition {
  extent global;
  pe_grid grid;
  int pe, pe_x, pe_y;                    // pe = pe_y * px + pe_x
  std::int64_t x0, y0;                   // this PE's first point in the global grid
  extent tile;                           // its points: global / grid
  std::array<int, side_count> neighbour; // the PE across each side, -1 on the global boundary
};

struct pe_grid_choice {
  pe_grid grid;
  std::string error;
};

// The PE grid px x py = n_pes whose equal tiles divide the global grid, with the fewest halo
// points per iteration ((px - 1) * ny + (py - 1) * nx); ties go to the squarer PE grid, then to
// more PEs along x. Errors: too many PEs for the grid, or no such factorisation.
pe_grid_choice choose_pe_grid(int n_pes, extent global);
// An explicit PE grid (--pe-grid): its product must be n_pes and it must divide the grid.
std::string check_pe_grid(int n_pes, extent global, pe_grid grid);
// PE `pe`'s part of the grid (the grid must have been accepted).
decomposition decompose(extent global, pe_grid grid, int pe);

struct wg_tiling_choice {
  wg_tiling tiling;
  std::string error;
};

// The persistent kernel's tiling of one PE's tile with at most max_wgs workgroups whose tiles
// have at most max_rows rows (the W/E halo segment a workgroup stages in shared memory). Tile
// widths are multiples of 32 points (whole warps' aligned accesses) unless the tile is narrower.
// Chooses the smallest largest-tile (the critical path), then the smallest tile perimeter (halo
// and neighbour traffic), then the fewest workgroups.
wg_tiling_choice choose_wg_tiling(extent tile, std::int64_t max_wgs, std::int64_t max_rows);

// "2x1"
std::string to_string(pe_grid grid);
std::string to_string(extent e);

}  // namespace jacobi
