// The GDA transport's NIC on real hardware: a ConnectX device through rdma-core (libibverbs +
// mlx5 direct verbs), implementing host/transports/gda/nic.hpp.
//
// rdma-core is loaded at run time (dlopen of libibverbs.so.1 and libmlx5.so.1), never linked, so
// the library loads and runs its other transports on machines without it. Only exported entry
// points are resolved; verbs.h's static-inline wrappers that call exported functions
// (ibv_query_port -> ___ibv_query_port, ibv_reg_mr -> __ibv_reg_mr, ibv_query_gid_ex ->
// _ibv_query_gid_ex, ibv_get_device_list under RDMA_STATIC_PROVIDERS) are not called: this file
// calls the resolved pointers, and re-implements the one wrapper whose logic matters
// (query_port: the context op when the provider has it, else the exported compat entry). Header
// inlines that only cast or read context ops (verbs_get_ctx_op, ibv_cq_ex_to_cq) are used as they
// are. `nm -u` of this object lists no ibv_*/mlx5dv_* symbol.
//
// Rings, by placement (GIO_GDA_RINGS):
//  - placement::gpu (the default): DevX objects over GPU memory (docs/devx-rings-plan.md). The SQ,
//    CQ and both doorbell records are allocated through the GPU runtime's hook, initialised (every
//    CQE invalid) before the NIC sees them, registered as DevX umems (dma-buf where the runtime
//    exports one, else peer memory), and named in CREATE_CQ / CREATE_QP, whose PRM inboxes
//    mlx5_prm.hpp encodes; the transitions are PRM modify commands. The doorbell register is a
//    DevX UAR page mapped into the GPU as the verbs one is. Where DevX is unusable (rdma-core or
//    kernel without it, no GPU hooks) create_qp refuses with the reason and names
//    GIO_GDA_RINGS=host.
//  - placement::host: verbs objects; rdma-core allocates SQ, CQ and doorbell records in host
//    memory and the GPU runtime maps them, and the UAR page, into the GPU.
//
// Nothing here has run on a NIC: there is none where it was written. What is checked without one
// is in tests/unit/mlx5_nic_select_test.cpp (the pure decisions of mlx5_nic_select.hpp),
// tests/unit/mlx5_prm_test.cpp (the PRM commands, byte for byte against the kernel's mlx5_ifc.h)
// and tests/unit/mlx5_nic_fake_test.cpp (this file end to end against a fake rdma-core: the calls
// and DevX commands in order, what they name, teardown, and the error paths).
#include <arpa/inet.h>
#include <dlfcn.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gio/templates/mlx5_cqe.hpp"
#include "transports/gda/mlx5_nic_select.hpp"
#include "transports/gda/mlx5_prm.hpp"
#include "transports/gda/nic.hpp"

namespace gio::transports::gda {
namespace {

namespace sel = mlx5_select;

static_assert(sel::link_ib == IBV_LINK_LAYER_INFINIBAND, "mlx5_select::link_ib mirrors verbs.h");
static_assert(sel::link_ethernet == IBV_LINK_LAYER_ETHERNET, "mlx5_select::link_ethernet mirrors verbs.h");
static_assert(sel::mtu_256 == IBV_MTU_256 && sel::mtu_4096 == IBV_MTU_4096, "mlx5_select MTU codes mirror enum ibv_mtu");
static_assert(sizeof(ibv_gid) == sizeof(sel::gid_bytes), "a GID is 16 bytes");

constexpr std::uint32_t wqebb = 64;       // MLX5_SEND_WQE_BB: gio's every WQE is one basic block
constexpr std::uint32_t cqe_bytes = 64;   // gio polls 64-byte CQEs only
constexpr std::uint32_t inline_needed = 28;  // templates' inline_write: 64 - ctrl - raddr - inline header
constexpr std::uint8_t rd_atomic_wanted = 16;  // outstanding reads/atomics per QP, each direction
// Local ACK timeout 4.096 us * 2^18 = 1.07 s per try, 7 tries: a dead peer or a wrong path shows
// as a transport-retry-exceeded error CQE after about 7.5 s instead of hanging; long enough not
// to fire under congestion (NCCL and NVSHMEM default to 18-20).
constexpr std::uint8_t ack_timeout = 18;
constexpr std::uint8_t retry_count = 7;
constexpr std::uint8_t rnr_retry_count = 7;  // 7 = retry forever; gio posts no SENDs, so never used
constexpr std::uint8_t min_rnr_timer = 12;
constexpr std::uint8_t roce_hop_limit = 255;
constexpr std::uint32_t log_msg_max_wanted = 30;  // 1 GiB messages, bounded by cmd_hca_cap.log_max_msg

// DevX rings in GPU memory (docs/devx-rings-plan.md). Each ring region starts on a 64 KiB boundary
// and spans whole 64 KiB, so the CQ's log_page_size can say 64 KiB (NVSHMEM's choice, plan P6) and
// every region is host-page aligned for its dma-buf export (P14b). The doorbell-record region is
// one host page: the QP's 8-byte record at 0, the CQ's on the next cache line.
constexpr std::size_t gpu_ring_page = std::size_t{64} << 10;
constexpr std::uint32_t cq_log_page_size = 16 - 12;  // log2(64 KiB) - 12
constexpr std::uint32_t qp_log_page_size = 0;        // as NVSHMEM (plan P6, unconfirmed)
constexpr std::uint64_t qp_dbr_offset = 0;
constexpr std::uint64_t cq_dbr_offset = 64;
// rdma-core v45's MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED (a doorbell page of this QP's own): the value
// UCX and NVSHMEM define when the header lacks it (v44 here does). Older rdma-core refuses it and
// the next kind is tried.
#ifdef MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED
constexpr std::uint32_t uar_nc_dedicated = MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED;
#else
constexpr std::uint32_t uar_nc_dedicated = 1u << 31;
#endif

std::string errno_text(int e) { return std::string(std::strerror(e)) + " (errno " + std::to_string(e) + ")"; }

// rdma-core calls return an errno value, or -1 with errno set, depending on the call and version.
int error_of(int rc) { return rc > 0 ? rc : (errno != 0 ? errno : EIO); }

std::string hex(std::uint64_t v, int digits = 0) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return text;
}

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// A DevX command's failure: the call's errno, and the firmware's status and syndrome when the
// outbox has them (the kernel copies the outbox back when the firmware refused the command).
std::string devx_failure(int rc, const std::uint8_t* out, std::size_t out_bytes) {
  const prm::outbox o = prm::parse_out(out, out_bytes);
  std::string s = rc != 0 ? errno_text(rc) : "no error from the call";
  if (o.status != 0)
    s += "; firmware status " + hex(o.status) + " (" + prm::status_name(o.status) + "), syndrome " + hex(o.syndrome, 8);
  else if (rc != 0)
    s += "; no firmware status (the kernel or rdma-core refused it)";
  return s;
}

// ---- rdma-core, loaded at run time ------------------------------------------------------------

// The entry points this file calls, typed from rdma-core's own declarations (decltype of the
// declared function: nothing is referenced at link time).
struct rdma_core {
  void* verbs = nullptr;
  void* mlx5 = nullptr;

  // libibverbs (required)
  decltype(&::ibv_get_device_list) get_device_list = nullptr;
  decltype(&::ibv_free_device_list) free_device_list = nullptr;
  decltype(&::ibv_get_device_name) get_device_name = nullptr;
  decltype(&::ibv_open_device) open_device = nullptr;
  decltype(&::ibv_close_device) close_device = nullptr;
  decltype(&::ibv_query_device) query_device = nullptr;
  decltype(&::ibv_query_port) query_port_compat = nullptr;  // the exported ibv_query_port (compat struct)
  decltype(&::ibv_query_gid) query_gid = nullptr;
  decltype(&::ibv_alloc_pd) alloc_pd = nullptr;
  decltype(&::ibv_dealloc_pd) dealloc_pd = nullptr;
  decltype(&::ibv_reg_mr) reg_mr = nullptr;  // the exported function, not verbs.h's macro
  decltype(&::ibv_dereg_mr) dereg_mr = nullptr;
  decltype(&::ibv_destroy_cq) destroy_cq = nullptr;
  decltype(&::ibv_create_qp) create_qp = nullptr;
  decltype(&::ibv_modify_qp) modify_qp = nullptr;
  decltype(&::ibv_destroy_qp) destroy_qp = nullptr;
  decltype(&::ibv_create_ah) create_ah = nullptr;    // RoCE DevX QPs: the next hop's MAC
  decltype(&::ibv_destroy_ah) destroy_ah = nullptr;
  // libibverbs (optional: newer rdma-core)
  decltype(&::_ibv_query_gid_ex) query_gid_ex = nullptr;   // v32+; else sysfs gid_attrs/types
  decltype(&::ibv_reg_dmabuf_mr) reg_dmabuf_mr = nullptr;  // v34+; else peer memory only
  // libmlx5 (required)
  decltype(&::mlx5dv_is_supported) is_supported = nullptr;
  decltype(&::mlx5dv_init_obj) init_obj = nullptr;
  decltype(&::mlx5dv_create_cq) dv_create_cq = nullptr;
  // libmlx5 (optional: DevX, for the atomic capabilities)
  decltype(&::mlx5dv_open_device) dv_open_device = nullptr;
  decltype(&::mlx5dv_devx_general_cmd) devx_general_cmd = nullptr;
  // libmlx5 (optional: DevX objects, for rings in GPU memory; docs/devx-rings-plan.md §1)
  decltype(&::mlx5dv_devx_umem_reg) devx_umem_reg = nullptr;        // peer memory (GPU address)
  decltype(&::mlx5dv_devx_umem_reg_ex) devx_umem_reg_ex = nullptr;  // dma-buf (v35+); optional on its own
  decltype(&::mlx5dv_devx_umem_dereg) devx_umem_dereg = nullptr;
  decltype(&::mlx5dv_devx_alloc_uar) devx_alloc_uar = nullptr;
  decltype(&::mlx5dv_devx_free_uar) devx_free_uar = nullptr;
  decltype(&::mlx5dv_devx_query_eqn) devx_query_eqn = nullptr;
  decltype(&::mlx5dv_devx_obj_create) devx_obj_create = nullptr;
  decltype(&::mlx5dv_devx_obj_modify) devx_obj_modify = nullptr;
  decltype(&::mlx5dv_devx_obj_destroy) devx_obj_destroy = nullptr;
  std::string devx_missing;  // the DevX entry points this rdma-core lacks (empty: all there)

