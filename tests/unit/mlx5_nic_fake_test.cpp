// The mlx5 NIC (host/transports/gda/mlx5_nic.cpp) end to end on the CPU, against the fake
// rdma-core of fake_rdma_core/ (no NIC or GPU anywhere here): open_mlx5, register_memory,
// create_qp in both placements, address_of, connect (each QP to itself), start, stop and
// teardown. What is checked: the DevX commands placement::gpu sends (decoded with mlx5_prm.hpp's
// field table), the verbs calls of placement::host, the order objects are made and destroyed in,
// that nothing is left behind, and the error messages of the paths that fail.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <infiniband/mlx5dv.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_rdma_core.hpp"
#include "transports/gda/mlx5_nic_select.hpp"
#include "transports/gda/mlx5_prm.hpp"
#include "transports/gda/nic.hpp"

namespace {

namespace gda = gio::transports::gda;
namespace prm = gda::prm;
namespace L = prm::layout;
using ::testing::HasSubstr;

constexpr std::uint32_t log_sq = 6, log_cq = 7;
constexpr std::uint8_t ipv4_gid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : "; ") + x;
  return s;
}

// The GPU runtime's hooks over host memory: "GPU" allocations are malloc'd (deliberately not
// 64 KiB-aligned), mappings are the identity, and everything is recorded.
struct fake_gpu {
  std::map<void*, std::size_t> allocations;
  struct mapping {
    std::size_t bytes;
    bool io;
  };
  std::map<void*, mapping> mapped;  // host page -> range
  bool dmabuf = false;              // dmabuf_fd exports (a /dev/null fd the fake rdma-core is told about)
  std::vector<int> fds;

  gda::gpu_hooks hooks() {
    gda::gpu_hooks h;
    h.dmabuf_fd = [this](void* base, std::size_t bytes, std::string* why) {
      if (!dmabuf) {
        *why = "the fake GPU exports none";
        return -1;
      }
      const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      fake_rdma::dmabuf(fd, base, bytes);
      fds.push_back(fd);
      return fd;
    };
    h.map_host = [this](void* host, std::size_t bytes, bool io) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(host) % 4096, 0u) << "map_host of an unaligned range";
      EXPECT_EQ(mapped.count(host), 0u) << "a page mapped twice";
      mapped[host] = {bytes, io};
      return host;
    };
    h.unmap_host = [this](void* host) { EXPECT_EQ(mapped.erase(host), 1u) << "unmap_host of a range never mapped"; };
    h.alloc_device = [this](std::size_t bytes) {
      void* p = std::malloc(bytes);
      allocations[p] = bytes;
      fake_rdma::note("alloc_device");
      return p;
    };
    h.free_device = [this](void* p) {
      EXPECT_EQ(allocations.erase(p), 1u) << "free_device of memory never allocated";
      fake_rdma::note("free_device");
      std::free(p);
    };
    h.copy_to_device = [](void* device, const void* host, std::size_t bytes) {
      fake_rdma::note("copy_to_device");
      std::memcpy(device, host, bytes);
    };
    return h;
  }

  // The allocation holding [p, p + bytes), if any.
  bool in_allocation(const void* p, std::size_t bytes) const {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (const auto& [base, size] : allocations) {
      const auto* a = static_cast<const std::uint8_t*>(base);
      if (b >= a && b + bytes <= a + size) return true;
    }
    return false;
  }
};

class Mlx5NicFake : public ::testing::Test {
 protected:
  void open(const fake_rdma::config& c = fake_rdma::config{}) {
    fake_rdma::reset(c);
    nic_ = gda::open_mlx5(boot_, select_, gpu_.hooks(), &why_);
  }

  // Everything the NIC made is gone once it is, and nothing was misused on the way.
  void TearDown() override {
    nic_.reset();
    EXPECT_EQ(join(fake_rdma::live()), "");
    EXPECT_EQ(join(fake_rdma::violations()), "");
    EXPECT_TRUE(gpu_.allocations.empty());
    EXPECT_TRUE(gpu_.mapped.empty());
    for (int fd : gpu_.fds) EXPECT_EQ(fcntl(fd, F_GETFD), -1) << "dma-buf fd " << fd << " left open";
  }

  // The DevX commands of `opcode`, in order.
  static std::vector<fake_rdma::devx_command> sent(std::uint16_t opcode) {
    std::vector<fake_rdma::devx_command> r;
    for (const auto& c : fake_rdma::commands())
      if (c.opcode == opcode) r.push_back(c);
    return r;
  }
  static std::vector<std::uint16_t> opcodes() {
    std::vector<std::uint16_t> r;
    for (const auto& c : fake_rdma::commands()) r.push_back(c.opcode);
    return r;
  }
  // Position of `event` in the fake's log (it must be there).
  static std::size_t at(const std::string& event) {
    const auto& e = fake_rdma::events();
    const auto it = std::find(e.begin(), e.end(), event);
    EXPECT_NE(it, e.end()) << "no event \"" << event << "\" in: " << join(e);
    return static_cast<std::size_t>(it - e.begin());
  }
  static std::size_t starting(const std::string& prefix) {
    const auto& e = fake_rdma::events();
    return static_cast<std::size_t>(
        std::count_if(e.begin(), e.end(), [&](const std::string& x) { return x.rfind(prefix, 0) == 0; }));
  }
  static fake_rdma::umem_info umem(std::uint64_t id) {
    for (const auto& u : fake_rdma::umems())
      if (u.id == id) return u;
    ADD_FAILURE() << "no umem " << id;
    return {};
  }
  static std::string hex(std::uint64_t v) {
    char t[24];
    std::snprintf(t, sizeof t, "0x%llx", static_cast<unsigned long long>(v));
    return t;
  }

