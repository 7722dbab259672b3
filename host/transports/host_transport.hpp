// The host side of a network transport as the runtime drives it: one object per transport, made
// by the registry (registry.cpp) and held by the runtime, which calls these in this order:
// wanted -> plan_heap_area -> open (every PE agrees whether it is on) -> connect -> publish, then
// quiet while running, close at the end, report for gio-info. The load/store transport
// (p2p/p2p_setup.hpp) is not one of them: its mappings are the peer table's first choice and host
// RMA's path; a network transport takes the peers it leaves (docs/architecture.md, "Where to add
// a transport"). Private to the host runtime.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bootstrap.hpp"
#include "config.hpp"
#include "gio/handle.hpp"
#include "gpu/backend.hpp"

namespace gio::transports {

// What a transport's setup reads of the runtime.
struct setup_view {
  const config::settings& settings;
  bootstrap& boot;
  gpu::backend& backend;
  const gpu::device_info& device;
};

// The runtime's record of one transport, for its report.
struct transport_state {
  bool wanted = false;
  bool on = false;
  std::string off_reason;  // why it is off although wanted
};

class host_transport {
 public:
  virtual ~host_transport() = default;

  virtual const char* name() const = 0;      // as gio-info and the errors name it
  virtual gio::transport kind() const = 0;  // its value in the peer table
  // The init stages' names, as the errors name them ("opening the NIC for gda").
  virtual const char* opening_stage() const = 0;
  virtual const char* connecting_stage() const = 0;
  // Why a PE that could not open it is without it, after "PE n " ("has no usable RDMA device").
  virtual const char* missing_on_a_pe() const = 0;

  // Whether this job uses it at all; the same answer on every PE (it shapes gio's heap area), so
  // it sees only what every PE knows alike.
  virtual bool wanted(const config::settings& s, const bootstrap& boot) const = 0;
  // Every other PE through it, whatever load/store could reach (GIO_TRANSPORT=gda|ikn).
  virtual bool takes_every_peer(const config::settings& s) const = 0;
  // Bytes of gio's heap area it needs at `offset`: the same on every PE, like `wanted`.
  virtual std::size_t plan_heap_area(const config::settings& s, int n_pes, std::size_t offset) = 0;
  // Opens this PE's side. Returns false with `why` when this PE cannot serve it; throws when
  // that is an error (it was forced) or the transport failed.
  virtual bool open(const setup_view& v, std::string* why) = 0;
  // The peer table entry of a PE it reaches.
  virtual peer_info peer_entry() const = 0;
  // Collective over every PE: connects this PE to the peers whose entry names kind().
  virtual void connect(const setup_view& v, char* heap, std::size_t heap_bytes, const std::vector<peer_info>& peers) = 0;
  // Its part of the device handle.
  virtual void publish(device_handle& h) const = 0;
  // Completes every operation the GPU posted through it (a kernel's end does not), on `*stream`
  // or (null) now.
  virtual void quiet(gpu::backend& backend, const device_handle& h, const stream_t* stream) = 0;
  // Releases what open and connect made, also after an open that failed or a transport that
  // ended up off. Safe to call twice.
  virtual void close(gpu::backend& backend) noexcept = 0;
  // gio-info's line about it.
  virtual std::string report(const config::settings& s, const transport_state& state) const = 0;
  // Multiprocessors it keeps busy (the software NIC model's engine), which launches leave free.
  virtual int reserved_multiprocessors() const { return 0; }
};

// Every network transport this build has, in the order the runtime tries them.
std::vector<std::unique_ptr<host_transport>> make_network_transports();

}  // namespace gio::transports
