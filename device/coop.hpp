// Cooperation as a type (NCCL nccl_device style): who executes a call together. The API names
// carry it as a suffix: none = one thread, _wave = the whole warp/wavefront, _wg = the whole
// workgroup (block). All members call with the same arguments.
#pragma once
#include "gio/platform/platform.hpp"

namespace gio::coop {

struct thread {
  static GIO_DEVICE unsigned rank() { return 0; }
  static GIO_DEVICE unsigned size() { return 1; }
  static GIO_DEVICE void sync() {}
  static constexpr const char* suffix = "";
};

struct wave {
  static GIO_DEVICE unsigned rank() { return platform::lane(); }
  static GIO_DEVICE unsigned size() { return platform::wave_lanes(); }
  static GIO_DEVICE void sync() { platform::wave_barrier(); }
  static constexpr const char* suffix = "_wave";
};

struct wg {
  static GIO_DEVICE unsigned rank() { return platform::thread_in_wg(); }
  static GIO_DEVICE unsigned size() { return platform::wg_size(); }
  static GIO_DEVICE void sync() { platform::wg_barrier(); }
  static constexpr const char* suffix = "_wg";
};

}  // namespace gio::coop