  gda::collectives boot_ = [] {
    gda::collectives c;
    c.my_pe = 0;
    c.n_pes = 1;
    c.allgather = [](const void* mine, void* all, std::size_t bytes) { std::memcpy(all, mine, bytes); };
    c.barrier = [] {};
    return c;
  }();
  gda::mlx5_selection select_;  // no GPU bus id: hwloc is not consulted
  fake_gpu gpu_;                // outlives nic_
  std::unique_ptr<gda::nic> nic_;
  std::string why_;
  std::vector<char> heap_ = std::vector<char>(1 << 20);
};

class Mlx5NicLink : public Mlx5NicFake, public ::testing::WithParamInterface<bool> {
 protected:
  fake_rdma::config link() const {
    fake_rdma::config c;
    c.roce = GetParam();
    c.active_mtu = GetParam() ? IBV_MTU_1024 : IBV_MTU_4096;
    return c;
  }
};

// ---- placement::gpu: DevX objects over GPU memory --------------------------------------------

TEST_P(Mlx5NicLink, DevxRingsInGpuMemory) {
  const bool roce = GetParam();
  open(link());
  ASSERT_NE(nic_, nullptr) << why_;
  EXPECT_THAT(nic_->describe(), HasSubstr("mlx5_0 port 1"));
  EXPECT_THAT(nic_->describe(), HasSubstr(roce ? "RoCEv2 GID 3 10.0.0.1" : "InfiniBand LID 0x0017"));
  EXPECT_THAT(nic_->describe(), HasSubstr("rings in GPU memory (DevX): yes"));
  EXPECT_TRUE(nic_->has_ext_atomics());
  // The capabilities: atomic (for the 4-byte masked atomics), then general (for DevX), and on
  // RoCE the RoCE group (the QPs' timestamp format).
  std::vector<std::uint16_t> queries{prm::op::query_hca_cap, prm::op::query_hca_cap};
  if (roce) queries.push_back(prm::op::query_hca_cap);
  ASSERT_EQ(opcodes(), queries);
  EXPECT_EQ(prm::get(fake_rdma::commands()[0].in.data(), L::op_mod), prm::cap_atomic << 1 | 1);
  EXPECT_EQ(prm::get(fake_rdma::commands()[1].in.data(), L::op_mod), prm::cap_general << 1 | 1);
  if (roce) EXPECT_EQ(prm::get(fake_rdma::commands()[2].in.data(), L::op_mod), prm::cap_roce << 1 | 1);

  const gda::memory_region r = nic_->register_memory(heap_.data(), heap_.size());
  EXPECT_EQ(r.address, reinterpret_cast<std::uintptr_t>(heap_.data()));
  ASSERT_EQ(fake_rdma::mrs().size(), 1u);
  EXPECT_EQ(fake_rdma::mrs()[0].dmabuf_fd, -1);  // no dma-buf hook: peer memory
  EXPECT_EQ(fake_rdma::mrs()[0].access, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                                            IBV_ACCESS_REMOTE_ATOMIC);
  EXPECT_EQ(r.lkey, fake_rdma::mrs()[0].lkey);
  EXPECT_EQ(r.rkey, fake_rdma::mrs()[0].rkey);

  const gda::qp_rings q = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  queries.insert(queries.end(), {prm::op::create_cq, prm::op::create_qp});
  ASSERT_EQ(opcodes(), queries);
  // GPU memory: one allocation, its contents written once, before any DevX object exists.
  ASSERT_EQ(gpu_.allocations.size(), 1u);
  EXPECT_LT(at("copy_to_device"), at("create umem " + std::to_string(fake_rdma::umems()[0].id)));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q.sq) % (64 << 10), 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q.cq) % (64 << 10), 0u);
  EXPECT_EQ(q.log_sq, log_sq);
  EXPECT_EQ(q.log_cq, log_cq);
  EXPECT_TRUE(gpu_.in_allocation(q.sq, 64u << log_sq));
  EXPECT_TRUE(gpu_.in_allocation(q.cq, 64u << log_cq));
  EXPECT_TRUE(gpu_.in_allocation(q.dbrec, 8));
  EXPECT_TRUE(gpu_.in_allocation(q.cq_dbrec, 8));
  for (std::size_t i = 0; i < (64u << log_sq); ++i) ASSERT_EQ(static_cast<std::uint8_t*>(q.sq)[i], 0) << i;
  EXPECT_EQ(q.dbrec[0] | q.dbrec[1] | q.cq_dbrec[0] | q.cq_dbrec[1], 0u);
  EXPECT_EQ(q.sq_host, nullptr);
  EXPECT_EQ(q.dbrec_host, nullptr);

  // The UARs: the CQs' (NC), then the QP's doorbell (BF: v44 refuses NC_DEDICATED); only the
  // doorbell page is mapped into the GPU, as MMIO.
  const auto uars = fake_rdma::uars();
  ASSERT_EQ(uars.size(), 2u);
  EXPECT_EQ(uars[0].type, MLX5DV_UAR_ALLOC_TYPE_NC);
  EXPECT_EQ(uars[1].type, MLX5DV_UAR_ALLOC_TYPE_BF);
  EXPECT_EQ(q.uar_host, uars[1].reg_addr);
  EXPECT_EQ(q.uar, uars[1].reg_addr);  // the identity mapping
  EXPECT_EQ(q.doorbell_refused, "");
  ASSERT_EQ(gpu_.mapped.size(), 1u);
  EXPECT_TRUE(gpu_.mapped.begin()->second.io);

  // Three umems, each over whole 64 KiB (the doorbell records: one host page), local write only.
  const auto umems = fake_rdma::umems();
  ASSERT_EQ(umems.size(), 3u);
  for (const auto& u : umems) {
    EXPECT_TRUE(gpu_.in_allocation(u.addr, u.size));
    EXPECT_EQ(u.access, IBV_ACCESS_LOCAL_WRITE);
    EXPECT_EQ(u.dmabuf_fd, -1);
  }

  // CREATE_CQ: its ring and doorbell record in their umems, the CQ UAR, EQ 0's number, 64-byte
  // CQEs all invalid (op_own 0xF0) when the command ran.
  const auto cq = sent(prm::op::create_cq).at(0);
  const std::uint8_t* c = cq.in.data();
  EXPECT_EQ(cq.status, 0);
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::log_cq_size)), log_cq);
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::cqe_sz)), prm::cqe_size_64);
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::uar_page)), uars[0].page_id);
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::c_eqn)), fake_rdma::eqn);
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::log_page_size)), 4u);  // 64 KiB
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::oi)), 0u);
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::cqe_comp_en)), 0u);
  EXPECT_EQ(prm::get(c, L::cq_umem_valid), 1u);
  const auto cq_ring = umem(prm::get(c, L::cq_umem_id));
  EXPECT_EQ(cq_ring.addr + prm::get(c, L::cq_umem_offset), q.cq);
  EXPECT_GE(cq_ring.size, 64u << log_cq);
  EXPECT_EQ(prm::get(c, L::in_cqc(L::cqc::dbr_umem_valid)), 1u);
  const auto cq_dbr = umem(prm::get(c, L::in_cqc(L::cqc::dbr_umem_id)));
  EXPECT_EQ(cq_dbr.addr + prm::get(c, L::in_cqc(L::cqc::dbr_addr)), reinterpret_cast<std::uint8_t*>(q.cq_dbrec));
  ASSERT_EQ(cq.cqe_owner.size(), 1u << log_cq);
  for (std::size_t i = 0; i < cq.cqe_owner.size(); ++i) EXPECT_EQ(cq.cqe_owner[i], 0xF0) << "CQE " << i;
  const std::uint32_t cqn = cq.object_id;

  // CREATE_QP: names that CQ (both sides), the doorbell UAR, its SQ and doorbell record in
  // their umems; RC, zero-length RQ, user index = the QP's id.
  const auto qp = sent(prm::op::create_qp).at(0);
  const std::uint8_t* p = qp.in.data();
  EXPECT_EQ(qp.status, 0);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::cqn_snd)), cqn);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::cqn_rcv)), cqn);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::uar_page)), uars[1].page_id);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::st)), prm::st_rc);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::pm_state)), prm::pm_state_migrated);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::rq_type)), prm::rq_type_zero_len);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::log_sq_size)), log_sq);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::user_index)), q.id);
  EXPECT_EQ(prm::get(p, L::wq_umem_valid), 1u);
  const auto sq = umem(prm::get(p, L::wq_umem_id));
  EXPECT_EQ(sq.addr + prm::get(p, L::wq_umem_offset), q.sq);
  EXPECT_GE(sq.size, 64u << log_sq);
  EXPECT_EQ(prm::get(p, L::in_qpc(L::qpc::dbr_umem_valid)), 1u);
  const auto qp_dbr = umem(prm::get(p, L::in_qpc(L::qpc::dbr_umem_id)));
  EXPECT_EQ(qp_dbr.addr + prm::get(p, L::in_qpc(L::qpc::dbr_addr)), reinterpret_cast<std::uint8_t*>(q.dbrec));
  EXPECT_EQ(qp_dbr.id, cq_dbr.id);  // one doorbell-record umem for both
  EXPECT_NE(sq.id, cq_ring.id);
  EXPECT_EQ(q.qpn, qp.object_id);
  EXPECT_LT(at("create DevX CQ " + hex(cqn)), at("create DevX QP " + hex(q.qpn)));

  // Connected to itself: RST2INIT, INIT2RTR, RTR2RTS, each to this QP, the peer's QPN and PSN.
  const gda::qp_address mine = nic_->address_of(q);
  nic_->connect(q, 0, mine);
  const auto all = fake_rdma::commands();
  const std::size_t first = queries.size();  // the three transitions come after the commands above
  ASSERT_EQ(all.size(), first + 3);
  EXPECT_EQ(all[first].opcode, prm::op::rst2init_qp);
  EXPECT_EQ(all[first + 1].opcode, prm::op::init2rtr_qp);
  EXPECT_EQ(all[first + 2].opcode, prm::op::rtr2rts_qp);
  for (std::size_t i = first; i < first + 3; ++i) {
    EXPECT_EQ(all[i].call, "obj_modify");
    EXPECT_EQ(all[i].status, 0);
    EXPECT_EQ(all[i].object_id, q.qpn);
    EXPECT_EQ(prm::get(all[i].in.data(), L::qpn), q.qpn);
  }
  const std::uint8_t* init = all[first].in.data();
  EXPECT_EQ(prm::get(init, L::in_qpc(L::qpc::rre)), 1u);
  EXPECT_EQ(prm::get(init, L::in_qpc(L::qpc::rwe)), 1u);
  EXPECT_EQ(prm::get(init, L::in_qpc(L::qpc::rae)), 1u);
  EXPECT_EQ(prm::get(init, L::in_qpc(L::qpc::atomic_mode)), prm::atomic_mode_up_to_8b);
  EXPECT_EQ(prm::get(init, L::in_path(L::ads::vhca_port_num)), 1u);

  const std::uint8_t* rtr = all[first + 1].in.data();
  EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::remote_qpn)), q.qpn);
  EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::mtu)), static_cast<std::uint64_t>(link().active_mtu));
  EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::log_msg_max)), 30u);
  EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::log_rra_max)), 4u);  // 16 reads/atomics in flight
  EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::min_rnr_nak)), 12u);
  EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::vhca_port_num)), 1u);
  if (roce) {
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::rmac_47_32)), 0x0200u);
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::rmac_31_0)), 0x5e102030u);
    EXPECT_EQ(std::memcmp(rtr + L::in_path(L::ads::rgid_rip).bit / 8, ipv4_gid, 16), 0);
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::src_addr_index)), static_cast<std::uint64_t>(fake_rdma::roce_v2_ipv4_gid_index));
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::hop_limit)), 255u);
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::udp_sport)), gda::mlx5_select::roce_udp_sport(q.qpn, q.qpn));
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::grh)), 0u);  // RoCE: no GRH bit, the GID is always there
    // The MAC came from an address handle made for it and destroyed again.
    EXPECT_EQ(starting("create AH "), 1u);
    EXPECT_EQ(starting("destroy AH "), 1u);
  } else {
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::rlid)), fake_rdma::lid);
    EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::grh)), 0u);  // same subnet
  }
  const std::uint8_t* rts = all[first + 2].in.data();
  EXPECT_EQ(prm::get(rts, L::in_qpc(L::qpc::next_send_psn)), prm::get(rtr, L::in_qpc(L::qpc::next_rcv_psn)));
  EXPECT_EQ(prm::get(rts, L::in_qpc(L::qpc::log_sra_max)), 4u);
  EXPECT_EQ(prm::get(rts, L::in_qpc(L::qpc::retry_count)), 7u);
  EXPECT_EQ(prm::get(rts, L::in_qpc(L::qpc::rnr_retry)), 7u);
  EXPECT_EQ(prm::get(rts, L::in_path(L::ads::ack_timeout)), 18u);
  EXPECT_THROW(nic_->connect(q, 0, mine), std::runtime_error);  // already connected

  nic_->start();
  nic_->stop();

  // Teardown: QP, CQ, the doorbell UAR, the umems, the GPU memory; then the MR, the PD and the
  // context, which takes the CQs' UAR (its NC page, rdma-core's) with it.
  const std::string cq_uar = "destroy UAR page " + hex(uars[0].page_id);
  nic_.reset();
  EXPECT_LT(at("destroy DevX QP " + hex(q.qpn)), at("destroy DevX CQ " + hex(cqn)));
  EXPECT_LT(at("destroy DevX CQ " + hex(cqn)), at("destroy UAR page " + hex(uars[1].page_id)));
  for (const auto& u : umems) {
    EXPECT_LT(at("destroy UAR page " + hex(uars[1].page_id)), at("destroy umem " + std::to_string(u.id)));
    EXPECT_LT(at("destroy umem " + std::to_string(u.id)), at("free_device"));
  }
  EXPECT_LT(at("free_device"), at("destroy MR " + hex(r.lkey)));
  EXPECT_LT(at("destroy MR " + hex(r.lkey)), at(cq_uar));
  EXPECT_LT(at(cq_uar), at("destroy context mlx5_0"));
}

