// jacobi2d's options: defaults, every option's effect, and the refusals with their messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/options.hpp"

namespace jacobi {
namespace {

const std::vector<std::string> gpu_binary{"gio", "inter-k", "inter-k-overlap", "cpu"};

options parsed(std::vector<const char*> args, const std::vector<std::string>& here = gpu_binary) {
  args.insert(args.begin(), "jacobi2d");
  options opt;
  EXPECT_TRUE(parse_options(static_cast<int>(args.size()), args.data(), here, opt));
  return opt;
}

std::string refusal(std::vector<const char*> args, const std::vector<std::string>& here = gpu_binary) {
  args.insert(args.begin(), "jacobi2d");
  options opt;
  try {
    parse_options(static_cast<int>(args.size()), args.data(), here, opt);
  } catch (const support::usage_error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Options, Defaults) {
  const options opt = parsed({});
  EXPECT_EQ(opt.variant, "gio");
  EXPECT_EQ(opt.size.nx, 1024);
  EXPECT_EQ(opt.size.ny, 1024);
  EXPECT_EQ(opt.iterations, 1000);
  EXPECT_LT(opt.tolerance, 0);
  EXPECT_EQ(opt.plan().residual_every, 0);  // fixed mode: the residual only at the end
  EXPECT_EQ(opt.halo, halo_transfer::signal);
  EXPECT_EQ(opt.reps, 3);
  EXPECT_EQ(opt.warmup, 10);
  EXPECT_FALSE(opt.check);
  EXPECT_EQ(parsed({}, {"cpu"}).variant, "cpu");  // the binary's first variant
}

TEST(Options, EveryOptionTakesEffect) {
  const options opt = parsed({"--variant", "gio", "--size", "2Kx1K", "--pe-grid", "2x1", "--iterations", "500",
                              "--tolerance", "1e-3", "--residual-every", "7", "--halo", "p", "--warmup", "0",
                              "--reps", "5", "--wg-threads", "256", "--workgroups", "100", "--points-per-trip", "1", "--check", "--csv",
                              "out.csv", "--threads", "4", "--wait-timeout", "2.5", "--quiet"});
  EXPECT_EQ(opt.size.nx, 2048);
  EXPECT_EQ(opt.size.ny, 1024);
  EXPECT_EQ(opt.pe_grid_request.px, 2);
  EXPECT_EQ(opt.pe_grid_request.py, 1);
  EXPECT_EQ(opt.iterations, 500);
  EXPECT_DOUBLE_EQ(opt.tolerance, 1e-3);
  EXPECT_EQ(opt.plan().residual_every, 7);
  EXPECT_EQ(opt.halo, halo_transfer::p);
  EXPECT_EQ(parsed({"--variant", "gio", "--halo", "early"}).halo, halo_transfer::early);
  EXPECT_EQ(to_string(halo_transfer::early), "early");
  EXPECT_EQ(opt.warmup, 0);
  EXPECT_EQ(opt.reps, 5);
  EXPECT_EQ(opt.wg_threads, 256);
  EXPECT_EQ(opt.workgroups, 100);
  EXPECT_EQ(opt.points_per_trip, 1);
  EXPECT_EQ(parsed({}).points_per_trip, 0);  // the halo's default
  EXPECT_TRUE(opt.check);
  EXPECT_EQ(opt.csv, "out.csv");
  EXPECT_EQ(opt.threads, 4);
  EXPECT_DOUBLE_EQ(opt.wait_timeout, 2.5);
  EXPECT_TRUE(opt.quiet);
  EXPECT_EQ(parsed({"--variant=inter-k-overlap"}).variant, "inter-k-overlap");
}

TEST(Options, BreakdownSwitches) {
  EXPECT_TRUE(parsed({"--no-comm"}).no_comm);
  EXPECT_TRUE(parsed({"--no-compute"}).no_compute);
  EXPECT_TRUE(parsed({"--breakdown"}).breakdown);
}

TEST(Options, RefusesBadValuesNamingTheOption) {
  EXPECT_EQ(refusal({"--iterations", "0"}), "--iterations: '0' is not a positive whole number");
  EXPECT_EQ(refusal({"--size", "0x5"}), "--size: '0' is not a positive whole number");
  EXPECT_EQ(refusal({"--size", "12y5"}), "--size: '12y5' is not a positive whole number");
  EXPECT_EQ(refusal({"--tolerance", "-1"}), "--tolerance: '-1' is negative");
  EXPECT_EQ(refusal({"--tolerance", "abc"}), "--tolerance: 'abc' is not a finite number");
  EXPECT_EQ(refusal({"--halo", "put"}), "--halo: 'put' is not one of signal, p, early");
  EXPECT_EQ(refusal({"--variant", "mpi"}), "--variant: 'mpi' is not one of gio, nvshmem, gda, ikn, inter-k, inter-k-overlap, cpu");
  EXPECT_EQ(refusal({"--wait-timeout", "-2"}), "--wait-timeout: '-2' is negative");
  EXPECT_EQ(refusal({"--reps", "-1"}), "--reps: '-1' is not a positive whole number");
  EXPECT_EQ(refusal({"--frobnicate"}), "unknown option '--frobnicate'");
}

TEST(Options, RefusesCombinationsThatMakeNoSense) {
  EXPECT_EQ(refusal({"--residual-every", "5"}), "--residual-every needs --tolerance (convergence mode)");
  EXPECT_EQ(refusal({"--check", "--no-comm"}), "--check needs every part of the iteration: not with --no-comm or --no-compute");
  EXPECT_NE(refusal({"--breakdown", "--no-compute"}).find("--breakdown runs with and without"), std::string::npos);
  EXPECT_EQ(refusal({"--variant", "inter-k", "--halo", "p"}), "--halo applies to gio and nvshmem, not inter-k");
  EXPECT_EQ(refusal({"--variant", "cpu", "--workgroups", "4"}), "--workgroups applies to gio and nvshmem, not cpu");
  EXPECT_NE(refusal({"--variant", "cpu", "--wg-threads", "64"}).find("not cpu"), std::string::npos);
  EXPECT_EQ(refusal({"--variant", "inter-k", "--points-per-trip", "2"}), "--points-per-trip applies to gio and nvshmem, not inter-k");
  EXPECT_EQ(refusal({"--points-per-trip", "3"}), "--points-per-trip 3 is not 1 or 2");
  EXPECT_EQ(refusal({"--points-per-trip", "0"}), "--points-per-trip: '0' is not a positive whole number");
  EXPECT_EQ(refusal({"--halo", "p", "--points-per-trip", "2"}),
            "--points-per-trip 2 needs the signal halo (the p halo sends each point as it is updated)");
  EXPECT_EQ(refusal({"--wg-threads", "100"}), "--wg-threads 100 is not a multiple of 64 up to 1024");
  EXPECT_EQ(refusal({"--wg-threads", "2048"}), "--wg-threads 2048 is not a multiple of 64 up to 1024");
}

TEST(Options, VariantsOfOtherBinariesSayWhereTheyAre) {
  EXPECT_EQ(refusal({"--variant", "nvshmem"}),
            "variant 'nvshmem' is not in this program: it runs in jacobi2d-nvshmem, built when NVSHMEM is found");
  EXPECT_EQ(refusal({"--variant", "gio"}, {"cpu"}), "variant 'gio' is not in this program: it runs in the jacobi2d of a GPU build");
  EXPECT_NE(refusal({"--variant", "inter-k"}, {"cpu"}).find("the jacobi2d of a GPU build"), std::string::npos);
}

TEST(Options, HelpListsEveryOptionAndVariant) {
  options opt;
  const support::option_parser parser = make_parser(opt, gpu_binary);
  const std::string help = parser.help();
  for (const std::string& name : parser.names()) EXPECT_NE(help.find(name), std::string::npos) << name;
  for (const variant_info& v : all_variants()) {
    const bool built = std::find(gpu_binary.begin(), gpu_binary.end(), v.name) != gpu_binary.end();
    EXPECT_NE(help.find(std::string("\n  ") + v.name + (built ? "\n    " : " (not in this program")), std::string::npos) << v.name;
  }
  EXPECT_NE(help.find("  nvshmem (not in this program: in jacobi2d-nvshmem, built when NVSHMEM is found)\n"),
            std::string::npos) << help;
  const char* help_args[] = {"jacobi2d", "--size", "5", "--help", "--bogus"};
  EXPECT_FALSE(parse_options(5, help_args, gpu_binary, opt));
}

}  // namespace
}  // namespace jacobi
