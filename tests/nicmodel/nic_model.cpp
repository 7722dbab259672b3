// The software mlx5 NIC model (test-only; a plugin the library dlopens from GIO_GDA_NIC_MODEL,
// never linked into it): implements gio::transports::gda::nic (host/transports/gda/nic.hpp) for
// machines without an RDMA NIC. Registered memory is exchanged between PEs as IPC handles; QP
// rings are allocated as a ConnectX driver would lay them out; an engine serves the doorbells from
// a GPU kernel, so the whole GDA device path runs end to end. Compiled as CUDA or HIP.
//
// The engine: a host thread launches one-block kernels ("slices") on its own non-blocking,
// highest-priority stream, one after another until stop(). A slice serves doorbells for about
// 1 ms and returns, so that cudaDeviceSynchronize and cudaFree in the library and the tests
// finish. Wave w serves QPs w, w + waves, ...: lane 0 takes and decodes a WQE, the wave's lanes
// share its copy, lane 0 does its atomic and writes its CQE (engine.hpp). The engine's per-QP
// state lives in device memory and persists across slices.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "engine.hpp"
#include "fault_spec.hpp"
#include "gio/platform/platform.hpp"
#include "gio/templates/mlx5_cqe.hpp"
#include "support/gpu_runtime.hpp"
#include "transports/gda/nic.hpp"