// ---- placement::host: verbs objects in host memory --------------------------------------------

TEST_P(Mlx5NicLink, HostRings) {
  const bool roce = GetParam();
  open(link());
  ASSERT_NE(nic_, nullptr) << why_;
  nic_->register_memory(heap_.data(), heap_.size());
  const gda::qp_rings q = nic_->create_qp(log_sq, log_cq, gda::placement::host);
  EXPECT_EQ(sent(prm::op::create_cq).size() + sent(prm::op::create_qp).size(), 0u);
  EXPECT_TRUE(gpu_.allocations.empty());

  // mlx5 gave 2 WQEBBs per WR: the first QP (64 WRs) had 128, so it was made again with 32.
  const auto qps = fake_rdma::verbs_qps();
  ASSERT_EQ(qps.size(), 2u);
  EXPECT_EQ(qps[0].max_send_wr, 1u << log_sq);
  EXPECT_FALSE(qps[0].live);
  EXPECT_EQ(qps[1].max_send_wr, 1u << (log_sq - 1));
  EXPECT_EQ(qps[1].wqe_cnt, 1u << log_sq);
  EXPECT_TRUE(qps[1].live);
  EXPECT_EQ(qps[1].qpn, q.qpn);
  EXPECT_EQ(qps[1].qp_type, IBV_QPT_RC);
  EXPECT_EQ(qps[1].sq_sig_all, 0);
  EXPECT_EQ(qps[1].cap.max_inline_data, 28u);
  EXPECT_EQ(qps[1].cap.max_send_sge, 1u);
  EXPECT_EQ(qps[1].cap.max_recv_wr, 0u);

  // The rings as rdma-core left them, made ready: SQ zeroed (the fake filled it), every CQE
  // invalid (the fake left them zero).
  for (std::size_t i = 0; i < (64u << log_sq); ++i) ASSERT_EQ(static_cast<std::uint8_t*>(q.sq)[i], 0) << i;
  for (std::size_t i = 0; i < (1u << log_cq); ++i) EXPECT_EQ(static_cast<std::uint8_t*>(q.cq)[i * 64 + 63], 0xF0) << i;
  // Mapped into the GPU: SQ, CQ, the doorbell-record page, the UAR page (MMIO).
  EXPECT_EQ(gpu_.mapped.size(), 4u);
  const auto uar_page = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(q.uar_host) & ~std::uintptr_t{4095});
  ASSERT_EQ(gpu_.mapped.count(uar_page), 1u);
  EXPECT_TRUE(gpu_.mapped[uar_page].io);
  EXPECT_EQ(q.uar, q.uar_host);

  // A second QP shares the doorbell-record and UAR pages: mapped once, released with the last.
  const gda::qp_rings q2 = nic_->create_qp(log_sq, log_cq, gda::placement::host);
  EXPECT_EQ(gpu_.mapped.size(), 6u);
  EXPECT_NE(q2.qpn, q.qpn);
  EXPECT_EQ(q2.id, 1u);

  nic_->connect(q, 0, nic_->address_of(q));
  const auto& m = fake_rdma::modifies();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].attr.qp_state, IBV_QPS_INIT);
  EXPECT_EQ(m[0].attr.port_num, 1);
  EXPECT_EQ(m[0].attr.qp_access_flags,
            static_cast<unsigned>(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC));
  EXPECT_EQ(m[1].attr.qp_state, IBV_QPS_RTR);
  EXPECT_EQ(m[1].attr.dest_qp_num, q.qpn);
  EXPECT_EQ(m[1].attr.path_mtu, link().active_mtu);
  EXPECT_EQ(m[1].attr.max_dest_rd_atomic, 16);
  EXPECT_EQ(m[1].attr.ah_attr.port_num, 1);
  if (roce) {
    EXPECT_EQ(m[1].attr.ah_attr.is_global, 1);
    EXPECT_EQ(std::memcmp(m[1].attr.ah_attr.grh.dgid.raw, ipv4_gid, 16), 0);
    EXPECT_EQ(m[1].attr.ah_attr.grh.sgid_index, fake_rdma::roce_v2_ipv4_gid_index);
  } else {
    EXPECT_EQ(m[1].attr.ah_attr.dlid, fake_rdma::lid);
    EXPECT_EQ(m[1].attr.ah_attr.is_global, 0);
  }
  EXPECT_EQ(m[2].attr.qp_state, IBV_QPS_RTS);
  EXPECT_EQ(m[2].attr.sq_psn, m[1].attr.rq_psn);  // itself
  EXPECT_EQ(m[2].attr.timeout, 18);
  EXPECT_EQ(m[2].attr.retry_cnt, 7);
  EXPECT_EQ(m[2].attr.max_rd_atomic, 16);
  nic_->start();
  nic_->stop();
}

