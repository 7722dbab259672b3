#include "transports/gda/gda_setup.hpp"

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "gio/build_config.hpp"
#include "gio/device/transports/gda/wqe_builder.hpp"
#include "transports/gda/doorbell_relay.hpp"

namespace gio::transports::gda {
namespace {

unsigned log2_exact(std::size_t n) {
  unsigned log = 0;
  while ((std::size_t{1} << log) < n) ++log;
  return log;
}

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// A posting or relaying thread spins; bound with the application's thread to one CPU (mpirun
// binds each rank to a core by default), it runs only when the scheduler preempts a thread that spins on the GPU,
// and every operation it serves waits milliseconds: measured on 2xH200 over the model, an 8-byte
// ikn put ping-pong took 8 ms with the default binding and 57 us with --bind-to none.
void warn_if_bound_to_one_cpu(int me, const char* thread_role, const char* transport_name) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) > 1) return;
  std::fprintf(stderr,
               "gio: PE %d: warning: this process may run on one CPU only, which the %s thread shares with the "
               "application; %s operations will wait for the scheduler (milliseconds each). Give each PE more "
               "than one core (mpirun --bind-to none, or --map-by ...:PE=2)\n",
               me, thread_role, transport_name);
}

// What every PE publishes for every other: its QPs' addresses (one per context) and its heap's key.
struct heap_card {
  std::uint64_t address;
  std::uint32_t rkey;
  std::uint32_t pad;
};

nic* open_model(const std::string& path, const collectives& boot, void** plugin) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error("GIO_GDA_NIC_MODEL=" + path + ": " + dlerror());
  auto open = reinterpret_cast<model_open_fn>(dlsym(handle, model_open_symbol));
  if (!open) {
    dlclose(handle);
    throw std::runtime_error("GIO_GDA_NIC_MODEL=" + path + " has no " + model_open_symbol);
  }
  std::string error;
  nic* card = open(boot, &error);
  if (!card) {
    dlclose(handle);
    throw std::runtime_error("the software NIC model failed to open: " + error);
  }
  *plugin = handle;
  return card;
}

}  // namespace

bool wanted(const config::settings& s, const bootstrap& boot) {
  return boot.size() > 1 && (s.transport == "gda" || (s.transport == "auto" && boot.node_size() != boot.size()));
}

heap_area plan_heap_area(const config::settings& s, int n_pes) {
  heap_area a;
  a.bounce_bytes = round_up(s.gda.bounce, 4096);
  a.fetch_offset = a.bounce_bytes * static_cast<std::size_t>(s.gda.contexts);
  // A QP per (context, PE): every PE could be a gda peer.
  const std::size_t fetch_words = static_cast<std::size_t>(s.gda.contexts) * n_pes * s.gda.sq_depth;
  a.bytes = round_up(a.fetch_offset + fetch_words * sizeof(std::uint64_t), 4096);
  return a;
}

bool use_hdp(const std::string& setting, const std::vector<hdp_card>& cards, int my_pe, const std::string& local_why,
             std::string* why) {
  if (setting == "off") {
    *why = "GIO_GDA_HDP=off";
    return false;
  }
  // The PE to name: the first without a register, else the first whose NIC refused it (PEs that
  // have one do not register it when another has none: naming them would blame the wrong PE).
  std::size_t pe = 0;
  while (pe < cards.size() && cards[pe].state != hdp_state::absent) ++pe;
  if (pe == cards.size()) {
    pe = 0;
    while (pe < cards.size() && cards[pe].state == hdp_state::registered) ++pe;
  }
  if (pe < cards.size()) {
    std::string cause = cards[pe].state == hdp_state::absent    ? "has no HDP flush register"
                        : cards[pe].state == hdp_state::refused ? "could not register its HDP flush register with the NIC"
                                                                : "did not register its HDP flush register";
    if (static_cast<int>(pe) == my_pe && !local_why.empty()) cause += " (" + local_why + ")";
    *why = "PE " + std::to_string(pe) + " " + cause;
    if (setting == "on") throw std::runtime_error("GIO_GDA_HDP=on, but " + *why);
    return false;
  }
  return true;
}

transport::transport() = default;
transport::~transport() = default;  // close() is called by the runtime, with its backend

std::size_t transport::plan_heap_area(const config::settings& s, int n_pes, std::size_t offset) {
  area_offset_ = offset;
  return gda::plan_heap_area(s, n_pes).bytes;
}

