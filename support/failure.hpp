// Ending an MPI job on an error so that every PE exits non-zero with a line naming the PE and the
// cause ("<program>: PE <n>: <cause>"), and no process is left running.
//
//   agree(comm, cause, code)  Collective. When any PE has a non-empty cause, every PE prints its
//                             line (its own cause, or which PE failed and why) and throws
//                             job_failure(code); main() then returns code on every PE. For
//                             failures every PE reaches at the same point: bad input, a check.
//   abort_job(comm, cause)    One PE, at any time (the others may be blocked in MPI or spinning in
//                             a GPU kernel): prints its line, then MPI_Abort ends every process.
//   or_abort(comm, fn)        Runs fn; any exception but job_failure becomes abort_job. Objects
//                             made before the call are still alive then, so a destructor that
//                             frees collectively cannot hang the failing PE.
//   run_mpi_main(...)         main(): MPI init and finalize around the body, job_failure -> its
//                             exit code, any other exception -> abort_job.
#pragma once
#include <mpi.h>

#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

namespace support {

inline constexpr int exit_failure = 1;  // a run-time failure: a failed check, a GPU or library error
inline constexpr int exit_usage = 2;    // bad options or input the job cannot run with
inline constexpr int exit_skipped = 77; // this layout is not supported by the chosen library (CTest's skip code)

// The program's name for messages (the basename of argv[0]).
void set_program_name(const char* argv0);
const std::string& program_name();

class job_failure : public std::runtime_error {
 public:
  job_failure(const std::string& cause, int exit_code) : std::runtime_error(cause), exit_code_(exit_code) {}
  int exit_code() const noexcept { return exit_code_; }

 private:
  int exit_code_;
};

void agree(MPI_Comm comm, const std::string& cause, int exit_code = exit_failure);
[[noreturn]] void abort_job(MPI_Comm comm, const std::string& cause);

template <class Body> void or_abort(MPI_Comm comm, Body&& body) {
  try {
    body();
  } catch (const job_failure&) {
    throw;
  } catch (const std::exception& e) {
    abort_job(comm, e.what());
  }
}

int run_mpi_main(int argc, char** argv, int thread_level, const std::function<int(MPI_Comm)>& body);

}  // namespace support