// A peer that is not the QP itself (self-connection cannot tell our QPN and PSN from the peer's):
// another QPN and PSN, a smaller MTU, fewer reads/atomics accepted, and (InfiniBand) another
// subnet, so a GRH. Both placements must carry each of these into the transitions.
TEST_P(Mlx5NicLink, ConnectsToAnotherPeer) {
  namespace sel = gda::mlx5_select;
  const bool roce = GetParam();
  open(link());
  ASSERT_NE(nic_, nullptr) << why_;
  sel::peer_address peer;
  peer.qpn = 0xabcde;
  peer.psn = 0x123456;
  peer.lid = roce ? 0 : 0x99;
  peer.port = 1;
  peer.link_layer = roce ? sel::link_ethernet : sel::link_ib;
  peer.mtu = IBV_MTU_512;
  peer.max_dest_rd_atomic = 4;
  peer.gid = {0xfe, 0x80, 0, 0, 0, 0, 0, 7, 0x0c, 0x42, 0xa1, 0xff, 0xfe, 0x00, 0x00, 0x99};
  if (roce) peer.gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2};
  const gda::qp_address theirs = sel::encode_address(peer);

  for (const gda::placement where : {gda::placement::gpu, gda::placement::host}) {
    SCOPED_TRACE(where == gda::placement::gpu ? "placement::gpu" : "placement::host");
    const gda::qp_rings q = nic_->create_qp(log_sq, log_cq, where);
    sel::peer_address mine;
    std::string bad;
    ASSERT_TRUE(sel::decode_address(nic_->address_of(q), &mine, &bad)) << bad;
    nic_->connect(q, 1, theirs);
    if (where == gda::placement::gpu) {
      const std::vector<std::uint8_t> rtr_in = sent(prm::op::init2rtr_qp).at(0).in;
      const std::vector<std::uint8_t> rts_in = sent(prm::op::rtr2rts_qp).at(0).in;
      const std::uint8_t* rtr = rtr_in.data();
      const std::uint8_t* rts = rts_in.data();
      EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::remote_qpn)), peer.qpn);
      EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::next_rcv_psn)), peer.psn);
      EXPECT_EQ(prm::get(rtr, L::in_qpc(L::qpc::mtu)), static_cast<std::uint64_t>(IBV_MTU_512));
      EXPECT_EQ(std::memcmp(rtr + L::in_path(L::ads::rgid_rip).bit / 8, peer.gid.data(), 16), 0);
      if (roce) {
        EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::udp_sport)), sel::roce_udp_sport(q.qpn, peer.qpn));
      } else {
        EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::rlid)), peer.lid);
        EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::grh)), 1u);
        EXPECT_EQ(prm::get(rtr, L::in_path(L::ads::hop_limit)), 255u);
      }
      EXPECT_EQ(prm::get(rts, L::in_qpc(L::qpc::next_send_psn)), mine.psn);
      EXPECT_EQ(prm::get(rts, L::in_qpc(L::qpc::log_sra_max)), 2u);  // the peer accepts 4
    } else {
      const auto& m = fake_rdma::modifies();
      ASSERT_EQ(m.size(), 3u);
      EXPECT_EQ(m[1].attr.dest_qp_num, peer.qpn);
      EXPECT_EQ(m[1].attr.rq_psn, peer.psn);
      EXPECT_EQ(m[1].attr.path_mtu, IBV_MTU_512);
      EXPECT_EQ(m[1].attr.ah_attr.is_global, 1);
      EXPECT_EQ(std::memcmp(m[1].attr.ah_attr.grh.dgid.raw, peer.gid.data(), 16), 0);
      if (!roce) {
        EXPECT_EQ(m[1].attr.ah_attr.dlid, peer.lid);
      }
      EXPECT_EQ(m[2].attr.sq_psn, mine.psn);
      EXPECT_EQ(m[2].attr.max_rd_atomic, 4);
    }
  }
  // A peer on the other link layer is refused before anything is sent.
  peer.link_layer = roce ? sel::link_ib : sel::link_ethernet;
  const gda::qp_rings q = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  EXPECT_THROW(nic_->connect(q, 1, sel::encode_address(peer)), std::runtime_error);
  EXPECT_EQ(sent(prm::op::rst2init_qp).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Links, Mlx5NicLink, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "RoCE" : "InfiniBand"; });