namespace gio_test::nicmodel {
namespace {

namespace gda = gio::transports::gda;
namespace gpu = support::gpu;
namespace platform = gio::platform;

// ---- the engine kernel --------------------------------------------------------------------------

// engine.hpp's memory policy on the GPU: strong system-scope accesses (the SQ may be host memory
// written by a proxy thread, the heaps are written by peer GPUs: no stale L1 lines).
struct gpu_memory {
  template <class T> GIO_DEVICE static T load(const T* p) { return platform::ld_relaxed_sys_bits(p); }
  template <class T> GIO_DEVICE static T load_acquire(const T* p) { return platform::ld_acquire_sys_bits(p); }
  template <class T> GIO_DEVICE static void store(T* p, T v) { platform::st_relaxed_sys_bits(p, v); }
  template <class T> GIO_DEVICE static T fetch_add(T* p, T v) {
    return platform::atomic_rmw_sys_bits<platform::rmw::add>(p, v);
  }
  template <class T> GIO_DEVICE static T cas(T* p, T expected, T desired) {
    return platform::atomic_cas_sys_bits(p, expected, desired);
  }
  GIO_DEVICE static void fence() { platform::fence_sc_system(); }
};

inline constexpr unsigned engine_threads = 128;  // 4 warps (CUDA) or 2 wavefronts (HIP)
inline constexpr unsigned max_waves = engine_threads / 32;
inline constexpr unsigned burst = 16;             // WQEs of one QP before the wave moves on
inline constexpr std::uint64_t slice_ns = 1000000;
inline constexpr unsigned idle_sleep_ns = 200;

// Zero-filled memory of the rings and tables. Device memory is shared at system scope by the engine
// and the GPU's own threads; mapped host memory has the same address on the GPU.
void* zeroed_device(std::size_t bytes) {
  void* p = gpu::malloc_device_coherent(bytes);
  try {
    gpu::fill(p, 0, bytes);
    gpu::synchronize();
  } catch (const gpu::error&) {
    gpu::release(gpu::free_device, p);
    throw;
  }
  return p;
}
void* zeroed_mapped(std::size_t bytes) {
  void* p = gpu::malloc_mapped(bytes);
  std::memset(p, 0, bytes);
  return p;
}

// A model mode of two values: unset or empty is `off`; a value that is neither throws.
bool mode_on(const char* name, const std::string& off, const std::string& on) {
  const char* v = std::getenv(name);
  const std::string value = v ? v : "";
  if (value.empty() || value == off) return false;
  if (value == on) return true;
  throw std::runtime_error(std::string(name) + "=" + value + " is not " + off + " or " + on);
}

// A test switch: set, not empty and not 0.
bool flag_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::string(v) != "0";
}

// Pinned host words shared by the engine thread and its kernels.
struct control {
  std::uint32_t stop;          // nonzero: the running slice returns now
  std::uint32_t stall_report;  // engine_view::stall_report
  // GIO_NIC_MODEL_DEBUG: the running slice's progress, read by the watchdog without CUDA calls.
  std::uint32_t heartbeat;     // loops of slices so far
  std::uint32_t work_qp;       // QP + 1 of the WQE being executed, 0 between WQEs
  std::uint32_t work_act;      // its action and length
  std::uint32_t work_len;
};

struct wave_slot {
  work w;
  std::uint32_t have;
  std::uint32_t quit;
};

// `debug` (GIO_NIC_MODEL_DEBUG): wave 0 publishes its progress in `ctl` for the watchdog; off, the
// engine's loop makes no stores to host memory of its own.
__global__ void __launch_bounds__(engine_threads) engine_kernel(engine_view v, control* ctl, bool debug) {
  const std::uint32_t* stop = &ctl->stop;
  __shared__ wave_slot slots[max_waves];
  const unsigned lane = platform::lane();
  const unsigned lanes = platform::wave_lanes();
  const unsigned wave = platform::thread_in_wg() / platform::wave_size;
  const unsigned waves = (platform::wg_size() + platform::wave_size - 1) / platform::wave_size;
  wave_slot& slot = slots[wave];
  const std::uint64_t start = platform::timer_ns();
  const bool reporter = debug && wave == 0 && lane == 0;
  std::uint32_t heartbeat = reporter ? platform::ld_relaxed_sys_bits(&ctl->heartbeat) : 0u;
  // Every branch below depends only on values lane 0 published in the slot, so the wave stays
  // converged for its barriers.
  for (;;) {
    bool busy = false;
    for (std::uint32_t q = wave; q < v.n_qps; q += waves) {
      for (unsigned k = 0; k < burst; ++k) {
        if (lane == 0) slot.have = begin<gpu_memory>(v, q, slot.w) ? 1u : 0u;
        platform::wave_barrier();
        const bool have = slot.have != 0;
        platform::wave_barrier();
        if (!have) break;
        busy = true;
        if (reporter) {
          platform::st_relaxed_sys_bits(&ctl->work_qp, q + 1u);
          platform::st_relaxed_sys_bits(&ctl->work_act, std::uint32_t{slot.w.act});
          platform::st_relaxed_sys_bits(&ctl->work_len, slot.w.len);
        }
        move<gpu_memory>(slot.w, lane, lanes);  // each lane fences its stores
        platform::wave_barrier();
        if (lane == 0) finish<gpu_memory>(v, q, slot.w);
        if (reporter) platform::st_relaxed_sys_bits(&ctl->work_qp, 0u);
        platform::wave_barrier();
      }
    }
    if (reporter) platform::st_relaxed_sys_bits(&ctl->heartbeat, ++heartbeat);
    if (lane == 0) {
      const bool quit = platform::ld_relaxed_sys_bits(stop) != 0 || platform::timer_ns() - start >= slice_ns;
      slot.quit = quit ? 1u : 0u;
      if (!busy && !quit) platform::sleep_ns(idle_sleep_ns);
    }
    platform::wave_barrier();
    const bool quit = slot.quit != 0;
    platform::wave_barrier();
    if (quit) return;
  }
}

// ---- the NIC ----------------------------------------------------------------------------------------

// qp_address as this model fills it.
struct address_wire {
  char magic[8];
  std::int32_t pe;
  std::uint32_t qpn;
};
static_assert(sizeof(address_wire) <= sizeof(gda::qp_address::bytes));
inline constexpr char address_magic[8] = {'g', 'i', 'o', 'n', 'i', 'c', 'm', '1'};

// One PE's registration, as allgathered.
struct region_record {
  std::int32_t pe;
  std::uint32_t index;  // this PE's count of earlier registrations: all PEs must agree
  std::uint64_t address;
  std::uint64_t bytes;
  gpu::ipc_handle_t handle;
};
static_assert(std::is_trivially_copyable_v<region_record>);

inline constexpr std::uint32_t max_log_sq = 15;  // 16-bit WQE indices; mlx5's limit
inline constexpr std::uint32_t max_log_cq = 22;
inline constexpr std::uint32_t first_qpn = 0x100;

class model_nic final : public gda::nic {
 public:
  model_nic(const gda::collectives& boot, const fault_spec& fault, bool pcie_atomics, bool hdp_reorder)
      : boot_(boot), fault_(fault), hdp_reorder_(hdp_reorder) {
    if (boot_.n_pes < 1 || boot_.n_pes > 0xffff || boot_.my_pe < 0 || boot_.my_pe >= boot_.n_pes)
      throw std::runtime_error("bad PE " + std::to_string(boot_.my_pe) + " of " + std::to_string(boot_.n_pes));
    if (!boot_.allgather || !boot_.barrier) throw std::runtime_error("the bootstrap has no allgather/barrier");
    if (boot_.gpu_ordinal >= 0) {
      device_ = boot_.gpu_ordinal;
      gpu::set_device(device_);
    } else {
      device_ = gpu::current_device();
    }
    control_ = static_cast<control*>(zeroed_mapped(sizeof(control)));
    if (pcie_atomics) share_atomic_lock();
  }

