// The gda transport's part of the configuration (its GIO_GDA_* rows: gda_config.cpp), held in
// config::settings::gda. Private to the host runtime.
#pragma once
#include <cstddef>
#include <string>

namespace gio::transports::gda {

struct settings {
  std::string nic;           // GIO_GDA_NIC: device names to use (comma-separated; empty = nearest)
  std::string nic_exclude;   // GIO_GDA_NIC_EXCLUDE: device names never to use
  std::string nic_model;     // GIO_GDA_NIC_MODEL: the test-only software NIC (path of its plugin)
  int contexts;              // GIO_GDA_CONTEXTS: network contexts (QP sets) per PE
  std::size_t sq_depth;      // GIO_GDA_SQ_DEPTH: WQEs per send queue (power of two)
  std::size_t bounce;        // GIO_GDA_BOUNCE: staging buffer per context (bytes)
  std::string rings;         // GIO_GDA_RINGS: gpu | host (where SQ, CQ and doorbell records live)
  std::string doorbell;      // GIO_GDA_DOORBELL: auto | gpu | cpu (who rings the NIC's doorbell)
  std::string hdp;           // GIO_GDA_HDP: auto | on | off | emulate (AMD's HDP flushes around NIC traffic)
};

}  // namespace gio::transports::gda