bool transport::open(const setup_view& v, std::string* why) {
  const config::settings& s = v.settings;
  if (!(GIO_GPU_IS_CUDA || GIO_GPU_IS_HIP))
    throw std::runtime_error("GIO_TRANSPORT=" + s.transport + ": this build of gio has no GPU, hence no " + name());
  const bool have = open_nic(s, v.boot, v.backend, v.device.pci_bus_id, why);
  if (!have && takes_every_peer(s))
    throw std::runtime_error("GIO_TRANSPORT=" + s.transport + " but no RDMA device can serve it: " + *why);
  return have;
}

void transport::connect(const setup_view& v, char* heap, std::size_t heap_bytes, const std::vector<peer_info>&) {
  // A QP to every PE, this one included (loopback), not only to those the peer table routes over
  // gda: the heap's atomics area takes every PE's atomics through the NIC (handle.hpp).
  connect_queues(v.settings, v.boot, v.backend, heap, heap_bytes);
}

std::string transport::describe_queues(const config::settings& s) const {
  return description_ + ", " + std::to_string(contexts_) + " contexts, SQ depth " + std::to_string(s.gda.sq_depth) +
         ", doorbells " + doorbells_ + ", HDP " + hdp_;
}

std::string transport::report(const config::settings& s, const transport_state& state) const {
  if (state.on) return "gda (direct) over " + describe_queues(s);
  if (!state.off_reason.empty()) return "gda off: " + state.off_reason;
  if (s.transport != "auto" && s.transport != name()) return "gda not used (GIO_TRANSPORT=" + s.transport + ")";
  return "gda not needed (every PE on this node; GIO_TRANSPORT=gda forces it)";
}

bool transport::open_nic(const config::settings& s, const bootstrap& boot, gpu::backend& backend,
                         const std::string& gpu_bus_id, std::string* why) {
  if ((s.gda.sq_depth & (s.gda.sq_depth - 1)) != 0)
    throw std::runtime_error("GIO_GDA_SQ_DEPTH=" + std::to_string(s.gda.sq_depth) + " is not a power of two");
  collectives coll;
  coll.my_pe = boot.rank();
  coll.n_pes = boot.size();
  coll.gpu_ordinal = backend.info().ordinal;
  // Pointers, not references, in the closures: the NIC keeps them after this call returns.
  auto* b = const_cast<bootstrap*>(&boot);
  coll.allgather = [b](const void* mine, void* all, std::size_t bytes) { b->allgather(mine, all, bytes); };
  coll.barrier = [b] { b->barrier(); };
  if (!s.gda.nic_model.empty()) {
    card_.reset(open_model(s.gda.nic_model, coll, &plugin_));
  } else {
    mlx5_selection select;
    select.gpu_pci_bus_id = gpu_bus_id;
    select.include = s.gda.nic;
    select.exclude = s.gda.nic_exclude;
    gpu_hooks hooks;
    gpu::backend* gpu = &backend;
    hooks.dmabuf_fd = [gpu](void* base, std::size_t bytes, std::string* why) { return gpu->dmabuf_fd(base, bytes, why); };
    hooks.map_host = [gpu](void* host, std::size_t bytes, bool io) { return gpu->map_host(host, bytes, io); };
    hooks.unmap_host = [gpu](void* host) { gpu->unmap_host(host); };
    const gpu::gpu_caching caching = gpu::net_buffer_caching(s);
    hooks.alloc_device = [gpu, caching](std::size_t bytes) { return gpu->allocate_nic_memory(bytes, caching); };
    hooks.free_device = [gpu](void* device) { gpu->free_nic_memory(device); };
    hooks.copy_to_device = [gpu](void* device, const void* host, std::size_t bytes) { gpu->copy(device, host, bytes); };
    card_ = open_mlx5(coll, select, hooks, why);
    if (!card_) return false;
  }
  description_ = card_->describe();
  return true;
}