  ~model_nic() override {
    stop();
    gpu::release(gpu::set_device, device_);
    for (auto& q : qps_) {
      gpu::release(q.host ? gpu::free_pinned : gpu::free_device, q.memory);
      gpu::release(gpu::free_pinned, q.rings.uar_host);
    }
    for (void* p : imports_) gpu::release(gpu::ipc_close, p);
    if (lock_owned_ != nullptr) gpu::release(gpu::free_device, lock_owned_);
    if (tables_ != nullptr) gpu::release(gpu::free_device, tables_);
    if (control_ != nullptr) gpu::release(gpu::free_pinned, control_);
  }

  std::string describe() const override { return "software NIC model (test-only, GPU kernel engine)"; }
  bool is_model() const override { return true; }
  bool has_ext_atomics() const override { return true; }

  gda::memory_region register_memory(void* base, std::size_t bytes) override {
    if (started_) fail("register_memory after start()");
    if (base == nullptr || bytes == 0) fail("register_memory of an empty range");
    gpu::set_device(device_);
    region_record mine{};
    mine.pe = boot_.my_pe;
    mine.index = registrations_;
    mine.address = reinterpret_cast<std::uint64_t>(base);
    mine.bytes = bytes;
    mine.handle = gpu::ipc_export(base);
    std::vector<region_record> all(static_cast<std::size_t>(boot_.n_pes));
    boot_.allgather(&mine, all.data(), sizeof(region_record));
    if (registrations_ >= 0xffffu) fail("too many registrations");
    const std::uint32_t index = registrations_++;
    for (int pe = 0; pe < boot_.n_pes; ++pe) {
      const region_record& r = all[static_cast<std::size_t>(pe)];
      if (r.pe != pe || r.index != index)
        fail("register_memory is collective: PE " + std::to_string(r.pe) + " sent registration " +
             std::to_string(r.index) + " where PE " + std::to_string(pe) + "'s " + std::to_string(index) +
             " was expected");
      region reg{};
      reg.address = r.address;
      reg.bytes = r.bytes;
      reg.key = ((index + 1u) << 16) | static_cast<std::uint32_t>(pe);
      reg.pe = pe;
      // GIO_NIC_MODEL_HDP=reorder: gio registers one 4-byte range, the (emulated) HDP flush register.
      reg.hdp = hdp_reorder_ && r.bytes == sizeof(std::uint32_t) ? 1u : 0u;
      if (pe == boot_.my_pe) {
        reg.mapped = r.address;
      } else {
        void* mapped = gpu::ipc_import(r.handle);
        imports_.push_back(mapped);
        reg.mapped = reinterpret_cast<std::uint64_t>(mapped);
      }
      regions_.push_back(reg);
    }
    const std::uint32_t key = ((index + 1u) << 16) | static_cast<std::uint32_t>(boot_.my_pe);
    return gda::memory_region{key, key, mine.address};
  }

