// The fake libmlx5.so.1 (fake_rdma_core.hpp): mlx5 direct verbs and DevX. The DevX commands are
// decoded with host/transports/gda/mlx5_prm.hpp's field table (itself checked byte for byte
// against the kernel's mlx5_ifc.h by mlx5_prm_test) and answered as the firmware would for the
// few commands mlx5_nic.cpp sends; whatever a command names must exist and fit.
#include <fcntl.h>
#include <infiniband/mlx5dv.h>

#include <cstring>

#include "fake_rdma_internal.hpp"
#include "transports/gda/mlx5_prm.hpp"

namespace {

using namespace fake_rdma::detail;
using fake_rdma::devx_command;
namespace prm = gio::transports::gda::prm;
namespace L = prm::layout;

constexpr std::uint32_t syndrome_bad_object = 0x0badd0b1;  // the fake's own: "names no such object"

bool devx_context(ibv_context* context) {
  context_memory* m = memory_of(context);
  if (m && m->devx) return true;
  violation("a DevX call on a context not opened with MLX5DV_CONTEXT_FLAGS_DEVX");
  return false;
}

// ---- DevX commands --------------------------------------------------------------------------

// One command in flight: recorded as sent, answered with an outbox, its result noted.
class command {
 public:
  command(const char* call, const void* in, std::size_t inlen, void* out, std::size_t outlen)
      : in_(static_cast<const std::uint8_t*>(in)), out_(static_cast<std::uint8_t*>(out)), outlen_(outlen) {
    devx_command r;
    r.call = call;
    r.in.assign(in_, in_ + inlen);
    r.opcode = inlen >= 4 ? static_cast<std::uint16_t>(prm::get(in_, L::opcode)) : 0;
    st().commands.push_back(std::move(r));
    index_ = st().commands.size() - 1;
    if (outlen_ >= prm::command_out_bytes) std::memset(out_, 0, outlen_);
  }
  devx_command& record() { return st().commands[index_]; }
  std::uint16_t opcode() { return record().opcode; }
  std::uint64_t get(prm::field f) { return prm::get(in_, f); }
  std::size_t inlen() { return record().in.size(); }

  // The failure the test asked for: 0 when none, else the errno to return.
  int injected() {
    auto it = st().command_failures.find(opcode());
    if (it == st().command_failures.end()) return 0;
    const command_failure f = it->second;
    st().command_failures.erase(it);
    if (f.status != 0) outbox(f.status, f.syndrome);
    return done(f.err);
  }
  // The firmware refuses: status and syndrome in the outbox, EREMOTEIO from the call (the kernel's
  // answer to a failed command since 5.x), and a violation, since mlx5_nic.cpp sent it.
  int refuse(std::uint8_t status, const std::string& why) {
    violation(std::string(prm::status_name(status)) + ": " + why);
    outbox(status, syndrome_bad_object);
    return done(EREMOTEIO);
  }
  int ok(std::uint32_t object_id = 0) {
    if (outlen_ >= prm::command_out_bytes) prm::set(out_, L::out_object_id, object_id);
    record().object_id = object_id;
    return done(0);
  }
  std::uint8_t* out() { return out_; }

