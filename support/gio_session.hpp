// gio for the duration of an app's run(): shmem_init on every PE, agreed on (a PE that fails
// makes every PE fail with its cause), and shmem_finalize when the session ends, also when a
// failure every PE agreed on unwinds run() (a PE that aborts the job never gets there).
// Header-only: the GPU programs that use it link libgio; gio_support itself does not.
#pragma once
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>

#include "support/failure.hpp"
#include "gio/host.hpp"

namespace support {

class gio_session {
 public:
  explicit gio_session(MPI_Comm comm) {
    std::string cause;
    try {
      gio::shmem_init();
    } catch (const std::exception& e) {
      cause = e.what();
    }
    agree(comm, cause);
  }
  ~gio_session() {
    try {
      gio::shmem_finalize();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", program_name().c_str(), e.what());
    }
  }
  gio_session(const gio_session&) = delete;
  gio_session& operator=(const gio_session&) = delete;
};

}  // namespace support