  gda::qp_rings create_qp(std::uint32_t log_sq, std::uint32_t log_cq, gda::placement where) override {
    if (started_) fail("create_qp after start()");
    if (log_sq > max_log_sq || log_cq > max_log_cq)
      fail("create_qp: log_sq " + std::to_string(log_sq) + " (at most " + std::to_string(max_log_sq) + "), log_cq " +
           std::to_string(log_cq) + " (at most " + std::to_string(max_log_cq) + ")");
    if (where != gda::placement::gpu && where != gda::placement::host) fail("create_qp: unknown placement");
    gpu::set_device(device_);
    // One allocation: SQ | CQ | QP doorbell record | CQ doorbell record, each 64-byte aligned. The
    // doorbell register is a word of pinned host memory, as a real one is on the PCIe bus: the
    // GPU's doorbell store crosses PCIe, and a CPU can ring it (CPU-assisted doorbells).
    const std::size_t sq_bytes = std::size_t{mlx5::send_wqe_bb} << log_sq;
    const std::size_t cq_bytes = sizeof(mlx5::cqe64) << log_cq;
    const std::size_t dbrec_off = sq_bytes + cq_bytes;
    const std::size_t total = dbrec_off + 2 * 64;
    std::vector<unsigned char> cq_image(cq_bytes, 0);
    mlx5::mark_cqes_invalid(cq_image.data(), std::size_t{1} << log_cq);
    const bool host = where == gda::placement::host;
    auto* memory = static_cast<unsigned char*>(host ? zeroed_mapped(total) : zeroed_device(total));
    try {
      if (host) {
        std::memcpy(memory + sq_bytes, cq_image.data(), cq_bytes);
      } else {
        gpu::copy_to_device(memory + sq_bytes, cq_image.data(), cq_bytes);
      }
    } catch (...) {
      gpu::release(host ? gpu::free_pinned : gpu::free_device, memory);
      throw;
    }
    auto* doorbell = static_cast<std::uint64_t*>(zeroed_mapped(64));
    *doorbell = 0;  // never rung
    qp_record rec{};
    rec.memory = memory;
    rec.host = host;
    rec.rings.sq = memory;
    rec.rings.log_sq = log_sq;
    rec.rings.dbrec = reinterpret_cast<std::uint32_t*>(memory + dbrec_off);
    rec.rings.cq = memory + sq_bytes;
    rec.rings.log_cq = log_cq;
    rec.rings.cq_dbrec = reinterpret_cast<std::uint32_t*>(memory + dbrec_off + 64);
    rec.rings.uar_host = doorbell;  // the register, whether or not the GPU is given it
    if (refuse_uar_) {
      rec.rings.doorbell_refused =
          "GIO_NIC_MODEL_REFUSE_UAR is set: the model acts as a platform that will not map the doorbell into the GPU";
    } else {
      rec.rings.uar = doorbell;  // mapped pinned memory: the same address on the GPU
    }
    rec.rings.id = static_cast<std::uint32_t>(qps_.size());
    rec.rings.qpn = first_qpn + rec.rings.id;
    qps_.push_back(rec);
    return rec.rings;
  }

  gda::qp_address address_of(const gda::qp_rings& qp) override {
    const qp_record& rec = find(qp, "address_of");
    address_wire wire{};
    std::memcpy(wire.magic, address_magic, sizeof(address_magic));
    wire.pe = boot_.my_pe;
    wire.qpn = rec.rings.qpn;
    gda::qp_address out{};
    std::memcpy(out.bytes, &wire, sizeof(wire));
    return out;
  }

  void connect(const gda::qp_rings& qp, int peer_pe, const gda::qp_address& theirs) override {
    if (started_) fail("connect after start()");
    qp_record& rec = find(qp, "connect");
    if (peer_pe < 0 || peer_pe >= boot_.n_pes)
      fail("connect QP " + hex(rec.rings.qpn) + " to PE " + std::to_string(peer_pe) + ": no such PE");
    address_wire wire;
    std::memcpy(&wire, theirs.bytes, sizeof(wire));
    if (std::memcmp(wire.magic, address_magic, sizeof(address_magic)) != 0)
      fail("connect QP " + hex(rec.rings.qpn) + " to PE " + std::to_string(peer_pe) +
           ": the address is not a NIC model's (mixed NICs across PEs?)");
    if (wire.pe != peer_pe)
      fail("connect QP " + hex(rec.rings.qpn) + " to PE " + std::to_string(peer_pe) + ": the address names PE " +
           std::to_string(wire.pe) + " (QPN " + hex(wire.qpn) + ")");
    rec.peer_pe = peer_pe;
    rec.peer_qpn = wire.qpn;
  }

  void start() override {
    if (running_) return;
    gpu::set_device(device_);
    if (!started_) build_tables();
    gpu::load_kernel(reinterpret_cast<const void*>(&engine_kernel));
    started_ = true;
    __atomic_store_n(&control_->stop, 0u, __ATOMIC_SEQ_CST);
    quit_.store(false);
    engine_ = std::thread([this] { engine_loop(); });
    if (debug_) watchdog_ = std::thread([this] { watch(); });
    running_ = true;
  }