 private:
  void outbox(std::uint8_t status, std::uint32_t syndrome) {
    record().status = status;
    if (outlen_ < prm::command_out_bytes) return;
    prm::set(out_, L::status, status);
    prm::set(out_, L::syndrome, syndrome);
  }
  int done(int err) {
    record().err = err;
    return err;
  }
  const std::uint8_t* in_;
  std::uint8_t* out_;
  std::size_t outlen_;
  std::size_t index_ = 0;
};

// QUERY_HCA_CAP: a ConnectX-7-like device (the values mlx5_nic.cpp reads).
int query_hca_cap(command& c, std::size_t outlen) {
  if (c.inlen() < prm::query_hca_cap_in_bytes || outlen < prm::query_hca_cap_out_bytes)
    return c.refuse(0x50, "QUERY_HCA_CAP inbox or outbox too short");
  const std::uint64_t op_mod = c.get(L::op_mod);
  std::uint8_t* out = c.out();
  auto cap = [out](prm::field f, std::uint32_t v) { prm::set(out, L::in_cap(f), v); };
  if (op_mod == (prm::cap_general << 1 | 1)) {
    cap(L::cap::log_max_qp_sz, 15);
    cap(L::cap::log_max_qp, 17);
    cap(L::cap::log_max_cq_sz, 22);
    cap(L::cap::log_max_ra_req_qp, 4);
    cap(L::cap::log_max_ra_res_qp, 4);
    cap(L::cap::port_type, st().cfg.roce ? prm::port_type_ethernet : prm::port_type_ib);
    cap(L::cap::num_ports, 1);
    cap(L::cap::log_max_msg, 30);
    cap(L::cap::cqe_version, 1);
    cap(L::cap::roce, st().cfg.roce ? 1 : 0);
    cap(L::cap::atomic, 1);
    cap(L::cap::cq_oi, 1);
    cap(L::cap::rc, 1);
    cap(L::cap::uar_4k, 1);
    cap(L::cap::uar_sz, 0);
    cap(L::cap::log_pg_sz, 12);
    cap(L::cap::bf, 1);
    cap(L::cap::log_bf_reg_size, 9);
    cap(L::cap::sq_ts_format, st().cfg.ts_format_cap);
    return c.ok();
  }
  if (op_mod == (prm::cap_roce << 1 | 1) && st().cfg.roce) {
    cap(L::cap::roce_qp_ts_format, st().cfg.ts_format_cap);
    return c.ok();
  }
  if (op_mod == (prm::cap_atomic << 1 | 1)) {
    cap(L::cap::atomic_operations, 0xf);   // CS, FA, masked CS, masked FA
    cap(L::cap::atomic_size_qp, 0x4 | 0x8);  // 4- and 8-byte operands
    return c.ok();
  }
  return c.refuse(0x3, "QUERY_HCA_CAP of op_mod " + hex(op_mod));
}

// The live umem `id` on `context` if it covers [offset, offset + bytes), else null with a violation.
object* umem_covering(std::uint32_t id, std::uint64_t offset, std::uint64_t bytes, const ibv_context* context,
                      const std::string& what) {
  object* u = find_id(kind::umem, id, context);
  if (!u) {
    violation(what + " names umem " + std::to_string(id) + ", which is not registered");
    return nullptr;
  }
  if (offset + bytes > st().umems[u->record].size) {
    violation(what + " needs [" + std::to_string(offset) + ", +" + std::to_string(bytes) + ") of umem " +
              std::to_string(id) + ", which has " + std::to_string(st().umems[u->record].size) + " bytes");
    return nullptr;
  }
  return u;
}

struct devx_obj_memory {
  ibv_context* context = nullptr;
};

int create_cq(command& c, ibv_context* context, devx_obj_memory* handle) {
  const std::uint32_t log_size = static_cast<std::uint32_t>(c.get(L::in_cqc(L::cqc::log_cq_size)));
  const std::uint64_t ring_bytes = std::uint64_t{64} << log_size;
  object* ring = umem_covering(static_cast<std::uint32_t>(c.get(L::cq_umem_id)), c.get(L::cq_umem_offset),
                               ring_bytes, context, "CREATE_CQ's ring");
  object* dbr = umem_covering(static_cast<std::uint32_t>(c.get(L::in_cqc(L::cqc::dbr_umem_id))),
                              c.get(L::in_cqc(L::cqc::dbr_addr)), 8, context, "CREATE_CQ's doorbell record");
  object* uar = find_id(kind::uar, static_cast<std::uint32_t>(c.get(L::in_cqc(L::cqc::uar_page))), context);
  if (!ring || !dbr || !c.get(L::cq_umem_valid) || !c.get(L::in_cqc(L::cqc::dbr_umem_valid)))
    return c.refuse(0x3, "CREATE_CQ: ring or doorbell record not in a valid umem");
  if (!uar) return c.refuse(0x5, "CREATE_CQ names UAR page " + hex(c.get(L::in_cqc(L::cqc::uar_page))) + ", not allocated");
  if (c.get(L::in_cqc(L::cqc::c_eqn)) != fake_rdma::eqn) return c.refuse(0x3, "CREATE_CQ names an EQ that does not exist");
  if (c.get(L::in_cqc(L::cqc::cqe_sz)) != prm::cqe_size_64) return c.refuse(0x3, "CREATE_CQ: CQEs not 64 bytes");
  // What the NIC would see first: every CQE's op_own byte at this moment.
  const std::uint8_t* cqes = st().umems[ring->record].addr + c.get(L::cq_umem_offset);
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << log_size); ++i) c.record().cqe_owner.push_back(cqes[i * 64 + 63]);

  object o;
  o.k = kind::devx_cq;
  o.id = 0x400 + st().next_id++;
  o.name = "DevX CQ " + hex(o.id);
  o.context = context;
  o.uses = {context, ring->handle, dbr->handle, uar->handle};
  add(handle, std::move(o));
  return c.ok(find(handle, kind::devx_cq)->id);
}

