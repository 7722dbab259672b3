// Helpers shared by the multi-process tests (run under mpirun; the heap is node-shared memory).
#pragma once
#include <cstdlib>
#include <string>

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

}  // namespace gio::mp_test
