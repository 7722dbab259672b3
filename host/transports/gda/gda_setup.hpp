// Host side of the GDA transport (GIO §4–5, Fig. 3): opens the NIC (a real mlx5 device, or the
// test-only software model named by GIO_GDA_NIC_MODEL), registers the symmetric heap, creates a
// pool of network contexts, each with an RC QP and CQ per PE (itself included: loopback),
// connects them through the bootstrap, pre-templates every SQ slot, and publishes the device
// tables (include/gio/gda.hpp). CPU-assisted doorbells add a thread that rings for the GPU
// (doorbell_relay.hpp). Its QP setup is also the base of the ikn transport
// (host/transports/ikn/), which overrides the hooks below to have a CPU thread post for the GPU.
// Private to the host runtime.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bootstrap.hpp"
#include "config.hpp"
#include "config_rows.hpp"
#include "gio/gda.hpp"
#include "gpu/backend.hpp"
#include "transports/gda/nic.hpp"
#include "transports/host_transport.hpp"

namespace gio::transports::gda {

class doorbell_relay;

// Its rows of the configuration table (gda_config.cpp; registered in transports/registry.cpp).
std::vector<config::binding> config_rows();

// Whether this job uses gda at all; the same answer on every PE (it decides the heap's layout).
// auto: only when PEs span more than one node; gda: always (every other PE goes through it).
bool wanted(const config::settings& s, const bootstrap& boot);

// gda's part of gio's internal heap area: the contexts' bounce buffers, then every QP's fetch
// words. Computed from the settings and the PE count alone, so it is the same on every PE.
struct heap_area {
  std::size_t bounce_bytes = 0;  // per context
  std::size_t fetch_offset = 0;  // from the area's start
  std::size_t bytes = 0;         // the whole area (0: gda unused)
};
heap_area plan_heap_area(const config::settings& s, int n_pes);

// AMD's HDP flush register (GIO §4.2, §5.1.1) as one PE publishes it to the others: its address
// and key as its NIC registered it, or why it has none.
// present: it has one but did not register it, because another PE has none.
enum class hdp_state : std::uint32_t { absent = 0, registered = 1, refused = 2, present = 3 };
struct hdp_card {
  std::uint64_t address = 0;
  std::uint32_t rkey = 0;
  hdp_state state = hdp_state::absent;
};
// Whether gda flushes HDPs, decided alike on every PE from every PE's card: only when all have a
// registered register (a flush a peer cannot take would be silently missing). GIO_GDA_HDP=off
// never; auto (and emulate) otherwise says why not (`why`); on throws instead, naming the PE that
// lacks it and, for this PE, its own reason (`local_why`).
bool use_hdp(const std::string& setting, const std::vector<hdp_card>& cards, int my_pe, const std::string& local_why,
             std::string* why);

// One QP as a CPU thread drives it in the proxy mode: the host addresses of its rings and its
// command ring.
struct host_queue {
  templates::mlx5::wqe_bb* sq = nullptr;
  std::uint32_t* dbrec = nullptr;
  volatile std::uint64_t* uar = nullptr;
  gda_command* commands = nullptr;
  std::uint32_t log_sq = 0;
  std::uint32_t qpn = 0, lkey = 0, rkey = 0;
  std::uint32_t hdp_rkey = 0;  // the peer's HDP flush register key (gda_qp::hdp_rkey)
};

class transport : public host_transport {
 public:
  transport();
  ~transport() override;
  transport(const transport&) = delete;
  transport& operator=(const transport&) = delete;

