#include "variants.hpp"

#include <stdexcept>

namespace spts {

const char* name(variant v) {
  switch (v) {
    case variant::cpu:
      return "cpu";
    case variant::vendor:
      return "vendor";
    case variant::single:
      return "single";
    case variant::gio:
      return "gio";
    case variant::gda:
      return "gda";
    case variant::ikn:
      return "ikn";
  }
  return "?";
}

bool is_distributed(variant v) { return v == variant::gio || v == variant::gda || v == variant::ikn; }

const char* name(push_mode m) {
  switch (m) {
    case push_mode::none:
      return "none";
    case push_mode::packed:
      return "packed";
    case push_mode::signal:
      return "signal";
    case push_mode::fence:
      return "fence";
    case push_mode::amo:
      return "amo";
  }
  return "?";
}

variant parse_variant(const std::string& text) {
  for (variant v : {variant::cpu, variant::vendor, variant::single, variant::gio, variant::gda, variant::ikn})
    if (text == name(v)) return v;
  throw std::invalid_argument("unknown variant '" + text + "' (gio, gda, ikn, single, vendor or cpu)");
}

push_mode parse_push_mode(const std::string& text) {
  for (push_mode m : {push_mode::packed, push_mode::signal, push_mode::fence, push_mode::amo})
    if (text == name(m)) return m;
  throw std::invalid_argument("unknown push mode '" + text + "' (packed, signal, fence or amo)");
}

}  // namespace spts
