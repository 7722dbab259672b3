// Block-cyclic distribution of L's rows over PEs, and what one PE holds for the distributed solve:
// its rows (global column indices), and for each of them the PEs that read its x value (the
// consumers it pushes to).
//
// Rows are dealt in blocks of `block` consecutive rows: block k (rows [k*block, (k+1)*block))
// belongs to PE k mod pes. Each PE solves its rows in increasing global order, which is what
// makes the distributed sync-free solve deadlock-free (docs/spts.md, "Progress").
#pragma once
#include <cstdint>
#include <vector>

#include "gio/platform/host_device.hpp"
#include "matrix.hpp"

namespace spts {

// Consumer sets are bit masks of one 64-bit word: the most PEs a distributed solve supports.
inline constexpr int max_pes = 64;

class block_cyclic {
 public:
  // Throws std::invalid_argument for pes outside [1, max_pes], block < 1, or a PE without rows
  // (more PEs than blocks), naming the numbers.
  block_cyclic(std::int32_t n, std::int32_t block, int pes);

  std::int32_t n() const { return n_; }
  std::int32_t block() const { return block_; }
  int pes() const { return pes_; }

  int owner(std::int32_t row) const { return static_cast<int>((row / block_) % pes_); }
  std::int32_t local_index(std::int32_t row) const {
    const std::int32_t b = row / block_;
    return (b / pes_) * block_ + row % block_;
  }
  std::int32_t global_row(int pe, std::int32_t local) const {
    const std::int32_t local_block = local / block_;
    return (local_block * pes_ + pe) * block_ + local % block_;
  }
  std::int32_t local_rows(int pe) const;
  std::int32_t most_local_rows() const;  // of any PE: what a symmetric per-row array must hold