  // host_transport (host_transport.hpp)
  const char* name() const override { return "gda"; }
  gio::transport kind() const override { return gio::transport::gda; }
  const char* opening_stage() const override { return "opening the NIC for gda"; }
  const char* connecting_stage() const override { return "connecting gda queue pairs"; }
  const char* missing_on_a_pe() const override { return "has no usable RDMA device"; }
  bool wanted(const config::settings& s, const bootstrap& boot) const override { return gda::wanted(s, boot); }
  bool takes_every_peer(const config::settings& s) const override { return s.transport == name(); }
  std::size_t plan_heap_area(const config::settings& s, int n_pes, std::size_t offset) override;
  // Opens the NIC. Returns false with `why` when there is none to use (no RDMA device, rdma-core
  // missing); throws when gda is forced without one, the build has no GPU, the model plugin
  // cannot be loaded or the chosen device fails.
  bool open(const setup_view& v, std::string* why) override;
  peer_info peer_entry() const override {
    return {nullptr, static_cast<std::uint32_t>(gio::transport::gda), peer_native_atomics};
  }
  // Registers the heap, creates and connects a QP per (context, PE), fills the rings'
  // templates and the device tables; every PE calls it, gda peers or not.
  void connect(const setup_view& v, char* heap, std::size_t heap_bytes, const std::vector<peer_info>& peers) override;
  void publish(device_handle& h) const override { h.gda = table_device_; }
  void quiet(gpu::backend& backend, const device_handle& h, const stream_t* stream) override {
    backend.quiet_network(h, stream);
  }
  // Stops the NIC engine (and stop_posting) and frees what connect made. Safe to call twice.
  void close(gpu::backend& backend) noexcept override;
  std::string report(const config::settings& s, const transport_state& state) const override;
  // The software NIC model's engine runs on one multiprocessor.
  int reserved_multiprocessors() const override { return card_ && card_->is_model() ? 1 : 0; }

 protected:
  // Who writes the WQEs: the GPU (direct), or a CPU thread from the GPU's commands (proxy: the
  // rings in host memory, a command ring per QP, the doorbells the thread's).
  virtual gda_mode mode() const { return gda_mode::direct; }
  // In the proxy mode, once every QP is connected: the queues the CPU thread serves. `report`:
  // GIO_DEBUG=info.
  virtual void start_posting(std::vector<host_queue> /*queues*/, bool /*report*/) {}
  // Before the rings go: no thread touches them after this returns.
  virtual void stop_posting() noexcept {}
  // What follows "<name> (...)" in the report of a transport that is on: the NIC, contexts,
  // SQ depth, doorbells and HDP.
  std::string describe_queues(const config::settings& s) const;

 private:
  bool open_nic(const config::settings& s, const bootstrap& boot, gpu::backend& backend, const std::string& gpu_bus_id,
                std::string* why);
  // A QP per (context, PE), this PE included.
  void connect_queues(const config::settings& s, bootstrap& boot, gpu::backend& backend, char* heap,
                      std::size_t heap_bytes);

  std::unique_ptr<nic> card_;
  std::size_t area_offset_ = 0;  // its part of gio's heap area (plan_heap_area)
  void* plugin_ = nullptr;  // dlopen handle of the model
  std::string description_;
  int contexts_ = 0;
  std::vector<qp_rings> rings_;
  std::unique_ptr<doorbell_relay> relay_;  // CPU-assisted doorbells
  // Device (and, in proxy mode, mapped host) allocations owned here.
  gda_table* table_device_ = nullptr;
  gda_qp* qps_device_ = nullptr;
  gda_peer* peers_device_ = nullptr;
  gda_qp_state* states_ = nullptr;
  std::uint32_t* slot_owner_ = nullptr;
  std::uint32_t* written_ = nullptr;
  std::uint8_t* slot_kind_ = nullptr;
  gda_context_state* context_states_ = nullptr;
  gda_command* commands_ = nullptr;  // proxy mode
  // CPU-assisted doorbells: one mailbox per QP in mapped host memory, a cache line apart.
  static constexpr std::size_t mailbox_stride = 64;
  std::uint64_t* mailboxes_ = nullptr;
  std::string doorbells_;  // who rings the NIC, for gio-info
  std::string hdp_;        // HDP flushes on, or why not, for gio-info
  std::uint32_t* hdp_emulated_ = nullptr;  // GIO_GDA_HDP=emulate: the word standing in for the register
};

}  // namespace gio::transports::gda
