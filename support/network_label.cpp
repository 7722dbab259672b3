#include "support/network_label.hpp"

#include <algorithm>

namespace support {

const char* gio_network_label(const std::string& network) {
  for (std::size_t from = 0; from <= network.size();) {
    const std::size_t end = std::min(network.find("; ", from), network.size());
    const std::string part = network.substr(from, end - from);
    const bool model = part.find("software NIC model") != std::string::npos;
    if (part.rfind("gda (", 0) == 0) return model ? "gio-gda-model" : "gio-gda";
    if (part.rfind("ikn (", 0) == 0) return model ? "gio-ikn-model" : "gio-ikn";
    from = end + 2;
  }
  return nullptr;
}

}  // namespace support
