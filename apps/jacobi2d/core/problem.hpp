// The problem every variant solves: Laplace's equation on the global grid by Jacobi relaxation from
// u_0, with fixed (Dirichlet) values on the ring around the grid.
//   u_0 inside: a pseudo-random value in [0, 1) hashed from the point's global coordinates, so the
//               start has no symmetry: a halo from the wrong side, row or iteration changes the
//               result at once, and every PE boundary carries data from the first iteration on.
//   boundary:   1 along the north edge (y = -1), 0 along the south edge, 0.5 along the east edge,
//               and rising from 0 to 1 down the west edge.
#pragma once
#include <cstdint>
#include <vector>

#include "core/decomposition.hpp"
#include "core/grid.hpp"

namespace jacobi {

// u_0 at global point (x, y), x in [-1, nx], y in [-1, ny] (the ring holds the boundary values).
double initial_value(extent global, std::int64_t x, std::int64_t y);

// A PE's tile at iteration 0 in `layout` (tile and ring; padding is 0): the ring holds the global
// boundary or, across a PE boundary, the neighbour's first row/column of u_0, so the first
// iteration needs no exchange.
std::vector<double> initial_tile(const decomposition& d, const tile_layout& layout);

}  // namespace jacobi
