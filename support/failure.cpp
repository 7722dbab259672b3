#include "support/failure.hpp"

#include <cstdio>
#include <cstdlib>

namespace support {

namespace {
std::string& name_storage() {
  static std::string name = "app";
  return name;
}

int rank_in(MPI_Comm comm) {
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

void print_line(int rank, const std::string& cause) {
  std::fprintf(stderr, "%s: PE %d: %s\n", program_name().c_str(), rank, cause.c_str());
  std::fflush(stderr);
}
}  // namespace

void set_program_name(const char* argv0) {
  std::string name = argv0 ? argv0 : "app";
  const std::size_t slash = name.rfind('/');
  name_storage() = slash == std::string::npos ? name : name.substr(slash + 1);
}

const std::string& program_name() { return name_storage(); }

void agree(MPI_Comm comm, const std::string& cause, int exit_code) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const int rank = rank_in(comm);
  int first = cause.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  // The first failing PE's cause and exit code, for everyone's line and status.
  int header[2] = {static_cast<int>(cause.size()), exit_code};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  std::string first_cause = rank == first ? cause : std::string(static_cast<std::size_t>(header[0]), '\0');
  MPI_Bcast(first_cause.data(), header[0], MPI_CHAR, first, comm);
  const std::string line = cause.empty() ? "stopped because PE " + std::to_string(first) + " failed: " + first_cause : cause;
  print_line(rank, line);
  throw job_failure(line, header[1]);
}

void abort_job(MPI_Comm comm, const std::string& cause) {
  print_line(rank_in(comm), cause);
  MPI_Abort(comm, exit_failure);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}

int run_mpi_main(int argc, char** argv, int thread_level, const std::function<int(MPI_Comm)>& body) {
  set_program_name(argc > 0 ? argv[0] : nullptr);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, thread_level, &provided);
  if (provided < thread_level)
    abort_job(MPI_COMM_WORLD, "MPI provides thread level " + std::to_string(provided) + ", this program needs " +
                                  std::to_string(thread_level));
  int status = 0;
  or_abort(MPI_COMM_WORLD, [&] {
    try {
      status = body(MPI_COMM_WORLD);
    } catch (const job_failure& failure) {
      status = failure.exit_code();
    }
  });
  MPI_Finalize();
  return status;
}

}  // namespace support