  void stop() override {
    if (!running_) return;
    quit_.store(true);
    __atomic_store_n(&control_->stop, 1u, __ATOMIC_SEQ_CST);
    engine_.join();
    if (watchdog_.joinable()) watchdog_.join();
    running_ = false;
  }

 private:
  struct qp_record {
    gda::qp_rings rings;
    void* memory;
    bool host;
    int peer_pe = -1;
    std::uint32_t peer_qpn = 0;
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("gio nic model: PE " + std::to_string(boot_.my_pe) + ": " + what);
  }
  static std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "0x%x", v);
    return buf;
  }

  qp_record& find(const gda::qp_rings& qp, const char* what) {
    if (qp.id >= qps_.size() || qps_[qp.id].rings.qpn != qp.qpn || qps_[qp.id].rings.sq != qp.sq)
      fail(std::string(what) + ": QP " + hex(qp.qpn) + " (id " + std::to_string(qp.id) + ") is not one of this NIC's");
    return qps_[qp.id];
  }

  // The engine's tables in device memory: qp_desc[n], qp_state[n] (zero), region[m], the fault counter.
  void build_tables() {
    auto round = [](std::size_t n) { return (n + 63) / 64 * 64; };
    const std::size_t n = qps_.size(), m = regions_.size();
    const std::size_t desc_off = 0;
    const std::size_t state_off = desc_off + round(n * sizeof(qp_desc));
    const std::size_t region_off = state_off + round(n * sizeof(qp_state));
    const std::size_t counter_off = region_off + round(m * sizeof(region));
    const std::size_t total = counter_off + 64;
    auto* base = static_cast<unsigned char*>(zeroed_device(total));
    tables_ = base;
    std::vector<qp_desc> descs(n);
    for (std::size_t i = 0; i < n; ++i) {
      const qp_record& r = qps_[i];
      descs[i].sq = static_cast<const mlx5::wqe_bb*>(r.rings.sq);
      descs[i].dbrec = r.rings.dbrec;
      descs[i].uar = r.rings.uar_host;
      descs[i].cq = static_cast<mlx5::cqe64*>(r.rings.cq);
      descs[i].cq_dbrec = r.rings.cq_dbrec;
      descs[i].log_sq = r.rings.log_sq;
      descs[i].log_cq = r.rings.log_cq;
      descs[i].qpn = r.rings.qpn;
      descs[i].peer_pe = r.peer_pe;
    }
    if (n != 0) gpu::copy_to_device(base + desc_off, descs.data(), n * sizeof(qp_desc));
    if (m != 0) gpu::copy_to_device(base + region_off, regions_.data(), m * sizeof(region));
    view_ = engine_view{};
    view_.qps = reinterpret_cast<const qp_desc*>(base + desc_off);
    view_.states = reinterpret_cast<qp_state*>(base + state_off);
    view_.n_qps = static_cast<std::uint32_t>(n);
    view_.n_regions = static_cast<std::uint32_t>(m);
    view_.regions = reinterpret_cast<const region*>(base + region_off);
    view_.executed = reinterpret_cast<std::uint32_t*>(base + counter_off);
    view_.stall_report = &control_->stall_report;
    view_.my_pe = boot_.my_pe;
    view_.fault_at = fault_.at;
    view_.fault_syndrome = fault_.syndrome;
    view_.atomic_lock = atomic_lock_;
    view_.hdp_reorder = hdp_reorder_ ? 1 : 0;
  }

  // GIO_NIC_MODEL_ATOMICS=pcie (collective): PE 0's lock word, mapped into every PE's engine
  // (engine_view::atomic_lock), so that all engines' atomics exclude each other.
  void share_atomic_lock() {
    gpu::ipc_handle_t mine{};
    if (boot_.my_pe == 0) {
      lock_owned_ = zeroed_device(64);
      mine = gpu::ipc_export(lock_owned_);
    }
    std::vector<gpu::ipc_handle_t> all(static_cast<std::size_t>(boot_.n_pes));
    boot_.allgather(&mine, all.data(), sizeof mine);
    if (boot_.my_pe == 0) {
      atomic_lock_ = static_cast<std::uint64_t*>(lock_owned_);
    } else {
      void* mapped = gpu::ipc_import(all[0]);
      imports_.push_back(mapped);
      atomic_lock_ = static_cast<std::uint64_t*>(mapped);
    }
  }

  void report(const std::string& what) const {
    std::fprintf(stderr, "gio nic model: PE %d: %s\n", boot_.my_pe, what.c_str());
    std::fflush(stderr);
  }

  void engine_loop() {
    // Highest priority: the engine's next slice is scheduled ahead of other waiting work when an SM
    // frees up.
    gpu::stream_t stream{};
    try {
      gpu::set_device(device_);
      stream = gpu::create_stream(/*high_priority=*/true);
    } catch (const std::exception& e) {
      report(std::string("engine not started: ") + e.what());
      return;
    }
    std::vector<bool> stall_reported(qps_.size(), false);
    // GIO_NIC_MODEL_DEBUG: every 2 s, each QP as the engine sees it (a stuck ring shows whether
    // its doorbell record ever moved, and how far the engine and the consumer got).
    auto last_debug = std::chrono::steady_clock::now();
    while (!quit_.load()) {
      if (debug_ && std::chrono::steady_clock::now() - last_debug > std::chrono::seconds(2)) {
        last_debug = std::chrono::steady_clock::now();
        debug_report(stream);
      }
      stage_.store(1);
      engine_kernel<<<1, engine_threads, 0, stream>>>(view_, control_, debug_);
      stage_.store(2);
      try {
        gpu::check_launch("engine kernel launch");
      } catch (const gpu::error& e) {
        report(std::string(e.what()) + "; the engine stops");
        break;
      }
      std::string failure;
      try {
        gpu::synchronize(stream);
      } catch (const gpu::error& e) {
        failure = e.what();
      }
      stage_.store(0);
      slices_.fetch_add(1);
      if (!failure.empty()) {
        report("engine kernel failed: " + failure + "; the engine stops");
        break;
      }
      const std::uint32_t stalled = __atomic_exchange_n(&control_->stall_report, 0u, __ATOMIC_SEQ_CST);
      if (stalled != 0 && stalled <= qps_.size() && !stall_reported[stalled - 1]) {
        stall_reported[stalled - 1] = true;
        const qp_record& r = qps_[stalled - 1];
        report("QP " + hex(r.rings.qpn) + ": its CQ (" + std::to_string(1u << r.rings.log_cq) +
               " entries) is full by the consumer index in its doorbell record: WQEs that need a CQE wait");
      }
    }
    gpu::release(gpu::destroy_stream, stream);
  }

  // GIO_NIC_MODEL_DEBUG: every 2 s, what the engine thread is doing (a slice that never ends, or a
  // launch or synchronisation that never returns, shows here even when the thread is stuck).
  void watch() {
    static const char* const stages[] = {"between slices", "launching a slice", "waiting for a slice",
                                         "reporting"};
    while (!quit_.load()) {
      for (int i = 0; i < 20 && !quit_.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::fprintf(stderr,
                   "gio nic model: PE %d: engine thread %s; %llu slices done; slice heartbeat %u; executing: "
                   "QP+1 %u, action %u, %u bytes\n",
                   boot_.my_pe, stages[stage_.load() & 3], static_cast<unsigned long long>(slices_.load()),
                   __atomic_load_n(&control_->heartbeat, __ATOMIC_RELAXED),
                   __atomic_load_n(&control_->work_qp, __ATOMIC_RELAXED),
                   __atomic_load_n(&control_->work_act, __ATOMIC_RELAXED),
                   __atomic_load_n(&control_->work_len, __ATOMIC_RELAXED));
    }
  }

  void debug_report(gpu::stream_t stream) {
    stage_.store(3);
    // Ordered on the engine's stream, between slices; the rings are device or host memory.
    auto to_host = [stream](void* dst, const void* src, std::size_t bytes) {
      gpu::copy_async(dst, src, bytes, stream);
      gpu::synchronize(stream);
    };
    try {
      std::vector<qp_state> states(qps_.size());
      if (!states.empty()) to_host(states.data(), view_.states, sizeof(qp_state) * states.size());
      for (std::size_t i = 0; i < qps_.size(); ++i) {
        const qp_record& r = qps_[i];
        std::uint32_t sq_rec = 0, cq_rec = 0;
        to_host(&sq_rec, r.rings.dbrec + mlx5::snd_dbr, sizeof sq_rec);
        to_host(&cq_rec, r.rings.cq_dbrec + mlx5::cq_set_ci, sizeof cq_rec);
        std::fprintf(stderr,
                     "gio nic model: PE %d: QP %s (%s rings, peer PE %d): doorbell record %u, doorbell allows %u, "
                     "WQEs taken %u, CQEs written %u, CQ consumer index %u, error 0x%x%s\n",
                     boot_.my_pe, hex(r.rings.qpn).c_str(), r.host ? "host" : "GPU", r.peer_pe,
                     gio::templates::from_be32(sq_rec) & 0xffffu,
                     rung_index(__atomic_load_n(r.rings.uar_host, __ATOMIC_ACQUIRE)), states[i].sq_ci, states[i].cq_pi,
                     gio::templates::from_be32(cq_rec) & 0xffffffu, states[i].error,
                     states[i].cq_stalled ? ", waiting for CQ space" : "");
      }
    } catch (const std::exception& e) {
      report(std::string("debug report failed: ") + e.what());
    }
  }

  gda::collectives boot_;
  fault_spec fault_;
  int device_ = 0;
  std::uint32_t registrations_ = 0;
  const bool hdp_reorder_;       // GIO_NIC_MODEL_HDP=reorder (engine_view::hdp_reorder)
  std::vector<region> regions_;  // every PE's, registration by registration
  std::vector<void*> imports_;   // IPC mappings of peers' regions
  std::vector<qp_record> qps_;
  control* control_ = nullptr;   // pinned host
  void* tables_ = nullptr;       // device
  void* lock_owned_ = nullptr;   // PE 0 under GIO_NIC_MODEL_ATOMICS=pcie: the lock word's allocation
  std::uint64_t* atomic_lock_ = nullptr;  // engine_view::atomic_lock
  engine_view view_{};
  std::thread engine_;
  const bool debug_ = flag_set("GIO_NIC_MODEL_DEBUG");  // GIO_NIC_MODEL_DEBUG set, not empty or 0
  // GIO_NIC_MODEL_REFUSE_UAR: no QP's doorbell is given to the GPU (a platform that refuses to map
  // MMIO into it), so GIO_GDA_DOORBELL=auto must fall back to CPU-assisted doorbells.
  const bool refuse_uar_ = flag_set("GIO_NIC_MODEL_REFUSE_UAR");
  std::thread watchdog_;                    // debug_ only
  std::atomic<int> stage_{0};               // the engine thread's: 0 between, 1 launch, 2 sync, 3 report
  std::atomic<unsigned long long> slices_{0};
  std::atomic<bool> quit_{false};
  bool started_ = false;
  bool running_ = false;
};

}  // namespace
}  // namespace gio_test::nicmodel

