// The fake libibverbs.so.1 (fake_rdma_core.hpp): the verbs entry points mlx5_nic.cpp resolves,
// and the fake's state, which the fake libmlx5.so.1 shares (it links this library, as the real
// libmlx5 links the real libibverbs).
#include <fcntl.h>
#include <infiniband/verbs.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fake_rdma_internal.hpp"

// verbs.h turns these names into calls of its static-inline wrappers; the fake defines the
// exported functions themselves.
#undef ibv_query_port
#undef ibv_reg_mr

namespace fake_rdma {
namespace detail {

state& st() {
  static state s;
  return s;
}

bool hidden(const char* symbol) {
  const auto& h = st().cfg.hidden;
  return std::find(h.begin(), h.end(), symbol) != h.end();
}

int take_failure(const char* call) {
  auto it = st().call_failures.find(call);
  if (it == st().call_failures.end()) return 0;
  const int err = it->second;
  st().call_failures.erase(it);
  return err;
}

void violation(const std::string& what) { st().violations.push_back(what); }

std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

object& add(const void* handle, object o) {
  for (const void* u : o.uses) {
    auto it = st().objects.find(u);
    if (it == st().objects.end())
      violation(o.name + " was made naming an object that does not exist");
    else
      ++it->second.users;
  }
  st().events.push_back("create " + o.name);
  o.handle = handle;
  return st().objects[handle] = std::move(o);
}

object* find(const void* handle, kind k) {
  auto it = st().objects.find(handle);
  return it != st().objects.end() && it->second.k == k ? &it->second : nullptr;
}

object* find_id(kind k, std::uint32_t id, const ibv_context* context) {
  for (auto& [handle, o] : st().objects)
    if (o.k == k && o.id == id && o.context == context) return &o;
  return nullptr;
}

int remove(const void* handle, kind k) {
  object* o = find(handle, k);
  if (!o) {
    violation("destroying an object that is not live (never made, or destroyed twice)");
    return EINVAL;
  }
  if (o->users > 0) {
    violation("destroying " + o->name + " while " + std::to_string(o->users) + " object(s) still name it");
    return EBUSY;
  }
  for (const void* u : o->uses) {
    auto it = st().objects.find(u);
    if (it != st().objects.end()) --it->second.users;
  }
  st().events.push_back("destroy " + o->name);
  st().objects.erase(handle);
  return 0;
}

context_memory* memory_of(const ibv_context* context) {
  object* o = find(context, kind::context);
  return o ? static_cast<context_memory*>(o->memory.get()) : nullptr;
}

std::shared_ptr<std::uint8_t> pages(std::size_t bytes) {
  const std::size_t rounded = (bytes + 4095) / 4096 * 4096;
  auto* p = static_cast<std::uint8_t*>(std::aligned_alloc(4096, rounded));
  std::memset(p, 0, rounded);
  return {p, [](std::uint8_t* q) { std::free(q); }};
}

}  // namespace detail

// ---- control panel ----------------------------------------------------------------------------

using namespace detail;

void reset(const config& c) {
  st() = state{};
  st().cfg = c;
  st().devices.resize(static_cast<std::size_t>(std::max(c.devices, 0)));
  for (std::size_t i = 0; i < st().devices.size(); ++i) {
    ibv_device& d = st().devices[i];
    d.node_type = IBV_NODE_CA;
    d.transport_type = IBV_TRANSPORT_IB;
    std::snprintf(d.name, sizeof d.name, "mlx5_%zu", i);
    std::snprintf(d.dev_name, sizeof d.dev_name, "uverbs%zu", i);
    std::snprintf(d.dev_path, sizeof d.dev_path, "/nonexistent/fake-rdma/uverbs%zu", i);
    if (c.ibdev_path.empty())
      std::snprintf(d.ibdev_path, sizeof d.ibdev_path, "/nonexistent/fake-rdma/mlx5_%zu", i);
    else
      std::snprintf(d.ibdev_path, sizeof d.ibdev_path, "%s", c.ibdev_path.c_str());
  }
}

void fail_call(const std::string& entry_point, int err) { st().call_failures[entry_point] = err; }

void fail_command(std::uint16_t opcode, std::uint8_t status, std::uint32_t syndrome, int err) {
  st().command_failures[opcode] = {status, syndrome, err};
}

void dmabuf(int fd, void* base, std::size_t bytes) { st().dmabufs[fd] = {static_cast<std::uint8_t*>(base), bytes}; }

const std::vector<devx_command>& commands() { return st().commands; }
const std::vector<std::string>& events() { return st().events; }
void note(const std::string& event) { st().events.push_back(event); }
const std::vector<std::string>& violations() { return st().violations; }

std::vector<std::string> live() {
  std::vector<std::string> names;
  for (const auto& [handle, o] : st().objects) names.push_back(o.name);
  return names;
}

std::vector<umem_info> umems() { return st().umems; }
std::vector<uar_info> uars() { return st().uars; }
const std::vector<verbs_modify>& modifies() { return st().modifies; }
std::vector<verbs_qp_info> verbs_qps() { return st().qps; }
std::vector<mr_info> mrs() { return st().mrs; }

}  // namespace fake_rdma