  rdma_core() = default;
  rdma_core(const rdma_core&) = delete;
  rdma_core& operator=(const rdma_core&) = delete;
  ~rdma_core() {
    if (mlx5) dlclose(mlx5);
    if (verbs) dlclose(verbs);
  }

  // Empty on success, else the `why` for open_mlx5.
  std::string load() {
    verbs = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!verbs) return "rdma-core not found (libibverbs.so.1: " + last_dl_error() + ")";
    mlx5 = dlopen("libmlx5.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!mlx5) return "rdma-core not found (libmlx5.so.1: " + last_dl_error() + ")";
    std::string missing;
    need(verbs, "ibv_get_device_list", get_device_list, &missing);
    need(verbs, "ibv_free_device_list", free_device_list, &missing);
    need(verbs, "ibv_get_device_name", get_device_name, &missing);
    need(verbs, "ibv_open_device", open_device, &missing);
    need(verbs, "ibv_close_device", close_device, &missing);
    need(verbs, "ibv_query_device", query_device, &missing);
    need(verbs, "ibv_query_port", query_port_compat, &missing);
    need(verbs, "ibv_query_gid", query_gid, &missing);
    need(verbs, "ibv_alloc_pd", alloc_pd, &missing);
    need(verbs, "ibv_dealloc_pd", dealloc_pd, &missing);
    need(verbs, "ibv_reg_mr", reg_mr, &missing);
    need(verbs, "ibv_dereg_mr", dereg_mr, &missing);
    need(verbs, "ibv_destroy_cq", destroy_cq, &missing);
    need(verbs, "ibv_create_qp", create_qp, &missing);
    need(verbs, "ibv_modify_qp", modify_qp, &missing);
    need(verbs, "ibv_destroy_qp", destroy_qp, &missing);
    need(verbs, "ibv_create_ah", create_ah, &missing);
    need(verbs, "ibv_destroy_ah", destroy_ah, &missing);
    need(verbs, "_ibv_query_gid_ex", query_gid_ex, nullptr);
    need(verbs, "ibv_reg_dmabuf_mr", reg_dmabuf_mr, nullptr);
    if (!missing.empty()) return "rdma-core unusable (libibverbs.so.1 lacks " + missing + ")";
    need(mlx5, "mlx5dv_is_supported", is_supported, &missing);
    need(mlx5, "mlx5dv_init_obj", init_obj, &missing);
    need(mlx5, "mlx5dv_create_cq", dv_create_cq, &missing);
    if (!missing.empty()) return "rdma-core unusable (libmlx5.so.1 lacks " + missing + ")";
    // DevX: all or nothing for placement::gpu (refused, naming what is missing); open_device and
    // general_cmd alone still give the atomic capabilities; reg_ex only adds dma-buf registration
    // to the peer-memory umem_reg.
    need(mlx5, "mlx5dv_open_device", dv_open_device, &devx_missing);
    need(mlx5, "mlx5dv_devx_general_cmd", devx_general_cmd, &devx_missing);
    need(mlx5, "mlx5dv_devx_umem_reg", devx_umem_reg, &devx_missing);
    need(mlx5, "mlx5dv_devx_umem_dereg", devx_umem_dereg, &devx_missing);
    need(mlx5, "mlx5dv_devx_alloc_uar", devx_alloc_uar, &devx_missing);
    need(mlx5, "mlx5dv_devx_free_uar", devx_free_uar, &devx_missing);
    need(mlx5, "mlx5dv_devx_query_eqn", devx_query_eqn, &devx_missing);
    need(mlx5, "mlx5dv_devx_obj_create", devx_obj_create, &devx_missing);
    need(mlx5, "mlx5dv_devx_obj_modify", devx_obj_modify, &devx_missing);
    need(mlx5, "mlx5dv_devx_obj_destroy", devx_obj_destroy, &devx_missing);
    need(mlx5, "mlx5dv_devx_umem_reg_ex", devx_umem_reg_ex, nullptr);
    return {};
  }

  // verbs.h's ___ibv_query_port without its reference to the exported symbol: the provider's
  // extended op (fills the whole struct) when it has one, else the exported compat entry.
  int query_port(ibv_context* context, std::uint8_t port, ibv_port_attr* attr) const {
    verbs_context* vctx = verbs_get_ctx_op(context, query_port);
    if (vctx) return vctx->query_port(context, port, attr, sizeof(*attr));
    std::memset(attr, 0, sizeof(*attr));
    return query_port_compat(context, port, reinterpret_cast<_compat_ibv_port_attr*>(attr));
  }

 private:
  static std::string last_dl_error() {
    const char* e = dlerror();
    return e ? e : "unknown dlopen error";
  }
  template <typename F>
  static void need(void* lib, const char* name, F& out, std::string* missing) {
    dlerror();
    void* p = dlsym(lib, name);
    if (p) {
      out = reinterpret_cast<F>(p);
    } else if (missing) {
      if (!missing->empty()) *missing += ", ";
      *missing += name;
    }
  }
};

// ---- topology: which NIC is nearest the GPU -------------------------------------------------

// Proximity of each named OpenFabrics device to the GPU, from the topology module (topology.hpp);
// all unknown (with `note`) when hwloc or the GPU's bus id cannot tell.
std::vector<sel::proximity> locate(const std::vector<std::string>& names, const std::string& gpu_bus_id,
                                   std::string* note) {
  std::vector<sel::proximity> result(names.size(), sel::proximity::unknown);
  if (gpu_bus_id.empty()) {
    *note = "GPU PCI bus id unknown";
    return result;
  }
  const topology_report topo = discover_topology(gpu_bus_id);
  *note = topo.note;
  int found = 0;
  for (const nic_info& nic : topo.nics)
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == nic.name) {
        result[i] = nic.proximity;
        ++found;
      }
  if (found == 0 && !names.empty() && note->empty()) *note = "hwloc lists none of the RDMA devices";
  return result;
}

// ---- device probing -------------------------------------------------------------------------

// A device, port and GID that can carry gio's QPs.
struct chosen_device {
  std::string name;
  ibv_context* context = nullptr;
  bool devx = false;
  ibv_device_attr attr{};
  std::uint8_t port = 0;
  ibv_port_attr port_attr{};
  std::uint8_t link = sel::link_ib;
  int gid_index = 0;
  sel::gid_bytes gid{};
  sel::gid_type gid_kind = sel::gid_type::unknown;
  sel::proximity proximity = sel::proximity::unknown;
  bool nearest = false;  // no candidate device was nearer to the GPU
  std::string gpu_bus_id;
  std::string locate_note;
};

const char* port_state_name(ibv_port_state s) {
  switch (s) {
    case IBV_PORT_NOP: return "NOP";
    case IBV_PORT_DOWN: return "DOWN";
    case IBV_PORT_INIT: return "INIT";
    case IBV_PORT_ARMED: return "ARMED";
    case IBV_PORT_ACTIVE: return "ACTIVE";
    case IBV_PORT_ACTIVE_DEFER: return "ACTIVE_DEFER";
  }
  return "unknown state";
}

sel::gid_type gid_type_from_sysfs(const ibv_device* device, int port, int index) {
  std::ifstream in(std::string(device->ibdev_path) + "/ports/" + std::to_string(port) + "/gid_attrs/types/" +
                   std::to_string(index));
  std::string text;
  std::getline(in, text);
  if (text.find("RoCE v2") != std::string::npos) return sel::gid_type::roce_v2;
  if (text.find("RoCE v1") != std::string::npos) return sel::gid_type::roce_v1;
  return sel::gid_type::unknown;
}

std::vector<sel::gid_entry> read_gid_table(const rdma_core& api, ibv_device* device, ibv_context* context,
                                           std::uint8_t port, int length) {
  std::vector<sel::gid_entry> table;
  for (int i = 0; i < length; ++i) {
    sel::gid_entry e;
    e.index = i;
    if (api.query_gid_ex) {
      ibv_gid_entry entry{};
      if (api.query_gid_ex(context, port, static_cast<std::uint32_t>(i), &entry, 0, sizeof(entry)) == 0) {
        std::memcpy(e.gid.data(), entry.gid.raw, 16);
        e.type = entry.gid_type == IBV_GID_TYPE_ROCE_V2   ? sel::gid_type::roce_v2
                 : entry.gid_type == IBV_GID_TYPE_ROCE_V1 ? sel::gid_type::roce_v1
                                                          : sel::gid_type::ib;
        e.valid = !sel::is_zero(e.gid);
      }
    } else {
      ibv_gid gid{};
      if (api.query_gid(context, port, i, &gid) == 0) {
        std::memcpy(e.gid.data(), gid.raw, 16);
        e.valid = !sel::is_zero(e.gid);
        if (e.valid) e.type = gid_type_from_sysfs(device, port, i);
      }
    }
    table.push_back(e);
  }
  return table;
}

