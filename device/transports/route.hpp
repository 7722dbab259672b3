// How a PE is reached from here: the transport that carries the call (its index among the device
// library's transports) and each transport's addressing. Built by rma_core.hpp's route_world /
// route_team_pe from the handle; read by the transports' `ops` through transports/dispatch.hpp.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gio::detail {

// The transports the device library holds, numbered for routes (transports/dispatch.hpp calls
// each one's `ops`). p2p is 0, so that a zeroed route is a load/store one.
enum class device_transport : std::uint8_t { p2p = 0, gda = 1 };

// p2p: how far the PE's heap, as mapped here, lies from this PE's heap, and whether the link
// executes atomics natively (else they take the CAS loop); gda: the world PE the NIC addresses.
// Callers that need only some fields leave the others unused, and the compiler drops them.
struct peer_route {
  std::ptrdiff_t delta;
  bool native_atomics;
  device_transport via;
  int world;
};

}  // namespace gio::detail
