// worksteal_core's host parts: the synthetic corpus and its reference count, the options, the
// checks every variant's result goes through.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "support/options.hpp"
#include "worksteal/corpus.hpp"
#include "worksteal/options.hpp"
#include "worksteal/reference.hpp"

namespace {
using namespace worksteal;

TEST(WorkstealCorpus, SyntheticIsDeterministicSkewedAndHoldsThePlantedWord) {
  const corpus a = synthetic_corpus(5000, "worksteal", 3), b = synthetic_corpus(5000, "worksteal", 3);
  ASSERT_EQ(a.documents(), 5000u);
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.offsets, b.offsets);
  std::uint64_t shortest = ~0ull, longest = 0;
  for (std::uint64_t i = 0; i < a.documents(); ++i) {
    const std::uint64_t n = a.offsets[i + 1] - a.offsets[i];
    shortest = std::min(shortest, n);
    longest = std::max(longest, n);
  }
  EXPECT_LE(shortest, 32u);
  EXPECT_GE(longest, 100 * shortest) << "lengths must be skewed";
  const std::uint64_t hits = count_containing(a, "worksteal");
  EXPECT_GT(hits, 5000u / 16);
  EXPECT_LT(hits, 5000u / 4);
  EXPECT_EQ(count_containing(a, "zzzzz"), 0u);  // letters past 'm' appear only where planted
}

TEST(WorkstealCorpus, FileHasOneDocumentPerLine) {
  const std::string path = ::testing::TempDir() + "worksteal_corpus.txt";
  {
    std::ofstream out(path);
    out << "a needle here\nnothing\n\nneedle\n";
  }
  const corpus c = read_corpus(path);
  EXPECT_EQ(c.documents(), 4u);
  EXPECT_EQ(count_containing(c, "needle"), 2u);
  EXPECT_TRUE(document_contains(c, 3, "needle"));
  EXPECT_FALSE(document_contains(c, 2, "needle"));
  EXPECT_THROW(read_corpus(path + ".missing"), std::runtime_error);
  std::remove(path.c_str());
}

TEST(WorkstealOptions, ParsesVariantsAndRejectsBadInput) {
  options opt;
  std::string help;
  const char* ok[] = {"worksteal", "--workload", "memset", "--variant", "ws,static,cpu", "--bias", "0.25", "--watch-busy", "16"};
  ASSERT_TRUE(parse_options(9, ok, opt, help));
  EXPECT_EQ(opt.watch_busy, 16u);
  EXPECT_EQ(opt.work, workload::memset);
  ASSERT_EQ(opt.variants.size(), 3u);
  EXPECT_EQ(opt.variants[1], variant::static_share);
  EXPECT_DOUBLE_EQ(opt.bias, 0.25);
  const char* bad_variant[] = {"worksteal", "--variant", "ws,fast"};
  EXPECT_THROW(parse_options(3, bad_variant, opt, help), support::usage_error);
  const char* bad_bias[] = {"worksteal", "--bias", "1.5"};
  EXPECT_THROW(parse_options(3, bad_bias, opt, help), support::usage_error);
  const char* bad_watch[] = {"worksteal", "--watch-busy", "-1"};
  EXPECT_THROW(parse_options(3, bad_watch, opt, help), support::usage_error);
  const char* split[] = {"worksteal", "--piece", "0", "--share-min-ns", "0"};
  ASSERT_TRUE(parse_options(5, split, opt, help));
  EXPECT_EQ(opt.piece, 0u);
  EXPECT_EQ(opt.share_min_ns, 0u);
  const char* bad_piece[] = {"worksteal", "--piece", "-3"};
  EXPECT_THROW(parse_options(3, bad_piece, opt, help), support::usage_error);
  const char* help_args[] = {"worksteal", "--help"};
  EXPECT_FALSE(parse_options(2, help_args, opt, help));
  EXPECT_NE(help.find("--termination"), std::string::npos);
}

// The tasks a document takes: its split tree, halves until each part has at most `piece` places.
TEST(WorkstealCorpus, ContainsSplitsLongDocumentsInHalvesDownToThePiece) {
  EXPECT_EQ(contains_tasks_for(100000, 0), 1u);   // whole documents
  EXPECT_EQ(contains_tasks_for(512, 512), 1u);
  EXPECT_EQ(contains_tasks_for(513, 512), 3u);    // 256 + 257
  EXPECT_EQ(contains_tasks_for(2048, 512), 7u);   // 4 parts of 512, 3 splits
  EXPECT_EQ(contains_tasks_for(2049, 512), 9u);   // 1024: 2 parts, 1025: 256 + 257 + 512
  EXPECT_EQ(contains_tasks_for(1, 1), 1u);
}

TEST(WorkstealChecks, UtsAndContainsJudgesCompareWithTheReference) {
  const uts::named_tree* t1 = uts::find_tree("T1");
  ASSERT_NE(t1, nullptr);
  run_figures fig;
  EXPECT_EQ(judge_uts(*t1, {t1->nodes, t1->leaves, t1->depth}, fig), "");
  EXPECT_NE(judge_uts(*t1, {t1->nodes - 1, t1->leaves, t1->depth}, fig), "");
  EXPECT_EQ(judge_contains(7, 7, fig), "");
  EXPECT_NE(judge_contains(6, 7, fig), "");
  EXPECT_EQ(cpu_memset(1000, fig), "");
  EXPECT_EQ(fig.executed, 1000.0);
}

}  // namespace