// Opens `device` and finds a usable port; on rejection returns false with `why` and leaves
// nothing open.
bool probe(const rdma_core& api, ibv_device* device, const mlx5_selection& select, chosen_device* out,
           std::string* why) {
  chosen_device c;
  c.name = api.get_device_name(device) ? api.get_device_name(device) : "?";
  // DevX, when the kernel allows it, only for QUERY_HCA_CAP (4-byte masked atomics); the verbs
  // objects are the same either way.
  if (api.dv_open_device) {
    mlx5dv_context_attr dv{};
    dv.flags = MLX5DV_CONTEXT_FLAGS_DEVX;
    c.context = api.dv_open_device(device, &dv);
    c.devx = c.context != nullptr;
  }
  if (!c.context) {
    errno = 0;
    c.context = api.open_device(device);
    if (!c.context) {
      *why = "ibv_open_device: " + errno_text(error_of(-1));
      return false;
    }
  }
  struct closer {
    const rdma_core& api;
    ibv_context*& context;
    ~closer() {
      if (context) api.close_device(context);
    }
  } close_on_reject{api, c.context};

  if (int rc = api.query_device(c.context, &c.attr)) {
    *why = "ibv_query_device: " + errno_text(error_of(rc));
    return false;
  }
  // mlx5 reports IBV_ATOMIC_HCA only when the NIC's 8-byte atomics run in host-endianness mode,
  // which mlx5_core switches on at driver load when the firmware supports it (there is no
  // per-QP request in upstream verbs). gio's GPU code and the NIC's atomics share little-endian
  // words, so a NIC with IBV_ATOMIC_NONE would corrupt them: not used.
  if (c.attr.atomic_cap == IBV_ATOMIC_NONE) {
    *why = "its 8-byte atomics are not in host endianness (atomic_cap IBV_ATOMIC_NONE)";
    return false;
  }
  if (select.port < 0 || select.port > c.attr.phys_port_cnt) {
    *why = "port " + std::to_string(select.port) + " does not exist (" + std::to_string(c.attr.phys_port_cnt) +
           " ports)";
    return false;
  }
  const int first = select.port > 0 ? select.port : 1;
  const int last = select.port > 0 ? select.port : c.attr.phys_port_cnt;
  std::string port_notes;
  for (int port = first; port <= last; ++port) {
    auto note = [&](const std::string& s) {
      port_notes += (port_notes.empty() ? "" : ", ") + ("port " + std::to_string(port) + ": " + s);
    };
    ibv_port_attr pa{};
    if (int rc = api.query_port(c.context, static_cast<std::uint8_t>(port), &pa)) {
      note("ibv_query_port: " + errno_text(error_of(rc)));
      continue;
    }
    if (pa.state != IBV_PORT_ACTIVE) {
      note(port_state_name(pa.state));
      continue;
    }
    c.port = static_cast<std::uint8_t>(port);
    c.port_attr = pa;
    if (pa.link_layer == IBV_LINK_LAYER_ETHERNET) {
      c.link = sel::link_ethernet;
      const auto table = read_gid_table(api, device, c.context, c.port, pa.gid_tbl_len);
      const sel::gid_choice g = sel::choose_gid(table, select.gid_index);
      if (g.index < 0) {
        note("RoCE: " + g.why);
        continue;
      }
      c.gid_index = g.index;
      c.gid = table[static_cast<std::size_t>(g.index)].gid;
      c.gid_kind = table[static_cast<std::size_t>(g.index)].type;
    } else if (pa.link_layer == IBV_LINK_LAYER_INFINIBAND || pa.link_layer == IBV_LINK_LAYER_UNSPECIFIED) {
      c.link = sel::link_ib;
      if (pa.lid == 0) {
        note("InfiniBand without a LID (no subnet manager?)");
        continue;
      }
      // The port GID (subnet prefix + GUID): a GRH is added on connect when the subnets differ.
      c.gid_index = select.gid_index >= 0 ? select.gid_index : 0;
      ibv_gid gid{};
      if (int rc = api.query_gid(c.context, c.port, c.gid_index, &gid)) {
        note("ibv_query_gid(" + std::to_string(c.gid_index) + "): " + errno_text(error_of(rc)));
        continue;
      }
      std::memcpy(c.gid.data(), gid.raw, 16);
      c.gid_kind = sel::gid_type::ib;
    } else {
      note("link layer " + std::to_string(pa.link_layer) + " is neither InfiniBand nor Ethernet");
      continue;
    }
    ibv_context* keep = c.context;
    c.context = nullptr;  // the closer leaves it open: it is the caller's now
    *out = std::move(c);
    out->context = keep;
    return true;
  }
  *why = select.port > 0 ? port_notes : "no usable ACTIVE port (" + port_notes + ")";
  return false;
}

// QUERY_HCA_CAP (current values) of capability `group` through DevX: empty with `out` filled, else
// why not. The status byte is checked here; the layouts are mlx5_prm.hpp's.
std::string query_hca_cap(const rdma_core& api, ibv_context* context, bool devx, std::uint16_t group,
                          std::vector<std::uint8_t>* out) {
  if (!devx || !api.devx_general_cmd) return "DevX unavailable";
  const prm::command in = prm::query_hca_cap_in(group);
  out->assign(prm::query_hca_cap_out_bytes, 0);
  errno = 0;
  if (int rc = api.devx_general_cmd(context, in.data(), in.size(), out->data(), out->size()))
    return "DevX QUERY_HCA_CAP(" + hex(group) + "): " + errno_text(error_of(rc));
  const prm::outbox o = prm::parse_out(out->data(), out->size());
  if (o.status != 0)
    return "DevX QUERY_HCA_CAP(" + hex(group) + "): status " + hex(o.status) + " " + prm::status_name(o.status) +
           ", syndrome " + hex(o.syndrome, 8);
  return {};
}

// 4-byte masked (extended) fetch-add and compare-swap on RC QPs, from the HCA's current atomic
// capabilities (QUERY_HCA_CAP, op_mod ATOMIC). rdma-core reports them nowhere else
// (mlx5dv_query_device has no atomic fields). 1 yes, 0 no, -1 unknown with `note`.
int query_ext_atomics(const rdma_core& api, ibv_context* context, bool devx, std::string* note) {
  constexpr std::uint32_t masked_cs = 1 << 2, masked_fa = 1 << 3;  // MLX5_ATOMIC_OPS_EXTENDED_*
  constexpr std::uint32_t size_4 = 1 << 2;                         // atomic_size_qp: 4-byte operands
  std::vector<std::uint8_t> out;
  *note = query_hca_cap(api, context, devx, prm::cap_atomic, &out);
  if (!note->empty()) return -1;
  const prm::atomic_caps a = prm::parse_atomic_caps(out.data());
  return (a.operations & (masked_cs | masked_fa)) == (masked_cs | masked_fa) && (a.size_qp & size_4) ? 1 : 0;
}

// ---- the NIC ----------------------------------------------------------------------------------

