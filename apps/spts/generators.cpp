#include "generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <thread>

#include "counter_random.hpp"

namespace spts {

namespace {

// Runs body(first, last) on `threads` contiguous slices of [0, count).
template <class Body>
void parallel_for(std::int64_t count, unsigned threads, const Body& body) {
  threads = static_cast<unsigned>(std::clamp<std::int64_t>(count / 4096, 1, std::max(threads, 1u)));
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) workers.emplace_back(body, count * t / threads, count * (t + 1) / threads);
  body(0, count / threads);
  for (auto& w : workers) w.join();
}

// L from a function giving each row's strictly lower columns (sorted, unique), called twice per
// row (count, then fill): it must depend on the row alone, as the counter-based generators do.
template <class RowColumns>
lower_matrix build(std::int32_t n, const RowColumns& row_columns, std::uint64_t seed, unsigned threads) {
  lower_matrix L;
  L.n = n;
  L.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  parallel_for(n, threads, [&](std::int64_t first, std::int64_t last) {
    std::vector<std::int32_t> cols;
    for (auto row = static_cast<std::int32_t>(first); row < last; ++row) {
      row_columns(row, cols);
      L.row_ptr[row + 1] = static_cast<std::int64_t>(cols.size());
    }
  });
  std::partial_sum(L.row_ptr.begin(), L.row_ptr.end(), L.row_ptr.begin());
  L.col.resize(static_cast<std::size_t>(L.strict_nnz()));
  L.val.resize(L.col.size());
  L.diag.assign(static_cast<std::size_t>(n), 1.0);
  parallel_for(n, threads, [&](std::int64_t first, std::int64_t last) {
    std::vector<std::int32_t> cols;
    for (auto row = static_cast<std::int32_t>(first); row < last; ++row) {
      row_columns(row, cols);
      std::int64_t k = L.row_ptr[row];
      for (const std::int32_t c : cols) {
        L.col[k] = c;
        L.val[k] = generated_value(seed, row, c);
        L.diag[row] += std::fabs(L.val[k]);  // make_diagonal_dominant, fused into the parallel pass
        ++k;
      }
    }
  });
  return L;
}

void sort_unique(std::vector<std::int32_t>& cols) {
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
}

// Stream keys, so that the generators' random choices are independent of one another.
enum stream_key : std::uint64_t { key_tile = 1ull << 60, key_edge = 2ull << 60, key_row = 3ull << 60 };

// --- road networks ----------------------------------------------------------------------------
// A 2D grid map (width ~ sqrt(n)) whose nodes join their east and south neighbours with the
// probability that gives the real matrix's nnz (mean degree 2.4 for road_usa). Nodes are numbered
// tile by tile (tiles of 90 x 90 nodes, about a road_usa county, in raster order, as TIGER/Line
// data comes county by county), and inside a tile in the order a breadth-first trace along the
// roads from a random node reaches them (as ids are handed out while digitising roads): numbers
// grow along roads, so dependency chains run through tiles (about 500 levels at full size, where a
// random order inside tiles would leave 16).
struct road_map {
  static constexpr std::int32_t tile = 90;
  std::int32_t n, width, height;
  std::vector<std::int32_t> position_of_row, row_of_position;
  double edge_probability = 0;
  std::uint64_t seed;