int create_qp(command& c, ibv_context* context, devx_obj_memory* handle) {
  const std::uint32_t log_sq = static_cast<std::uint32_t>(c.get(L::in_qpc(L::qpc::log_sq_size)));
  object* wq = umem_covering(static_cast<std::uint32_t>(c.get(L::wq_umem_id)), c.get(L::wq_umem_offset),
                             std::uint64_t{64} << log_sq, context, "CREATE_QP's send queue");
  object* dbr = umem_covering(static_cast<std::uint32_t>(c.get(L::in_qpc(L::qpc::dbr_umem_id))),
                              c.get(L::in_qpc(L::qpc::dbr_addr)), 8, context, "CREATE_QP's doorbell record");
  const auto cqn = static_cast<std::uint32_t>(c.get(L::in_qpc(L::qpc::cqn_snd)));
  object* cq = find_id(kind::devx_cq, cqn, context);
  object* uar = find_id(kind::uar, static_cast<std::uint32_t>(c.get(L::in_qpc(L::qpc::uar_page))), context);
  object* pd = find_id(kind::pd, static_cast<std::uint32_t>(c.get(L::in_qpc(L::qpc::pd))), context);
  if (!wq || !dbr || !c.get(L::wq_umem_valid) || !c.get(L::in_qpc(L::qpc::dbr_umem_valid)))
    return c.refuse(0x3, "CREATE_QP: send queue or doorbell record not in a valid umem");
  if (!cq || c.get(L::in_qpc(L::qpc::cqn_rcv)) != cqn) return c.refuse(0x5, "CREATE_QP names CQ " + hex(cqn) + ", not created");
  if (!uar) return c.refuse(0x5, "CREATE_QP names a UAR page that is not allocated");
  if (!pd) return c.refuse(0x5, "CREATE_QP names a PD that does not exist");
  if (c.get(L::in_qpc(L::qpc::st)) != prm::st_rc) return c.refuse(0x3, "CREATE_QP: not RC");
  if (st().cfg.ts_format_cap == 1 && c.get(L::in_qpc(L::qpc::ts_format)) == 0)
    return c.refuse(0x3, "CREATE_QP: a free-running timestamp on a device in real-time mode");

  object o;
  o.k = kind::devx_qp;
  o.id = 0x1000 + st().next_id++;
  o.name = "DevX QP " + hex(o.id);
  o.context = context;
  o.uses = {context, wq->handle, dbr->handle, cq->handle, uar->handle, pd->handle};
  add(handle, std::move(o));
  return c.ok(find(handle, kind::devx_qp)->id);
}

// The three transitions, each from its own state only, naming the QP they are sent to.
int modify_qp(command& c, object& qp) {
  int from = 0, to = 0;
  switch (c.opcode()) {
    case prm::op::rst2init_qp: from = IBV_QPS_RESET, to = IBV_QPS_INIT; break;
    case prm::op::init2rtr_qp: from = IBV_QPS_INIT, to = IBV_QPS_RTR; break;
    case prm::op::rtr2rts_qp: from = IBV_QPS_RTR, to = IBV_QPS_RTS; break;
    default: return c.refuse(0x2, "obj_modify with opcode " + hex(c.opcode()));
  }
  if (c.get(L::qpn) != qp.id) return c.refuse(0x3, "a transition of " + qp.name + " names QP " + hex(c.get(L::qpn)));
  if (qp.qp_state != from) return c.refuse(0x10, qp.name + " is in state " + std::to_string(qp.qp_state));
  qp.qp_state = to;
  return c.ok(qp.id);
}

std::uint32_t log2_ceil(std::uint32_t n) {
  std::uint32_t l = 0;
  while ((1u << l) < n) ++l;
  return l;
}

// ---- entry points (their exported names are bound at the end) ---------------------------------