class mlx5_nic final : public nic {
 public:
  mlx5_nic(std::shared_ptr<rdma_core> api, chosen_device c, const gpu_hooks& gpu)
      : api_(std::move(api)), dev_(std::move(c)), gpu_(gpu), page_(static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE))) {
    errno = 0;
    pd_ = api_->alloc_pd(dev_.context);
    if (!pd_) {
      const int e = error_of(-1);
      api_->close_device(dev_.context);
      throw std::runtime_error("gda: " + dev_.name + ": ibv_alloc_pd failed: " + errno_text(e));
    }
    ext_atomics_ = query_ext_atomics(*api_, dev_.context, dev_.devx, &ext_atomics_note_);
    devx_refused_ = devx_refusal();
    responder_depth_ = static_cast<std::uint8_t>(std::min<int>(rd_atomic_wanted, dev_.attr.max_qp_rd_atom));
    initiator_depth_ = static_cast<std::uint8_t>(std::min<int>(rd_atomic_wanted, dev_.attr.max_qp_init_rd_atom));
    try {
      std::random_device rd;
      psn_seed_.seed(rd());
    } catch (...) {
      psn_seed_.seed(static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    }
  }

  mlx5_nic(const mlx5_nic&) = delete;
  mlx5_nic& operator=(const mlx5_nic&) = delete;

  // Unmap from the GPU before rdma-core frees what was mapped, then verbs objects in reverse
  // order of creation; rdma-core itself is dlclosed when api_ goes (last member destroyed).
  ~mlx5_nic() override {
    for (auto& q : qps_) destroy(*q);
    if (cq_uar_ && !cq_uar_is_context_nc_) api_->devx_free_uar(cq_uar_);  // after every CQ that named its page
    for (ibv_mr* mr : mrs_) api_->dereg_mr(mr);
    if (pd_) api_->dealloc_pd(pd_);
    if (dev_.context) api_->close_device(dev_.context);
  }

  std::string describe() const override {
    std::string s = dev_.name + " port " + std::to_string(dev_.port);
    if (dev_.link == sel::link_ethernet) {
      s += dev_.gid_kind == sel::gid_type::roce_v2   ? " RoCEv2"
           : dev_.gid_kind == sel::gid_type::roce_v1 ? " RoCEv1"
                                                     : " RoCE (GID type unknown)";
      s += " GID " + std::to_string(dev_.gid_index) + " " + gid_text();
    } else {
      s += " InfiniBand LID " + hex(dev_.port_attr.lid, 4);
    }
    s += " MTU " + std::to_string(sel::mtu_bytes(static_cast<std::uint8_t>(dev_.port_attr.active_mtu)));
    if (dev_.proximity != sel::proximity::unknown)
      s += std::string(" (") + (dev_.nearest ? "nearest to" : "to") + " GPU " + dev_.gpu_bus_id + ": " +
           sel::to_string(dev_.proximity) + ")";
    else
      s += " (GPU position unknown: " + dev_.locate_note + ")";
    s += "; 4-byte masked atomics: ";
    s += ext_atomics_ == 1 ? "yes" : ext_atomics_ == 0 ? "no" : "unknown (" + ext_atomics_note_ + ")";
    s += "; rings in GPU memory (DevX): " + (devx_refused_.empty() ? std::string("yes") : "no (" + devx_refused_ + ")");
    return s;
  }

  bool is_model() const override { return false; }
  bool has_ext_atomics() const override { return ext_atomics_ == 1; }

  memory_region register_memory(void* base, std::size_t bytes) override {
    // No IBV_ACCESS_RELAXED_ORDERING: put_signal's default fence mode relies on the NIC's writes
    // of one QP reaching the target heap in order (ordered PCIe posted writes), see
    // docs/transports.md "Ordering of put_signal". Relaxed ordering would need the signal slot in
    // fm_strong_ordering (a round trip per put_signal); gio does not pay that for write bandwidth.
    const int access =
        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    const std::string range = "GPU memory [" + hex(reinterpret_cast<std::uintptr_t>(base)) + ", +" +
                              std::to_string(bytes) + ")";
    std::string dmabuf_note;
    ibv_mr* mr = nullptr;
    std::string no_dmabuf = "no dma-buf hook";
    const int fd = gpu_.dmabuf_fd ? gpu_.dmabuf_fd(base, bytes, &no_dmabuf) : -1;
    if (fd < 0) {
      dmabuf_note = "no dma-buf (" + no_dmabuf + "); ";
    } else {
      // The fd covers exactly [base, base + bytes): offset 0 in it, and the NIC address (iova)
      // is the GPU virtual address, as for peer memory. The MR holds its own reference to the
      // dma-buf, so the fd is closed here either way.
      if (api_->reg_dmabuf_mr) {
        errno = 0;
        mr = api_->reg_dmabuf_mr(pd_, 0, bytes, reinterpret_cast<std::uintptr_t>(base), fd, access);
        if (!mr) dmabuf_note = "ibv_reg_dmabuf_mr: " + errno_text(error_of(-1)) + "; ";
      } else {
        dmabuf_note = "ibv_reg_dmabuf_mr: not in this rdma-core (before v34); ";
      }
      close(fd);
    }
    if (!mr) {
      errno = 0;
      mr = api_->reg_mr(pd_, base, bytes, access);
      if (!mr)
        throw std::runtime_error("gda: " + dev_.name + ": registering " + range + " failed: " + dmabuf_note +
                                 "ibv_reg_mr: " + errno_text(error_of(-1)) +
                                 " (GPU memory needs dma-buf registration or the nvidia-peermem / amdgpu "
                                 "peer-memory kernel module)");
    }
    mrs_.push_back(mr);
    memory_region r;
    r.lkey = mr->lkey;
    r.rkey = mr->rkey;
    r.address = reinterpret_cast<std::uintptr_t>(base);
    return r;
  }

  // placement::host: verbs objects, rdma-core's rings in host memory mapped into the GPU.
  // placement::gpu: DevX objects over rings in GPU memory (docs/devx-rings-plan.md §1).
  qp_rings create_qp(std::uint32_t log_sq, std::uint32_t log_cq, placement where) override {
    if (where != placement::host && where != placement::gpu) throw std::runtime_error("gda: unknown ring placement");
    if (!gpu_.map_host || !gpu_.unmap_host)
      throw std::runtime_error("gda: the GPU runtime gave the mlx5 NIC no map_host/unmap_host hooks");
    const bool in_gpu = where == placement::gpu;
    const std::string what = "gda: " + dev_.name + ": " + (in_gpu ? "DevX " : "") + "QP with 2^" +
                             std::to_string(log_sq) + " WQEBBs, CQ of 2^" + std::to_string(log_cq) + " CQEs" +
                             (in_gpu ? " in GPU memory" : "");
    if (in_gpu && !devx_refused_.empty())
      throw std::runtime_error(what + ": rings in GPU memory (GIO_GDA_RINGS=gpu, the default) need DevX, which " +
                               dev_.name + " cannot give: " + devx_refused_ +
                               ". GIO_GDA_RINGS=host puts the rings in host memory (verbs) instead");
    if (in_gpu && (log_sq > caps_.log_max_qp_sz || log_cq > caps_.log_max_cq_sz))
      throw std::runtime_error(what + ": the device allows at most 2^" + std::to_string(caps_.log_max_qp_sz) +
                               " WQEBBs per SQ and 2^" + std::to_string(caps_.log_max_cq_sz) + " CQEs per CQ");
    if (log_sq > 15 || (1u << log_sq) > static_cast<std::uint32_t>(dev_.attr.max_qp_wr))
      throw std::runtime_error(what + ": SQ deeper than the device's " + std::to_string(dev_.attr.max_qp_wr) +
                               " (or than 2^15, the WQE counter's half range)");
    if (log_cq < log_sq || log_cq < 1 || log_cq > 24 ||
        (1u << log_cq) - 1 > static_cast<std::uint32_t>(dev_.attr.max_cqe))
      throw std::runtime_error(what + ": the CQ must hold every WQE of the SQ (log_cq >= log_sq, at least 2 CQEs) "
                               "and at most the device's " + std::to_string(dev_.attr.max_cqe) + "+1 CQEs");

    auto q = std::make_unique<queue_pair>();
    q->in_gpu = in_gpu;
    try {
      if (in_gpu)
        build_devx(*q, log_sq, log_cq, static_cast<std::uint32_t>(qps_.size()), what);
      else
        build(*q, log_sq, log_cq, what);
    } catch (...) {
      destroy(*q);
      throw;
    }
    qp_rings rings = q->rings;
    rings.id = static_cast<std::uint32_t>(qps_.size());
    q->rings.id = rings.id;
    qps_.push_back(std::move(q));
    return rings;
  }

  qp_address address_of(const qp_rings& qp) override {
    const queue_pair& q = lookup(qp, "address_of");
    sel::peer_address a;
    a.qpn = q.rings.qpn;
    a.psn = q.psn;
    a.lid = dev_.port_attr.lid;
    a.port = dev_.port;
    a.link_layer = dev_.link;
    a.mtu = static_cast<std::uint8_t>(dev_.port_attr.active_mtu);
    // A DevX QP accepts 2^log_rra_max reads/atomics in flight (the PRM takes a log2).
    a.max_dest_rd_atomic = q.in_gpu ? static_cast<std::uint8_t>(1u << devx_log_rra_max()) : responder_depth_;
    a.gid_index = static_cast<std::uint8_t>(dev_.gid_index);
    a.gid = dev_.gid;
    return sel::encode_address(a);
  }

  void connect(const qp_rings& qp, int peer_pe, const qp_address& theirs) override {
    queue_pair& q = lookup(qp, "connect");
    const std::string what = "gda: " + dev_.name + " QP " + hex(q.rings.qpn) + " to PE " + std::to_string(peer_pe);
    if (q.connected) throw std::runtime_error(what + ": already connected");
    sel::peer_address p;
    std::string bad;
    if (!sel::decode_address(theirs, &p, &bad)) throw std::runtime_error(what + ": bad peer address: " + bad);
    if (p.link_layer != dev_.link)
      throw std::runtime_error(what + ": link layers differ (ours " + link_name(dev_.link) + ", the peer's " +
                               link_name(p.link_layer) + ")");
    const std::string to = what + " (QPN " + hex(p.qpn) + ")";
    if (p.max_dest_rd_atomic == 0) throw std::runtime_error(to + ": the peer accepts no reads or atomics");
    if (q.in_gpu) {  // a DevX QP: PRM modify commands (verbs cannot modify it, plan P10)
      connect_devx(q, p, to);
      q.connected = true;
      return;
    }

    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = dev_.port;
    a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    modify(q, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, to, "RESET->INIT");

    a = ibv_qp_attr{};
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = static_cast<ibv_mtu>(sel::path_mtu(static_cast<std::uint8_t>(dev_.port_attr.active_mtu), p.mtu));
    a.dest_qp_num = p.qpn;
    a.rq_psn = p.psn;
    a.max_dest_rd_atomic = responder_depth_;
    a.min_rnr_timer = min_rnr_timer;
    a.ah_attr.port_num = dev_.port;
    a.ah_attr.sl = 0;
    a.ah_attr.src_path_bits = 0;
    a.ah_attr.static_rate = 0;
    if (dev_.link == sel::link_ib) a.ah_attr.dlid = p.lid;
    if (needs_grh(p)) {
      a.ah_attr.is_global = 1;
      std::memcpy(a.ah_attr.grh.dgid.raw, p.gid.data(), 16);
      a.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(dev_.gid_index);
      a.ah_attr.grh.hop_limit = roce_hop_limit;
      a.ah_attr.grh.traffic_class = 0;
      a.ah_attr.grh.flow_label = 0;
    }
    modify(q, &a,
           IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
               IBV_QP_MIN_RNR_TIMER,
           to, "INIT->RTR");

    a = ibv_qp_attr{};
    a.qp_state = IBV_QPS_RTS;
    a.timeout = ack_timeout;
    a.retry_cnt = retry_count;
    a.rnr_retry = rnr_retry_count;
    a.sq_psn = q.psn;
    a.max_rd_atomic = std::min(initiator_depth_, p.max_dest_rd_atomic);
    modify(q, &a,
           IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC,
           to, "RTR->RTS");
    q.connected = true;
  }

  void start() override {}
  void stop() override {}

 private:
  // The DevX objects and GPU memory behind a placement::gpu QP.
  struct devx_qp {
    void* allocation = nullptr;  // from gpu_hooks::alloc_device; the rings start 64 KiB-aligned in it
    mlx5dv_devx_umem* sq_umem = nullptr;
    mlx5dv_devx_umem* cq_umem = nullptr;
    mlx5dv_devx_umem* dbr_umem = nullptr;  // both doorbell records
    mlx5dv_devx_uar* uar = nullptr;        // the QP's doorbell register
    bool uar_is_context_nc = false;        // rdma-core's per-context NC page: not ours to free
    mlx5dv_devx_obj* cq = nullptr;
    mlx5dv_devx_obj* qp = nullptr;
    std::uint32_t cqn = 0;
  };

  struct queue_pair {
    bool in_gpu = false;  // placement::gpu: DevX objects (dx), else verbs ones (cq, qp)
    ibv_cq* cq = nullptr;
    ibv_qp* qp = nullptr;
    devx_qp dx;
    std::uint32_t psn = 0;
    bool connected = false;
    qp_rings rings;
    std::vector<std::uintptr_t> pages;  // bases of this QP's references in maps_
  };

  // Where one QP's rings sit in its GPU allocation (byte offsets from the 64 KiB-aligned base).
  struct gpu_layout {
    std::size_t sq = 0, sq_bytes = 0;
    std::size_t cq = 0, cq_bytes = 0;
    std::size_t dbr = 0, dbr_bytes = 0;
    std::size_t total = 0;
  };

  // A page-aligned host range mapped into the GPU. rdma-core packs the doorbell records of all
  // QPs and CQs into shared pages, and QPs may share a UAR page, so ranges are mapped once per
  // page range and reference-counted: the GPU runtime never sees the same page registered twice.
  struct mapping {
    std::uintptr_t base = 0;
    std::uintptr_t end = 0;
    bool io = false;
    char* gpu = nullptr;
    int refs = 0;
  };

  static std::string link_name(std::uint8_t link) { return link == sel::link_ethernet ? "Ethernet/RoCE" : "InfiniBand"; }

  std::string gid_text() const {
    char text[INET6_ADDRSTRLEN] = "?";
    if (sel::is_ipv4_mapped(dev_.gid))
      inet_ntop(AF_INET, dev_.gid.data() + 12, text, sizeof text);
    else
      inet_ntop(AF_INET6, dev_.gid.data(), text, sizeof text);
    return text;
  }

  queue_pair& lookup(const qp_rings& r, const char* call) {
    if (r.id >= qps_.size() || qps_[r.id]->rings.qpn != r.qpn)
      throw std::runtime_error(std::string("gda: ") + call + ": QP " + hex(r.qpn) + " (id " + std::to_string(r.id) +
                               ") was not created by " + dev_.name);
    return *qps_[r.id];
  }

  void modify(queue_pair& q, ibv_qp_attr* a, int mask, const std::string& what, const char* step) {
    errno = 0;
    if (int rc = api_->modify_qp(q.qp, a, mask))
      throw std::runtime_error(what + ": ibv_modify_qp " + step + " failed: " + errno_text(error_of(rc)));
  }

  void build(queue_pair& q, std::uint32_t log_sq, std::uint32_t log_cq, const std::string& what) {
    const std::uint32_t sq_depth = 1u << log_sq, cq_depth = 1u << log_cq;

    // CQ: mlx5 allocates roundup_pow2(cqe + 1) entries, so 2^log_cq - 1 asks for exactly 2^log_cq.
    // 64-byte CQEs are requested explicitly (MLX5_CQE_SIZE in the environment would change the
    // default); no CQE compression (it would need the mini-CQE decoding gio does not do).
    ibv_cq_init_attr_ex cq_attr{};
    cq_attr.cqe = cq_depth - 1;
    mlx5dv_cq_init_attr dv_cq_attr{};
    dv_cq_attr.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
    dv_cq_attr.cqe_size = cqe_bytes;
    errno = 0;
    ibv_cq_ex* cq_ex = api_->dv_create_cq(dev_.context, &cq_attr, &dv_cq_attr);
    if (!cq_ex) {
      const int first = error_of(-1);
      errno = 0;
      cq_ex = api_->dv_create_cq(dev_.context, &cq_attr, nullptr);  // rdma-core without the CQE size attribute
      if (!cq_ex)
        throw std::runtime_error(what + ": mlx5dv_create_cq failed: " + errno_text(first) + " (and without the "
                                 "CQE size attribute: " + errno_text(error_of(-1)) + ")");
    }
    q.cq = ibv_cq_ex_to_cq(cq_ex);
    mlx5dv_cq dv_cq{};
    {
      mlx5dv_obj obj{};
      obj.cq.in = q.cq;
      obj.cq.out = &dv_cq;
      if (int rc = api_->init_obj(&obj, MLX5DV_OBJ_CQ))
        throw std::runtime_error(what + ": mlx5dv_init_obj(CQ) failed: " + errno_text(error_of(rc)));
    }
    if (dv_cq.cqe_size != cqe_bytes)
      throw std::runtime_error(what + ": the CQ has " + std::to_string(dv_cq.cqe_size) +
                               "-byte CQEs; gio polls 64-byte ones (unset MLX5_CQE_SIZE)");
    if (dv_cq.cqe_cnt != cq_depth)
      throw std::runtime_error(what + ": rdma-core made the CQ " + std::to_string(dv_cq.cqe_cnt) +
                               " CQEs deep, not " + std::to_string(cq_depth));
    // rdma-core initialises every CQE so (mlx5_alloc_cq_buf); done again here so the contract
    // (all invalid) does not rest on that.
    templates::mlx5::mark_cqes_invalid(dv_cq.buf, cq_depth);

    // QP: RC, SQ only (no RQ: zero-length RQ), one SGE, inline data for the 28-byte inline
    // template. sq_sig_all must stay 0 (the device sets CQ_UPDATE per WQE instead): with it set,
    // the mlx5 kernel driver turns on requester scatter-to-CQE, and READ / atomic responses of up
    // to 32 bytes would land in the CQE instead of at the WQE's local (fetch) address. mlx5 sizes the SQ for its
    // largest RC WQE (UMR, several basic blocks): retry with fewer WRs until it is exactly
    // 2^log_sq basic blocks, the depth gio's slot arithmetic (index & (depth - 1)) and the NIC's
    // must agree on.
    mlx5dv_qp dv_qp{};
    std::uint32_t wr = sq_depth;
    std::string sizes;
    for (int attempt = 0;; ++attempt) {
      ibv_qp_init_attr init{};
      init.send_cq = q.cq;
      init.recv_cq = q.cq;
      init.srq = nullptr;
      init.cap.max_send_wr = wr;
      init.cap.max_recv_wr = 0;
      init.cap.max_send_sge = 1;
      init.cap.max_recv_sge = 0;
      init.cap.max_inline_data = inline_needed;
      init.qp_type = IBV_QPT_RC;
      init.sq_sig_all = 0;
      errno = 0;
      q.qp = api_->create_qp(pd_, &init);
      if (!q.qp)
        throw std::runtime_error(what + ": ibv_create_qp(RC, max_send_wr " + std::to_string(wr) +
                                 ", max_inline_data 28) failed: " + errno_text(error_of(-1)));
      if (init.cap.max_inline_data < inline_needed)
        throw std::runtime_error(what + ": the QP allows " + std::to_string(init.cap.max_inline_data) +
                                 " bytes of inline data, gio's inline writes need 28");
      mlx5dv_obj obj{};
      obj.qp.in = q.qp;
      obj.qp.out = &dv_qp;
      if (int rc = api_->init_obj(&obj, MLX5DV_OBJ_QP))
        throw std::runtime_error(what + ": mlx5dv_init_obj(QP) failed: " + errno_text(error_of(rc)));
      if (dv_qp.sq.wqe_cnt == sq_depth) break;
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(wr) + " WRs -> " + std::to_string(dv_qp.sq.wqe_cnt);
      const std::uint32_t next = sel::next_send_wr(wr, dv_qp.sq.wqe_cnt, sq_depth);
      if (next == 0 || attempt >= 8)
        throw std::runtime_error(what + ": rdma-core will not make an SQ of exactly " + std::to_string(sq_depth) +
                                 " WQEBBs (tried " + sizes + "); use a deeper SQ");
      api_->destroy_qp(q.qp);
      q.qp = nullptr;
      wr = next;
    }
    if (dv_qp.sq.stride != wqebb)
      throw std::runtime_error(what + ": SQ stride " + std::to_string(dv_qp.sq.stride) + ", expected 64");
    if (!dv_qp.sq.buf || !dv_qp.dbrec || !dv_qp.bf.reg || !dv_cq.buf || !dv_cq.dbrec)
      throw std::runtime_error(what + ": mlx5dv_init_obj returned a null ring, doorbell record or UAR");
    std::memset(dv_qp.sq.buf, 0, static_cast<std::size_t>(sq_depth) * wqebb);
    q.psn = psn_seed_() & 0xffffff;

    // Into the GPU. The UAR: bf.reg is the doorbell/BlueFlame register inside the UAR page that
    // rdma-core mmapped from the device (MMIO, io = true). The whole system page around it is
    // mapped and the register's offset within the page is added to the GPU address of the page,
    // so the GPU stores to the same register. rdma-core alternates between the two BlueFlame
    // buffers of a bfreg (bf->offset ^= bf->size) for 64-byte BlueFlame copies; gio's 8-byte
    // doorbells all go to bf.reg, which is a valid doorbell for this QP every time.
    q.rings.sq = map(q, dv_qp.sq.buf, static_cast<std::size_t>(sq_depth) * wqebb, false);
    q.rings.log_sq = log_sq;
    q.rings.dbrec = static_cast<std::uint32_t*>(map(q, dv_qp.dbrec, 2 * sizeof(std::uint32_t), false));
    try {  // where the platform will not map MMIO into the GPU, the CPU rings (GIO_GDA_DOORBELL=auto)
      q.rings.uar = static_cast<std::uint64_t*>(map(q, dv_qp.bf.reg, sizeof(std::uint64_t), true));
    } catch (const std::exception& e) {
      q.rings.uar = nullptr;
      q.rings.doorbell_refused = e.what();
    }
    q.rings.sq_host = dv_qp.sq.buf;
    q.rings.dbrec_host = dv_qp.dbrec;
    q.rings.uar_host = static_cast<std::uint64_t*>(dv_qp.bf.reg);
    q.rings.cq = map(q, dv_cq.buf, static_cast<std::size_t>(cq_depth) * cqe_bytes, false);
    q.rings.log_cq = log_cq;
    q.rings.cq_dbrec = static_cast<std::uint32_t*>(map(q, dv_cq.dbrec, 2 * sizeof(std::uint32_t), false));
    q.rings.qpn = q.qp->qp_num;
  }

  // ---- DevX: rings in GPU memory (docs/devx-rings-plan.md §1) ----------------------------------

  // Why this device cannot make DevX rings in GPU memory; empty when it can. Reads the general
  // capabilities (caps_) and the PD number (pdn_) on the way.
  std::string devx_refusal() {
    if (!api_->devx_missing.empty()) return "this rdma-core's libmlx5 lacks " + api_->devx_missing;
    if (!dev_.devx) return "the kernel gave no DevX context (mlx5dv_open_device with MLX5DV_CONTEXT_FLAGS_DEVX failed)";
    if (!gpu_.alloc_device || !gpu_.free_device || !gpu_.copy_to_device)
      return "the GPU runtime gave no alloc_device/free_device/copy_to_device hooks";
    std::vector<std::uint8_t> out;
    const std::string why = query_hca_cap(*api_, dev_.context, dev_.devx, prm::cap_general, &out);
    if (!why.empty()) return why;
    caps_ = prm::parse_general_caps(out.data());
    if (!caps_.rc) return "QUERY_HCA_CAP reports no RC transport";
    // The QPs' timestamp format, as the kernel picks it for its own QPs: a RoCE device answers in
    // its RoCE capabilities. Free-running on a NIC whose clock runs real time only is refused.
    std::uint32_t ts_supported = caps_.sq_ts_format;
    if (dev_.link == sel::link_ethernet && caps_.roce) {
      const std::string roce_why = query_hca_cap(*api_, dev_.context, dev_.devx, prm::cap_roce, &out);
      if (!roce_why.empty()) return roce_why;
      ts_supported = prm::parse_roce_qp_ts_format(out.data());
    }
    ts_format_ = prm::qp_ts_format(ts_supported);
    mlx5dv_pd dv_pd{};
    mlx5dv_obj obj{};
    obj.pd.in = pd_;
    obj.pd.out = &dv_pd;
    if (int rc = api_->init_obj(&obj, MLX5DV_OBJ_PD)) return "mlx5dv_init_obj(PD): " + errno_text(error_of(rc));
    pdn_ = dv_pd.pdn;
    return {};
  }

  // log2 of the reads/atomics a DevX QP accepts in flight, and issues: bounded by the device.
  std::uint32_t devx_log_rra_max() const {
    return std::min(prm::floor_log2(responder_depth_), caps_.log_max_ra_res_qp);
  }
  std::uint32_t devx_log_sra_max(std::uint8_t peer_accepts) const {
    return std::min(prm::floor_log2(std::min(initiator_depth_, peer_accepts)), caps_.log_max_ra_req_qp);
  }

  gpu_layout layout_of(std::uint32_t log_sq, std::uint32_t log_cq) const {
    gpu_layout l;
    l.sq_bytes = round_up((std::size_t{1} << log_sq) * wqebb, gpu_ring_page);
    l.cq = l.sq_bytes;
    l.cq_bytes = round_up((std::size_t{1} << log_cq) * cqe_bytes, gpu_ring_page);
    l.dbr = l.cq + l.cq_bytes;
    l.dbr_bytes = page_;
    l.total = l.dbr + l.dbr_bytes;
    return l;
  }

  // GPU memory for the rings with their first contents, written before any DevX object exists:
  // the SQ and doorbell records zero, every CQE invalid with owner 0 (op_own 0xF0), since a
  // zero-filled CQE would read as a valid completion (plan P1).
  char* alloc_gpu_rings(devx_qp& dx, const gpu_layout& l, std::uint32_t log_cq) {
    dx.allocation = gpu_.alloc_device(l.total + gpu_ring_page - 1);
    if (!dx.allocation) throw std::runtime_error("the GPU runtime returned no memory");
    const auto at = reinterpret_cast<std::uintptr_t>(dx.allocation);
    char* base = reinterpret_cast<char*>(round_up(at, gpu_ring_page));
    std::vector<std::uint8_t> image(l.total, 0);
    templates::mlx5::mark_cqes_invalid(image.data() + l.cq, std::size_t{1} << log_cq);
    gpu_.copy_to_device(base, image.data(), image.size());
    return base;
  }

  // A umem over GPU memory [gpu, gpu + bytes): through a dma-buf where the GPU runtime exports one
  // and rdma-core has umem_reg_ex, else as peer memory (the GPU address; needs nvidia-peermem or
  // amdgpu's peer-memory support). The ring's name goes into errors.
  mlx5dv_devx_umem* register_umem(void* gpu, std::size_t bytes, const char* ring) {
    std::string dmabuf_note = "no dma-buf hook";
    const int fd = gpu_.dmabuf_fd ? gpu_.dmabuf_fd(gpu, bytes, &dmabuf_note) : -1;
    if (fd >= 0) {
      if (api_->devx_umem_reg_ex) {
        // addr is the offset into the dma-buf, which covers exactly this range; any page size from
        // the host page up (plan Step 2, P5). The umem keeps its own reference to the dma-buf.
        mlx5dv_devx_umem_in in{};
        in.addr = nullptr;
        in.size = bytes;
        in.access = IBV_ACCESS_LOCAL_WRITE;
        in.pgsz_bitmap = ~static_cast<std::uint64_t>(page_ - 1);
        in.comp_mask = MLX5DV_UMEM_MASK_DMABUF;
        in.dmabuf_fd = fd;
        errno = 0;
        mlx5dv_devx_umem* umem = api_->devx_umem_reg_ex(dev_.context, &in);
        const int e = umem ? 0 : error_of(-1);
        close(fd);
        if (umem) return umem;
        dmabuf_note = "mlx5dv_devx_umem_reg_ex(dma-buf): " + errno_text(e);
      } else {
        close(fd);
        dmabuf_note = "mlx5dv_devx_umem_reg_ex: not in this rdma-core";
      }
    }
    errno = 0;
    mlx5dv_devx_umem* umem = api_->devx_umem_reg(dev_.context, gpu, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (!umem)
      throw std::runtime_error(std::string("registering the ") + ring + " (GPU memory [" +
                               hex(reinterpret_cast<std::uintptr_t>(gpu)) + ", +" + std::to_string(bytes) +
                               ")) as a DevX umem failed: " + dmabuf_note + "; mlx5dv_devx_umem_reg (peer memory): " +
                               errno_text(error_of(-1)));
    return umem;
  }

  // A DevX UAR page of the first kind in `kinds` that rdma-core gives (with a register address);
  // `context_nc` says whether it is the context's NC page. rdma-core answers every NC request
  // with that one page (mlx5_get_singleton_nc_uar), which lives and dies with the context: it is
  // never freed here. `purpose` goes into the error.
  struct uar_kind {
    std::uint32_t type;
    const char* name;
  };
  mlx5dv_devx_uar* alloc_uar(std::initializer_list<uar_kind> kinds, const char* purpose, bool* context_nc) {
    std::string tried;
    for (const uar_kind& k : kinds) {
      errno = 0;
      mlx5dv_devx_uar* uar = api_->devx_alloc_uar(dev_.context, k.type);
      const bool nc = k.type == MLX5DV_UAR_ALLOC_TYPE_NC;
      if (uar && uar->reg_addr) {
        *context_nc = nc;
        return uar;
      }
      if (uar && !nc) api_->devx_free_uar(uar);
      tried += std::string(tried.empty() ? "" : ", ") + k.name + ": " +
               (uar ? std::string("no register address") : errno_text(error_of(-1)));
    }
    throw std::runtime_error(std::string("mlx5dv_devx_alloc_uar for ") + purpose + " failed (" + tried + ")");
  }

  // The QP's doorbell page: a dedicated non-cached one where rdma-core has that kind (v45+), else a
  // BlueFlame page (an 8-byte store to its register is a plain doorbell), else the context's
  // shared non-cached page (plan Step 3, P12). On that last one every QP rings the same register;
  // the device rings one lane at a time (gda.hpp, ring_marked), so no doorbell is merged away.
  mlx5dv_devx_uar* alloc_doorbell_uar(bool* context_nc) {
    return alloc_uar({{uar_nc_dedicated, "NC_DEDICATED"}, {MLX5DV_UAR_ALLOC_TYPE_BF, "BF"}, {MLX5DV_UAR_ALLOC_TYPE_NC, "NC"}},
                     "the doorbell", context_nc);
  }

  // What every DevX CQ names: a UAR page (never rung: gio arms no CQ) and the EQ of vector 0.
  // Made once per device.
  void ensure_cq_prerequisites() {
    if (!cq_uar_)
      cq_uar_ = alloc_uar({{MLX5DV_UAR_ALLOC_TYPE_NC, "NC"}, {MLX5DV_UAR_ALLOC_TYPE_BF, "BF"}}, "the CQs",
                          &cq_uar_is_context_nc_);
    if (!have_eqn_) {
      if (int rc = api_->devx_query_eqn(dev_.context, 0, &eqn_))
        throw std::runtime_error("mlx5dv_devx_query_eqn(vector 0) failed: " + errno_text(error_of(rc)));
      have_eqn_ = true;
    }
  }

  // CREATE_CQ / CREATE_QP: the object and its number from the outbox, or an error naming the
  // command, errno, the firmware's status and syndrome.
  mlx5dv_devx_obj* devx_create(const prm::command& in, const char* name, std::uint32_t* id) {
    std::uint8_t out[prm::command_out_bytes] = {};
    errno = 0;
    mlx5dv_devx_obj* obj = api_->devx_obj_create(dev_.context, in.data(), in.size(), out, sizeof out);
    if (!obj) throw std::runtime_error(std::string("DevX ") + name + " failed: " + devx_failure(error_of(-1), out, sizeof out));
    *id = prm::parse_out(out, sizeof out).object_id;
    return obj;
  }

  void build_devx(queue_pair& q, std::uint32_t log_sq, std::uint32_t log_cq, std::uint32_t index,
                  const std::string& what) {
    try {
      build_devx_objects(q, log_sq, log_cq, index);
    } catch (const std::exception& e) {
      throw std::runtime_error(what + ": " + e.what());
    }
  }

  void build_devx_objects(queue_pair& q, std::uint32_t log_sq, std::uint32_t log_cq, std::uint32_t index) {
    devx_qp& dx = q.dx;
    const gpu_layout l = layout_of(log_sq, log_cq);
    char* base = alloc_gpu_rings(dx, l, log_cq);
    dx.sq_umem = register_umem(base + l.sq, l.sq_bytes, "send queue");
    dx.cq_umem = register_umem(base + l.cq, l.cq_bytes, "completion queue");
    dx.dbr_umem = register_umem(base + l.dbr, l.dbr_bytes, "doorbell records");
    ensure_cq_prerequisites();
    dx.uar = alloc_doorbell_uar(&dx.uar_is_context_nc);

    prm::cq_params c;
    c.log_cq_size = log_cq;
    c.uar_page = cq_uar_->page_id;
    c.eqn = eqn_;
    c.log_page_size = cq_log_page_size;
    c.ring_umem_id = dx.cq_umem->umem_id;
    c.dbr_umem_id = dx.dbr_umem->umem_id;
    c.dbr_offset = cq_dbr_offset;
    c.overrun_ignore = false;  // the GPU advances the consumer index (cq_dbrec), as with verbs CQs
    dx.cq = devx_create(prm::create_cq_in(c), "CREATE_CQ", &dx.cqn);

    prm::qp_params r;
    r.pd = pdn_;
    r.uar_page = dx.uar->page_id;
    r.cqn = dx.cqn;
    r.log_sq_size = log_sq;
    r.user_index = index & 0xffffff;
    r.log_page_size = qp_log_page_size;
    r.ts_format = ts_format_;
    r.wq_umem_id = dx.sq_umem->umem_id;
    r.dbr_umem_id = dx.dbr_umem->umem_id;
    r.dbr_offset = qp_dbr_offset;
    std::uint32_t qpn = 0;
    dx.qp = devx_create(prm::create_qp_in(r), ("CREATE_QP (CQ " + hex(dx.cqn) + ")").c_str(), &qpn);
    q.psn = psn_seed_() & 0xffffff;

    // The GPU's view: rings at their GPU addresses; the doorbell register mapped as MMIO where the
    // platform allows, else rung by the CPU (GIO_GDA_DOORBELL=auto) through uar_host.
    q.rings.sq = base + l.sq;
    q.rings.log_sq = log_sq;
    q.rings.dbrec = reinterpret_cast<std::uint32_t*>(base + l.dbr + qp_dbr_offset);
    q.rings.cq = base + l.cq;
    q.rings.log_cq = log_cq;
    q.rings.cq_dbrec = reinterpret_cast<std::uint32_t*>(base + l.dbr + cq_dbr_offset);
    q.rings.uar_host = static_cast<std::uint64_t*>(dx.uar->reg_addr);
    try {
      q.rings.uar = static_cast<std::uint64_t*>(map(q, dx.uar->reg_addr, sizeof(std::uint64_t), true));
    } catch (const std::exception& e) {
      q.rings.uar = nullptr;
      q.rings.doorbell_refused = e.what();
    }
    q.rings.qpn = qpn;
  }

  // RoCE: the MAC of the next hop towards `gid`. The kernel resolves it (neighbour table) when an
  // address handle is made; mlx5 keeps it in the AH's address vector (plan §2.5).
  std::array<std::uint8_t, 6> next_hop_mac(const sel::gid_bytes& gid, const std::string& to) {
    ibv_ah_attr attr{};
    attr.is_global = 1;
    attr.port_num = dev_.port;
    std::memcpy(attr.grh.dgid.raw, gid.data(), 16);
    attr.grh.sgid_index = static_cast<std::uint8_t>(dev_.gid_index);
    attr.grh.hop_limit = roce_hop_limit;
    errno = 0;
    ibv_ah* ah = api_->create_ah(pd_, &attr);
    if (!ah)
      throw std::runtime_error(to + ": ibv_create_ah (resolving the peer's MAC) failed: " + errno_text(error_of(-1)));
    mlx5dv_ah dv_ah{};
    mlx5dv_obj obj{};
    obj.ah.in = ah;
    obj.ah.out = &dv_ah;
    const int rc = api_->init_obj(&obj, MLX5DV_OBJ_AH);
    std::array<std::uint8_t, 6> mac{};
    if (rc == 0 && dv_ah.av) std::memcpy(mac.data(), dv_ah.av->rmac, mac.size());
    api_->destroy_ah(ah);
    if (rc != 0 || !dv_ah.av)
      throw std::runtime_error(to + ": mlx5dv_init_obj(AH) failed: " + errno_text(rc ? error_of(rc) : EINVAL));
    return mac;
  }

  // Another IB subnet (its GID's subnet prefix differs from ours) is routed and needs a GRH; RoCE
  // always carries one.
  bool needs_grh(const sel::peer_address& p) const {
    if (dev_.link == sel::link_ethernet) return true;
    return !sel::is_zero(p.gid) && std::memcmp(p.gid.data(), dev_.gid.data(), 8) != 0;
  }

  prm::path_params path_to(const sel::peer_address& p, std::uint32_t local_qpn, const std::string& to) {
    prm::path_params a;
    a.roce = dev_.link == sel::link_ethernet;
    a.port = dev_.port;
    a.rlid = p.lid;
    a.sl = 0;
    a.global = needs_grh(p);
    std::memcpy(a.rgid.data(), p.gid.data(), 16);
    a.src_addr_index = static_cast<std::uint32_t>(dev_.gid_index);
    a.hop_limit = roce_hop_limit;
    a.tclass = 0;
    if (a.roce) {
      a.rmac = next_hop_mac(p.gid, to);
      // RoCE v2's UDP source port (for ECMP); the field is reserved under RoCE v1.
      if (dev_.gid_kind == sel::gid_type::roce_v2) a.udp_sport = sel::roce_udp_sport(local_qpn, p.qpn);
    }
    return a;
  }

  void devx_modify(queue_pair& q, const prm::command& in, const char* name, const std::string& to) {
    std::uint8_t out[prm::command_out_bytes] = {};
    errno = 0;
    const int rc = api_->devx_obj_modify(q.dx.qp, in.data(), in.size(), out, sizeof out);
    if (rc != 0 || prm::parse_out(out, sizeof out).status != 0)
      throw std::runtime_error(to + ": DevX " + name + " failed: " + devx_failure(rc ? error_of(rc) : 0, out, sizeof out));
  }

  // RESET -> INIT -> RTR -> RTS with the PRM's modify commands, the same settings as the verbs
  // path: remote write/read/atomic, the path MTU, the peer's PSN, several reads/atomics in flight
  // each way (plan P9), retries and the ACK timeout.
  void connect_devx(queue_pair& q, const sel::peer_address& p, const std::string& to) {
    prm::rst2init_params init;
    init.qpn = q.rings.qpn;
    init.port = dev_.port;
    init.pkey_index = 0;
    init.atomic_mode = prm::atomic_mode_up_to_8b;
    devx_modify(q, prm::rst2init_qp_in(init), "RST2INIT_QP", to);

    prm::init2rtr_params rtr;
    rtr.qpn = q.rings.qpn;
    rtr.mtu = sel::path_mtu(static_cast<std::uint8_t>(dev_.port_attr.active_mtu), p.mtu);
    rtr.log_msg_max = std::min(log_msg_max_wanted, caps_.log_max_msg);
    rtr.remote_qpn = p.qpn;
    rtr.next_rcv_psn = p.psn;
    rtr.log_rra_max = devx_log_rra_max();
    rtr.min_rnr_nak = min_rnr_timer;
    rtr.path = path_to(p, q.rings.qpn, to);
    devx_modify(q, prm::init2rtr_qp_in(rtr), "INIT2RTR_QP", to);

    prm::rtr2rts_params rts;
    rts.qpn = q.rings.qpn;
    rts.next_send_psn = q.psn;
    rts.log_sra_max = devx_log_sra_max(p.max_dest_rd_atomic);
    rts.retry_count = retry_count;
    rts.rnr_retry = rnr_retry_count;
    rts.ack_timeout = ack_timeout;
    devx_modify(q, prm::rtr2rts_qp_in(rts), "RTR2RTS_QP", to);
  }

  // Teardown of a DevX QP, in the order the objects depend on each other (plan "Teardown order"):
  // QP, CQ, the doorbell UAR (its GPU mapping already gone), the umems, then the GPU memory.
  void destroy_devx(queue_pair& q) noexcept {
    devx_qp& dx = q.dx;
    const std::string qp = hex(q.rings.qpn), cq = hex(dx.cqn);
    auto report = [&](const char* call, const std::string& of, int rc) {  // true when it worked
      if (rc)
        std::fprintf(stderr, "gio: gda: %s: %s(%s) failed: %s\n", dev_.name.c_str(), call, of.c_str(),
                     errno_text(error_of(rc)).c_str());
      return rc == 0;
    };
    bool objects_gone = true;  // else the NIC may still write the rings: they are kept (leaked)
    if (dx.qp) objects_gone &= report("mlx5dv_devx_obj_destroy", "QP " + qp, api_->devx_obj_destroy(dx.qp));
    if (dx.cq) objects_gone &= report("mlx5dv_devx_obj_destroy", "CQ " + cq, api_->devx_obj_destroy(dx.cq));
    if (dx.uar && !dx.uar_is_context_nc) api_->devx_free_uar(dx.uar);
    if (!objects_gone) {
      std::fprintf(stderr, "gio: gda: %s: QP %s's rings stay registered and allocated: the NIC may still use them\n",
                   dev_.name.c_str(), qp.c_str());
      dx = devx_qp{};
      return;
    }
    const std::pair<mlx5dv_devx_umem*, const char*> umems[] = {
        {dx.sq_umem, "send queue"}, {dx.cq_umem, "completion queue"}, {dx.dbr_umem, "doorbell records"}};
    for (const auto& [umem, ring] : umems)
      if (umem)
        report("mlx5dv_devx_umem_dereg", std::string(ring) + " umem of QP " + qp, api_->devx_umem_dereg(umem));
    if (dx.allocation) {
      try {
        gpu_.free_device(dx.allocation);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "gio: gda: %s: freeing QP %s's GPU rings failed: %s\n", dev_.name.c_str(), qp.c_str(),
                     e.what());
      } catch (...) {
      }
    }
    dx = devx_qp{};
  }

  void* map(queue_pair& q, void* host, std::size_t bytes, bool io) {
    const auto at = reinterpret_cast<std::uintptr_t>(host);
    const std::uintptr_t base = at & ~(page_ - 1);
    const std::uintptr_t end = (at + bytes + page_ - 1) & ~(page_ - 1);
    for (mapping& m : maps_) {
      if (base >= m.base && end <= m.end) {
        if (m.io != io)
          throw std::runtime_error("gda: " + dev_.name + ": host page " + hex(base) +
                                   " is needed both as memory and as MMIO");
        ++m.refs;
        q.pages.push_back(m.base);
        return m.gpu + (at - m.base);
      }
      if (base < m.end && m.base < end)
        throw std::runtime_error("gda: " + dev_.name + ": host range [" + hex(base) + ", " + hex(end) +
                                 ") partly overlaps one already mapped into the GPU [" + hex(m.base) + ", " +
                                 hex(m.end) + ")");
    }
    void* gpu = gpu_.map_host(reinterpret_cast<void*>(base), end - base, io);
    if (!gpu)
      throw std::runtime_error("gda: " + dev_.name + ": mapping host range [" + hex(base) + ", " + hex(end) +
                               ") into the GPU returned null");
    mapping m;
    m.base = base;
    m.end = end;
    m.io = io;
    m.gpu = static_cast<char*>(gpu);
    m.refs = 1;
    maps_.push_back(m);
    q.pages.push_back(base);
    return m.gpu + (at - base);
  }

  void release_pages(queue_pair& q) noexcept {
    for (std::uintptr_t base : q.pages)
      for (std::size_t i = 0; i < maps_.size(); ++i) {
        if (maps_[i].base != base) continue;
        if (--maps_[i].refs == 0) {
          try {
            gpu_.unmap_host(reinterpret_cast<void*>(base));
          } catch (const std::exception& e) {
            std::fprintf(stderr, "gio: gda: %s: unmapping host page %s from the GPU failed: %s\n", dev_.name.c_str(),
                         hex(base).c_str(), e.what());
          } catch (...) {
          }
          maps_.erase(maps_.begin() + static_cast<std::ptrdiff_t>(i));
        }
        break;
      }
    q.pages.clear();
  }

  void destroy(queue_pair& q) noexcept {
    release_pages(q);
    if (q.in_gpu) {
      destroy_devx(q);
      return;
    }
    if (q.qp) {
      if (int rc = api_->destroy_qp(q.qp))
        std::fprintf(stderr, "gio: gda: %s: ibv_destroy_qp(%s) failed: %s\n", dev_.name.c_str(),
                     hex(q.rings.qpn).c_str(), errno_text(error_of(rc)).c_str());
      q.qp = nullptr;
    }
    if (q.cq) {
      if (int rc = api_->destroy_cq(q.cq))
        std::fprintf(stderr, "gio: gda: %s: ibv_destroy_cq failed: %s\n", dev_.name.c_str(),
                     errno_text(error_of(rc)).c_str());
      q.cq = nullptr;
    }
  }

  std::shared_ptr<rdma_core> api_;  // first member: dlclosed after everything else is gone
  chosen_device dev_;
  gpu_hooks gpu_;
  std::uintptr_t page_;
  ibv_pd* pd_ = nullptr;
  int ext_atomics_ = -1;
  std::string ext_atomics_note_;
  std::uint8_t responder_depth_ = 0;
  std::uint8_t initiator_depth_ = 0;
  // DevX (placement::gpu): why it cannot be used (empty: it can), the general capabilities, the
  // PD's number, and what every DevX CQ shares.
  std::string devx_refused_;
  prm::hca_caps caps_;
  std::uint32_t ts_format_ = 0;  // every DevX QP's qpc.ts_format (devx_refusal)
  std::uint32_t pdn_ = 0;
  mlx5dv_devx_uar* cq_uar_ = nullptr;
  bool cq_uar_is_context_nc_ = false;
  std::uint32_t eqn_ = 0;
  bool have_eqn_ = false;
  std::mt19937 psn_seed_;
  std::vector<ibv_mr*> mrs_;
  std::vector<std::unique_ptr<queue_pair>> qps_;
  std::vector<mapping> maps_;
};

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : separator) + p;
  return s;
}

}  // namespace

