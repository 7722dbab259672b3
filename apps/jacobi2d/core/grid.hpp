// The Jacobi problem as both compilers see it, host and device: the sides of a tile, the memory
// layout of one PE's tile with its ring of ghost points, the point update, the residual schedule
// and the workgroup tiling of the persistent kernel. Plain C++ with GIO_HOST_DEVICE_INLINE, so
// the GPU kernels and the CPU variant and reference compute with the very same expressions.
#pragma once
#include <cstdint>

#include "gio/platform/host_device.hpp"

namespace jacobi {

// Sides of a tile: north is the row before (y - 1), south the row after (y + 1), west the column
// before (x - 1), east the column after (x + 1).
enum side : int { north = 0, south = 1, west = 2, east = 3 };
inline constexpr int side_count = 4;
GIO_HOST_DEVICE_INLINE int opposite(int s) { return s ^ 1; }
GIO_HOST_DEVICE_INLINE bool is_row_side(int s) { return s == north || s == south; }

// One PE's tile of nx x ny points and its ring of ghost points (x = -1 and nx, y = -1 and ny):
// global boundary values, or the neighbours' edges (halos). Rows are `pitch` elements apart;
// each row's point x = 0 sits at a multiple of 32 elements (256 bytes), so that the accesses of
// a warp to a row are aligned (x = -1 is the element before).
struct tile_layout {
  std::int64_t nx, ny, pitch;

  static constexpr std::int64_t row_shift = 32;
  GIO_HOST_DEVICE_INLINE std::int64_t at(std::int64_t x, std::int64_t y) const { return (y + 1) * pitch + row_shift + x; }
  GIO_HOST_DEVICE_INLINE std::int64_t elements() const { return (ny + 2) * pitch; }
};

// The points of the workgroup tile at (x0, y0), `width` columns wide and `points` points in all,
// that thread `me` of `threads` relaxes: the tile's k-th point in row-major order for k = me,
// me + threads, ... The element index advances by a fixed step, plus the gap to the next row when
// the column wraps. `batch` points at a time: for each whole batch, load(b, index) for every point
// b of it, then update(b, index, row, column) for each (row and column within the tile), so that
// all of a batch's loads can be in flight at once; the points left over go one at a time, as b = 0.
template <int batch, class Load, class Update>
GIO_HOST_DEVICE_INLINE void walk_tile(const tile_layout& l, std::int64_t x0, std::int64_t y0, std::int32_t width,
                                      std::int32_t points, std::int32_t me, std::int32_t threads, Load load,
                                      Update update) {
  static_assert(batch >= 1, "a batch has a point at least");
  const std::int32_t row_step = threads / width, column_step = threads % width;
  const std::int64_t index_step = row_step * l.pitch + column_step, row_gap = l.pitch - width;
  std::int32_t row = me / width, column = me % width;
  std::int64_t i = l.at(x0 + column, y0 + row);
  const auto advance = [&] {
    column += column_step;
    row += row_step;
    i += index_step;
    if (column >= width) {
      column -= width;
      ++row;
      i += row_gap;
    }
  };
  std::int32_t k = me;
  for (; k + (batch - 1) * threads < points; k += batch * threads) {
    std::int64_t at[batch];
    std::int32_t at_row[batch], at_column[batch];
    for (int b = 0; b < batch; ++b) {
      at[b] = i;
      at_row[b] = row;
      at_column[b] = column;
      advance();
    }
    for (int b = 0; b < batch; ++b) load(b, at[b]);
    for (int b = 0; b < batch; ++b) update(b, at[b], at_row[b], at_column[b]);
  }
  if constexpr (batch > 1) {
    for (; k < points; k += threads) {
      load(0, i);
      update(0, i, row, column);
      advance();
    }
  }
}

inline tile_layout make_layout(std::int64_t nx, std::int64_t ny) {
  const std::int64_t columns = tile_layout::row_shift + nx + 1;  // up to the east ghost column
  return {nx, ny, (columns + 31) / 32 * 32};
}

// One Jacobi update of the 5-point Laplace stencil: the mean of the four neighbours, added in this
// fixed order and scaled by 0.25 (exact). No product feeds an addition, so there is nothing a
// compiler could contract into an FMA; the build also turns contraction off for the app's sources
// (docs/jacobi2d.md). Every variant and the reference therefore get bit-identical values.
GIO_HOST_DEVICE_INLINE double relax(double n, double s, double w, double e) { return 0.25 * ((n + s) + (w + e)); }

// The residual is the largest change of any point in one iteration, max |u_t - u_{t-1}|: a max is
// exact and independent of the order of combination, so every variant and every reduction tree
// gives the same value bit for bit, and all variants stop at the same iteration.
GIO_HOST_DEVICE_INLINE double change(double updated, double old) {
  const double d = updated - old;
  return d < 0 ? -d : d;
}
GIO_HOST_DEVICE_INLINE double max_of(double a, double b) { return a < b ? b : a; }

// When the residual is reduced and when the relaxation stops. Fixed mode (tolerance < 0) runs
// max_iterations and reduces the residual once, after the last. Convergence mode also reduces it
// after every residual_every-th iteration and stops after the first whose residual is <= tolerance.
struct schedule {
  std::int64_t max_iterations;
  std::int64_t residual_every;  // 0: only after the last iteration
  double tolerance;

  GIO_HOST_DEVICE_INLINE bool convergence_mode() const { return tolerance >= 0; }
  GIO_HOST_DEVICE_INLINE bool residual_due(std::int64_t t) const {
    return t == max_iterations || (convergence_mode() && residual_every > 0 && t % residual_every == 0);
  }
  GIO_HOST_DEVICE_INLINE bool stops_at(double residual) const { return convergence_mode() && residual <= tolerance; }
};

// How the persistent kernel sends a halo (--halo): `signal` is one put-with-signal per segment of
// a side (rows straight from the tile, columns packed in shared memory first); `p` stores each
// halo point with shmem_p as soon as it is computed, then fences and sets the segment's flag;
// `early` is `signal` with the workgroup's remote-facing edges computed and sent first, the rest
// of its tile computed while they travel (rows then land in ghost rows, as columns do, since a
// halo may now arrive while the receiver still reads the ring: docs/jacobi2d.md).
enum class halo_transfer : std::int32_t { signal, p, early };

// The persistent kernel's split of a PE's tile into wx x wy workgroup tiles of tx x ty points
// (those in the last column or row may be smaller). Workgroup w covers column w % wx, row w / wx.
// Every PE uses the same tiling, so the workgroups facing each other across a PE boundary cover
// the same segment of it.
struct wg_tiling {
  std::int32_t wx, wy;
  std::int64_t tx, ty;
  GIO_HOST_DEVICE_INLINE std::int32_t count() const { return wx * wy; }
};

// Points a thread of the persistent kernel's update loop loads before it uses any (walk_tile's
// batch), 1 or 2 (--points-per-trip; at 3 or more the loop spills under the kernel's 64-register
// limit). Two is the default at every size: one H200, 1K^2 / 2K^2 / 4K^2, 1 point 9.55 / 36.05 /
// 105.09 us per iteration, 2 points 8.99 / 32.85 / 93.42 (docs/results.md, session 13).
inline constexpr std::int64_t max_points_per_trip = 2;

}  // namespace jacobi