ibv_context* open_device(ibv_device* device, mlx5dv_context_attr* attr) {
  if (int e = take_failure("mlx5dv_open_device")) {
    errno = e;
    return nullptr;
  }
  const bool devx = attr && (attr->flags & MLX5DV_CONTEXT_FLAGS_DEVX);
  if (devx && !st().cfg.devx) {
    errno = EOPNOTSUPP;  // a kernel without DevX for this user
    return nullptr;
  }
  ibv_context* c = ibv_open_device(device);
  if (c) memory_of(c)->devx = devx;
  return c;
}

int general_cmd(ibv_context* context, const void* in, std::size_t inlen, void* out, std::size_t outlen) {
  command c("general_cmd", in, inlen, out, outlen);
  if (int e = c.injected()) return e;
  if (!devx_context(context)) return c.refuse(0x2, "general_cmd without DevX");
  if (c.opcode() != prm::op::query_hca_cap) return c.refuse(0x2, "general_cmd opcode " + hex(c.opcode()));
  return query_hca_cap(c, outlen);
}

mlx5dv_devx_obj* obj_create(ibv_context* context, const void* in, std::size_t inlen, void* out, std::size_t outlen) {
  command c("obj_create", in, inlen, out, outlen);
  auto fail = [](int e) {
    errno = e;
    return nullptr;
  };
  if (int e = c.injected()) return fail(e);
  if (!devx_context(context)) return fail(c.refuse(0x2, "obj_create without DevX"));
  if (inlen < prm::create_qp_in_bytes || outlen < prm::command_out_bytes)
    return fail(c.refuse(0x50, "obj_create inbox or outbox too short"));
  auto handle = std::make_shared<devx_obj_memory>();
  handle->context = context;
  int e = 0;
  if (c.opcode() == prm::op::create_cq)
    e = create_cq(c, context, handle.get());
  else if (c.opcode() == prm::op::create_qp)
    e = create_qp(c, context, handle.get());
  else
    e = c.refuse(0x2, "obj_create opcode " + hex(c.opcode()));
  if (e) return fail(e);
  find(handle.get(), c.opcode() == prm::op::create_cq ? kind::devx_cq : kind::devx_qp)->memory = handle;
  return reinterpret_cast<mlx5dv_devx_obj*>(handle.get());
}

int obj_modify(mlx5dv_devx_obj* obj, const void* in, std::size_t inlen, void* out, std::size_t outlen) {
  command c("obj_modify", in, inlen, out, outlen);
  if (int e = c.injected()) return e;
  object* qp = find(obj, kind::devx_qp);
  if (!qp) return c.refuse(0x5, "obj_modify of an object that is not a live DevX QP");
  c.record().object_id = qp->id;
  if (inlen < prm::modify_qp_in_bytes || outlen < prm::command_out_bytes)
    return c.refuse(0x50, "obj_modify inbox or outbox too short");
  return modify_qp(c, *qp);
}

int obj_destroy(mlx5dv_devx_obj* obj) {
  if (int e = take_failure("mlx5dv_devx_obj_destroy")) return e;
  if (find(obj, kind::devx_qp)) return remove(obj, kind::devx_qp);
  return remove(obj, kind::devx_cq);
}

mlx5dv_devx_umem* new_umem(ibv_context* context, const std::uint8_t* addr, std::size_t size, std::uint32_t access,
                           int fd, std::uint64_t pgsz_bitmap) {
  auto umem = std::make_shared<mlx5dv_devx_umem>();
  umem->umem_id = st().next_id++;
  fake_rdma::umem_info info;
  info.id = umem->umem_id;
  info.addr = addr;
  info.size = size;
  info.access = access;
  info.dmabuf_fd = fd;
  info.pgsz_bitmap = pgsz_bitmap;
  info.live = true;
  st().umems.push_back(info);
  object o;
  o.k = kind::umem;
  o.id = umem->umem_id;
  o.name = "umem " + std::to_string(o.id);
  o.context = context;
  o.uses = {context};
  o.record = st().umems.size() - 1;
  o.memory = umem;
  add(umem.get(), std::move(o));
  return umem.get();
}

mlx5dv_devx_umem* umem_reg(ibv_context* context, void* addr, std::size_t size, std::uint32_t access) {
  if (int e = take_failure("mlx5dv_devx_umem_reg")) {
    errno = e;
    return nullptr;
  }
  if (!devx_context(context) || !addr || size == 0) {
    errno = EINVAL;
    return nullptr;
  }
  return new_umem(context, static_cast<std::uint8_t*>(addr), size, access, -1, 0);
}