void transport::connect_queues(const config::settings& s, bootstrap& boot, gpu::backend& backend, char* heap,
                               std::size_t heap_bytes) {
  const int n = boot.size(), me = boot.rank();
  contexts_ = s.gda.contexts;
  const heap_area area = gda::plan_heap_area(s, n);
  const std::uint32_t log_sq = log2_exact(s.gda.sq_depth);
  const std::size_t depth = std::size_t{1} << log_sq;

  // The heap, registered on every PE (the model's registration is collective).
  const memory_region heap_region = card_->register_memory(heap, heap_bytes);
  std::vector<heap_card> heaps(n);
  const heap_card mine{heap_region.address, heap_region.rkey, 0};
  boot.allgather(&mine, heaps.data(), sizeof mine);

  // AMD's HDP flush registers: each PE's, registered with its NIC where every PE has one (the
  // model's registration is collective, so all register or none do), then published.
  std::string hdp_why;
  std::uint32_t* hdp_register = nullptr;
  hdp_card my_hdp;
  if (s.gda.hdp == "emulate") {
    // Test-only: an ordinary GPU word stands in for each PE's register, so that the flush writes
    // and their WQEs run over the model (with its key checks); they flush nothing.
    hdp_emulated_ = static_cast<std::uint32_t*>(backend.allocate_nic_memory(sizeof(std::uint32_t), gpu::gpu_caching::cached));
    hdp_register = hdp_emulated_;
  } else if (s.gda.hdp != "off") {
    if (card_->is_model()) hdp_why = "the software NIC model does not model an HDP";
    else hdp_register = backend.hdp_flush_register(&hdp_why);
  }
  std::vector<std::uint32_t> have_register(n);
  const std::uint32_t mine_has = hdp_register ? 1u : 0u;
  boot.allgather(&mine_has, have_register.data(), sizeof mine_has);
  my_hdp.state = hdp_register ? hdp_state::present : hdp_state::absent;
  if (std::all_of(have_register.begin(), have_register.end(), [](std::uint32_t h) { return h != 0; })) {
    const auto register_hdp = [&] {
      const memory_region r = card_->register_memory(hdp_register, sizeof(std::uint32_t));
      my_hdp = {r.address, r.rkey, hdp_state::registered};
    };
    if (card_->is_model()) {
      register_hdp();  // collective inside: a failure must not leave this PE out of it
    } else {
      try {  // mlx5 registers locally; the outcome is published below
        register_hdp();
      } catch (const std::exception& e) {
        my_hdp.state = hdp_state::refused;  // e.g. MMIO without a peer-memory module (GIO §5.1.1)
        hdp_why = e.what();
      }
    }
  }
  std::vector<hdp_card> hdps(n);
  boot.allgather(&my_hdp, hdps.data(), sizeof my_hdp);
  std::string hdp_off;
  const bool hdp = use_hdp(s.gda.hdp, hdps, me, hdp_why, &hdp_off);
  hdp_ = !hdp                        ? "not flushed: " + hdp_off
         : s.gda.hdp == "emulate" ? "flushed (emulated, test-only: a GPU word stands in for each register)"
                                  : "flushed";

  // QP slot s of every context leads to PE s.
  const int slots = n;

  // Create every QP; in the proxy mode a CPU thread writes the SQ, so its rings are in host memory.
  const gda_mode mode = this->mode();
  const placement where = mode == gda_mode::proxy || s.gda.rings == "host" ? placement::host : placement::gpu;
  rings_.clear();
  std::vector<qp_address> addresses(static_cast<std::size_t>(n) * contexts_);  // [peer][context]
  for (int k = 0; k < contexts_; ++k) {
    for (int pe = 0; pe < n; ++pe) {
      rings_.push_back(card_->create_qp(log_sq, log_sq, where));
      addresses[static_cast<std::size_t>(pe) * contexts_ + k] = card_->address_of(rings_.back());
    }
  }
  std::vector<qp_address> all(static_cast<std::size_t>(n) * n * contexts_);
  boot.allgather(addresses.data(), all.data(), sizeof(qp_address) * addresses.size());
  for (int k = 0; k < contexts_; ++k)
    for (int pe = 0; pe < n; ++pe)
      card_->connect(rings_[static_cast<std::size_t>(k) * slots + pe], pe,
                     all[(static_cast<std::size_t>(pe) * n + me) * contexts_ + k]);

  // Who rings: the GPU through the mapped UAR, or a CPU thread relaying from a mailbox.
  const std::size_t qps = rings_.size();
  doorbells_ = mode == gda_mode::proxy ? "rung by the " + std::string(name()) + " proxy"
                                        : std::string("rung by the GPU (UAR mapped into it)");
  const auto refused = std::find_if(rings_.begin(), rings_.end(), [](const qp_rings& r) { return !r.uar; });
  bool relay_doorbells = false;
  if (mode == gda_mode::direct && s.gda.doorbell == "cpu") {
    relay_doorbells = true;
    doorbells_ = "CPU-assisted (GIO_GDA_DOORBELL=cpu)";
  } else if (mode == gda_mode::direct && refused != rings_.end()) {
    if (s.gda.doorbell == "gpu")
      throw std::runtime_error("GIO_GDA_DOORBELL=gpu, but the doorbell of QP " + std::to_string(refused->qpn) +
                               " cannot be mapped into the GPU: " + refused->doorbell_refused +
                               " (GIO_GDA_DOORBELL=auto lets a CPU thread ring instead)");
    relay_doorbells = true;
    doorbells_ = "CPU-assisted: the platform refused to map the UAR into the GPU (" + refused->doorbell_refused + ")";
  }
  if (relay_doorbells && qps) {
    mailboxes_ = static_cast<std::uint64_t*>(backend.allocate_host_mapped(mailbox_stride * qps));
    std::memset(static_cast<void*>(mailboxes_), 0, mailbox_stride * qps);
  }

  // Device-owned counters and slot state, zeroed: every slot starts as an RDMA-write template.
  states_ = static_cast<gda_qp_state*>(backend.allocate_table(sizeof(gda_qp_state) * (qps ? qps : 1)));
  slot_owner_ = static_cast<std::uint32_t*>(backend.allocate_table(sizeof(std::uint32_t) * depth * (qps ? qps : 1)));
  slot_kind_ = static_cast<std::uint8_t*>(backend.allocate_table(depth * (qps ? qps : 1)));
  written_ = static_cast<std::uint32_t*>(backend.allocate_table(sizeof(std::uint32_t) * depth * (qps ? qps : 1)));
  context_states_ = static_cast<gda_context_state*>(backend.allocate_table(sizeof(gda_context_state) * contexts_));
  backend.fill(states_, 0, sizeof(gda_qp_state) * (qps ? qps : 1));
  backend.fill(slot_owner_, 0, sizeof(std::uint32_t) * depth * (qps ? qps : 1));
  backend.fill(slot_kind_, gda_kind_write, depth * (qps ? qps : 1));
  backend.fill(written_, 0, sizeof(std::uint32_t) * depth * (qps ? qps : 1));  // no index's mark is 0 before 2^32 - 1
  backend.fill(context_states_, 0, sizeof(gda_context_state) * contexts_);
  if (mode == gda_mode::proxy && qps) {
    commands_ = static_cast<gda_command*>(backend.allocate_host_mapped(sizeof(gda_command) * depth * qps));
    std::memset(static_cast<void*>(commands_), 0, sizeof(gda_command) * depth * qps);
  }

  // The templates: every SQ slot prefilled with its QP's statics, off the critical path (§5.3).
  std::vector<gda_qp> table(qps);
  std::vector<templates::mlx5::wqe_bb> image(depth);
  std::vector<host_queue> queues;
  std::vector<doorbell_relay::mailbox> relays;
  char* fetch_base = heap + area_offset_ + area.fetch_offset;
  for (std::size_t q = 0; q < qps; ++q) {
    const qp_rings& r = rings_[q];
    const int k = static_cast<int>(q / slots);
    const int peer = static_cast<int>(q % slots);
    for (auto& slot : image) prefill_kind(slot, gda_kind_write, r.qpn, heap_region.lkey, heaps[peer].rkey);
    backend.copy(r.sq, image.data(), sizeof(templates::mlx5::wqe_bb) * depth);
    gda_qp& d = table[q];
    d.sq = static_cast<templates::mlx5::wqe_bb*>(r.sq);
    d.dbrec = r.dbrec;
    d.uar = r.uar;
    if (mailboxes_) {
      d.uar = mailboxes_ + q * (mailbox_stride / sizeof(std::uint64_t));
      relays.push_back({d.uar, r.uar_host ? r.uar_host : r.uar, r.qpn});
    }
    d.cq = static_cast<const templates::mlx5::cqe64*>(r.cq);
    d.cq_dbrec = r.cq_dbrec;
    d.state = states_ + q;
    d.fetch = reinterpret_cast<std::uint64_t*>(fetch_base) + (static_cast<std::size_t>(k) * n + peer) * depth;
    d.slot_owner = slot_owner_ + q * depth;
    d.slot_kind = slot_kind_ + q * depth;
    d.written = written_ + q * depth;
    d.commands = commands_ ? commands_ + q * depth : nullptr;
    d.qpn = r.qpn;
    d.log_sq = r.log_sq;
    d.log_cq = r.log_cq;
    d.peer = peer;
    d.lkey = heap_region.lkey;
    d.rkey = heaps[peer].rkey;
    d.hdp_address = hdp ? hdps[peer].address : 0;
    d.hdp_rkey = hdp ? hdps[peer].rkey : 0;
    if (mode == gda_mode::proxy)
      queues.push_back({static_cast<templates::mlx5::wqe_bb*>(r.sq_host ? r.sq_host : r.sq),
                        r.dbrec_host ? r.dbrec_host : r.dbrec, r.uar_host ? r.uar_host : r.uar, d.commands, r.log_sq,
                        r.qpn, d.lkey, d.rkey, d.hdp_rkey});
  }
  std::vector<gda_peer> peers(n);
  for (int pe = 0; pe < n; ++pe) peers[pe] = {heaps[pe].address, pe, 0};

  qps_device_ = static_cast<gda_qp*>(backend.allocate_table(sizeof(gda_qp) * (qps ? qps : 1)));
  if (qps) backend.copy(qps_device_, table.data(), sizeof(gda_qp) * qps);
  peers_device_ = static_cast<gda_peer*>(backend.allocate_table(sizeof(gda_peer) * n));
  backend.copy(peers_device_, peers.data(), sizeof(gda_peer) * n);
  gda_table t{};
  t.peers = peers_device_;
  t.qps = qps_device_;
  t.contexts_state = context_states_;
  t.bounce = heap + area_offset_;
  t.bounce_bytes = area.bounce_bytes;
  t.contexts = static_cast<std::uint32_t>(contexts_);
  t.qps_per_context = static_cast<std::uint32_t>(slots);
  t.mode = mode;
  t.ext_atomics = card_->has_ext_atomics() ? 1u : 0u;
  t.model = card_->is_model() ? 1u : 0u;
  t.hdp_flush = hdp ? hdp_register : nullptr;  // ROCr maps the register at one address for CPU and GPU
  table_device_ = static_cast<gda_table*>(backend.allocate_table(sizeof t));
  backend.copy(table_device_, &t, sizeof t);

  card_->start();
  if (!queues.empty()) {
    warn_if_bound_to_one_cpu(me, (std::string(name()) + " proxy").c_str(), name());
    start_posting(std::move(queues), s.debug == "info");
  }
  if (!relays.empty()) {
    warn_if_bound_to_one_cpu(me, "doorbell relay", name());
    relay_ = std::make_unique<doorbell_relay>(std::move(relays), s.debug == "info");
  }
  boot.barrier();  // every PE's QPs connected and served before any kernel rings
}

