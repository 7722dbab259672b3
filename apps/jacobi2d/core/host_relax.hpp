// Relaxation on the host: the sweep (OpenMP over rows), the halos' way through MPI, the whole
// relaxation loop of the cpu variant, and the single-PE reference that every variant's --check
// compares with (the same loop on one PE holding the whole grid).
#pragma once
#include <mpi.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/decomposition.hpp"
#include "core/grid.hpp"
#include "core/solver.hpp"

namespace jacobi {

// One iteration over the whole tile: dst = relax(src) at every point. Returns the largest change
// (the residual's local part) when `residual`, else 0.
double sweep(const tile_layout& layout, const double* src, double* dst, bool residual);

// The points a side's halo has: a row (north, south) or a column (west, east).
std::int64_t halo_length(const tile_layout& layout, int s);
// The tile's own points along side `s` (row 0, row ny-1, column 0, column nx-1), to `out`.
void copy_edge(const tile_layout& layout, const double* grid, int s, double* out);
// A neighbour's halo into the ring on side `s` (row -1, row ny, column -1, column nx).
void copy_into_ring(const tile_layout& layout, double* grid, int s, const double* in);

// One buffer per side: what leaves through it, and where the neighbour's halo arrives.
struct halo_buffers {
  std::array<double*, side_count> send{};
  std::array<double*, side_count> receive{};
};
// Sends and receives every side that has a neighbour (non-blocking, then waits for all). The
// message from the neighbour across side s is tagged s, so a neighbour that is the same PE on two
// sides (a 2-PE periodic grid would be) still cannot mix them up.
void exchange_halos(MPI_Comm comm, const decomposition& d, const tile_layout& layout, const halo_buffers& buffers);

// The relaxation loop on the host: grids[0] holds u_0 (tile and ring, both grids the same ring);
// iteration t writes grids[t % 2]. With a communicator, halos move through MPI and the residual
// is reduced with MPI_Allreduce; MPI_COMM_NULL means one PE and no messages.
run_result relax_on_host(const decomposition& d, const tile_layout& layout, std::array<std::vector<double>, 2>& grids,
                         const run_request& request, MPI_Comm comm);

// The single-PE reference: the global grid after the relaxation `plan` asks for.
struct reference_solution {
  std::vector<double> grid;  // global nx * ny values, row by row
  std::int64_t iterations;
  double residual;
  bool converged;
};
reference_solution solve_reference(extent global, const schedule& plan,
                                   const std::function<void(std::int64_t)>& progress = {});

// The interior of a tile (nx * ny values, row by row) out of its layout.
std::vector<double> interior_of(const tile_layout& layout, const std::vector<double>& grid);
// Places the PEs' tiles (in PE order, each nx * ny row by row) into the global grid.
std::vector<double> assemble(extent global, pe_grid grid, const std::vector<double>& tiles);

// Bitwise comparison of two global grids: "" when identical, else how many points differ and the
// first one, with both values.
std::string compare_bitwise(extent global, const std::vector<double>& got, const std::vector<double>& expected);

// OpenMP threads for the sweep (0: leave OpenMP's default); the count in use.
void set_host_threads(std::int64_t threads);
int host_threads();

}  // namespace jacobi