// Both placements on one NIC, and QP ids that count across them.
TEST_F(Mlx5NicFake, BothPlacementsTogether) {
  open();
  ASSERT_NE(nic_, nullptr) << why_;
  const gda::qp_rings a = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  const gda::qp_rings b = nic_->create_qp(log_sq, log_cq, gda::placement::host);
  const gda::qp_rings c = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  EXPECT_EQ(a.id, 0u);
  EXPECT_EQ(b.id, 1u);
  EXPECT_EQ(c.id, 2u);
  EXPECT_EQ(prm::get(sent(prm::op::create_qp).at(1).in.data(), L::in_qpc(L::qpc::user_index)), 2u);
  EXPECT_EQ(fake_rdma::uars().size(), 3u);  // the CQs' UAR once, a doorbell UAR per DevX QP
  nic_->connect(b, 0, nic_->address_of(b));
  nic_->connect(c, 0, nic_->address_of(c));
  EXPECT_THROW(nic_->connect(b, 0, nic_->address_of(c)), std::runtime_error);  // already connected
}

// ---- failures ------------------------------------------------------------------------------------

// The firmware refuses CREATE_QP: the error names the device, the command, the status and the
// syndrome, and everything made for that QP is gone (the CQs' UAR stays: the NIC shares it).
TEST_F(Mlx5NicFake, CreateQpRefusedByFirmware) {
  open();
  ASSERT_NE(nic_, nullptr) << why_;
  fake_rdma::fail_command(prm::op::create_qp, 0x3, 0x1234abcd, EREMOTEIO);
  try {
    nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
    FAIL() << "create_qp succeeded";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_THAT(what, HasSubstr("gda: mlx5_0: DevX QP with 2^6 WQEBBs, CQ of 2^7 CQEs in GPU memory"));
    EXPECT_THAT(what, HasSubstr("DevX CREATE_QP (CQ 0x"));
    EXPECT_THAT(what, HasSubstr("firmware status 0x3 (BAD_PARAM), syndrome 0x1234abcd"));
    EXPECT_THAT(what, HasSubstr(std::strerror(EREMOTEIO)));
  }
  std::vector<std::string> live = fake_rdma::live();
  std::sort(live.begin(), live.end());
  ASSERT_EQ(live.size(), 3u) << join(live);
  EXPECT_EQ(live[0].rfind("PD ", 0), 0u);
  EXPECT_EQ(live[1].rfind("UAR page ", 0), 0u);
  EXPECT_EQ(live[2], "context mlx5_0");
  EXPECT_EQ(fake_rdma::uars()[0].type, MLX5DV_UAR_ALLOC_TYPE_NC);
  EXPECT_TRUE(gpu_.allocations.empty());
  EXPECT_TRUE(gpu_.mapped.empty());
  EXPECT_LT(at("destroy DevX CQ " + hex(sent(prm::op::create_cq).at(0).object_id)), at("free_device"));
  // The next one works, on the same CQ UAR.
  nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  EXPECT_EQ(fake_rdma::uars().size(), 3u);
}

