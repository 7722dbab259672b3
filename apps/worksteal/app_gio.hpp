// worksteal's programs over gio (driver.hpp's App): the runtime's default comm and a session
// that starts gio.
#pragma once
#include <mpi.h>

#include <string>

#include "gio/host.hpp"
#include "gio/ws.hpp"
#include "reference.hpp"
#include "support/gio_session.hpp"
#include "support/gpu_runtime.hpp"

namespace worksteal {

struct gio_app {
  static constexpr const char* name = "gio";
  using comm = gio::ws::gio_comm;
  static constexpr build_kind kind = build_kind::gpu;
  // gio chooses this PE's GPU at init (docs/running.md); the driver's own GPU calls use it too.
  struct session : support::gio_session {
    explicit session(MPI_Comm c) : support::gio_session(c), report(gio::shmem_runtime_report()) {
      support::gpu::set_device(report.gpu);
    }
    gio::runtime_report report;
    const int node_pe = report.node_pe, node_pes = report.node_pes;
    const std::string gpu_name = report.gpu_name;
  };
};

}  // namespace worksteal
