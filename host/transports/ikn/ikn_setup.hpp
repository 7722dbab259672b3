// Host side of the ikn transport (GIO_TRANSPORT=ikn): the IKN baseline of GIO §6.1. gda's queue
// pairs, templates and device tables (it is gda's setup, in the proxy mode), but the GPU writes
// commands into a ring in mapped host memory and a CPU thread (proxy.hpp) builds the WQEs, posts
// them and rings. On the device it is gda's code: the table's mode sends each operation to the
// command ring (device/transports/gda/gda.hpp, ring::write). Private to the host runtime.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "transports/gda/gda_setup.hpp"

namespace gio::transports::ikn {

class proxy;

class transport final : public gda::transport {
 public:
  transport();
  ~transport() override;

  const char* name() const override { return "ikn"; }
  const char* opening_stage() const override { return "opening the NIC for ikn"; }
  const char* connecting_stage() const override { return "connecting ikn queue pairs"; }
  // Only when asked for (GIO_TRANSPORT=ikn) and there are other PEs.
  bool wanted(const config::settings& s, const bootstrap& boot) const override {
    return boot.size() > 1 && s.transport == name();
  }
  std::string report(const config::settings& s, const transport_state& state) const override;

 protected:
  gda_mode mode() const override { return gda_mode::proxy; }
  void start_posting(std::vector<gda::host_queue> queues, bool report) override;
  void stop_posting() noexcept override;

 private:
  std::unique_ptr<proxy> proxy_;
};

}  // namespace gio::transports::ikn