  road_map(std::int32_t rows, std::int64_t strict_target, std::uint64_t seed_, unsigned threads)
      : n(rows), width(static_cast<std::int32_t>(std::ceil(std::sqrt(static_cast<double>(rows))))), seed(seed_) {
    height = (n + width - 1) / width;
    // Candidate links: east (not from the last column or the last node) and south.
    const std::int64_t east = static_cast<std::int64_t>(n) - height;
    const std::int64_t south = std::max<std::int64_t>(0, static_cast<std::int64_t>(n) - width);
    if (east + south > 0)
      edge_probability = std::min(1.0, static_cast<double>(strict_target) / static_cast<double>(east + south));
    const std::int32_t tiles_x = (width + tile - 1) / tile, tiles_y = (height + tile - 1) / tile;
    const std::int64_t tiles = static_cast<std::int64_t>(tiles_x) * tiles_y;
    struct area {
      std::int32_t x0, y0, x1, y1;  // [x0, x1) x [y0, y1)
      bool contains(std::int32_t x, std::int32_t y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
    };
    auto bounds = [&](std::int64_t t) {
      const std::int32_t x0 = static_cast<std::int32_t>(t % tiles_x) * tile,
                         y0 = static_cast<std::int32_t>(t / tiles_x) * tile;
      return area{x0, y0, std::min(x0 + tile, width), std::min(y0 + tile, height)};
    };
    auto exists = [&](std::int32_t x, std::int32_t y) { return static_cast<std::int64_t>(y) * width + x < n; };
    std::vector<std::int64_t> first_row(static_cast<std::size_t>(tiles) + 1, 0);
    parallel_for(tiles, threads, [&](std::int64_t a, std::int64_t b) {
      for (std::int64_t t = a; t < b; ++t) {
        const area tile_area = bounds(t);
        std::int64_t count = 0;
        for (std::int32_t y = tile_area.y0; y < tile_area.y1; ++y)
          for (std::int32_t x = tile_area.x0; x < tile_area.x1; ++x) count += exists(x, y);
        first_row[t + 1] = count;
      }
    });
    std::partial_sum(first_row.begin(), first_row.end(), first_row.begin());
    position_of_row.resize(static_cast<std::size_t>(n));
    row_of_position.assign(static_cast<std::size_t>(n), -1);
    parallel_for(tiles, threads, [&](std::int64_t a, std::int64_t b) {
      std::vector<std::int32_t> starts, queue;
      for (std::int64_t t = a; t < b; ++t) {
        const area tile_area = bounds(t);
        // Trace starts: the tile's nodes in random order (a new trace where the last one ended).
        starts.clear();
        for (std::int32_t y = tile_area.y0; y < tile_area.y1; ++y)
          for (std::int32_t x = tile_area.x0; x < tile_area.x1; ++x)
            if (exists(x, y)) starts.push_back(y * width + x);
        counter_stream random(seed, key_tile | static_cast<std::uint64_t>(t));
        for (std::size_t i = starts.size(); i > 1; --i) std::swap(starts[i - 1], starts[random.next_below(i)]);
        auto next_row = static_cast<std::int32_t>(first_row[t]);
        auto visit = [&](std::int32_t p) {
          row_of_position[p] = next_row;
          position_of_row[next_row++] = p;
          queue.push_back(p);
        };
        for (const std::int32_t start : starts) {
          if (row_of_position[start] >= 0) continue;
          queue.clear();
          visit(start);
          for (std::size_t head = 0; head < queue.size(); ++head) {
            const std::int32_t p = queue[head], x = p % width, y = p / width;
            auto follow = [&](std::int32_t q, std::int32_t qx, std::int32_t qy, bool link) {
              if (link && tile_area.contains(qx, qy) && row_of_position[q] < 0) visit(q);
            };
            follow(p - 1, x - 1, y, x > 0 && linked(p - 1, 0));
            follow(p + 1, x + 1, y, x + 1 < width && p + 1 < n && linked(p, 0));
            follow(p - width, x, y - 1, y > 0 && linked(p - width, 1));
            follow(p + width, x, y + 1, static_cast<std::int64_t>(p) + width < n && linked(p, 1));
          }
        }
      }
    });
  }

  // Whether the link from `position` going east (0) or south (1) exists: a function of the link.
  bool linked(std::int32_t position, int direction) const {
    return to_unit(hash3(seed, key_edge | static_cast<std::uint64_t>(direction),
                         static_cast<std::uint64_t>(position))) < edge_probability;
  }

  void row_columns(std::int32_t row, std::vector<std::int32_t>& cols) const {
    cols.clear();
    const std::int32_t p = position_of_row[row], x = p % width;
    auto take = [&](std::int32_t neighbour) {
      const std::int32_t other = row_of_position[neighbour];
      if (other < row) cols.push_back(other);
    };
    if (x > 0 && linked(p - 1, 0)) take(p - 1);
    if (x + 1 < width && p + 1 < n && linked(p, 0)) take(p + 1);
    if (p >= width && linked(p - width, 1)) take(p - width);
    if (static_cast<std::int64_t>(p) + width < n && linked(p, 1)) take(p + width);
    std::sort(cols.begin(), cols.end());
  }
};

// --- power law (wiki-Talk) ---------------------------------------------------------------------
// Most users write to nobody below their own id; a few write to many (row lengths with a Pareto
// tail, exponent 1.3, up to 20,000), and messages go mostly to early, long-standing users: the
// column of an entry of row i is i * u^3 (u uniform), so low columns are hubs that many rows read.
struct power_law {
  static constexpr double tail_exponent = 1.3;
  static constexpr std::int64_t longest_row = 20000;
  double active_fraction;