void transport::close(gpu::backend& backend) noexcept {
  stop_posting();
  relay_.reset();
  if (card_) {
    try {
      card_->stop();
    } catch (...) {
    }
  }
  for (void* p : {static_cast<void*>(table_device_), static_cast<void*>(qps_device_), static_cast<void*>(peers_device_),
                  static_cast<void*>(states_), static_cast<void*>(slot_owner_), static_cast<void*>(slot_kind_),
                  static_cast<void*>(written_), static_cast<void*>(context_states_)})
    if (p) backend.free_table(p);
  if (commands_) backend.free_host_mapped(commands_);
  if (mailboxes_) backend.free_host_mapped(mailboxes_);
  mailboxes_ = nullptr;
  table_device_ = nullptr;
  qps_device_ = nullptr;
  peers_device_ = nullptr;
  states_ = nullptr;
  slot_owner_ = nullptr;
  slot_kind_ = nullptr;
  written_ = nullptr;
  context_states_ = nullptr;
  commands_ = nullptr;
  rings_.clear();
  card_.reset();  // before the plugin that holds its code
  if (hdp_emulated_) backend.free_nic_memory(hdp_emulated_);  // after the NIC let go of its registration
  hdp_emulated_ = nullptr;
  if (plugin_) dlclose(plugin_);
  plugin_ = nullptr;
}

}  // namespace gio::transports::gda
