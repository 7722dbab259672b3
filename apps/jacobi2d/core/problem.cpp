#include "core/problem.hpp"

#include "support/mix64.hpp"

namespace jacobi {


double initial_value(extent global, std::int64_t x, std::int64_t y) {
  if (y < 0) return 1.0;
  if (y >= global.ny) return 0.0;
  if (x >= global.nx) return 0.5;
  if (x < 0) return double(y + 1) / double(global.ny + 1);
  const std::uint64_t index = static_cast<std::uint64_t>(y) * static_cast<std::uint64_t>(global.nx) + static_cast<std::uint64_t>(x);
  return double(support::mix64(index) >> 11) * 0x1.0p-53;  // 53 random bits: exactly representable
}

std::vector<double> initial_tile(const decomposition& d, const tile_layout& layout) {
  std::vector<double> grid(static_cast<std::size_t>(layout.elements()), 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t y = -1; y <= layout.ny; ++y)
    for (std::int64_t x = -1; x <= layout.nx; ++x)
      grid[static_cast<std::size_t>(layout.at(x, y))] = initial_value(d.global, d.x0 + x, d.y0 + y);
  return grid;
}

}  // namespace jacobi
