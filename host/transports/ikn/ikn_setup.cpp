#include "transports/ikn/ikn_setup.hpp"

#include <utility>

#include "transports/ikn/proxy.hpp"

namespace gio::transports::ikn {

transport::transport() = default;
transport::~transport() = default;  // close() is called by the runtime, with its backend

std::string transport::report(const config::settings& s, const transport_state& state) const {
  if (state.on) return "ikn (gda's queue pairs, WQEs posted by a CPU proxy) over " + describe_queues(s);
  if (!state.off_reason.empty()) return "ikn off: " + state.off_reason;
  if (s.transport == name()) return "ikn not needed (one PE)";
  return "ikn not used (GIO_TRANSPORT=ikn selects it)";
}

void transport::start_posting(std::vector<gda::host_queue> queues, bool report) {
  proxy_ = std::make_unique<proxy>(std::move(queues), report);
}

void transport::stop_posting() noexcept { proxy_.reset(); }

}  // namespace gio::transports::ikn