// ---- libibverbs ---------------------------------------------------------------------------------

namespace {

using namespace fake_rdma::detail;

bool is_fake_device(const ibv_device* device) {
  for (const ibv_device& d : st().devices)
    if (&d == device) return true;
  return false;
}

int query_port_ex(ibv_context*, std::uint8_t port, ibv_port_attr* attr, std::size_t bytes) {
  if (int e = take_failure("ibv_query_port")) return e;
  if (port != 1 || bytes < sizeof(ibv_port_attr)) return EINVAL;
  *attr = ibv_port_attr{};
  attr->state = IBV_PORT_ACTIVE;
  attr->max_mtu = IBV_MTU_4096;
  attr->active_mtu = static_cast<ibv_mtu>(st().cfg.active_mtu);
  attr->gid_tbl_len = st().cfg.roce ? 4 : 2;
  attr->lid = st().cfg.roce ? 0 : fake_rdma::lid;
  attr->link_layer = st().cfg.roce ? IBV_LINK_LAYER_ETHERNET : IBV_LINK_LAYER_INFINIBAND;
  return 0;
}

// The port's GID table. InfiniBand: subnet prefix fe80:: + GUID. RoCE, as a netdev with one IPv4
// address shows it: link-local v1, link-local v2, ::ffff:10.0.0.1 v1, ::ffff:10.0.0.1 v2.
ibv_gid_entry gid_entry(std::uint32_t index) {
  ibv_gid_entry e{};
  e.gid_index = index;
  e.port_num = 1;
  if (!st().cfg.roce) {
    const std::uint8_t g[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x0c, 0x42, 0xa1, 0xff, 0xfe, 0x00, 0x00, 0x17};
    std::memcpy(e.gid.raw, g, 16);
    e.gid_type = IBV_GID_TYPE_IB;
    return e;
  }
  if (index < 2) {
    const std::uint8_t g[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x0e, 0x42, 0xa1, 0xff, 0xfe, 0x00, 0x00, 0x17};
    std::memcpy(e.gid.raw, g, 16);
  } else {
    const std::uint8_t g[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
    std::memcpy(e.gid.raw, g, 16);
  }
  e.gid_type = index % 2 ? IBV_GID_TYPE_ROCE_V2 : IBV_GID_TYPE_ROCE_V1;
  return e;
}

int query_gid_ex(ibv_context*, std::uint32_t port, std::uint32_t index, ibv_gid_entry* entry, std::uint32_t flags,
                 std::size_t bytes) {
  if (int e = take_failure("_ibv_query_gid_ex")) return e;
  if (port != 1 || index >= (st().cfg.roce ? 4u : 2u) || flags != 0 || bytes < sizeof(ibv_gid_entry)) return EINVAL;
  *entry = gid_entry(index);
  return 0;
}

ibv_mr* new_mr(ibv_pd* pd, const void* addr, std::size_t length, int access, int fd) {
  if (!find(pd, kind::pd)) {
    violation("registering memory on a PD that is not live");
    errno = EINVAL;
    return nullptr;
  }
  auto mr = std::make_shared<ibv_mr>();
  mr->context = pd->context;
  mr->pd = pd;
  mr->addr = const_cast<void*>(addr);
  mr->length = length;
  mr->lkey = 0x100 + st().next_id++;
  mr->rkey = 0x8000 + mr->lkey;
  st().mrs.push_back({addr, length, access, fd, mr->lkey, mr->rkey});
  object o;
  o.k = kind::mr;
  o.name = "MR " + hex(mr->lkey);
  o.context = pd->context;
  o.uses = {pd};
  o.memory = mr;
  add(mr.get(), std::move(o));
  return mr.get();
}

}  // namespace

extern "C" {

ibv_device** ibv_get_device_list(int* num_devices) {
  if (st().cfg.list_errno != 0) {
    errno = st().cfg.list_errno;
    return nullptr;
  }
  const std::size_t n = st().devices.size();
  auto list = std::shared_ptr<ibv_device*[]>(new ibv_device*[n + 1]);
  for (std::size_t i = 0; i < n; ++i) list[i] = &st().devices[i];
  list[n] = nullptr;
  if (num_devices) *num_devices = static_cast<int>(n);
  object o;
  o.k = kind::device_list;
  o.name = "device list";
  o.memory = list;
  add(list.get(), std::move(o));
  return list.get();
}

void ibv_free_device_list(ibv_device** list) { remove(list, kind::device_list); }

const char* ibv_get_device_name(ibv_device* device) { return is_fake_device(device) ? device->name : nullptr; }

ibv_context* ibv_open_device(ibv_device* device) {
  if (int e = take_failure("ibv_open_device")) {
    errno = e;
    return nullptr;
  }
  if (!is_fake_device(device)) {
    errno = ENODEV;
    return nullptr;
  }
  auto m = std::make_shared<context_memory>();
  m->dbrec_page = pages(4096);
  m->uar_page = pages(4096);
  m->v.sz = sizeof(verbs_context);
  m->v.query_port = query_port_ex;
  ibv_context* c = &m->v.context;
  c->device = device;
  c->abi_compat = __VERBS_ABI_IS_EXTENDED;  // verbs_get_ctx_op finds query_port above
  c->num_comp_vectors = 1;
  object o;
  o.k = kind::context;
  o.name = std::string("context ") + device->name;
  o.context = c;
  o.memory = m;
  add(c, std::move(o));
  return c;
}

int ibv_close_device(ibv_context* context) {
  auto nc = st().nc_singletons.find(context);  // the context's own NC page goes with it
  if (nc != st().nc_singletons.end()) {
    object* o = find(nc->second, kind::uar);
    if (o) st().uars[o->record].live = false;
    remove(nc->second, kind::uar);
    st().nc_singletons.erase(nc);
  }
  return remove(context, kind::context);
}

int ibv_query_device(ibv_context* context, ibv_device_attr* attr) {
  if (int e = take_failure("ibv_query_device")) return e;
  if (!find(context, kind::context)) return EINVAL;
  *attr = ibv_device_attr{};
  std::snprintf(attr->fw_ver, sizeof attr->fw_ver, "28.99.9999");
  attr->max_qp = 1 << 17;
  attr->max_qp_wr = 32768;
  attr->max_sge = 30;
  attr->max_cq = 1 << 16;
  attr->max_cqe = (1 << 22) - 1;
  attr->max_qp_rd_atom = 16;
  attr->max_qp_init_rd_atom = 16;
  attr->atomic_cap = IBV_ATOMIC_HCA;
  attr->phys_port_cnt = 1;
  return 0;
}

// The exported compat entry (struct _compat_ibv_port_attr is a prefix of ibv_port_attr); mlx5_nic
// uses the context's query_port op, as verbs.h's wrapper does, so this only has to exist.
int ibv_query_port(ibv_context* context, std::uint8_t port, _compat_ibv_port_attr* attr) {
  ibv_port_attr full{};
  const int rc = query_port_ex(context, port, &full, sizeof full);
  if (rc == 0) std::memcpy(static_cast<void*>(attr), &full, offsetof(ibv_port_attr, link_layer));
  return rc;
}

int ibv_query_gid(ibv_context* context, std::uint8_t port, int index, ibv_gid* gid) {
  if (int e = take_failure("ibv_query_gid")) return e;
  if (!find(context, kind::context) || port != 1 || index < 0 || index >= (st().cfg.roce ? 4 : 2)) return EINVAL;
  *gid = gid_entry(static_cast<std::uint32_t>(index)).gid;
  return 0;
}

ibv_pd* ibv_alloc_pd(ibv_context* context) {
  if (int e = take_failure("ibv_alloc_pd")) {
    errno = e;
    return nullptr;
  }
  auto pd = std::make_shared<ibv_pd>();
  pd->context = context;
  object o;
  o.k = kind::pd;
  o.id = 0x2a + st().next_id++;  // the pdn mlx5dv_init_obj(PD) reports
  o.name = "PD " + hex(o.id);
  o.context = context;
  o.uses = {context};
  o.memory = pd;
  add(pd.get(), std::move(o));
  return pd.get();
}

int ibv_dealloc_pd(ibv_pd* pd) { return remove(pd, kind::pd); }

ibv_mr* ibv_reg_mr(ibv_pd* pd, void* addr, std::size_t length, int access) {
  if (int e = take_failure("ibv_reg_mr")) {
    errno = e;
    return nullptr;
  }
  return new_mr(pd, addr, length, access, -1);
}

int ibv_dereg_mr(ibv_mr* mr) { return remove(mr, kind::mr); }

int ibv_destroy_cq(ibv_cq* cq) { return remove(cq, kind::cq); }

// An RC QP as mlx5 makes it: the SQ sized roundup_pow2(max_send_wr * sq_wqebbs_per_wr) basic
// blocks, filled with garbage (mlx5_nic.cpp must zero it), doorbell record and BlueFlame register
// in the context's shared pages.
ibv_qp* ibv_create_qp(ibv_pd* pd, ibv_qp_init_attr* init) {
  if (int e = take_failure("ibv_create_qp")) {
    errno = e;
    return nullptr;
  }
  if (!find(pd, kind::pd) || !find(init->send_cq, kind::cq) || init->send_cq != init->recv_cq || init->cap.max_send_wr == 0) {
    violation("ibv_create_qp with a PD or CQs that are not live, or no send WRs");
    errno = EINVAL;
    return nullptr;
  }
  context_memory* m = memory_of(pd->context);
  std::uint32_t wqe_cnt = 1;
  while (wqe_cnt < init->cap.max_send_wr * st().cfg.sq_wqebbs_per_wr) wqe_cnt <<= 1;

  auto q = std::make_shared<qp_memory>();
  q->sq = pages(std::size_t{wqe_cnt} * 64);
  std::memset(q->sq.get(), 0xab, std::size_t{wqe_cnt} * 64);
  q->dbrec = m->new_dbrec();
  q->bf_reg = m->uar_page.get() + 0x800;
  q->qp.context = pd->context;
  q->qp.pd = pd;
  q->qp.send_cq = init->send_cq;
  q->qp.recv_cq = init->recv_cq;
  q->qp.qp_num = 0x1000 + st().next_id++;
  q->qp.state = IBV_QPS_RESET;
  q->qp.qp_type = init->qp_type;

  fake_rdma::verbs_qp_info info;
  info.qpn = q->qp.qp_num;
  info.max_send_wr = init->cap.max_send_wr;
  info.wqe_cnt = wqe_cnt;
  info.cap = init->cap;
  info.sq_sig_all = init->sq_sig_all;
  info.qp_type = init->qp_type;
  info.live = true;
  st().qps.push_back(info);
  init->cap.max_send_wr = wqe_cnt / st().cfg.sq_wqebbs_per_wr;
  init->cap.max_inline_data = std::max<std::uint32_t>(init->cap.max_inline_data, 60);

  object o;
  o.k = kind::qp;
  o.id = q->qp.qp_num;
  o.name = "QP " + hex(o.id);
  o.context = pd->context;
  o.uses = {pd, init->send_cq};
  o.record = st().qps.size() - 1;
  o.memory = q;
  add(&q->qp, std::move(o));
  return &q->qp;
}

// Each transition needs the attributes the kernel requires for it (ib_modify_qp_is_ok's table for
// RC, the ones gio sets); anything else, or a transition from another state, is EINVAL.
int ibv_modify_qp(ibv_qp* qp, ibv_qp_attr* attr, int mask) {
  if (int e = take_failure("ibv_modify_qp")) return e;
  object* o = find(qp, kind::qp);
  if (!o || !(mask & IBV_QP_STATE)) return EINVAL;
  int needed = 0, from = -1;
  switch (attr->qp_state) {
    case IBV_QPS_INIT:
      from = IBV_QPS_RESET;
      needed = IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
      break;
    case IBV_QPS_RTR:
      from = IBV_QPS_INIT;
      needed = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
               IBV_QP_MIN_RNR_TIMER;
      break;
    case IBV_QPS_RTS:
      from = IBV_QPS_RTR;
      needed = IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
      break;
    default:
      break;
  }
  if (o->qp_state != from || (mask & needed) != needed) {
    violation(o->name + ": ibv_modify_qp to state " + std::to_string(attr->qp_state) + " from state " +
              std::to_string(o->qp_state) + " with mask " + hex(static_cast<std::uint32_t>(mask)));
    return EINVAL;
  }
  o->qp_state = attr->qp_state;
  qp->state = attr->qp_state;
  st().modifies.push_back({qp->qp_num, mask, *attr});
  return 0;
}

int ibv_destroy_qp(ibv_qp* qp) {
  object* o = find(qp, kind::qp);
  const std::size_t record = o ? o->record : 0;
  const int rc = remove(qp, kind::qp);
  if (rc == 0) st().qps[record].live = false;
  return rc;
}

int ibv_destroy_ah(ibv_ah* ah) { return remove(ah, kind::ah); }

}  // extern "C"

namespace {

ibv_mr* reg_dmabuf_mr(ibv_pd* pd, std::uint64_t offset, std::size_t length, std::uint64_t iova, int fd, int access) {
  if (int e = take_failure("ibv_reg_dmabuf_mr")) {
    errno = e;
    return nullptr;
  }
  auto it = st().dmabufs.find(fd);
  if (fcntl(fd, F_GETFD) == -1 || it == st().dmabufs.end() || offset + length > it->second.bytes) {
    violation("ibv_reg_dmabuf_mr of fd " + std::to_string(fd) + " that is closed, unknown or too small");
    errno = EINVAL;
    return nullptr;
  }
  return new_mr(pd, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(iova)), length, access, fd);
}

// An address handle: mlx5 resolves the next hop's MAC when it is made (the kernel's neighbour
// table) and keeps it in the AV that mlx5dv_init_obj(AH) returns.
ibv_ah* create_ah(ibv_pd* pd, ibv_ah_attr* attr) {
  if (int e = take_failure("ibv_create_ah")) {
    errno = e;
    return nullptr;
  }
  if (!find(pd, kind::pd) || attr->port_num != 1 || (st().cfg.roce && !attr->is_global)) {
    violation("ibv_create_ah on a PD that is not live, another port, or RoCE without a GRH");
    errno = EINVAL;
    return nullptr;
  }
  auto a = std::make_shared<ah_memory>();
  a->ah.context = pd->context;
  a->ah.pd = pd;
  std::memcpy(a->av.rmac, fake_rdma::next_hop_mac, sizeof a->av.rmac);
  std::memcpy(a->av.rgid, attr->grh.dgid.raw, 16);
  object o;
  o.k = kind::ah;
  o.name = "AH " + hex(st().next_id++);
  o.context = pd->context;
  o.uses = {pd};
  o.memory = a;
  add(&a->ah, std::move(o));
  return &a->ah;
}

}  // namespace

FAKE_RDMA_HIDEABLE(_ibv_query_gid_ex, query_gid_ex);
FAKE_RDMA_HIDEABLE(ibv_reg_dmabuf_mr, reg_dmabuf_mr);
FAKE_RDMA_HIDEABLE(ibv_create_ah, create_ah);
