#include "partition.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace spts {

block_cyclic::block_cyclic(std::int32_t n, std::int32_t block, int pes) : n_(n), block_(block), pes_(pes) {
  if (pes < 1 || pes > max_pes)
    throw std::invalid_argument("too many PEs: " + std::to_string(pes) + " (the distributed solve supports 1 to " +
                                std::to_string(max_pes) + ")");
  if (block < 1) throw std::invalid_argument("block size must be at least 1 row (got " + std::to_string(block) + ")");
  const std::int64_t blocks = (static_cast<std::int64_t>(n) + block - 1) / block;
  if (blocks < pes)
    throw std::invalid_argument("too many PEs: " + std::to_string(pes) + " PEs but only " + std::to_string(blocks) +
                                (blocks == 1 ? " block" : " blocks") + " of " + std::to_string(block) +
                                " rows (n = " + std::to_string(n) + "): PE " + std::to_string(blocks) +
                                " would own no rows; use a smaller --block");
}

std::int32_t block_cyclic::local_rows(int pe) const {
  const std::int32_t full_blocks = n_ / block_;
  const std::int32_t tail = n_ % block_;  // rows of the last, partial block (owned by PE full_blocks % pes)
  std::int32_t rows = (full_blocks / pes_ + (pe < full_blocks % pes_ ? 1 : 0)) * block_;
  if (tail != 0 && pe == full_blocks % pes_) rows += tail;
  return rows;
}

std::int32_t block_cyclic::most_local_rows() const {
  std::int32_t most = 0;
  for (int pe = 0; pe < pes_; ++pe) most = std::max(most, local_rows(pe));
  return most;
}

std::int32_t default_block(std::int32_t n, int pes) {
  constexpr std::int32_t largest = 16384, smallest = 32;
  const std::int64_t spread = static_cast<std::int64_t>(n) / (16ll * std::max(pes, 1));
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(spread, smallest, largest));
}

std::int32_t block_rows(std::int32_t requested, std::int32_t n, int pes) {
  if (requested == contiguous_blocks) {
    const std::int64_t parts = std::max(pes, 1);
    return static_cast<std::int32_t>(std::max<std::int64_t>((n + parts - 1) / parts, 1));
  }
  return requested > 0 ? requested : default_block(n, pes);
}

std::int32_t most_path_crossings(const lower_matrix& L, const block_cyclic& part) {
  std::vector<std::int32_t> crossings(static_cast<std::size_t>(L.n), 0);  // most on a path ending at the row
  std::int32_t most = 0;
  for (std::int32_t row = 0; row < L.n; ++row) {
    const int owner = part.owner(row);
    std::int32_t here = 0;
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k)
      here = std::max(here, crossings[L.col[k]] + (part.owner(L.col[k]) != owner ? 1 : 0));
    crossings[row] = here;
    most = std::max(most, here);
  }
  return most;
}

solved_path walk_solved_path(const lower_matrix& L, const block_cyclic& part, const std::vector<std::uint64_t>& solved_at) {
  if (solved_at.size() != static_cast<std::size_t>(L.n))
    throw std::invalid_argument("walk_solved_path: " + std::to_string(solved_at.size()) + " solve times for " +
                                std::to_string(L.n) + " rows");
  const auto unsolved = std::find(solved_at.begin(), solved_at.end(), std::uint64_t{0});
  if (unsolved != solved_at.end())
    throw std::invalid_argument("walk_solved_path: row " + std::to_string(unsolved - solved_at.begin()) + " has no solve time");
  solved_path path;
  if (L.n == 0) return path;
  std::int32_t row = static_cast<std::int32_t>(std::max_element(solved_at.begin(), solved_at.end()) - solved_at.begin());
  path.last_ns = solved_at[row];
  for (;;) {
    ++path.rows;
    path.first_ns = solved_at[row];
    std::int32_t last_entry = -1;
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k)
      if (last_entry < 0 || solved_at[L.col[k]] > solved_at[last_entry]) last_entry = L.col[k];
    if (last_entry < 0) return path;
    const std::uint64_t hop = solved_at[row] > solved_at[last_entry] ? solved_at[row] - solved_at[last_entry] : 0;
    const bool remote = part.owner(row) != part.owner(last_entry);
    (remote ? path.remote_hops : path.local_hops) += 1;
    (remote ? path.remote_hop_ns : path.local_hop_ns) += hop;
    path.pe_changes += remote;
    if (hop > path.longest_hop_ns) path.longest_hop_ns = hop, path.longest_hop_remote = remote;
    row = last_entry;
  }
}

