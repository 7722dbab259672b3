// A test-only fake of rdma-core: the libibverbs and libmlx5 entry points that
// host/transports/gda/mlx5_nic.cpp resolves with dlsym, built as two shared libraries with the
// real sonames (libibverbs.so.1, libmlx5.so.1) so that mlx5_nic.cpp's dlopen finds them in place
// of rdma-core (tests/unit/mlx5_nic_fake_test.cpp). It presents mlx5 devices with one active port
// and acts as a small firmware: it records every DevX command inbox, checks what the commands name
// (CQ, umems, UAR page, PD, QP state) and returns well-formed outboxes. Every object it hands out
// is tracked, so a test can see what is still alive and what was destroyed while in use.
//
// This header is the test's control panel; its functions live in the fake libibverbs.so.1 (the
// test links it, so the library mlx5_nic.cpp dlopens by soname is this one).
#pragma once
#include <infiniband/verbs.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fake_rdma {

// What the fake presents. Devices are named mlx5_0, mlx5_1, ...; each has one port.
struct config {
  int devices = 1;
  int list_errno = 0;                   // non-zero: ibv_get_device_list fails with this errno
  bool roce = false;                    // the port's link layer: Ethernet (RoCE), else InfiniBand
  int active_mtu = IBV_MTU_4096;        // enum ibv_mtu
  bool devx = true;                     // mlx5dv_open_device(MLX5DV_CONTEXT_FLAGS_DEVX) succeeds
  bool nc_dedicated_uar = false;        // rdma-core v45's UAR kind (v44, installed here, refuses it)
  bool bf_uar = true;                   // BlueFlame UAR pages (none left: the NC page remains)
  std::uint32_t ts_format_cap = 0;      // sq_ts_format / roce qp_ts_format: 0 free-running only,
                                        // 1 real time only (a free-running QP is refused), 2 both
  std::uint32_t sq_wqebbs_per_wr = 2;   // verbs SQ sizing: mlx5 reserves room for its largest RC WQE
  std::vector<std::string> hidden;      // entry points dlsym does not find (an older rdma-core)
  std::string ibdev_path;               // the devices' sysfs directory (GID types without
                                        // _ibv_query_gid_ex); empty: one that does not exist
};

// Forget every object and record, free the fake's memory, and start over with `c`.
void reset(const config& c = config{});

// The next call of `entry_point` (e.g. "ibv_alloc_pd", "mlx5dv_devx_umem_reg") fails with errno
// `err`, as rdma-core reports it (NULL + errno, or the errno returned).
void fail_call(const std::string& entry_point, int err);
// The next DevX command with this opcode fails: the firmware's `status` and `syndrome` in the
// outbox (status 0: none, the kernel refused it) and errno `err` from the call.
void fail_command(std::uint16_t opcode, std::uint8_t status, std::uint32_t syndrome, int err);

// A dma-buf fd the test's GPU hook made: the host memory it stands for.
void dmabuf(int fd, void* base, std::size_t bytes);

// Fixed identities of device 0, for the test's expectations.
inline constexpr std::uint16_t lid = 0x17;                 // InfiniBand
inline constexpr std::uint32_t eqn = 0x27;                 // mlx5dv_devx_query_eqn(vector 0)
inline constexpr std::uint8_t next_hop_mac[6] = {0x02, 0x00, 0x5e, 0x10, 0x20, 0x30};  // RoCE AHs
inline constexpr int roce_v2_ipv4_gid_index = 3;           // the entry mlx5_nic should choose

// ---- what the fake saw ---------------------------------------------------------------------

struct devx_command {
  std::string call;                     // "general_cmd", "obj_create" or "obj_modify"
  std::uint16_t opcode = 0;
  std::vector<std::uint8_t> in;         // the inbox as sent
  std::uint32_t object_id = 0;          // obj_create: the cqn/qpn returned; obj_modify: the target's
  std::uint8_t status = 0;              // the outbox status returned
  int err = 0;                          // the errno returned
  std::vector<std::uint8_t> cqe_owner;  // CREATE_CQ: every CQE's op_own byte when the command ran
};
const std::vector<devx_command>& commands();

// Every object created or destroyed ("create umem 1", "destroy DevX QP 0x1000", ...) and the
// test's own notes, in order.
const std::vector<std::string>& events();
void note(const std::string& event);

// Misuse: destroying an object still in use or unknown, a command naming something that does not
// exist, a ring its umem does not cover, a QP transition from the wrong state, ...
const std::vector<std::string>& violations();

// Objects not yet destroyed, by name.
std::vector<std::string> live();

struct umem_info {
  std::uint32_t id = 0;
  const std::uint8_t* addr = nullptr;   // the memory it covers (through the dma-buf if there is one)
  std::size_t size = 0;
  std::uint32_t access = 0;
  int dmabuf_fd = -1;
  std::uint64_t pgsz_bitmap = 0;        // umem_reg_ex's; 0 for umem_reg
  bool live = false;
};
std::vector<umem_info> umems();         // every umem registered, in order

struct uar_info {
  std::uint32_t page_id = 0;
  std::uint32_t type = 0;               // the alloc_uar flags it was made with
  void* reg_addr = nullptr;
  bool live = false;
};
std::vector<uar_info> uars();           // every DevX UAR allocated, in order

struct verbs_modify {
  std::uint32_t qpn = 0;
  int mask = 0;
  ibv_qp_attr attr{};
};
const std::vector<verbs_modify>& modifies();  // ibv_modify_qp calls that succeeded

struct verbs_qp_info {
  std::uint32_t qpn = 0;
  std::uint32_t max_send_wr = 0;        // as asked
  std::uint32_t wqe_cnt = 0;            // the SQ made for it
  ibv_qp_cap cap{};                     // as asked
  int sq_sig_all = 0;
  ibv_qp_type qp_type = IBV_QPT_RC;
  bool live = false;
};
std::vector<verbs_qp_info> verbs_qps(); // every ibv_create_qp that succeeded, in order

struct mr_info {
  const void* addr = nullptr;           // reg_mr's address; reg_dmabuf_mr's iova
  std::size_t length = 0;
  int access = 0;
  int dmabuf_fd = -1;
  std::uint32_t lkey = 0, rkey = 0;
};
std::vector<mr_info> mrs();

}  // namespace fake_rdma
