#include "bootstrap.hpp"

#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace gio {

std::optional<bootstrap::failure> bootstrap::agree(const std::string& my_failure) {
  constexpr std::size_t cause_bytes = 512;
  std::vector<char> mine(cause_bytes, '\0');
  std::strncpy(mine.data(), my_failure.c_str(), cause_bytes - 1);
  if (!my_failure.empty() && mine[0] == '\0') mine[0] = '?';
  std::vector<char> all(cause_bytes * size());
  allgather(mine.data(), all.data(), cause_bytes);
  for (int pe = 0; pe < size(); ++pe) {
    const char* cause = all.data() + cause_bytes * pe;
    if (cause[0] != '\0') return failure{pe, std::string(cause)};
  }
  return std::nullopt;
}

namespace {

class single_bootstrap final : public bootstrap {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int node_rank() const override { return 0; }
  int node_size() const override { return 1; }
  int node_id() const override { return 0; }
  void allgather(const void* mine, void* all, std::size_t bytes) override { std::memcpy(all, mine, bytes); }
  void barrier() override {}
  [[noreturn]] void abort_job(int status) override { std::exit(status); }
  const char* name() const override { return "single"; }
  std::unique_ptr<bootstrap> split(int color, int) override {
    return color < 0 ? nullptr : std::make_unique<single_bootstrap>();
  }
};

// True when a launcher (mpirun/PMIx/Slurm) started this process.
bool launched_by_mpirun() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(var) != nullptr) return true;
  return false;
}

class mpi_bootstrap final : public bootstrap {
 public:
  mpi_bootstrap() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      if (!launched_by_mpirun())
        throw std::runtime_error(
            "not launched by mpirun (no OMPI_COMM_WORLD_SIZE/PMIX_RANK in the environment): start the "
            "program with `mpirun -np <PEs> ...`, or set GIO_BOOTSTRAP=single for one PE");
      int provided = 0;
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        throw std::runtime_error("MPI_Init_thread failed");
      owns_mpi_ = true;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &world_);
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(world_, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(world_, &rank_);
    MPI_Comm_size(world_, &size_);
    MPI_Comm_rank(node, &node_rank_);
    MPI_Comm_size(node, &node_size_);
    node_id_ = rank_;
    MPI_Bcast(&node_id_, 1, MPI_INT, 0, node);
    MPI_Comm_free(&node);
  }
  // A team's group: `comm` (owned) with the parent's node values.
  mpi_bootstrap(MPI_Comm comm, const mpi_bootstrap& parent)
      : world_(comm), node_rank_(parent.node_rank_), node_size_(parent.node_size_), node_id_(parent.node_id_) {
    MPI_Comm_rank(world_, &rank_);
    MPI_Comm_size(world_, &size_);
  }
  ~mpi_bootstrap() override {
    if (finalized()) return;  // the application ended MPI first: nothing left to free
    MPI_Comm_free(&world_);
    if (owns_mpi_) MPI_Finalize();
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int node_rank() const override { return node_rank_; }
  int node_size() const override { return node_size_; }
  int node_id() const override { return node_id_; }
  void allgather(const void* mine, void* all, std::size_t bytes) override {
    if (finalized()) throw std::runtime_error("MPI was finalized before gio");
    if (bytes > static_cast<std::size_t>(INT_MAX))
      throw std::runtime_error("an allgather of " + std::to_string(bytes) + " bytes per PE exceeds MPI's int count");
    MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE, world_);
  }
  void barrier() override {
    if (finalized()) throw std::runtime_error("MPI was finalized before gio");
    MPI_Barrier(world_);
  }
  [[noreturn]] void abort_job(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);  // MPI_Abort returned: this process at least
  }
  const char* name() const override { return "mpi"; }
  std::unique_ptr<bootstrap> split(int color, int key) override {
    if (finalized()) throw std::runtime_error("MPI was finalized before gio");
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(world_, color < 0 ? MPI_UNDEFINED : color, key, &comm);
    if (comm == MPI_COMM_NULL) return nullptr;
    return std::unique_ptr<bootstrap>(new mpi_bootstrap(comm, *this));
  }

 private:
  MPI_Comm world_ = MPI_COMM_NULL;  // every PE of this group (all PEs for the world bootstrap)
  static bool finalized() {
    int done = 0;
    MPI_Finalized(&done);
    return done != 0;
  }

  int rank_ = 0, size_ = 1, node_rank_ = 0, node_size_ = 1, node_id_ = 0;
  bool owns_mpi_ = false;
};

}  // namespace

std::unique_ptr<bootstrap> make_bootstrap(const std::string& kind) {
  if (kind == "single") return std::make_unique<single_bootstrap>();
  if (kind == "mpi") return std::make_unique<mpi_bootstrap>();
  throw std::runtime_error("GIO_BOOTSTRAP=\"" + kind + "\": expected mpi or single");
}

}  // namespace gio
