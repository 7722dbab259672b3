// Shared by the two fake libraries (fake_ibverbs.cpp holds the state, fake_mlx5.cpp uses it):
// the object registry and the failure switches behind fake_rdma_core.hpp.
#pragma once
#include <infiniband/mlx5dv.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fake_rdma_core.hpp"

namespace fake_rdma::detail {

enum class kind { device_list, context, pd, mr, cq, qp, ah, umem, uar, devx_cq, devx_qp };

// One live object, keyed by the handle the fake returned for it.
struct object {
  kind k = kind::context;
  std::string name;                       // for events and violations: "umem 3", "DevX QP 0x1000"
  const void* handle = nullptr;           // what the fake returned for it (set by add)
  std::uint32_t id = 0;                   // pdn, umem id, UAR page id, cqn or qpn
  const ibv_context* context = nullptr;   // the context it was made on
  std::vector<const void*> uses;          // handles of the objects it names (kept alive by it)
  int users = 0;                          // live objects naming this one
  int qp_state = IBV_QPS_RESET;           // qp, devx_qp
  std::size_t record = 0;                 // index into state's umems / uars / qps records
  std::shared_ptr<void> memory;           // the handle and its buffers, freed with the object
};

struct command_failure {
  std::uint8_t status = 0;
  std::uint32_t syndrome = 0;
  int err = 0;
};

struct state {
  config cfg;
  std::vector<ibv_device> devices;
  std::map<const void*, object> objects;
  std::vector<devx_command> commands;
  std::vector<std::string> events, violations;
  std::vector<umem_info> umems;
  std::vector<uar_info> uars;
  std::vector<verbs_modify> modifies;
  std::vector<verbs_qp_info> qps;
  std::vector<mr_info> mrs;
  std::map<std::string, int> call_failures;
  std::map<std::uint16_t, command_failure> command_failures;
  struct range {
    std::uint8_t* base;
    std::size_t bytes;
  };
  std::map<int, range> dmabufs;
  // Each context's non-cached UAR page: rdma-core answers every NC request with this one page
  // (mlx5_get_singleton_nc_uar), made once and freed with the context, never by its user.
  std::map<const ibv_context*, mlx5dv_devx_uar*> nc_singletons;
  std::uint32_t next_id = 1;
};

// What the handles point into: rdma-core's public struct first, then what mlx5dv_init_obj reports.
// A context's QPs and CQs share one doorbell-record page and one UAR page, as rdma-core packs
// them (mlx5_nic.cpp maps each page into the GPU once).
struct context_memory {
  verbs_context v{};
  std::shared_ptr<std::uint8_t> dbrec_page;
  std::shared_ptr<std::uint8_t> uar_page;
  std::size_t next_dbrec = 0;
  bool devx = false;  // opened by mlx5dv_open_device with MLX5DV_CONTEXT_FLAGS_DEVX
  std::uint32_t* new_dbrec() {
    auto* r = reinterpret_cast<std::uint32_t*>(dbrec_page.get() + next_dbrec);
    next_dbrec = (next_dbrec + 64) % 4096;
    return r;
  }
};
struct qp_memory {
  ibv_qp qp{};
  std::shared_ptr<std::uint8_t> sq;
  std::uint32_t* dbrec = nullptr;
  void* bf_reg = nullptr;
};
struct cq_memory {
  ibv_cq_ex cq{};
  std::shared_ptr<std::uint8_t> buf;
  std::uint32_t cqe_cnt = 0, cqe_size = 0;
  std::uint32_t* dbrec = nullptr;
};
struct ah_memory {
  ibv_ah ah{};
  mlx5_wqe_av av{};
};

state& st();
context_memory* memory_of(const ibv_context* context);
bool hidden(const char* symbol);
// errno to fail `call` with (the test asked for it once), else 0.
int take_failure(const char* call);
void violation(const std::string& what);
// Registers a new object under `handle`: "create <name>" is logged and every handle in o.uses
// gains a user. A use that is not a live object is a violation.
object& add(const void* handle, object o);
// Destroys the object of `handle` if it is a live `k` nobody uses: 0, else a violation and
// EINVAL (unknown) or EBUSY (in use), as the kernel answers.
int remove(const void* handle, kind k);
object* find(const void* handle, kind k);
object* find_id(kind k, std::uint32_t id, const ibv_context* context);
// Zeroed, page-aligned memory that lives as long as the returned pointer's last owner.
std::shared_ptr<std::uint8_t> pages(std::size_t bytes);
std::string hex(std::uint64_t v);

}  // namespace fake_rdma::detail

// The resolver of an entry point a test may hide: dlsym runs it (a GNU indirect function) on each
// lookup, and a null address reads as "no such symbol" to mlx5_nic.cpp, as in an rdma-core too old
// to have it. Nothing in the fake calls these symbols itself, so only dlsym runs the resolvers.
#define FAKE_RDMA_HIDEABLE(symbol, implementation)                                       \
  extern "C" decltype(&implementation) fake_rdma_resolve_##symbol() {                    \
    return fake_rdma::detail::hidden(#symbol) ? nullptr : &implementation;               \
  }                                                                                      \
  extern "C" decltype(implementation) symbol __attribute__((ifunc("fake_rdma_resolve_" #symbol)))
