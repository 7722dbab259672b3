// Helpers shared by the multi-process tests (run under mpirun; the heap is node-shared memory).
#pragma once
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>

#include "gio/host.hpp"

namespace gio::mp_test {

// This process's rank and the job size as the launcher sets them, readable before shmem_init
// (and without MPI); -1 when not started by mpirun.
inline int launcher_value(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : -1;
}
inline int launcher_rank() { return launcher_value("OMPI_COMM_WORLD_RANK"); }
inline int launcher_size() { return launcher_value("OMPI_COMM_WORLD_SIZE"); }

// A gio::error's cause: what() without its "gio: PE <n>: " prefix.
inline std::string cause_of(const std::string& what) {
  const auto colon = what.find(": ", what.find("PE "));
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

// main() of a test program that runs every test inside one gio job: sets `environment` (gio's
// configuration for the job), shmem_init, the tests, shmem_finalize.
inline int run_tests_in_one_job(int argc, char** argv, std::initializer_list<std::pair<const char*, const char*>> environment) {
  ::testing::InitGoogleTest(&argc, argv);
  for (const auto& [name, value] : environment) ::setenv(name, value, 1);
  try {
    shmem_init();
  } catch (const error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  const int failed = RUN_ALL_TESTS();
  shmem_finalize();
  return failed;
}

// `what` names this PE and the call: "gio: PE <me>: <call>...".
inline ::testing::AssertionResult names_pe_and_call(const std::string& what, const std::string& call) {
  const std::string prefix = "gio: PE " + std::to_string(shmem_my_pe()) + ": " + call;
  if (what.rfind(prefix, 0) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << what << "\" does not start with \"" << prefix << "\"";
}

}  // namespace gio::mp_test