std::unique_ptr<nic> open_mlx5(const collectives& boot, const mlx5_selection& select, const gpu_hooks& gpu,
                               std::string* why) {
  (void)boot;  // nothing to exchange: the library allgathers rkeys and QP addresses itself
  std::string scratch;
  std::string& reason = why ? *why : scratch;

  auto api = std::make_shared<rdma_core>();
  reason = api->load();
  if (!reason.empty()) return nullptr;

  int count = 0;
  errno = 0;
  ibv_device** list = api->get_device_list(&count);
  if (!list) {
    reason = "no RDMA device (ibv_get_device_list: " + errno_text(error_of(-1)) + ")";
    return nullptr;
  }
  struct list_guard {
    const rdma_core& api;
    ibv_device** list;
    ~list_guard() { api.free_device_list(list); }
  } free_list{*api, list};
  if (count <= 0) {
    reason = "no RDMA device";
    return nullptr;
  }

  const std::vector<std::string> include = sel::split_names(select.include);
  const std::vector<std::string> exclude = sel::split_names(select.exclude);
  std::vector<std::string> rejected;
  std::vector<ibv_device*> candidates;
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    const char* raw = api->get_device_name(list[i]);
    const std::string name = raw ? raw : "?";
    names.push_back(name);
    if (!api->is_supported(list[i])) {
      rejected.push_back(name + ": not an mlx5 device");
      continue;
    }
    const std::string filtered = sel::filter_reason(name, include, exclude);
    if (!filtered.empty()) {
      rejected.push_back(name + ": " + filtered);
      continue;
    }
    candidates.push_back(list[i]);
  }
  for (const std::string& wanted : include)
    if (!sel::contains(names, wanted)) rejected.push_back("GIO_GDA_NIC names " + wanted + ", which does not exist");

  std::vector<std::string> candidate_names;
  for (ibv_device* d : candidates) candidate_names.push_back(api->get_device_name(d) ? api->get_device_name(d) : "?");
  std::string locate_note;
  const std::vector<sel::proximity> near = locate(candidate_names, select.gpu_pci_bus_id, &locate_note);
  const std::vector<std::size_t> order = sel::order_by_proximity(near);

  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    chosen_device c;
    std::string no;
    if (!probe(*api, candidates[i], select, &c, &no)) {
      rejected.push_back(candidate_names[i] + ": " + no);
      continue;
    }
    c.proximity = near[i];
    c.nearest = near[i] == near[order.front()];
    c.gpu_bus_id = select.gpu_pci_bus_id;
    c.locate_note = locate_note;
    reason.clear();
    return std::make_unique<mlx5_nic>(api, std::move(c), gpu);  // throws only for a failure of this device
  }
  reason = "no usable mlx5 device: " + join(rejected, "; ");
  return nullptr;
}

}  // namespace gio::transports::gda