// A transition refused by the kernel (errno, no firmware status), then one by the firmware.
TEST_F(Mlx5NicFake, TransitionsRefused) {
  open();
  ASSERT_NE(nic_, nullptr) << why_;
  const gda::qp_rings q = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  fake_rdma::fail_command(prm::op::init2rtr_qp, 0, 0, EINVAL);
  try {
    nic_->connect(q, 3, nic_->address_of(q));
    FAIL() << "connect succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("gda: mlx5_0 QP " + hex(q.qpn) + " to PE 3 (QPN " + hex(q.qpn) + ")"));
    EXPECT_THAT(e.what(), HasSubstr("DevX INIT2RTR_QP failed: " + std::string(std::strerror(EINVAL)) +
                                    " (errno 22); no firmware status (the kernel or rdma-core refused it)"));
  }
  const gda::qp_rings q2 = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  fake_rdma::fail_command(prm::op::rtr2rts_qp, 0x10, 0xdeadbeef, EREMOTEIO);
  try {
    nic_->connect(q2, 1, nic_->address_of(q2));
    FAIL() << "connect succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("DevX RTR2RTS_QP failed"));
    EXPECT_THAT(e.what(), HasSubstr("firmware status 0x10 (BAD_QP_STATE), syndrome 0xdeadbeef"));
  }
}

