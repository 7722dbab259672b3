// support::agree across a real MPI job (run under mpirun with 2 and 3 processes): when one PE has a
// cause, every PE throws job_failure with the first failing PE's exit code, and the others' lines
// name that PE; when none has, nobody throws.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

#include "support/failure.hpp"

namespace {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

TEST(Agree, NobodyFailsNobodyThrows) { EXPECT_NO_THROW(support::agree(MPI_COMM_WORLD, "")); }

TEST(Agree, OneFailingPEStopsEveryPE) {
  const int failing = size() - 1;
  const std::string cause = rank() == failing ? "grid too small" : "";
  try {
    support::agree(MPI_COMM_WORLD, cause, 7);
    FAIL() << "agree returned on PE " << rank();
  } catch (const support::job_failure& f) {
    EXPECT_EQ(f.exit_code(), 7);
    const std::string expected =
        rank() == failing ? "grid too small" : "stopped because PE " + std::to_string(failing) + " failed: grid too small";
    EXPECT_EQ(std::string(f.what()), expected);
  }
}

TEST(Agree, TheFirstFailingPEsCodeWins) {
  // Every PE fails with its own code: the lowest PE's code is everyone's.
  try {
    support::agree(MPI_COMM_WORLD, "cause " + std::to_string(rank()), 10 + rank());
    FAIL() << "agree returned";
  } catch (const support::job_failure& f) {
    EXPECT_EQ(f.exit_code(), 10);
    EXPECT_EQ(std::string(f.what()), "cause " + std::to_string(rank()));  // each keeps its own cause
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  support::set_program_name(argv[0]);
  int failed = RUN_ALL_TESTS();
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}