  power_law(std::int32_t n, std::int64_t strict_target) {
    double mean_length = 0;  // of an active row: sum over m >= 1 of P(length >= m)
    for (std::int64_t m = 1; m <= longest_row; ++m) mean_length += std::pow(static_cast<double>(m), -tail_exponent);
    active_fraction = std::min(1.0, static_cast<double>(strict_target) / (static_cast<double>(n) * mean_length));
  }

  void row_columns(std::uint64_t seed, std::int32_t row, std::vector<std::int32_t>& cols) const {
    cols.clear();
    counter_stream random(seed, key_row | static_cast<std::uint64_t>(row));
    if (row == 0 || random.next_unit() >= active_fraction) return;
    const double u = 1.0 - random.next_unit();  // (0, 1]
    const auto length =
        std::min<std::int64_t>({static_cast<std::int64_t>(std::pow(u, -1.0 / tail_exponent)), longest_row, row});
    for (std::int64_t e = 0; e < length; ++e) {
      const double v = random.next_unit();
      cols.push_back(static_cast<std::int32_t>(static_cast<double>(row) * v * v * v));
    }
    sort_unique(cols);
  }
};

// --- circuit (ASIC_320ks) ----------------------------------------------------------------------
// Netlist order: each node couples to a few earlier nodes nearby (distance log-uniform in
// [1, 4096]: devices are numbered near their neighbours), and one node in 16 also to a supply or
// clock net, 32 hub nodes at the start of the numbering whose columns every PE reads.
struct circuit {
  static constexpr std::int32_t hubs = 32;
  static constexpr double hub_fraction = 1.0 / 16, longest_distance = 4096;
  double mean_local;

  circuit(std::int32_t n, std::int64_t strict_target)
      : mean_local(std::max(0.0, static_cast<double>(strict_target) / n - hub_fraction)) {}

  void row_columns(std::uint64_t seed, std::int32_t row, std::vector<std::int32_t>& cols) const {
    cols.clear();
    if (row < hubs) return;
    counter_stream random(seed, key_row | static_cast<std::uint64_t>(row));
    // Local couplings: floor(mean) or one more, so that the mean is exact.
    const double whole = std::floor(mean_local);
    const int local = static_cast<int>(whole) + (random.next_unit() < mean_local - whole ? 1 : 0);
    for (int e = 0; e < local; ++e) {
      const auto distance = static_cast<std::int32_t>(std::exp(random.next_unit() * std::log(longest_distance)));
      cols.push_back(std::max(row - std::max(distance, 1), 0));
    }
    if (random.next_unit() < hub_fraction) cols.push_back(static_cast<std::int32_t>(random.next_below(hubs)));
    sort_unique(cols);
  }
};

// --- KKT system (nlpkkt160) --------------------------------------------------------------------
// [H J^T; J 0] of a PDE-constrained optimisation on a 3D grid, lower triangle: the first half
// (H, diagonal) has no off-diagonal entries; a row of the second half (J: the constraint at one
// grid point) reads the 27-point neighbourhood of its point in the first half, each neighbour
// kept with the probability that gives the real matrix's nnz. Two levels, as nlpkkt160 has.
struct kkt {
  std::int32_t first_half, side, layer;
  double keep;

  kkt(std::int32_t n, std::int64_t strict_target) : first_half((n + 1) / 2) {
    side = std::max(1, static_cast<std::int32_t>(std::cbrt(static_cast<double>(first_half))));
    layer = side * side;
    const double rows = n - first_half;
    keep = rows > 0 ? std::min(1.0, static_cast<double>(strict_target) / (rows * 27.0 * interior_fraction())) : 0.0;
  }
  // The share of the 27 neighbours that exist, on average over the grid's points.
  double interior_fraction() const {
    const double depth = std::ceil(static_cast<double>(first_half) / layer);
    auto along = [](double k) { return k > 1 ? (3 * k - 2) / (3 * k) : 1.0 / 3; };
    return along(side) * along(side) * along(depth);
  }