pe_share make_share(const lower_matrix& L, const std::vector<double>& b, const block_cyclic& part, int pe) {
  pe_share share;
  const std::int32_t rows = part.local_rows(pe);
  share.row_ptr.reserve(static_cast<std::size_t>(rows) + 1);
  share.row_ptr.push_back(0);
  share.diag.resize(static_cast<std::size_t>(rows));
  share.rhs.resize(static_cast<std::size_t>(rows));
  share.consumers.assign(static_cast<std::size_t>(rows), 0);
  std::int64_t entries = 0;
  for (std::int32_t local = 0; local < rows; ++local) entries += L.row_length(part.global_row(pe, local));
  if (entries > std::numeric_limits<std::int32_t>::max())
    throw std::length_error("PE " + std::to_string(pe) + " holds " + std::to_string(entries) +
                            " entries: more than 32-bit offsets address; use more PEs or a smaller matrix");
  share.col.reserve(static_cast<std::size_t>(entries));
  share.val.reserve(static_cast<std::size_t>(entries));
  for (std::int32_t local = 0; local < rows; ++local) {
    const std::int32_t row = part.global_row(pe, local);
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) {
      share.col.push_back(L.col[k]);
      share.val.push_back(L.val[k]);
      if (part.owner(L.col[k]) != pe) ++share.remote_entries;
    }
    share.row_ptr.push_back(static_cast<std::int32_t>(share.col.size()));
    share.diag[local] = L.diag[row];
    share.rhs[local] = b[row];
  }
  // Readers of this PE's rows: every row of another PE with an entry in one of them.
  if (part.pes() > 1) {
    for (std::int32_t row = 0; row < L.n; ++row) {
      const int reader = part.owner(row);
      if (reader == pe) continue;
      for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k)
        if (part.owner(L.col[k]) == pe) share.consumers[part.local_index(L.col[k])] |= std::uint64_t{1} << reader;
    }
  }
  for (const std::uint64_t mask : share.consumers) share.pushes += __builtin_popcountll(mask);
  return share;
}

dependents make_dependents(const lower_matrix& L, const block_cyclic& part, int pe) {
  const std::int32_t rows = part.local_rows(pe);
  dependents d;
  // Readers of each of this PE's rows, on this PE (here) and on others (remote).
  std::vector<std::int64_t> here(static_cast<std::size_t>(rows) + 1, 0), remote(here);
  for (std::int32_t row = 0; row < L.n; ++row) {
    auto& counts = part.owner(row) == pe ? here : remote;
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k)
      if (part.owner(L.col[k]) == pe) ++counts[static_cast<std::size_t>(part.local_index(L.col[k])) + 1];
  }
  for (std::int32_t r = 0; r < rows; ++r) here[r + 1] += here[r], remote[r + 1] += remote[r];
  if (here[rows] + remote[rows] > std::numeric_limits<std::int32_t>::max())
    throw std::length_error("PE " + std::to_string(pe) + " has " + std::to_string(here[rows] + remote[rows]) +
                            " readers of its rows: more than 32-bit offsets address; use more PEs");
  while ((1 << d.pe_bits) < part.pes()) ++d.pe_bits;
  const std::int32_t most_rows = part.most_local_rows();
  if ((static_cast<std::int64_t>(most_rows) << d.pe_bits) > std::numeric_limits<std::int32_t>::max())
    throw std::length_error("a PE holds " + std::to_string(most_rows) + " rows: with " + std::to_string(part.pes()) +
                            " PEs the indegree kernel's reader words hold at most " +
                            std::to_string(std::numeric_limits<std::int32_t>::max() >> d.pe_bits));
  d.ptr.assign(here.begin(), here.end());
  d.remote_ptr.assign(remote.begin(), remote.end());
  d.row.resize(static_cast<std::size_t>(here[rows]));
  d.remote_row.resize(static_cast<std::size_t>(remote[rows]));
  std::vector<std::int32_t> fill(d.ptr.begin(), d.ptr.end() - 1), remote_fill(d.remote_ptr.begin(), d.remote_ptr.end() - 1);
  for (std::int32_t row = 0; row < L.n; ++row) {  // rows in increasing order, so each list is increasing
    const int owner = part.owner(row);
    const std::int32_t local = part.local_index(row);
    for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k) {
      if (part.owner(L.col[k]) != pe) continue;
      const auto column = static_cast<std::size_t>(part.local_index(L.col[k]));
      if (owner == pe) d.row[fill[column]++] = local;
      else d.remote_row[remote_fill[column]++] = reader_word(local, owner, d.pe_bits);
    }
  }
  for (std::int32_t local = 0; local < rows; ++local)
    if (L.row_length(part.global_row(pe, local)) == 0) d.roots.push_back(local);
  return d;
}

std::vector<row_record> make_row_records(const pe_share& share, const dependents& d) {
  constexpr int head = row_record::head_entries;
  std::vector<row_record> records(static_cast<std::size_t>(share.rows()));
  for (std::int32_t r = 0; r < share.rows(); ++r) {
    row_record& record = records[static_cast<std::size_t>(r)];
    record.rhs = share.rhs[r];
    record.inv_diag = 1.0 / share.diag[r];
    record.entries_begin = share.row_ptr[r], record.entries_end = share.row_ptr[r + 1];
    record.readers_begin = d.ptr[r], record.readers_end = d.ptr[r + 1];
    for (int i = 0; i < head; ++i) {
      const bool entry = record.entries_begin + i < record.entries_end;
      record.col[i] = entry ? share.col[record.entries_begin + i] : -1;
      record.val[i] = entry ? share.val[record.entries_begin + i] : 0.0;
      record.reader[i] = record.readers_begin + i < record.readers_end ? d.row[record.readers_begin + i] : -1;
    }
  }
  return records;
}

residual_sums residual_over_owned_rows(const lower_matrix& L, const double* x, const std::vector<double>& b,
                                       const block_cyclic& part, int pe) {
  residual_sums sums;
  const std::int32_t rows = part.local_rows(pe);
  for (std::int32_t local = 0; local < rows; ++local) {
    const std::int32_t row = part.global_row(pe, local);
    const double r = row_residual(L, x, b.data(), row);
    sums.residual_sq += r * r;
    sums.rhs_sq += b[row] * b[row];
  }
  return sums;
}

}  // namespace spts
