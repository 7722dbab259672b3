#include <string>

#include "gio/host.hpp"

namespace gio {

namespace {
std::string pe_prefix(int pe) { return pe < 0 ? std::string("gio: PE ?: ") : "gio: PE " + std::to_string(pe) + ": "; }
}  // namespace

error::error(int pe, const std::string& cause) : std::runtime_error(pe_prefix(pe) + cause), pe_(pe) {}

}  // namespace gio