  void row_columns(std::uint64_t seed, std::int32_t row, std::vector<std::int32_t>& cols) const {
    cols.clear();
    if (row < first_half) return;
    const std::int32_t point = (row - first_half) % first_half;
    const std::int32_t x = point % side, y = (point / side) % side, z = point / layer;
    counter_stream random(seed, key_row | static_cast<std::uint64_t>(row));
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const std::int64_t nx = x + dx, ny = y + dy, nz = z + dz;
          if (nx < 0 || nx >= side || ny < 0 || ny >= side || nz < 0) continue;
          const std::int64_t neighbour = nz * layer + ny * side + nx;
          if (neighbour >= first_half) continue;
          if (random.next_unit() < keep) cols.push_back(static_cast<std::int32_t>(neighbour));
        }
    // (dz, dy, dx) in increasing order visits increasing indices: already sorted and unique.
  }
};

}  // namespace

const std::vector<class_info>& matrix_classes() {
  static const std::vector<class_info> classes{
      {matrix_class::road_usa, "road_usa", 23947347, 52801659, "road map in county tiles, ids traced along roads"},
      {matrix_class::road_central, "road_central", 14081816, 31015229,
       "road map in county tiles, ids traced along roads"},
      {matrix_class::wiki_talk, "wiki_talk", 2394385, 3072000, "power law: Pareto row lengths, hub columns"},
      {matrix_class::asic_320ks, "asic_320ks", 321671, 1074000, "circuit: nearby couplings and 32 supply hubs"},
      {matrix_class::nlpkkt160, "nlpkkt160", 8345600, 118931856, "3D KKT: diagonal block, 27-point J rows"},
  };
  return classes;
}

const class_info& info(matrix_class id) {
  for (const auto& c : matrix_classes())
    if (c.id == id) return c;
  throw std::invalid_argument("unknown matrix class");
}

std::int32_t generator_spec::rows() const {
  return static_cast<std::int32_t>(std::max(2.0, std::round(info(id).rows * scale)));
}
std::int64_t generator_spec::target_nnz() const {
  return std::max<std::int64_t>(rows(), std::llround(static_cast<double>(info(id).nnz) * scale));
}

generator_spec parse_generator_spec(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  std::string names;
  generator_spec spec;
  bool found = false;
  for (const auto& c : matrix_classes()) {
    names += names.empty() ? c.name : std::string(", ") + c.name;
    if (name == c.name) spec.id = c.id, found = true;
  }
  if (!found) throw std::invalid_argument("unknown matrix class '" + name + "' (one of " + names + ")");
  if (colon != std::string::npos) {
    const std::string scale = text.substr(colon + 1);
    char* end = nullptr;
    spec.scale = std::strtod(scale.c_str(), &end);
    if (scale.empty() || *end != '\0' || !(spec.scale > 0) || !std::isfinite(spec.scale))
      throw std::invalid_argument("bad scale '" + scale + "' in '" + text + "' (a positive number, e.g. " + name +
                                  ":0.01)");
    const double rows = std::round(info(spec.id).rows * spec.scale);
    if (rows > 2e9 || static_cast<double>(spec.target_nnz()) > 2e9)
      throw std::invalid_argument("scale " + scale + " makes " + name + " too large for 32-bit indices");
  }
  return spec;
}

std::string to_string(const generator_spec& spec) {
  if (spec.scale == 1.0) return info(spec.id).name;
  char scale[32];
  std::snprintf(scale, sizeof scale, "%g", spec.scale);
  return std::string(info(spec.id).name) + ":" + scale;
}

lower_matrix generate(const generator_spec& spec, std::uint64_t seed, unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::int32_t n = spec.rows();
  const std::int64_t strict = spec.target_nnz() - n;
  lower_matrix L;
  switch (spec.id) {
    case matrix_class::road_usa:
    case matrix_class::road_central: {
      const road_map map(n, strict, seed, threads);
      L = build(
          n, [&](std::int32_t row, std::vector<std::int32_t>& cols) { map.row_columns(row, cols); }, seed, threads);
      break;
    }
    case matrix_class::wiki_talk: {
      const power_law model(n, strict);
      L = build(
          n, [&](std::int32_t row, std::vector<std::int32_t>& cols) { model.row_columns(seed, row, cols); }, seed,
          threads);
      break;
    }
    case matrix_class::asic_320ks: {
      const circuit model(n, strict);
      L = build(
          n, [&](std::int32_t row, std::vector<std::int32_t>& cols) { model.row_columns(seed, row, cols); }, seed,
          threads);
      break;
    }
    case matrix_class::nlpkkt160: {
      const kkt model(n, strict);
      L = build(
          n, [&](std::int32_t row, std::vector<std::int32_t>& cols) { model.row_columns(seed, row, cols); }, seed,
          threads);
      break;
    }
  }
  return L;
}

}  // namespace spts
