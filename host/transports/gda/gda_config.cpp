// The gda transport's configuration rows (GIO_GDA_*), registered in transports/registry.cpp.
#include <string>
#include <vector>

#include "config_rows.hpp"

namespace gio::transports::gda {

std::vector<config::binding> config_rows() {
  using config::kind;
  using config::number;
  using config::parsed_value;
  using config::settings;
  return {
    {{"GIO_GDA_NIC", kind::text, "", nullptr,
      "RDMA devices gda may use, comma-separated (mlx5_0,mlx5_1); empty = the one nearest the GPU"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.gda.nic = std::get<std::string>(v); }},
    {{"GIO_GDA_NIC_EXCLUDE", kind::text, "", nullptr, "RDMA devices gda must not use, comma-separated"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.gda.nic_exclude = std::get<std::string>(v); }},
    {{"GIO_GDA_NIC_MODEL", kind::text, "", nullptr,
      "test-only: path of the software NIC model plugin that serves gda instead of a real NIC"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.gda.nic_model = std::get<std::string>(v); }},
    {{"GIO_GDA_CONTEXTS", kind::integer, "8", nullptr,
      "gda network contexts per PE (each: a QP and CQ per peer); workgroup w uses context w % this"},
     1, 1024,
     [](settings& s, const parsed_value& v) { s.gda.contexts = static_cast<int>(number(v)); }},
    {{"GIO_GDA_SQ_DEPTH", kind::size, "256", nullptr, "WQEs per gda send queue, a power of two from 64 to 32768"},
     64, 32768,
     [](settings& s, const parsed_value& v) { s.gda.sq_depth = static_cast<std::size_t>(number(v)); }},
    {{"GIO_GDA_BOUNCE", kind::size, "64K", nullptr,
      "gda staging buffer per context, in the heap (puts from and gets into unregistered memory, reductions)"},
     4096, std::size_t{1} << 30,
     [](settings& s, const parsed_value& v) { s.gda.bounce = static_cast<std::size_t>(number(v)); }},
    {{"GIO_GDA_RINGS", kind::choice, "gpu", "gpu|host",
      "where gda's send/completion queues and doorbell records live: GPU memory (GIO) or pinned host memory"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.gda.rings = std::get<std::string>(v); }},
    {{"GIO_GDA_DOORBELL", kind::choice, "auto", "auto|gpu|cpu",
      "who rings gda's NIC doorbells: the GPU through the UAR mapped into it (gpu), a CPU thread the GPU hands "
      "each doorbell to (cpu), or gpu where the platform maps the UAR and cpu where it refuses (auto)"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.gda.doorbell = std::get<std::string>(v); }},
    {{"GIO_GDA_HDP", kind::choice, "auto", "auto|on|off|emulate",
      "AMD's HDP flushes around gda traffic (GIO paper 4.2): each GPU flushes its own before the NIC reads and "
      "after the NIC wrote, and quiet, fence and put_signal write the target's register through the NIC. auto: "
      "where every PE's GPU has the register and its NIC registers it; on: the same, or fail saying why not; "
      "emulate (test-only): a GPU word stands in for each register, so the flushes run over the NIC model"},
     0, 0,
     [](settings& s, const parsed_value& v) { s.gda.hdp = std::get<std::string>(v); }},
  };
}

}  // namespace gio::transports::gda
