// Session 17, host-only analysis for the 2-GPU runs no session could make: for each generated class
// and block size, how many of L's entries cross PEs and the most PE changes on a dependency path
// (spts::most_path_crossings), over 2 and 4 PEs (the last block: one contiguous part per PE).
// Built with spts's host sources, optimised:
//   g++ -O2 -std=c++17 -I apps/spts docs/results/session17/crossings.cpp apps/spts/{matrix,generators,partition}.cpp -pthread
//   ./a.out road_central road_usa nlpkkt160
#include <cstdio>
#include <string>

#include "generators.hpp"
#include "matrix.hpp"
#include "partition.hpp"

int main(int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    const spts::lower_matrix L = spts::generate(spts::parse_generator_spec(argv[a]), 1);
    const spts::matrix_stats stats = spts::analyse(L);
    std::printf("%s: %d rows, %lld strict entries, %d levels\n", argv[a], L.n,
                static_cast<long long>(L.strict_nnz()), stats.levels);
    for (int pes : {2, 4})
      for (std::int32_t block : {512, 2048, spts::default_block(L.n, pes), 65536, 262144, L.n / pes + 1}) {
        if (block > L.n / pes + 1) continue;
        const spts::block_cyclic part(L.n, block, pes);
        long long remote = 0;
        for (std::int32_t row = 0; row < L.n; ++row)
          for (std::int64_t k = L.row_ptr[row]; k < L.row_ptr[row + 1]; ++k)
            remote += part.owner(L.col[k]) != part.owner(row);
        std::printf("  %d PEs, block %7d%s: %6.3f%% of entries cross, at most %d PE changes on a path\n", pes, block,
                    block == spts::default_block(L.n, pes) ? " (default)" : "          ",
                    100.0 * remote / static_cast<double>(L.strict_nnz()), spts::most_path_crossings(L, part));
      }
  }
}