// dma-buf umems: addr is the offset into the dma-buf, whose memory the test told the fake.
mlx5dv_devx_umem* umem_reg_ex(ibv_context* context, mlx5dv_devx_umem_in* in) {
  if (int e = take_failure("mlx5dv_devx_umem_reg_ex")) {
    errno = e;
    return nullptr;
  }
  if (!devx_context(context)) {
    errno = EINVAL;
    return nullptr;
  }
  if (!(in->comp_mask & MLX5DV_UMEM_MASK_DMABUF))
    return umem_reg(context, in->addr, in->size, in->access);
  const auto offset = reinterpret_cast<std::uintptr_t>(in->addr);
  auto it = st().dmabufs.find(in->dmabuf_fd);
  if (fcntl(in->dmabuf_fd, F_GETFD) == -1 || it == st().dmabufs.end() || offset + in->size > it->second.bytes) {
    violation("umem_reg_ex of dma-buf fd " + std::to_string(in->dmabuf_fd) + " that is closed, unknown or too small");
    errno = EINVAL;
    return nullptr;
  }
  return new_umem(context, it->second.base + offset, in->size, in->access, in->dmabuf_fd, in->pgsz_bitmap);
}

int umem_dereg(mlx5dv_devx_umem* umem) {
  if (int e = take_failure("mlx5dv_devx_umem_dereg")) return e;
  object* o = find(umem, kind::umem);
  const std::size_t record = o ? o->record : 0;
  const int rc = remove(umem, kind::umem);
  if (rc == 0) st().umems[record].live = false;
  return rc;
}

// A UAR page of its own (host memory standing for the device's MMIO page), the doorbell register
// at 0x800 as on mlx5. rdma-core v44 knows the BF and NC kinds only; NC is the context's one
// page, the same for every request.
mlx5dv_devx_uar* alloc_uar(ibv_context* context, std::uint32_t flags) {
  if (int e = take_failure("mlx5dv_devx_alloc_uar")) {
    errno = e;
    return nullptr;
  }
  const bool known = (flags == MLX5DV_UAR_ALLOC_TYPE_BF && st().cfg.bf_uar) || flags == MLX5DV_UAR_ALLOC_TYPE_NC ||
                     (flags == 1u << 31 && st().cfg.nc_dedicated_uar);
  if (!known) {
    errno = EOPNOTSUPP;
    return nullptr;
  }
  if (!devx_context(context)) {
    errno = EINVAL;
    return nullptr;
  }
  const bool nc = flags == MLX5DV_UAR_ALLOC_TYPE_NC;
  if (nc && st().nc_singletons.count(context)) return st().nc_singletons[context];
  struct uar_memory {
    mlx5dv_devx_uar uar{};
    std::shared_ptr<std::uint8_t> page = pages(4096);
  };
  auto u = std::make_shared<uar_memory>();
  u->uar.base_addr = u->page.get();
  u->uar.reg_addr = u->page.get() + 0x800;
  u->uar.page_id = 0x20 + st().next_id++;
  u->uar.mmap_off = 0;
  st().uars.push_back({u->uar.page_id, flags, u->uar.reg_addr, true});
  object o;
  o.k = kind::uar;
  o.id = u->uar.page_id;
  o.name = "UAR page " + hex(o.id);
  o.context = context;
  o.uses = {context};
  o.record = st().uars.size() - 1;
  o.memory = u;
  add(&u->uar, std::move(o));
  if (nc) st().nc_singletons[context] = &u->uar;
  return &u->uar;
}

void free_uar(mlx5dv_devx_uar* uar) {
  for (const auto& [context, singleton] : st().nc_singletons)
    if (singleton == uar) {
      violation("mlx5dv_devx_free_uar of the context's NC page, which rdma-core owns");
      return;
    }
  object* o = find(uar, kind::uar);
  const std::size_t record = o ? o->record : 0;
  if (remove(uar, kind::uar) == 0) st().uars[record].live = false;
}

int query_eqn(ibv_context* context, std::uint32_t vector, std::uint32_t* eqn) {
  if (int e = take_failure("mlx5dv_devx_query_eqn")) return e;
  if (!devx_context(context) || vector != 0) return EINVAL;
  *eqn = fake_rdma::eqn;
  return 0;
}

}  // namespace

