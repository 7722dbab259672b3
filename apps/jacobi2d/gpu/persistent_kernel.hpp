// The gio and nvshmem variants' device code: one persistent kernel runs the whole relaxation
// (GIO paper §6.3). One source, templated on a comm shim (support/shim_gio.hpp, shim_nvshmem.hpp,
// extended in comm_gio.hpp / comm_nvshmem.hpp), so both libraries run the very same loop.
//
// Each workgroup owns a tile of the PE's tile (wg_tiling) for the whole run. Iteration t reads
// grid[(t-1) % 2] and writes grid[t % 2]; what it reads from others was written in iteration t-1:
//   - neighbouring workgroups' edges: a workgroup publishes "iteration t done" in its own flag
//     (`done`, release at device scope) and waits only for its up to four neighbours' flags, not
//     for a barrier of the whole grid. Waiting for t-1 also covers the reuse of grid[t % 2]: the
//     neighbours have finished reading it in iteration t-1.
//   - halos from neighbour PEs: the workgroups on the tile's edge send their edge segment after
//     computing it, into the neighbour's ring of grid[t % 2] (rows; columns via the ghost column
//     buffer of that parity), and set the segment's signal word to t. The receiver waits for a
//     value >= t-1. Grid parity double-buffers the halos, and since a PE can be at most one
//     iteration ahead of its neighbour (it needs the neighbour's previous halo), neither a
//     halo nor a signal needs any other flow control, and signals never need resetting within
//     a run.
// So interior workgroups never wait for the network, and edge workgroups' sends overlap the
// interior's compute: the overlap that Inter-K needs two streams and MPI for.
//
// The residual (convergence mode: every K-th iteration and the last; fixed mode: the last):
// each workgroup leaves its largest change in a slot, workgroup 0 waits for every `done` flag
// of t, reduces the slots and then, with one workgroup per PE, the PEs' values (the library's
// max reduction), and publishes the verdict for t. The others read it before starting t + 2:
// they compute t + 1 meanwhile, into the other grid, so the reduction's latency is hidden and a
// stop at t still leaves grid[t % 2] intact. Slots and verdicts are double-buffered by parity.
//
// What a comm shim must provide beyond bench/kernels.hpp's list: p_double, wait_until_ge and
// max_reduce_wg (docs/jacobi2d.md).
#pragma once
#include <cstdint>
#include <cstdio>

#include "core/grid.hpp"
#include "core/options.hpp"
#include "gio/platform/platform.hpp"
#include "gio/platform/strong.hpp"
#include "gpu/device_common.hpp"

