// Bootstrap: how PEs find each other and exchange setup data. MPI (processes started by
// mpirun, one PE each) or `single` (one PE, no launcher). Private to the host runtime.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace gio {

class bootstrap {
 public:
  virtual ~bootstrap() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int node_rank() const = 0;  // rank among the PEs of this node
  virtual int node_size() const = 0;
  // Identifies this PE's node: the world rank of its first PE (same for every PE of the node).
  virtual int node_id() const = 0;
  // Gathers `bytes` from every PE into `all` (size() * bytes), in rank order.
  virtual void allgather(const void* mine, void* all, std::size_t bytes) = 0;
  virtual void barrier() = 0;
  // Ends every process of the job with `status` (shmem_global_exit); does not return.
  [[noreturn]] virtual void abort_job(int status) = 0;
  virtual const char* name() const = 0;

  // Collective over this bootstrap's PEs: those passing the same `color` (>= 0) form a new
  // group, ranked by `key`; a PE passing a negative color gets nullptr. The group describes a
  // team (allgather, barrier and agree over its members); node_*() stay this PE's node values.
  virtual std::unique_ptr<bootstrap> split(int color, int key) = 0;

  // Collective: every PE says whether it failed (an empty string = success). Returns the
  // lowest failed PE and its cause on every PE, or nothing when all succeeded. This is how one
  // PE's failure reaches the others instead of leaving them waiting.
  struct failure {
    int pe;
    std::string cause;
  };
  std::optional<failure> agree(const std::string& my_failure);
};

// kind: "mpi" or "single". Throws std::runtime_error with the cause (e.g. not under mpirun).
std::unique_ptr<bootstrap> make_bootstrap(const std::string& kind);

}  // namespace gio
