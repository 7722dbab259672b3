// The network transports of this build, in the order the runtime tries them (host_transport.hpp),
// and their configuration rows (config_rows.hpp). A new transport adds its lines here.
#include <memory>
#include <vector>

#include "config_rows.hpp"
#include "transports/gda/gda_setup.hpp"
#include "transports/host_transport.hpp"
#include "transports/ikn/ikn_setup.hpp"

namespace gio::transports {

std::vector<std::unique_ptr<host_transport>> make_network_transports() {
  std::vector<std::unique_ptr<host_transport>> all;
  all.push_back(std::make_unique<gda::transport>());
  all.push_back(std::make_unique<ikn::transport>());
  return all;
}

std::vector<config::binding> network_config_rows() { return gda::config_rows(); }

}  // namespace gio::transports
