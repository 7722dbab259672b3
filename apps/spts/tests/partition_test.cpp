#include "partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "generators.hpp"
#include "test_matrices.hpp"

namespace spts {
namespace {

TEST(BlockCyclic, Ownership) {
  const block_cyclic part(10, 3, 2);  // blocks {0,1,2} {3,4,5} {6,7,8} {9}
  const std::vector<int> owners{0, 0, 0, 1, 1, 1, 0, 0, 0, 1};
  for (std::int32_t row = 0; row < 10; ++row) EXPECT_EQ(part.owner(row), owners[row]) << row;
  EXPECT_EQ(part.local_rows(0), 6);
  EXPECT_EQ(part.local_rows(1), 4);
  EXPECT_EQ(part.global_row(1, 3), 9);
  EXPECT_EQ(part.local_index(9), 3);
}

TEST(BlockCyclic, LocalAndGlobalIndicesAreInverse) {
  for (const auto& [n, block, pes] : {std::tuple{1000, 7, 3}, std::tuple{1000, 1, 4}, std::tuple{64, 16, 4},
                                      std::tuple{65, 16, 4}, std::tuple{5, 5, 1}}) {
    const block_cyclic part(n, block, pes);
    std::int32_t total = 0;
    for (int pe = 0; pe < pes; ++pe) {
      std::int32_t previous = -1;
      for (std::int32_t local = 0; local < part.local_rows(pe); ++local) {
        const std::int32_t row = part.global_row(pe, local);
        ASSERT_LT(row, n);
        ASSERT_GT(row, previous);  // each PE's rows in increasing global order
        ASSERT_EQ(part.owner(row), pe);
        ASSERT_EQ(part.local_index(row), local);
        previous = row;
      }
      total += part.local_rows(pe);
    }
    EXPECT_EQ(total, n);
  }
}

TEST(BlockCyclic, RejectsBadShapes) {
  EXPECT_THROW(block_cyclic(10, 3, 0), std::invalid_argument);
  EXPECT_THROW(block_cyclic(10, 0, 2), std::invalid_argument);
  EXPECT_THROW(block_cyclic(100000, 1, max_pes + 1), std::invalid_argument);
  try {
    block_cyclic(10, 4, 4);  // 3 blocks
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("too many PEs: 4 PEs but only 3 blocks"), std::string::npos) << e.what();
  }
}

TEST(BlockCyclic, DefaultBlock) {
  EXPECT_EQ(default_block(100, 4), 32);
  EXPECT_EQ(default_block(24000000, 2), 16384);
  EXPECT_EQ(default_block(320000, 4), 5000);
}

TEST(BlockCyclic, BlockRows) {
  EXPECT_EQ(block_rows(0, 320000, 4), default_block(320000, 4));
  EXPECT_EQ(block_rows(64, 320000, 4), 64);
  // Contiguous: ceil(n / PEs), so every PE owns one range and the last the rest.
  EXPECT_EQ(block_rows(contiguous_blocks, 14081816, 2), 7040908);
  EXPECT_EQ(block_rows(contiguous_blocks, 10, 3), 4);
  const block_cyclic halves(10, block_rows(contiguous_blocks, 10, 3), 3);
  EXPECT_EQ(halves.local_rows(0), 4);
  EXPECT_EQ(halves.local_rows(1), 4);
  EXPECT_EQ(halves.local_rows(2), 2);
  EXPECT_EQ(halves.owner(3), 0);
  EXPECT_EQ(halves.owner(4), 1);
  // Ranges of ceil(n / PEs) rows can leave the last PEs none (9 rows, 4 PEs: 3, 3, 3, 0):
  // block_cyclic refuses that, and spts says so for --block contiguous.
  EXPECT_EQ(block_rows(contiguous_blocks, 9, 4), 3);
  EXPECT_THROW(block_cyclic(9, block_rows(contiguous_blocks, 9, 4), 4), std::invalid_argument);
}

TEST(BlockCyclic, SolvedPath) {
  // Figure 9: row 4 reads rows 1 and 3, row 3 reads row 0. Solved at 10 (row 0), 50 (1), 30 (2),
  // 20 (3), 70 (4): the last row is 4, its last entry row 1 (50 > 20), a root: a path of 2 rows.
  const lower_matrix fig9 = testing::figure9();
  const block_cyclic two(5, 2, 2);  // rows 0-1 and 4 on PE 0, rows 2-3 on PE 1
  solved_path p = walk_solved_path(fig9, two, {10, 50, 30, 20, 70});
  EXPECT_EQ(p.rows, 2);
  EXPECT_EQ(p.pe_changes, 0);
  EXPECT_EQ(p.first_ns, 50u);
  EXPECT_EQ(p.last_ns, 70u);
  EXPECT_EQ(p.local_hops, 1);
  EXPECT_EQ(p.local_hop_ns, 20u);
  EXPECT_EQ(p.remote_hops, 0);
  // Row 3 solved after row 1: the path is 4 <- 3 <- 0, through PE 1 and back.
  p = walk_solved_path(fig9, two, {10, 20, 30, 45, 70});
  EXPECT_EQ(p.rows, 3);
  EXPECT_EQ(p.pe_changes, 2);
  EXPECT_EQ(p.first_ns, 10u);
  EXPECT_EQ(p.remote_hops, 2);
  EXPECT_EQ(p.remote_hop_ns, 60u);  // 45 - 10, then 70 - 45
  EXPECT_EQ(p.longest_hop_ns, 35u);
  EXPECT_TRUE(p.longest_hop_remote);
  // Another GPU's clock behind: a hop that looks negative counts as 0.
  p = walk_solved_path(testing::bidiagonal(3), block_cyclic(3, 1, 3), {100, 90, 120});
  EXPECT_EQ(p.rows, 3);
  EXPECT_EQ(p.remote_hop_ns, 30u);
  EXPECT_THROW(walk_solved_path(fig9, two, {1, 2, 3}), std::invalid_argument);
  EXPECT_THROW(walk_solved_path(fig9, two, {10, 0, 30, 20, 70}), std::invalid_argument);  // row 1 never solved
}

TEST(BlockCyclic, PathCrossings) {
  // Figure 9's path 0 -> 3 -> 4 changes PE twice in 2-row blocks (PE 0, 1, 0) and in 1-row ones.
  const lower_matrix fig9 = testing::figure9();
  EXPECT_EQ(most_path_crossings(fig9, block_cyclic(5, 2, 2)), 2);
  EXPECT_EQ(most_path_crossings(fig9, block_cyclic(5, 1, 2)), 2);
  EXPECT_EQ(most_path_crossings(fig9, block_cyclic(5, 5, 1)), 0);
  // A chain of 10 rows in 3-row blocks crosses at every block edge (2|3, 5|6, 8|9), with any PE count.
  const lower_matrix chain = testing::bidiagonal(10);
  EXPECT_EQ(most_path_crossings(chain, block_cyclic(10, 3, 2)), 3);
  EXPECT_EQ(most_path_crossings(chain, block_cyclic(10, 3, 4)), 3);
  EXPECT_EQ(most_path_crossings(chain, block_cyclic(10, 10, 1)), 0);
}

TEST(Share, Figure9OnTwoPes) {
  // Blocks of 2 rows: PE 0 owns rows 0, 1, 4; PE 1 owns rows 2, 3.
  const lower_matrix L = testing::figure9();
  const std::vector<double> b = make_rhs(L);
  const block_cyclic part(5, 2, 2);
  const pe_share zero = make_share(L, b, part, 0), one = make_share(L, b, part, 1);
  EXPECT_EQ(zero.row_ptr, (std::vector<std::int32_t>{0, 0, 0, 2}));
  EXPECT_EQ(zero.col, (std::vector<std::int32_t>{1, 3}));
  EXPECT_EQ(zero.diag, (std::vector<double>{2.0, 4.0, 5.0}));
  EXPECT_EQ(zero.rhs, (std::vector<double>{b[0], b[1], b[4]}));
  EXPECT_EQ(one.row_ptr, (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_EQ(one.col, (std::vector<std::int32_t>{0, 0}));
  // x0 is read by rows 2 and 3 (PE 1); x1 by row 4 (PE 0 itself); x3 by row 4 (PE 0).
  EXPECT_EQ(zero.consumers, (std::vector<std::uint64_t>{0b10, 0, 0}));
  EXPECT_EQ(one.consumers, (std::vector<std::uint64_t>{0, 0b01}));
  EXPECT_EQ(zero.remote_entries, 1);  // row 4 reads x3
  EXPECT_EQ(one.remote_entries, 2);
  EXPECT_EQ(zero.pushes + one.pushes, 2);
}

TEST(Share, ConsumersMatchABruteForceCount) {
  const lower_matrix L = generate(parse_generator_spec("asic_320ks:0.01"), 4, 2);
  const std::vector<double> b = make_rhs(L);
  const block_cyclic part(L.n, 37, 3);
  std::int64_t entries = 0;
  for (int pe = 0; pe < 3; ++pe) {
    const pe_share share = make_share(L, b, part, pe);
    ASSERT_EQ(share.rows(), part.local_rows(pe));
    entries += static_cast<std::int64_t>(share.col.size());
    for (std::int32_t local = 0; local < share.rows(); ++local) {
      const std::int32_t column = part.global_row(pe, local);
      std::uint64_t readers = 0;
      for (std::int32_t row = column + 1; row < L.n; ++row)
        for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k)
          if (L.col[k] == column && part.owner(row) != pe) readers |= std::uint64_t{1} << part.owner(row);
      ASSERT_EQ(share.consumers[local], readers) << "row " << column;
    }
  }
  EXPECT_EQ(entries, L.strict_nnz());
}

TEST(Share, OwnedResidualsAddUpToTheWhole) {
  const lower_matrix L = generate(parse_generator_spec("road_central:0.0005"), 4, 2);
  const std::vector<double> b = make_rhs(L);
  std::vector<double> x = solve_serial(L, b);
  x[100] *= 1.001;  // a visible residual
  const block_cyclic part(L.n, 64, 4);
  residual_sums sum;
  for (int pe = 0; pe < 4; ++pe) {
    const residual_sums part_sums = residual_over_owned_rows(L, x.data(), b, part, pe);
    sum.residual_sq += part_sums.residual_sq;
    sum.rhs_sq += part_sums.rhs_sq;
  }
  const residual_sums whole = residual_over_all_rows(L, x, b);
  EXPECT_NEAR(sum.relative(), whole.relative(), 1e-12 * whole.relative());
  EXPECT_GT(whole.relative(), residual_tolerance);
}

TEST(Dependents, Figure9) {
  const lower_matrix L = testing::figure9();
  const dependents d = make_dependents(L, block_cyclic(5, 5, 1), 0);
  // x0 is read by rows 2 and 3, x1 and x3 by row 4; rows 0 and 1 read nothing.
  EXPECT_EQ(d.ptr, (std::vector<std::int32_t>{0, 2, 3, 3, 4, 4}));
  EXPECT_EQ(d.row, (std::vector<std::int32_t>{2, 3, 4, 4}));
  EXPECT_EQ(d.remote_ptr, (std::vector<std::int32_t>(6, 0)));  // one PE: every reader is here
  EXPECT_TRUE(d.remote_row.empty());
  EXPECT_EQ(d.roots, (std::vector<std::int32_t>{0, 1}));
}

// gio: a PE lists the readers of its own rows, those on this PE by local number and those on other
// PEs as reader words, and its roots in local numbers.
TEST(Dependents, Figure9OverTwoPes) {
  const lower_matrix L = testing::figure9();
  const block_cyclic part(5, 2, 2);  // PE 0: rows 0, 1 and 4; PE 1: rows 2 and 3
  const dependents d0 = make_dependents(L, part, 0);
  EXPECT_EQ(d0.pe_bits, 1);
  // x1 is read by row 4 (PE 0's local row 2); x0 by rows 2 and 3 (PE 1's local rows 0 and 1).
  EXPECT_EQ(d0.ptr, (std::vector<std::int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(d0.row, (std::vector<std::int32_t>{2}));
  EXPECT_EQ(d0.remote_ptr, (std::vector<std::int32_t>{0, 2, 2, 2}));
  EXPECT_EQ(d0.remote_row, (std::vector<std::int32_t>{0 << 1 | 1, 1 << 1 | 1}));
  EXPECT_EQ(d0.reader_pe(d0.remote_row[1]), 1);
  EXPECT_EQ(d0.reader_local(d0.remote_row[1]), 1);
  EXPECT_EQ(d0.roots, (std::vector<std::int32_t>{0, 1}));
  const dependents d1 = make_dependents(L, part, 1);
  EXPECT_EQ(d1.ptr, (std::vector<std::int32_t>{0, 0, 0}));
  EXPECT_TRUE(d1.row.empty());
  EXPECT_EQ(d1.remote_ptr, (std::vector<std::int32_t>{0, 0, 1}));
  EXPECT_EQ(d1.remote_row, (std::vector<std::int32_t>{2 << 1 | 0}));  // x3 (PE 1's local row 1) read by row 4
  EXPECT_TRUE(d1.roots.empty());
}

// A record holds its row's first entries and readers, padded, and where the rest are in CSR.
TEST(RowRecords, Figure9OverTwoPes) {
  const lower_matrix L = testing::figure9();
  const std::vector<double> b{1, 2, 3, 4, 5};
  const block_cyclic part(5, 2, 2);  // PE 0: rows 0, 1 and 4; PE 1: rows 2 and 3
  const pe_share share = make_share(L, b, part, 0);
  const std::vector<row_record> records = make_row_records(share, make_dependents(L, part, 0));
  ASSERT_EQ(records.size(), 3u);
  const row_record& x0 = records[0];  // row 0: no entries; read by rows 2 and 3, both on PE 1
  EXPECT_EQ(x0.rhs, 1.0);
  EXPECT_EQ(x0.inv_diag, 0.5);
  EXPECT_EQ(std::vector<std::int32_t>(x0.col, x0.col + 4), (std::vector<std::int32_t>{-1, -1, -1, -1}));
  EXPECT_EQ(std::vector<std::int32_t>(x0.reader, x0.reader + 4), (std::vector<std::int32_t>{-1, -1, -1, -1}));
  EXPECT_EQ(x0.readers_end - x0.readers_begin, 0);
  const row_record& x1 = records[1];  // row 1: read by row 4, this PE's local row 2
  EXPECT_EQ(std::vector<std::int32_t>(x1.reader, x1.reader + 4), (std::vector<std::int32_t>{2, -1, -1, -1}));
  EXPECT_EQ(x1.readers_end - x1.readers_begin, 1);
  const row_record& x4 = records[2];  // row 4 reads x1 and x3; nothing reads it
  EXPECT_EQ(x4.rhs, 5.0);
  EXPECT_EQ(x4.inv_diag, 0.2);
  EXPECT_EQ(std::vector<std::int32_t>(x4.col, x4.col + 4), (std::vector<std::int32_t>{1, 3, -1, -1}));
  EXPECT_EQ(std::vector<double>(x4.val, x4.val + 4), (std::vector<double>{-0.25, 1.5, 0.0, 0.0}));
  EXPECT_EQ(x4.entries_end - x4.entries_begin, 2);
  EXPECT_EQ(x4.reader[0], -1);
  EXPECT_EQ(x4.readers_begin, x4.readers_end);
}

// Rows longer than a record's head: the head is the row's start, the offsets reach the rest.
TEST(RowRecords, LongRowsGoOnInCsr) {
  const lower_matrix L = generate(parse_generator_spec("nlpkkt160:0.001"), 3, 2);
  const std::vector<double> b = make_rhs(L);
  const block_cyclic part(L.n, 64, 2);
  const pe_share share = make_share(L, b, part, 1);
  const dependents d = make_dependents(L, part, 1);
  const std::vector<row_record> records = make_row_records(share, d);
  ASSERT_EQ(records.size(), static_cast<std::size_t>(share.rows()));
  bool long_row = false, long_list = false;
  for (std::int32_t r = 0; r < share.rows(); ++r) {
    const row_record& record = records[static_cast<std::size_t>(r)];
    ASSERT_EQ(record.entries_begin, share.row_ptr[r]);
    ASSERT_EQ(record.entries_end, share.row_ptr[r + 1]);
    ASSERT_EQ(record.readers_begin, d.ptr[r]);
    ASSERT_EQ(record.readers_end, d.ptr[r + 1]);
    ASSERT_EQ(record.rhs, share.rhs[r]);
    for (int i = 0; i < row_record::head_entries; ++i) {
      const bool entry = record.entries_begin + i < record.entries_end;
      ASSERT_EQ(record.col[i], entry ? share.col[record.entries_begin + i] : -1);
      ASSERT_EQ(record.val[i], entry ? share.val[record.entries_begin + i] : 0.0);
      const bool reader = record.readers_begin + i < record.readers_end;
      ASSERT_EQ(record.reader[i], reader ? d.row[record.readers_begin + i] : -1);
    }
    long_row |= record.entries_end - record.entries_begin > row_record::head_entries;
    long_list |= record.readers_end - record.readers_begin > row_record::head_entries;
  }
  EXPECT_TRUE(long_row);   // the test reaches past the heads
  EXPECT_TRUE(long_list);
}

// Every row appears in the lists of exactly the rows it reads, on the PEs that own them, so
// counting a row's entries down once per solved dependency reaches zero exactly when its last one
// is solved. A row's readers on other PEs are those of its consumers mask, which the kernel asks
// before it looks at them.
TEST(Dependents, MatchABruteForceCount) {
  const lower_matrix L = generate(parse_generator_spec("road_central:0.0005"), 4, 2);
  for (const int pes : {1, 2, 3, 64}) {
    const block_cyclic part(L.n, pes == 1 ? L.n : 97, pes);
    std::vector<std::int64_t> listed(static_cast<std::size_t>(L.n), 0);
    std::int64_t readers = 0, roots = 0;
    for (int pe = 0; pe < pes; ++pe) {
      const dependents d = make_dependents(L, part, pe);
      ASSERT_EQ(d.ptr.size(), static_cast<std::size_t>(part.local_rows(pe)) + 1);
      const pe_share share = make_share(L, make_rhs(L), part, pe);
      ASSERT_EQ(d.remote_ptr.size(), d.ptr.size());
      for (std::int32_t local = 0; local < part.local_rows(pe); ++local) {
        const std::int32_t column = part.global_row(pe, local);
        const auto listed_reader = [&](std::int32_t row, std::int32_t& previous) {
          ASSERT_GT(row, column);
          ASSERT_GT(row, previous);
          previous = row;
          ASSERT_TRUE(std::binary_search(L.col.begin() + L.row_ptr[row], L.col.begin() + L.row_ptr[row + 1], column));
          ++listed[row];
        };
        std::int32_t previous = -1;
        for (std::int32_t e = d.ptr[local]; e < d.ptr[local + 1]; ++e) listed_reader(part.global_row(pe, d.row[e]), previous);
        previous = -1;
        std::uint64_t reader_pes = 0;
        for (std::int32_t e = d.remote_ptr[local]; e < d.remote_ptr[local + 1]; ++e) {
          const int owner = d.reader_pe(d.remote_row[e]);
          ASSERT_NE(owner, pe);
          reader_pes |= std::uint64_t{1} << owner;
          listed_reader(part.global_row(owner, d.reader_local(d.remote_row[e])), previous);
        }
        ASSERT_EQ(reader_pes, share.consumers[local]) << "row " << column << " with " << pes << " PEs";
      }
      readers += static_cast<std::int64_t>(d.row.size() + d.remote_row.size());
      if (pes == 1) ASSERT_TRUE(d.remote_row.empty());
      for (std::size_t i = 0; i < d.roots.size(); ++i) {
        const std::int32_t root = part.global_row(pe, d.roots[i]);
        ASSERT_EQ(L.row_length(root), 0);
        if (i > 0) ASSERT_GT(d.roots[i], d.roots[i - 1]);
      }
      roots += static_cast<std::int64_t>(d.roots.size());
    }
    std::int64_t expected_roots = 0;
    for (std::int32_t row = 0; row < L.n; ++row) {
      ASSERT_EQ(listed[row], L.row_length(row)) << "row " << row << " with " << pes << " PEs";
      expected_roots += L.row_length(row) == 0;
    }
    EXPECT_EQ(readers, L.strict_nnz());
    EXPECT_EQ(roots, expected_roots);
    EXPECT_GT(roots, 0);
  }
}

}  // namespace
}  // namespace spts