namespace jacobi {

// Flags and signal words of different workgroups sit in different 128-byte lines.
inline constexpr std::int64_t flag_stride = 128 / sizeof(std::uint64_t);
// Rows of a workgroup tile at most: its W/E halo segments are staged in shared memory.
inline constexpr std::int64_t max_tile_rows = 2048;

struct run_outcome {
  std::int64_t iterations;  // 0 until workgroup 0 decides
  double residual;
  std::int32_t converged;
};

struct persistent_args {
  tile_layout layout;
  wg_tiling tiling;
  schedule plan;
  halo_transfer transfer;
  std::int32_t compute, comm;     // the parts that run (--no-compute, --no-comm)
  std::int32_t my_pe;
  std::int32_t neighbour_pe[side_count];  // -1 on the global boundary
  std::int32_t segments;          // signal words per side: max(wx, wy)
  std::int32_t points_per_trip;   // the update loop's batch: 1 or 2 (max_points_per_trip)
  std::uint64_t wait_timeout_ns;  // 0: wait forever
  // Symmetric (the same offsets on every PE):
  double* grid[2];
  double* ghost_columns;          // [parity][west, east][ny]: W/E halos of the signal transfer
  double* ghost_rows;             // [parity][north, south][nx]: N/S halos of the early transfer
  std::uint64_t* signals;         // [side][segment], flag_stride apart: last iteration received
  double* reduce_source;          // one double each: the PEs' residual reduction
  double* reduce_dest;
  // This PE's (in the same allocation, but no peer touches them):
  std::uint64_t* done;            // [workgroup], flag_stride apart: last iteration finished
  double* residual_slots;         // [parity][workgroup]
  std::uint64_t* decided;         // last iteration whose global residual is in `decisions`
  double* decisions;              // [parity]
  run_outcome* outcome;
  std::uint64_t* progress;        // host-mapped: iterations workgroup 0 finished (for the progress line)
};

// What a workgroup covers and who is around it.
struct workgroup_view {
  std::int32_t id;
  std::int64_t x0, x1, y0, y1;                 // its points [x0, x1) x [y0, y1) of the PE's tile
  std::int32_t segment[side_count];            // its index along each side of the tile
  std::int32_t local_neighbour[side_count];    // workgroup across each side, or -1
  std::int32_t remote_pe[side_count];          // PE across each side if this workgroup is on that edge, or -1
};

GIO_DEVICE workgroup_view view_of(const persistent_args& a, std::int32_t id) {
  const wg_tiling& k = a.tiling;
  const std::int32_t gx = id % k.wx, gy = id / k.wx;
  workgroup_view v{};
  v.id = id;
  v.x0 = gx * k.tx;
  v.x1 = v.x0 + k.tx < a.layout.nx ? v.x0 + k.tx : a.layout.nx;
  v.y0 = gy * k.ty;
  v.y1 = v.y0 + k.ty < a.layout.ny ? v.y0 + k.ty : a.layout.ny;
  v.segment[north] = v.segment[south] = gx;
  v.segment[west] = v.segment[east] = gy;
  v.local_neighbour[north] = gy > 0 ? id - k.wx : -1;
  v.local_neighbour[south] = gy + 1 < k.wy ? id + k.wx : -1;
  v.local_neighbour[west] = gx > 0 ? id - 1 : -1;
  v.local_neighbour[east] = gx + 1 < k.wx ? id + 1 : -1;
  v.remote_pe[north] = gy == 0 ? a.neighbour_pe[north] : -1;
  v.remote_pe[south] = gy + 1 == k.wy ? a.neighbour_pe[south] : -1;
  v.remote_pe[west] = gx == 0 ? a.neighbour_pe[west] : -1;
  v.remote_pe[east] = gx + 1 == k.wx ? a.neighbour_pe[east] : -1;
  return v;
}

GIO_DEVICE std::uint64_t* signal_word(const persistent_args& a, int s, std::int32_t segment) {
  return a.signals + (std::int64_t(s) * a.segments + segment) * flag_stride;
}
// Ghost column of side s (west or east) for the grid of `parity`.
GIO_DEVICE double* ghost_column(const persistent_args& a, std::int64_t parity, int s) {
  return a.ghost_columns + (parity * 2 + (s == east ? 1 : 0)) * a.layout.ny;
}

// Ghost row of side s (north or south) for the grid of `parity` (early transfer).
GIO_DEVICE double* ghost_row(const persistent_args& a, std::int64_t parity, int s) {
  return a.ghost_rows + (parity * 2 + (s == south ? 1 : 0)) * a.layout.nx;
}

GIO_DEVICE const char* side_name(int s) {
  switch (s) {
    case north: return "north";
    case south: return "south";
    case west: return "west";
    default: return "east";
  }
}

// Polls *flag with relaxed loads until it reaches `value` (no cache invalidation while polling;
// the caller acquires afterwards). After the timeout it prints what it waited for (across side
// `s`, if s >= 0) and traps, which fails the kernel: the host then names the PE and ends the job.
GIO_DEVICE void spin_until_at_least(const persistent_args& a, const std::uint64_t* flag, std::uint64_t value,
                                    const char* what, int s, std::int64_t t) {
  if (platform::ld_relaxed_sys(flag) >= value) return;
  const std::uint64_t start = platform::timer_ns();
  for (unsigned polls = 1;; ++polls) {
    const std::uint64_t seen = platform::ld_relaxed_sys(flag);
    if (seen >= value) return;
    if (a.wait_timeout_ns != 0 && polls % 1024 == 0 && platform::timer_ns() - start > a.wait_timeout_ns) {
      printf("jacobi2d: PE %d: workgroup %u waited %.1f s in iteration %lld for %s%s%s%s: saw %llu, needs %llu\n",
                  a.my_pe, platform::wg_id(), double(platform::timer_ns() - start) * 1e-9, static_cast<long long>(t),
                  what, s >= 0 ? " across its " : "", s >= 0 ? side_name(s) : "", s >= 0 ? " side" : "",
                  static_cast<unsigned long long>(seen), static_cast<unsigned long long>(value));
      platform::trap();
    }
  }
}

// The halo points a workgroup sends with shmem_p (`p` transfer): each lands in the neighbour's
// ring of the same grid (the neighbour reads it in the next iteration).
template <class Comm>
GIO_DEVICE void send_point(const persistent_args& a, const typename Comm::ctx& c, const workgroup_view& v, double* grid,
                           std::int64_t x, std::int64_t y, double value) {
  const tile_layout& l = a.layout;
  if (y == 0 && v.remote_pe[north] >= 0) Comm::p_double(c, grid + l.at(x, l.ny), value, v.remote_pe[north]);
  if (y == l.ny - 1 && v.remote_pe[south] >= 0) Comm::p_double(c, grid + l.at(x, -1), value, v.remote_pe[south]);
  if (x == 0 && v.remote_pe[west] >= 0) Comm::p_double(c, grid + l.at(l.nx, y), value, v.remote_pe[west]);
  if (x == l.nx - 1 && v.remote_pe[east] >= 0) Comm::p_double(c, grid + l.at(-1, y), value, v.remote_pe[east]);
}

// One iteration over the workgroup's tile; returns this thread's largest change when `residual`.
// The thread's points go `Batch` at a time (walk_tile, core/grid.hpp; a.points_per_trip picks
// the instance), all their loads issued before any is used: the kernel holds half the threads a
// multiprocessor can (1024 at its 64 registers a thread: two workgroups of the default 512), and
// with one point per trip on a large tile a warp waited one memory round trip per point, so the
// loop ran at about half the bandwidth of Inter-K's one-shot kernel (docs/results.md, jacobi2d).
// The `p` transfer's loop (a library call per edge point) takes one. Not inlined, so that its
// registers are its own: the kernel around it needs many more (context, library calls), and the
// update loop must not pay for them with spills. `static` (internal linkage) so that ptxas gives
// it the kernel's register limit also when NVSHMEM's build compiles with -rdc.
// A rectangle of the PE's tile: the workgroup's tile, or (early transfer) an edge strip of it or
// what is left inside the strips.
struct tile_rect {
  std::int64_t x0, y0;
  std::int32_t width, rows;
};
GIO_DEVICE tile_rect whole_tile(const workgroup_view& v) {
  return {v.x0, v.y0, static_cast<std::int32_t>(v.x1 - v.x0), static_cast<std::int32_t>(v.y1 - v.y0)};
}

template <class Comm, bool SendPoints, int Batch>
static __device__ __noinline__ double relax_tile(const persistent_args& a, const typename Comm::ctx& c, const workgroup_view& v,
                             const double* src, double* dst, bool residual, tile_rect r) {
  static_assert(Batch >= 1 && Batch <= max_points_per_trip && (!SendPoints || Batch == 1), "see max_points_per_trip");
  const std::int64_t pitch = a.layout.pitch;
  const std::int32_t width = r.width;
  const std::int32_t points = width * r.rows;
  if (points <= 0) return 0;
  double n[Batch], s[Batch], w[Batch], e[Batch], old[Batch];
  double largest = 0;
  walk_tile<Batch>(
      a.layout, r.x0, r.y0, width, points, static_cast<std::int32_t>(platform::thread_in_wg()),
      static_cast<std::int32_t>(platform::wg_size()),
      [&](int b, std::int64_t i) {
        n[b] = src[i - pitch];
        s[b] = src[i + pitch];
        w[b] = src[i - 1];
        e[b] = src[i + 1];
        old[b] = residual ? src[i] : 0.0;
      },
      [&](int b, std::int64_t i, std::int32_t row, std::int32_t column) {
        const double u = relax(n[b], s[b], w[b], e[b]);
        dst[i] = u;
        if (residual) largest = max_of(largest, change(u, old[b]));
        if constexpr (SendPoints) send_point<Comm>(a, c, v, dst, r.x0 + column, r.y0 + row, u);
      });
  return largest;
}

// `p` transfer without compute (--no-compute): the edge points go out as they are.
template <class Comm>
GIO_DEVICE void send_edges_as_points(const persistent_args& a, const typename Comm::ctx& c, const workgroup_view& v,
                                     double* grid) {
  const std::int64_t threads = platform::wg_size(), me = platform::thread_in_wg();
  for (std::int64_t x = v.x0 + me; x < v.x1; x += threads) {
    send_point<Comm>(a, c, v, grid, x, 0, grid[a.layout.at(x, 0)]);
    send_point<Comm>(a, c, v, grid, x, a.layout.ny - 1, grid[a.layout.at(x, a.layout.ny - 1)]);
  }
  for (std::int64_t y = v.y0 + me; y < v.y1; y += threads) {
    send_point<Comm>(a, c, v, grid, 0, y, grid[a.layout.at(0, y)]);
    send_point<Comm>(a, c, v, grid, a.layout.nx - 1, y, grid[a.layout.at(a.layout.nx - 1, y)]);
  }
}

// `signal` transfer: one put-with-signal per remote side of the workgroup, each by its own wave
// (the four fences then run in parallel). Rows go straight from the tile into the neighbour's
// ring; columns are packed into shared memory first and land in the neighbour's ghost column.
template <class Comm>
static __device__ __noinline__ void send_segments(const persistent_args& a, const typename Comm::ctx& c, const workgroup_view& v,
                              double* grid, std::int64_t t, double* staged, bool rows_to_ghosts) {
  const tile_layout& l = a.layout;
  const std::int64_t rows = v.y1 - v.y0, width = v.x1 - v.x0;
  const unsigned threads = platform::wg_size(), me = platform::thread_in_wg();
  if (v.remote_pe[west] >= 0 || v.remote_pe[east] >= 0) {
    for (std::int64_t k = me; k < rows; k += threads) {
      if (v.remote_pe[west] >= 0) staged[k] = grid[l.at(v.x0, v.y0 + k)];
      if (v.remote_pe[east] >= 0) staged[rows + k] = grid[l.at(v.x1 - 1, v.y0 + k)];
    }
    platform::wg_barrier();
  }
  const unsigned wave = me / platform::wave_size, waves = (threads + platform::wave_size - 1) / platform::wave_size;
  for (int s = static_cast<int>(wave); s < side_count; s += static_cast<int>(waves)) {
    const int pe = v.remote_pe[s];
    if (pe < 0) continue;
    // Rows: the tile's edge row into the neighbour's ring row beyond its opposite edge (early:
    // its ghost row of that side). Columns: the staged column into the neighbour's ghost column
    // of its opposite side.
    double* dest = !is_row_side(s)  ? ghost_column(a, t & 1, opposite(s)) + v.y0
                   : rows_to_ghosts ? ghost_row(a, t & 1, opposite(s)) + v.x0
                   : s == north     ? grid + l.at(v.x0, l.ny)
                                    : grid + l.at(v.x0, -1);
    const double* source = s == north  ? grid + l.at(v.x0, 0)
                           : s == south ? grid + l.at(v.x0, l.ny - 1)
                           : s == west  ? staged
                                        : staged + rows;
    const std::int64_t count = is_row_side(s) ? width : rows;
    Comm::put_signal_wave(c, dest, source, count * sizeof(double), signal_word(a, opposite(s), v.segment[s]), t, pe);
  }
}

// Workgroup 0, after iteration t: the global residual of t, published as the verdict for t. Not
// inlined (nor is send_segments): the library's reduction and puts need many registers, which
// would otherwise be taken from the whole kernel and spill in the update loop.
template <class Comm>
static __device__ __noinline__ void decide(const persistent_args& a, const typename Comm::ctx& c, std::int64_t t, double* scratch) {
  const std::int32_t workgroups = a.tiling.count();
  const unsigned threads = platform::wg_size(), me = platform::thread_in_wg();
  double largest = 0;
  for (std::int32_t w = static_cast<std::int32_t>(me); w < workgroups; w += static_cast<std::int32_t>(threads)) {
    if (w != 0) spin_until_at_least(a, a.done + w * flag_stride, t, "every workgroup's residual", -1, t);
  }
  platform::fence_acq_rel_device();  // acquire: every slot of t was written before its flag
  for (std::int32_t w = static_cast<std::int32_t>(me); w < workgroups; w += static_cast<std::int32_t>(threads))
    largest = max_of(largest, a.residual_slots[(t & 1) * workgroups + w]);
  largest = wg_max(largest, scratch);
  if (me == 0) *a.reduce_source = largest;
  platform::wg_barrier();
  Comm::max_reduce_wg(c, a.reduce_dest, a.reduce_source, 1);
  platform::wg_barrier();  // whichever thread wrote reduce_dest, thread 0 reads it
  if (me == 0) {
    const double global = *a.reduce_dest;
    a.decisions[t & 1] = global;
    platform::fence_acq_rel_device();
    platform::st_relaxed_sys(a.decided, static_cast<std::uint64_t>(t));
    // The first verdict that stops the run, or the last iteration, is the outcome.
    if (a.outcome->iterations == 0 && (a.plan.stops_at(global) || t == a.plan.max_iterations))
      *a.outcome = {t, global, a.plan.stops_at(global) ? 1 : 0};
  }
}

// The early transfer's strips: the edge of side s (rows whole; columns without the corners a row
// strip already has), and what is left inside every remote-facing strip.
GIO_DEVICE tile_rect edge_strip(const workgroup_view& v, int s) {
  const std::int32_t width = static_cast<std::int32_t>(v.x1 - v.x0);
  if (s == north) return {v.x0, v.y0, width, 1};
  if (s == south) return {v.x0, v.y1 - 1, width, 1};
  const std::int64_t y0 = v.y0 + (v.remote_pe[north] >= 0), y1 = v.y1 - (v.remote_pe[south] >= 0);
  return {s == west ? v.x0 : v.x1 - 1, y0, 1, static_cast<std::int32_t>(y1 > y0 ? y1 - y0 : 0)};
}
GIO_DEVICE tile_rect inside_strips(const workgroup_view& v) {
  const std::int64_t x0 = v.x0 + (v.remote_pe[west] >= 0), x1 = v.x1 - (v.remote_pe[east] >= 0);
  const std::int64_t y0 = v.y0 + (v.remote_pe[north] >= 0), y1 = v.y1 - (v.remote_pe[south] >= 0);
  return {x0, y0, static_cast<std::int32_t>(x1 > x0 ? x1 - x0 : 0), static_cast<std::int32_t>(y1 > y0 ? y1 - y0 : 0)};
}

// The halos of iteration `t` that arrived in ghost columns (and, early transfer, ghost rows) into
// the ring of `src`, then a workgroup barrier. Not inlined: see relax_edges_first.
static __device__ __noinline__ void ghosts_into_ring(const persistent_args& a, const workgroup_view& v, double* src,
                                                     std::int64_t t, bool rows) {
  const unsigned me = platform::thread_in_wg();
  for (std::int64_t y = v.y0 + me; y < v.y1; y += platform::wg_size()) {
    if (v.remote_pe[west] >= 0) src[a.layout.at(-1, y)] = ghost_column(a, t & 1, west)[y];
    if (v.remote_pe[east] >= 0) src[a.layout.at(a.layout.nx, y)] = ghost_column(a, t & 1, east)[y];
  }
  if (rows) {
    for (std::int64_t x = v.x0 + me; x < v.x1; x += platform::wg_size()) {
      if (v.remote_pe[north] >= 0) src[a.layout.at(x, -1)] = ghost_row(a, t & 1, north)[x];
      if (v.remote_pe[south] >= 0) src[a.layout.at(x, a.layout.ny)] = ghost_row(a, t & 1, south)[x];
    }
  }
  platform::wg_barrier();
}

// The early transfer's iteration of a workgroup on a PE boundary: its remote-facing strips, their
// puts, then the rest of its tile while they travel. Not inlined, so that the kernel's own
// registers stay what the other transfers need.
template <class Comm>
static __device__ __noinline__ double relax_edges_first(const persistent_args& a, const typename Comm::ctx& c,
                                                        const workgroup_view& v, const double* src, double* dst,
                                                        bool residual, std::int64_t t, double* staged) {
  const auto relax_rect = [&](tile_rect r) {
    return a.points_per_trip == 2 ? relax_tile<Comm, false, 2>(a, c, v, src, dst, residual, r)
                                  : relax_tile<Comm, false, 1>(a, c, v, src, dst, residual, r);
  };
  double largest = 0;
  for (int s = 0; s < side_count; ++s)
    if (v.remote_pe[s] >= 0) largest = max_of(largest, relax_rect(edge_strip(v, s)));
  platform::wg_barrier();  // every strip point before the staging and the puts read them
  send_segments<Comm>(a, c, v, dst, t, staged, true);
  return max_of(largest, relax_rect(inside_strips(v)));
}

template <class Comm>
__global__ void __launch_bounds__(max_wg_threads) relax_persistent(typename Comm::handle h, persistent_args a) {
  __shared__ typename Comm::wg_storage storage;
  __shared__ int stop;
  // One double per thread (reductions), then the W/E segments staged for the signal transfer.
  extern __shared__ double dynamic_shared[];
  double* scratch = dynamic_shared;
  double* staged = dynamic_shared + platform::wg_size();

  const typename Comm::ctx& c = Comm::open_wg(h, storage);
  const workgroup_view v = view_of(a, static_cast<std::int32_t>(platform::wg_id()));
  const unsigned me = platform::thread_in_wg();
  const bool send_points = a.comm && a.transfer == halo_transfer::p;
  const bool early = a.comm && a.transfer == halo_transfer::early;
  const bool send_segment_puts = a.comm && (a.transfer == halo_transfer::signal || early);
  const bool remote_rows = early && (v.remote_pe[north] >= 0 || v.remote_pe[south] >= 0);
  const bool edges_first = early && a.compute &&
                           (v.remote_pe[north] >= 0 || v.remote_pe[south] >= 0 || v.remote_pe[west] >= 0 || v.remote_pe[east] >= 0);
  if (me == 0) stop = 0;

  for (std::int64_t t = 1; t <= a.plan.max_iterations; ++t) {
    // 1. Wait for the inputs of iteration t: one thread per neighbour, one for the verdict of t - 2.
    if (t > 1 && me < 4) {
      const std::int32_t neighbour = v.local_neighbour[me];
      if (neighbour >= 0) {
        spin_until_at_least(a, a.done + neighbour * flag_stride, t - 1, "the workgroup", static_cast<int>(me), t);
        platform::fence_acq_rel_device();  // acquire: the neighbour's tile of t - 1
      }
    } else if (t > 1 && me < 8 && a.comm) {
      const int s = static_cast<int>(me) - 4;
      if (v.remote_pe[s] >= 0) {
        std::uint64_t* signal = signal_word(a, s, v.segment[s]);
        spin_until_at_least(a, signal, t - 1, "the halo of the PE", s, t);
        // Seen: the library's own wait returns at once, with its acquire semantics.
        if (a.transfer != halo_transfer::p) Comm::signal_wait_ge(c, signal, t - 1);
        else Comm::wait_until_ge(c, signal, t - 1);
      }
    } else if (me == 8 && t > 2 && a.plan.convergence_mode() && a.plan.residual_due(t - 2)) {
      spin_until_at_least(a, a.decided, t - 2, "the residual verdict", -1, t);
      platform::fence_acq_rel_device();
      if (a.plan.stops_at(a.decisions[(t - 2) & 1])) stop = 1;
    }
    platform::wg_barrier();
    if (stop) break;

    double* src = a.grid[(t - 1) & 1];
    double* dst = a.grid[t & 1];
    // 2. Columns of the signal transfer (and rows of the early one) arrived in the ghost columns
    // (rows): into the ring of src.
    if (t > 1 && send_segment_puts && (v.remote_pe[west] >= 0 || v.remote_pe[east] >= 0 || remote_rows))
      ghosts_into_ring(a, v, src, t - 1, remote_rows);

    // 3. Compute (and, with the p transfer, send edge points as they are computed).
    const bool residual_due = a.plan.residual_due(t);
    double largest = 0;
    if (edges_first) {
      largest = relax_edges_first<Comm>(a, c, v, src, dst, residual_due, t, staged);
    } else if (a.compute) {
      const tile_rect r = whole_tile(v);
      largest = send_points             ? relax_tile<Comm, true, 1>(a, c, v, src, dst, residual_due, r)
                : a.points_per_trip == 2 ? relax_tile<Comm, false, 2>(a, c, v, src, dst, residual_due, r)
                                         : relax_tile<Comm, false, 1>(a, c, v, src, dst, residual_due, r);
    } else if (send_points) {
      send_edges_as_points<Comm>(a, c, v, dst);
    }
    if (residual_due) {
      largest = wg_max(largest, scratch);
      if (me == 0) a.residual_slots[(t & 1) * a.tiling.count() + v.id] = largest;
    }
    platform::wg_barrier();

    // 4. Publish iteration t to the neighbouring workgroups (release covers the tile and the slot).
    if (me == 0) {
      platform::fence_acq_rel_device();
      platform::st_relaxed_sys(a.done + v.id * flag_stride, static_cast<std::uint64_t>(t));
    }

    // 5. Halos to neighbour PEs.
    if (send_points && me == 0) {
      bool fenced = false;
      for (int s = 0; s < side_count; ++s) {
        if (v.remote_pe[s] < 0) continue;
        if (!fenced) Comm::fence(c);  // every thread's points (before the barrier) before the flags
        fenced = true;
        Comm::p(c, signal_word(a, opposite(s), v.segment[s]), static_cast<std::uint64_t>(t), v.remote_pe[s]);
      }
    } else if (send_segment_puts && !edges_first) {
      send_segments<Comm>(a, c, v, dst, t, staged, early);
    }

    // 6. The residual of t (workgroup 0, while the others go on with t + 1).
    if (residual_due && v.id == 0) decide<Comm>(a, c, t, scratch);
    if (v.id == 0 && me == 0 && a.progress != nullptr && (t % 64 == 0 || t == a.plan.max_iterations))
      platform::st_relaxed_sys(a.progress, static_cast<std::uint64_t>(t));
  }
}

// Dynamic shared memory of a workgroup of `threads` threads whose tile has `rows` rows.
inline std::size_t persistent_shared_bytes(unsigned threads, std::int64_t rows) {
  return (threads + 2 * static_cast<std::size_t>(rows)) * sizeof(double);
}

}  // namespace jacobi