 private:
  std::int32_t n_, block_;
  int pes_;
};

// The block a run uses when none is given: small enough that every PE gets many blocks (load
// balance along the diagonal), large enough that most dependencies stay on the PE (road and
// circuit matrices depend mostly on nearby rows).
std::int32_t default_block(std::int32_t n, int pes);

// --block contiguous: each PE one range of ceil(n / PEs) rows, which keeps every dependency chain
// inside a range on one PE (the fewest crossings; load balance is left to the matrix's order).
inline constexpr std::int32_t contiguous_blocks = -1;
// The block of a run: `requested` rows, or default_block for 0, or the contiguous ranges.
std::int32_t block_rows(std::int32_t requested, std::int32_t n, int pes);

// One PE's part of L x = b, in the layout the GPU kernels read: 32-bit offsets and indices.
struct pe_share {
  std::vector<std::int32_t> row_ptr;  // local rows + 1
  std::vector<std::int32_t> col;      // global column indices
  std::vector<double> val;
  std::vector<double> diag;
  std::vector<double> rhs;
  std::vector<std::uint64_t> consumers;  // per local row: bit q = PE q (not this one) reads its x
  std::int64_t remote_entries = 0;       // entries whose column another PE owns
  std::int64_t pushes = 0;               // set bits in consumers: x values sent per solve
  std::int32_t rows() const { return static_cast<std::int32_t>(diag.size()); }
};

// The most times a dependency path changes PE under `part`: on any path of rows each reading the
// one before, how many consecutive pairs have different owners. Each such step waits for a value
// (and, in the indegree kernel, a count-off and a hand-over) to cross the link, so this times a
// remote operation's latency bounds what the distribution adds to the critical path (the matrix's
// levels bound the rest). Computed like the levels, in one pass over L in row order.
std::int32_t most_path_crossings(const lower_matrix& L, const block_cyclic& part);

// The path a solve actually waited on (--round-stats): from the row solved last, back through each
// row's entry solved last, to a row with no entry. solved_at holds when each (global) row was
// solved, in ns of the GPUs' clocks (PEs on different GPUs read different clocks: a hop across
// them is only as good as the clocks agree; one that looks negative counts as 0). A hop is the
// time from an entry's solve to its reader's: the lane's round on one PE, the count-off, hand-over
// and queue on top of that across PEs.
struct solved_path {
  std::int32_t rows = 0;        // on the path
  std::int32_t pe_changes = 0;  // hops whose two rows have different owners
  std::uint64_t first_ns = 0, last_ns = 0;  // the path's first and last rows' solve times
  std::int64_t local_hops = 0, remote_hops = 0;
  std::uint64_t local_hop_ns = 0, remote_hop_ns = 0;  // summed over the hops
  std::uint64_t longest_hop_ns = 0;
  bool longest_hop_remote = false;
};
// Throws std::invalid_argument if solved_at does not hold one time per row or a row is unsolved (0).
solved_path walk_solved_path(const lower_matrix& L, const block_cyclic& part, const std::vector<std::uint64_t>& solved_at);

// Throws std::length_error when the PE's entries do not fit 32-bit offsets.
pe_share make_share(const lower_matrix& L, const std::vector<double>& b, const block_cyclic& part, int pe);

// What the indegree kernel reads besides the rows of PE `pe`: for each of its rows (local numbers)
// the rows that read its x (CSR's transpose, each list in increasing global order), and its rows
// that read nothing (the roots; local numbers, increasing). Built once per matrix, like a vendor's
// analysis, but with no level sets: the kernel finds the order at run time. Readers on this PE are
// listed by their local numbers, as single lists them, so that counting them off costs what it
// costs single; readers on other PEs (gio) are listed apart, each one word: its owner's local
// number shifted left by pe_bits above the owner PE (the kernel reads both without a division).
// A row has readers on other PEs exactly when its consumers mask (pe_share) is not 0, so the
// kernel looks at that list only then.
GIO_HOST_DEVICE_INLINE std::int32_t reader_word(std::int32_t local, int pe, int pe_bits) { return local << pe_bits | pe; }
GIO_HOST_DEVICE_INLINE int reader_word_pe(std::int32_t word, int pe_bits) { return word & ((1 << pe_bits) - 1); }
GIO_HOST_DEVICE_INLINE std::int32_t reader_word_local(std::int32_t word, int pe_bits) { return word >> pe_bits; }
struct dependents {
  std::vector<std::int32_t> ptr;         // local rows + 1: local row r's readers here are row[ptr[r] .. ptr[r + 1])
  std::vector<std::int32_t> row;         // their local numbers
  std::vector<std::int32_t> remote_ptr;  // local rows + 1: its readers on other PEs, remote_row[remote_ptr[r] ..)
  std::vector<std::int32_t> remote_row;  // reader words
  std::vector<std::int32_t> roots;
  int pe_bits = 0;  // bits that number the PEs
  int reader_pe(std::int32_t word) const { return reader_word_pe(word, pe_bits); }
  std::int32_t reader_local(std::int32_t word) const { return reader_word_local(word, pe_bits); }
};
// Throws std::length_error when the readers do not fit 32-bit offsets, or a PE's local numbers
// shifted by pe_bits do not fit a reader word.
dependents make_dependents(const lower_matrix& L, const block_cyclic& part, int pe);

// Everything the indegree kernel reads to solve a row and count it off its readers, in one
// 96-byte record (three 32-byte sectors): a row's loads then cost 3 sectors of memory traffic
// instead of one in each of 7 arrays (row offsets, columns, values, readers' offsets, readers, rhs,
// diagonal), with fewer dependent loads in a round. The first head_entries entries and readers are
// in the record (column and reader -1, value 0 past the row's); a longer row goes on in CSR.
struct alignas(32) row_record {
  static constexpr int head_entries = 4;
  double rhs, inv_diag;
  double val[head_entries];
  std::int32_t col[head_entries];     // global columns
  std::int32_t reader[head_entries];  // readers on this PE, local numbers (dependents::row)
  std::int32_t entries_begin, entries_end;  // the row's entries in CSR (share.col, share.val)
  std::int32_t readers_begin, readers_end;  // its readers on this PE in dependents::row
};
static_assert(sizeof(row_record) == 96, "three 32-byte sectors");
std::vector<row_record> make_row_records(const pe_share& share, const dependents& d);

// The rows `pe` owns, of residual_sums: each PE checks its own rows with the x it holds.
residual_sums residual_over_owned_rows(const lower_matrix& L, const double* x, const std::vector<double>& b,
                                       const block_cyclic& part, int pe);

}  // namespace spts