// The plugin's one exported symbol (gio::transports::gda::model_open_symbol).
extern "C" __attribute__((visibility("default"))) gio::transports::gda::nic* gio_nic_model_open(
    const gio::transports::gda::collectives& boot, std::string* error) {
  using namespace gio_test::nicmodel;
  try {
    fault_spec fault;
    std::string why;
    if (!parse_fault_spec(std::getenv("GIO_NIC_MODEL_FAULT"), &fault, &why)) {
      if (error != nullptr) *error = "gio nic model: PE " + std::to_string(boot.my_pe) + ": " + why;
      return nullptr;
    }
    // GIO_NIC_MODEL_ATOMICS: gpu (default) executes atomics as atomic RMWs; pcie as a real NIC
    // does with GPU memory: atomic among NIC atomics only (engine.hpp, locked_rmw).
    const bool pcie_atomics = mode_on("GIO_NIC_MODEL_ATOMICS", "gpu", "pcie");
    // GIO_NIC_MODEL_HDP: off (default) or reorder, a peer GPU's HDP as engine.hpp models it.
    const bool hdp_reorder = mode_on("GIO_NIC_MODEL_HDP", "off", "reorder");
    return new model_nic(boot, fault, pcie_atomics, hdp_reorder);
  } catch (const std::exception& e) {
    if (error != nullptr) *error = std::string(e.what()).rfind("gio nic model", 0) == 0
                                       ? e.what()
                                       : "gio nic model: PE " + std::to_string(boot.my_pe) + ": " + e.what();
    return nullptr;
  }
}
static_assert(std::is_same_v<decltype(&gio_nic_model_open), gio::transports::gda::model_open_fn>,
              "gio_nic_model_open must have nic.hpp's model_open_fn signature");