// A umem registration that fails: named ring, range, both registration routes' reasons; no leak.
TEST_F(Mlx5NicFake, UmemRegistrationFails) {
  open();
  ASSERT_NE(nic_, nullptr) << why_;
  fake_rdma::fail_call("mlx5dv_devx_umem_reg", EFAULT);
  try {
    nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
    FAIL() << "create_qp succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("registering the send queue (GPU memory [0x"));
    EXPECT_THAT(e.what(), HasSubstr("as a DevX umem failed: the fake GPU exports none; mlx5dv_devx_umem_reg (peer "
                                    "memory): " + std::string(std::strerror(EFAULT))));
  }
  EXPECT_TRUE(gpu_.allocations.empty());
  EXPECT_TRUE(fake_rdma::uars().empty());
}

// An rdma-core without the DevX object calls: open works, describe says why DevX is out, a GPU
// placement is refused naming the missing calls and GIO_GDA_RINGS=host, which works.
TEST_F(Mlx5NicFake, DevxSymbolsMissing) {
  fake_rdma::config c;
  c.hidden = {"mlx5dv_devx_obj_create", "mlx5dv_devx_umem_reg"};
  open(c);
  ASSERT_NE(nic_, nullptr) << why_;
  const std::string lacks = "this rdma-core's libmlx5 lacks mlx5dv_devx_umem_reg, mlx5dv_devx_obj_create";
  EXPECT_THAT(nic_->describe(), HasSubstr("rings in GPU memory (DevX): no (" + lacks + ")"));
  try {
    nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
    FAIL() << "create_qp succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("mlx5_0 cannot give: " + lacks));
    EXPECT_THAT(e.what(), HasSubstr("GIO_GDA_RINGS=host puts the rings in host memory"));
  }
  EXPECT_TRUE(gpu_.allocations.empty());
  const gda::qp_rings q = nic_->create_qp(log_sq, log_cq, gda::placement::host);
  nic_->connect(q, 0, nic_->address_of(q));
}

// A kernel that gives no DevX context: no masked-atomics answer, GPU placement refused.
TEST_F(Mlx5NicFake, KernelWithoutDevx) {
  fake_rdma::config c;
  c.devx = false;
  open(c);
  ASSERT_NE(nic_, nullptr) << why_;
  EXPECT_FALSE(nic_->has_ext_atomics());
  EXPECT_THAT(nic_->describe(), HasSubstr("4-byte masked atomics: unknown (DevX unavailable)"));
  EXPECT_THROW(
      {
        try {
          nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
        } catch (const std::runtime_error& e) {
          EXPECT_THAT(e.what(), HasSubstr("the kernel gave no DevX context"));
          throw;
        }
      },
      std::runtime_error);
  EXPECT_TRUE(fake_rdma::commands().empty());
  nic_->create_qp(log_sq, log_cq, gda::placement::host);
}

TEST_F(Mlx5NicFake, NoDevice) {
  fake_rdma::config c;
  c.devices = 0;
  open(c);
  EXPECT_EQ(nic_, nullptr);
  EXPECT_EQ(why_, "no RDMA device");
  c.devices = 1;
  c.list_errno = ENOSYS;
  open(c);
  EXPECT_EQ(nic_, nullptr);
  EXPECT_EQ(why_, "no RDMA device (ibv_get_device_list: " + std::string(std::strerror(ENOSYS)) + " (errno 38))");
}

TEST_F(Mlx5NicFake, RequiredSymbolMissing) {
  fake_rdma::config c;
  c.hidden = {"ibv_create_ah"};
  open(c);
  EXPECT_EQ(nic_, nullptr);
  EXPECT_EQ(why_, "rdma-core unusable (libibverbs.so.1 lacks ibv_create_ah)");
}

// An rdma-core before _ibv_query_gid_ex (v32): RoCE GID types come from sysfs
// (<ibdev_path>/ports/1/gid_attrs/types/<index>); where sysfs has none, no RoCE v2 GID is found.
TEST_F(Mlx5NicFake, RoceGidTypesFromSysfs) {
  fake_rdma::config c;
  c.roce = true;
  c.hidden = {"_ibv_query_gid_ex"};
  open(c);
  EXPECT_EQ(nic_, nullptr);
  EXPECT_EQ(why_, "no usable mlx5 device: mlx5_0: no usable ACTIVE port (port 1: RoCE: no RoCE v2 GID among 4 "
                  "populated entries (set GIO_GDA_GID_INDEX to use another))");

  std::string dir = (std::filesystem::temp_directory_path() / "gio-fake-sysfs-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const std::filesystem::path types = std::filesystem::path(dir) / "ports/1/gid_attrs/types";
  std::filesystem::create_directories(types);
  for (int i = 0; i < 4; ++i) std::ofstream(types / std::to_string(i)) << (i % 2 ? "RoCE v2\n" : "IB/RoCE v1\n");
  c.ibdev_path = dir;
  open(c);
  std::filesystem::remove_all(dir);
  ASSERT_NE(nic_, nullptr) << why_;
  EXPECT_THAT(nic_->describe(), HasSubstr("RoCEv2 GID 3 10.0.0.1"));
}

TEST_F(Mlx5NicFake, ExcludedDevice) {
  select_.exclude = "mlx5_0";
  open();
  EXPECT_EQ(nic_, nullptr);
  EXPECT_EQ(why_, "no usable mlx5 device: mlx5_0: excluded by GIO_GDA_NIC_EXCLUDE");
}

// ibv_alloc_pd failing: open_mlx5 throws for that device, and closes it.
TEST_F(Mlx5NicFake, AllocPdFails) {
  fake_rdma::reset();
  fake_rdma::fail_call("ibv_alloc_pd", ENOMEM);
  try {
    gda::open_mlx5(boot_, select_, gpu_.hooks(), &why_);
    FAIL() << "open_mlx5 succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "gda: mlx5_0: ibv_alloc_pd failed: " + std::string(std::strerror(ENOMEM)) +
                                         " (errno 12)");
  }
}

// dma-buf everywhere it can be: the MR, and every umem (offset 0 in an fd over exactly the ring,
// pages from the host page up); each fd closed after registering. Without the two dma-buf entry
// points, peer memory.
TEST_F(Mlx5NicFake, DmabufRegistration) {
  open();
  ASSERT_NE(nic_, nullptr) << why_;
  gpu_.dmabuf = true;
  nic_->register_memory(heap_.data(), heap_.size());
  const gda::qp_rings q = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  ASSERT_EQ(fake_rdma::mrs().size(), 1u);
  EXPECT_GE(fake_rdma::mrs()[0].dmabuf_fd, 0);
  EXPECT_EQ(fake_rdma::mrs()[0].addr, heap_.data());  // iova = the GPU address
  const auto umems = fake_rdma::umems();
  ASSERT_EQ(umems.size(), 3u);
  for (const auto& u : umems) {
    EXPECT_GE(u.dmabuf_fd, 0);
    EXPECT_EQ(u.pgsz_bitmap, ~std::uint64_t{4095});
  }
  EXPECT_EQ(umems[0].addr, q.sq);
  for (int fd : gpu_.fds) EXPECT_EQ(fcntl(fd, F_GETFD), -1) << "fd " << fd << " still open";
  nic_.reset();

  fake_rdma::config c;
  c.hidden = {"mlx5dv_devx_umem_reg_ex", "ibv_reg_dmabuf_mr"};
  open(c);
  ASSERT_NE(nic_, nullptr) << why_;
  nic_->register_memory(heap_.data(), heap_.size());
  nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  EXPECT_EQ(fake_rdma::mrs().at(0).dmabuf_fd, -1);
  for (const auto& u : fake_rdma::umems()) EXPECT_EQ(u.dmabuf_fd, -1);
}

// rdma-core v45's dedicated non-cached doorbell page, where there is one.
// The QPs' timestamp format follows the device, as the kernel picks it: free-running only where
// that is all the device has (a NIC whose clock runs real time only refuses a free-running QP);
// a RoCE device answers in its RoCE capabilities.
TEST_F(Mlx5NicFake, TimestampFormatFollowsTheDevice) {
  for (bool roce : {false, true}) {
    for (std::uint32_t cap : {0u, 1u, 2u}) {
      SCOPED_TRACE(std::string(roce ? "RoCE" : "InfiniBand") + ", ts_format cap " + std::to_string(cap));
      nic_.reset();
      fake_rdma::config c;
      c.roce = roce;
      c.ts_format_cap = cap;
      open(c);
      ASSERT_NE(nic_, nullptr) << why_;
      nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
      EXPECT_EQ(prm::get(sent(prm::op::create_qp).at(0).in.data(), L::in_qpc(L::qpc::ts_format)), cap == 0 ? 0u : 1u);
      std::size_t roce_queries = 0;
      for (const auto& q : sent(prm::op::query_hca_cap))
        roce_queries += prm::get(q.in.data(), L::op_mod) == (prm::cap_roce << 1 | 1u);
      EXPECT_EQ(roce_queries, roce ? 1u : 0u);
    }
  }
}

// No BlueFlame page left: the QPs ring on the context's one NC page, which rdma-core owns (every
// NC request returns it) and frees with the context; the NIC never frees it (the fake reports a
// free of it as misuse, and TearDown checks nothing is left once the context is closed).
TEST_F(Mlx5NicFake, DoorbellOnTheContextNcPage) {
  fake_rdma::config c;
  c.bf_uar = false;
  open(c);
  ASSERT_NE(nic_, nullptr) << why_;
  const gda::qp_rings a = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  const gda::qp_rings b = nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  ASSERT_EQ(fake_rdma::uars().size(), 1u);  // one page for the CQs and both doorbells
  EXPECT_EQ(fake_rdma::uars()[0].type, MLX5DV_UAR_ALLOC_TYPE_NC);
  EXPECT_EQ(a.uar_host, b.uar_host);  // one doorbell register: the device rings one lane at a time
  nic_->connect(a, 0, nic_->address_of(a));
}

TEST_F(Mlx5NicFake, DedicatedDoorbellPage) {
  fake_rdma::config c;
  c.nc_dedicated_uar = true;
  open(c);
  ASSERT_NE(nic_, nullptr) << why_;
  nic_->create_qp(log_sq, log_cq, gda::placement::gpu);
  ASSERT_EQ(fake_rdma::uars().size(), 2u);
  EXPECT_EQ(fake_rdma::uars()[1].type, 1u << 31);
}

}  // namespace