extern "C" {

bool mlx5dv_is_supported(ibv_device* device) {
  for (const ibv_device& d : st().devices)
    if (&d == device) return true;
  return false;
}

// The direct-verbs view of verbs objects the fake made.
int mlx5dv_init_obj(mlx5dv_obj* obj, std::uint64_t types) {
  if (int e = take_failure("mlx5dv_init_obj")) return e;
  if (types & MLX5DV_OBJ_QP) {
    object* o = find(obj->qp.in, kind::qp);
    if (!o) return EINVAL;
    auto* q = static_cast<qp_memory*>(o->memory.get());
    *obj->qp.out = mlx5dv_qp{};
    obj->qp.out->dbrec = q->dbrec;
    obj->qp.out->sq.buf = q->sq.get();
    obj->qp.out->sq.wqe_cnt = st().qps[o->record].wqe_cnt;
    obj->qp.out->sq.stride = 64;
    obj->qp.out->bf.reg = q->bf_reg;
    obj->qp.out->bf.size = 256;
  }
  if (types & MLX5DV_OBJ_CQ) {
    object* o = find(obj->cq.in, kind::cq);
    if (!o) return EINVAL;
    auto* c = static_cast<cq_memory*>(o->memory.get());
    *obj->cq.out = mlx5dv_cq{};
    obj->cq.out->buf = c->buf.get();
    obj->cq.out->dbrec = c->dbrec;
    obj->cq.out->cqe_cnt = c->cqe_cnt;
    obj->cq.out->cqe_size = c->cqe_size;
    obj->cq.out->cqn = o->id;
  }
  if (types & MLX5DV_OBJ_PD) {
    object* o = find(obj->pd.in, kind::pd);
    if (!o) return EINVAL;
    *obj->pd.out = mlx5dv_pd{};
    obj->pd.out->pdn = o->id;
  }
  if (types & MLX5DV_OBJ_AH) {
    object* o = find(obj->ah.in, kind::ah);
    if (!o) return EINVAL;
    *obj->ah.out = mlx5dv_ah{};
    obj->ah.out->av = &static_cast<ah_memory*>(o->memory.get())->av;
  }
  return 0;
}

// A verbs CQ of roundup_pow2(cqe + 1) entries, 64-byte CQEs unless asked otherwise. Its buffer is
// left zero (rdma-core initialises it invalid; mlx5_nic.cpp must not rely on that).
ibv_cq_ex* mlx5dv_create_cq(ibv_context* context, ibv_cq_init_attr_ex* attr, mlx5dv_cq_init_attr* dv) {
  if (int e = take_failure("mlx5dv_create_cq")) {
    errno = e;
    return nullptr;
  }
  context_memory* m = memory_of(context);
  if (!m || attr->cqe == 0) {
    errno = EINVAL;
    return nullptr;
  }
  auto c = std::make_shared<cq_memory>();
  c->cqe_cnt = 1u << log2_ceil(attr->cqe + 1);
  c->cqe_size = dv && (dv->comp_mask & MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE) ? dv->cqe_size : 64;
  c->buf = pages(std::size_t{c->cqe_cnt} * c->cqe_size);
  c->dbrec = m->new_dbrec();
  c->cq.context = context;
  c->cq.cqe = static_cast<int>(c->cqe_cnt - 1);
  object o;
  o.k = kind::cq;
  o.id = 0x300 + st().next_id++;
  o.name = "CQ " + hex(o.id);
  o.context = context;
  o.uses = {context};
  o.memory = c;
  // Registered under the ibv_cq address (the same as the ibv_cq_ex's): ibv_destroy_cq and
  // mlx5dv_init_obj get ibv_cq_ex_to_cq of it.
  add(ibv_cq_ex_to_cq(&c->cq), std::move(o));
  return &c->cq;
}

}  // extern "C"

FAKE_RDMA_HIDEABLE(mlx5dv_open_device, open_device);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_general_cmd, general_cmd);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_umem_reg, umem_reg);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_umem_reg_ex, umem_reg_ex);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_umem_dereg, umem_dereg);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_alloc_uar, alloc_uar);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_free_uar, free_uar);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_query_eqn, query_eqn);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_obj_create, obj_create);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_obj_modify, obj_modify);
FAKE_RDMA_HIDEABLE(mlx5dv_devx_obj_destroy, obj_destroy);
