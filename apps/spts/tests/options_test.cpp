#include "options.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "partition.hpp"
#include "support/options.hpp"

namespace spts {
namespace {

std::optional<options> parse(std::vector<const char*> args) {
  args.insert(args.begin(), "spts");
  return parse_options(static_cast<int>(args.size()), args.data());
}

TEST(Options, Defaults) {
  const options o = *parse({"--gen", "road_usa:0.01"});
  EXPECT_EQ(o.variants, (std::vector<variant>{variant::vendor, variant::single, variant::gio}));
  EXPECT_EQ(o.push, push_mode::packed);
  EXPECT_EQ(o.input_name(), "road_usa:0.01");
  EXPECT_EQ(o.repeats, 10);
  EXPECT_EQ(o.warmup, 2);
  EXPECT_EQ(o.block, 0);
  EXPECT_EQ(o.kernel, kernel_choice::automatic);
  EXPECT_EQ(o.rows_per_ticket, 0);  // the kernel's own default
  EXPECT_EQ(o.backoff_ns, 256);
}

// Packed pushes go as stores to mapped addresses unless --push-path calls asks for gio's calls.
TEST(Options, PushPath) {
  EXPECT_TRUE(parse({"--gen", "road_usa"})->mapped_pushes);
  EXPECT_TRUE(parse({"--gen", "road_usa", "--push-path", "auto"})->mapped_pushes);
  EXPECT_FALSE(parse({"--gen", "road_usa", "--push-path", "calls"})->mapped_pushes);
  EXPECT_THROW(parse({"--gen", "road_usa", "--push-path", "stores"}), support::usage_error);
}

// gio on one PE runs single's kernels unless --one-pe distributed asks for gio's own.
TEST(Options, OnePeKernels) {
  EXPECT_TRUE(parse({"--gen", "road_usa"})->one_pe_local);
  EXPECT_TRUE(parse({"--gen", "road_usa", "--one-pe", "local"})->one_pe_local);
  EXPECT_FALSE(parse({"--gen", "road_usa", "--one-pe", "distributed"})->one_pe_local);
  EXPECT_THROW(parse({"--gen", "road_usa", "--one-pe", "gio"}), support::usage_error);
}

TEST(Options, KernelChoice) {
  for (kernel_choice k : {kernel_choice::automatic, kernel_choice::rounds, kernel_choice::slots})
    EXPECT_EQ(parse({"--gen", "road_usa", "--kernel", name(k)})->kernel, k);
  EXPECT_EQ(parse({"--gen", "road_usa", "--backoff", "0"})->backoff_ns, 0);
  const auto indegree = parse({"--gen", "road_usa", "--kernel", "indegree", "--variant", "cpu,vendor,single"});
  EXPECT_EQ(indegree->kernel, kernel_choice::indegree);
  EXPECT_EQ(indegree->stack_rows, 128);
  EXPECT_EQ(parse({"--gen", "road_usa", "--stack-rows", "0"})->stack_rows, 0);
  EXPECT_EQ(indegree->lane_rows, 2);
  EXPECT_EQ(parse({"--gen", "road_usa", "--lane-rows", "4"})->lane_rows, 4);
  EXPECT_FALSE(indegree->spare_takes);
  EXPECT_TRUE(parse({"--gen", "road_usa", "--queue-takes", "spare"})->spare_takes);
  EXPECT_FALSE(parse({"--gen", "road_usa", "--queue-takes", "idle"})->spare_takes);
  EXPECT_FALSE(indegree->stack_fifo);
  EXPECT_TRUE(parse({"--gen", "road_usa", "--stack-order", "fifo"})->stack_fifo);
  EXPECT_FALSE(parse({"--gen", "road_usa", "--stack-order", "lifo"})->stack_fifo);
  // Given, it is kept whatever the matrix's shape.
  EXPECT_EQ(plan_kernel(*indegree, variant::single, {14.1, 15, 1603}, 16, 512).kernel, kernel_choice::indegree);
}

// The indegree kernel runs single and gio with packed pushes; with the NIC variants or another
// push mode the run is refused, naming them.
TEST(Options, IndegreeKernelRunsSingleAndGio) {
  EXPECT_EQ(parse({"--gen", "road_usa", "--kernel", "indegree"})->kernel, kernel_choice::indegree);
  for (const char* variants : {"gda", "single,ikn"}) {
    try {
      parse({"--gen", "road_usa", "--kernel", "indegree", "--variant", variants});
      ADD_FAILURE() << "no error for " << variants;
    } catch (const support::usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("--kernel indegree runs single and gio, not"), std::string::npos)
          << e.what();
    }
  }
  try {
    parse({"--gen", "road_usa", "--kernel", "indegree", "--push", "signal"});
    ADD_FAILURE() << "no error for --push signal";
  } catch (const support::usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("not with --push signal"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(parse({"--gen", "road_usa", "--kernel", "indegree", "--variant", "single", "--push", "fence"}));
  EXPECT_NE(spts_help().find("indegree"), std::string::npos);
}

// --kernel auto per matrix shape and variant (the figures of docs/results.md, issue 4): the five
// classes' rows per level, longest row and densest column below the diagonal, with NVIDIA's slots
// limits (16, 512).
TEST(Options, AutoKernelFollowsTheMatrixShape) {
  const options automatic = *parse({"--gen", "road_usa"});
  const auto plan = [&](const options& o, double rows_per_level, std::int64_t longest, std::int64_t densest = 4,
                        variant v = variant::gio) {
    return plan_kernel(o, v, {rows_per_level, longest, densest}, 16, 512);
  };
  const kernel_plan road = plan(automatic, 67000, 4, 4, variant::gda);
  EXPECT_EQ(road.kernel, kernel_choice::slots);
  EXPECT_EQ(road.rows_per_ticket, 0);
  // gio with packed pushes: the indegree kernel on the road class, like single; other push modes
  // and the NIC variants keep the polling kernels (the indegree kernel refuses them).
  EXPECT_EQ(plan(automatic, 67000, 4).kernel, kernel_choice::indegree);
  EXPECT_EQ(plan(*parse({"--gen", "road_usa", "--push", "signal"}), 67000, 4).kernel, kernel_choice::slots);
  EXPECT_EQ(plan(automatic, 67000, 4, 4, variant::ikn).kernel, kernel_choice::slots);
  const kernel_plan asic = plan(automatic, 14.1, 4, 1603);  // chains: latency-bound
  EXPECT_EQ(asic.kernel, kernel_choice::rounds);
  EXPECT_EQ(asic.rows_per_ticket, 1);
  EXPECT_EQ(asic.wgs_per_multiprocessor, 1);  // chains: one workgroup per multiprocessor
  EXPECT_EQ(road.wgs_per_multiprocessor, 0);
  const kernel_plan wiki = plan(automatic, 265000, 18731, 5682);  // long rows
  EXPECT_EQ(wiki.kernel, kernel_choice::rounds);
  EXPECT_EQ(wiki.rows_per_ticket, 0);
  EXPECT_EQ(plan(automatic, 511, 3).kernel, kernel_choice::rounds);
  EXPECT_EQ(plan(automatic, 512, 3, 17).kernel, kernel_choice::slots);  // a hub column
  EXPECT_EQ(plan(automatic, 512, 17).kernel, kernel_choice::rounds);
  // single: the indegree kernel where no row and no column is longer than 16 (road networks).
  EXPECT_EQ(plan(automatic, 67000, 4, 4, variant::single).kernel, kernel_choice::indegree);
  EXPECT_EQ(plan(automatic, 67000, 4, 4, variant::single).rows_per_ticket, 0);
  EXPECT_EQ(plan(automatic, 512, 16, 16, variant::single).kernel, kernel_choice::indegree);
  EXPECT_EQ(plan(automatic, 512, 16, 17, variant::single).kernel, kernel_choice::slots);  // a hub column
  EXPECT_EQ(plan(automatic, 4172800, 27, 27, variant::single).kernel, kernel_choice::rounds);  // KKT: long rows
  EXPECT_EQ(plan(automatic, 265000, 18731, 5682, variant::single).kernel, kernel_choice::rounds);  // wiki_talk
  EXPECT_EQ(plan(automatic, 14.1, 4, 1603, variant::single).kernel, kernel_choice::rounds);  // asic: chains first
  EXPECT_EQ(plan(automatic, 511, 3, 3, variant::single).kernel, kernel_choice::rounds);
  // What the user names is kept.
  const kernel_plan forced = plan(*parse({"--gen", "road_usa", "--kernel", "slots"}), 14.1, 15);
  EXPECT_EQ(forced.kernel, kernel_choice::slots);
  EXPECT_EQ(forced.rows_per_ticket, 0);
  EXPECT_EQ(plan(*parse({"--gen", "road_usa", "--kernel", "slots"}), 67000, 4, 4, variant::single).kernel,
            kernel_choice::slots);
  EXPECT_EQ(plan(*parse({"--gen", "road_usa", "--rows-per-ticket", "8"}), 14.1, 15).rows_per_ticket, 8);
  EXPECT_EQ(plan(*parse({"--gen", "road_usa", "--kernel", "rounds"}), 14.1, 15).rows_per_ticket, 0);
  EXPECT_EQ(plan(*parse({"--gen", "road_usa", "--kernel", "rounds"}), 14.1, 15).wgs_per_multiprocessor, 0);
  EXPECT_EQ(plan(*parse({"--gen", "road_usa", "--workgroups", "660"}), 14.1, 15).wgs_per_multiprocessor, 0);
}

TEST(Options, EveryOptionIsApplied) {
  // clang-format off
  const options o = *parse({"--matrix", "dir/L.mtx", "--tril", "--seed", "7", "--variant", "gio,cpu,gio",
                            "--push", "fence", "--block", "128", "--rows-per-ticket", "32",
                            "--entries-per-lane", "8", "--workgroups", "100", "--warmup", "0", "--repeats", "3",
                            "--timeout", "2.5", "--gen-threads", "4", "--csv", "out.csv", "--save", "copy.mtx",
                            "--quiet", "--round-stats"});
  // clang-format on
  EXPECT_EQ(o.matrix_path, "dir/L.mtx");
  EXPECT_EQ(o.input_name(), "L.mtx");
  EXPECT_TRUE(o.lower_of_general);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.variants, (std::vector<variant>{variant::cpu, variant::gio}));  // baselines first, no repeats
  EXPECT_EQ(o.push, push_mode::fence);
  EXPECT_EQ(o.block, 128);
  EXPECT_EQ(parse({"--gen", "road_usa", "--block", "contiguous"})->block, contiguous_blocks);
  EXPECT_EQ(o.rows_per_ticket, 32);
  EXPECT_EQ(o.entries_per_lane, 8);
  EXPECT_EQ(o.workgroups, 100);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(o.repeats, 3);
  EXPECT_DOUBLE_EQ(o.timeout_seconds, 2.5);
  EXPECT_EQ(o.generator_threads, 4u);
  EXPECT_EQ(o.csv_path, "out.csv");
  EXPECT_EQ(o.save_path, "copy.mtx");
  EXPECT_TRUE(o.quiet);
  EXPECT_TRUE(o.round_stats);
  EXPECT_TRUE(o.wants(variant::gio));
  EXPECT_FALSE(o.wants(variant::vendor));
}

TEST(Options, HelpStopsParsing) { EXPECT_FALSE(parse({"--gen", "road_usa", "--help", "--bogus"}).has_value()); }

TEST(Options, BadInputIsAUsageError) {
  const std::vector<std::vector<const char*>> bad{
      {},                                          // no input
      {"--gen", "road_usa", "--matrix", "L.mtx"},  // two inputs
      {"--gen", "road_usa", "--tril"},             // --tril without a file
      {"--gen", "roads"},
      {"--gen", "road_usa", "--variant", "gpu"},
      {"--gen", "road_usa", "--variant", ""},
      {"--gen", "road_usa", "--variant", "gio,ikn"},  // one transport per run
      {"--gen", "road_usa", "--push", "none"},
      {"--gen", "road_usa", "--block", "0"},
      {"--gen", "road_usa", "--block", "halves"},
      {"--gen", "road_usa", "--repeats", "0"},
      {"--gen", "road_usa", "--rows-per-ticket", "65537"},
      {"--gen", "road_usa", "--kernel", "fast"},
      {"--gen", "road_usa", "--backoff", "-1"},
      {"--gen", "road_usa", "--stack-rows", "129"},
      {"--gen", "road_usa", "--lane-rows", "3"},
      {"--gen", "road_usa", "--queue-takes", "busy"},
      {"--gen", "road_usa", "--stack-order", "random"},
      {"--gen", "road_usa", "--timeout", "-1"},
      {"--gen", "road_usa", "--bogus"},
      {"--gen"},
  };
  for (const auto& args : bad) EXPECT_THROW(parse(args), support::usage_error) << (args.empty() ? "" : args.back());
}

TEST(Options, HelpExplainsEveryOptionAndClass) {
  const std::string help = spts_help();
  for (const char* option : {"--matrix", "--tril", "--gen", "--seed", "--variant", "--push", "--block",
                             "--kernel", "--backoff", "--stack-rows", "--lane-rows", "--rows-per-ticket", "--entries-per-lane", "--workgroups", "--one-pe", "--pollers", "--queue-takes", "--stack-order", "--warmup", "--repeats",
                             "--timeout", "--gen-threads", "--csv", "--save", "--quiet", "--round-stats", "--help"})
    EXPECT_NE(help.find(option), std::string::npos) << option;
  for (const auto& c : matrix_classes()) EXPECT_NE(help.find(c.name), std::string::npos) << c.name;
  for (const char* mode : {"packed", "signal", "fence", "amo"}) EXPECT_NE(help.find(mode), std::string::npos) << mode;
  EXPECT_NE(help.find("Exit status"), std::string::npos);
}

TEST(Variants, OneTransportPerRun) {
  EXPECT_TRUE(is_distributed(variant::ikn) && is_distributed(variant::gda) && is_distributed(variant::gio));
  EXPECT_FALSE(is_distributed(variant::single));
}

TEST(Variants, NamesRoundTrip) {
  for (variant v : {variant::cpu, variant::vendor, variant::single, variant::gio, variant::gda, variant::ikn})
    EXPECT_EQ(parse_variant(name(v)), v);
  for (push_mode m : {push_mode::packed, push_mode::signal, push_mode::fence, push_mode::amo})
    EXPECT_EQ(parse_push_mode(name(m)), m);
  EXPECT_THROW(parse_push_mode("none"), std::invalid_argument);  // the single variant's, not a choice
}

}  // namespace
}  // namespace spts
