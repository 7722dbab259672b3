// Contexts (GIO paper Fig. 2): each workgroup makes its context once from the handle the kernel
// received by value, in caller-provided shared memory; ctx_default() gives a context without
// storage, for code that has no workgroup-wide entry point. Per-context transport state (queue
// pairs for the GDA transport) joins the struct with that transport.
#pragma once
#include "gio/handle.hpp"
#include "gio/platform/platform.hpp"

namespace gio {

struct ctx {
  device_handle h;
};

// Any thread, any time: a context in registers.
GIO_DEVICE ctx ctx_default(const device_handle& h) { return ctx{h}; }

// Whole workgroup: fills `storage` (declare it __shared__) and returns it to every thread.
GIO_DEVICE const ctx& ctx_create_wg(const device_handle& h, ctx& storage) {
  if (platform::thread_in_wg() == 0) storage.h = h;
  platform::wg_barrier();
  return storage;
}

GIO_DEVICE int shmem_my_pe(const ctx& c) { return c.h.my_pe; }
GIO_DEVICE int shmem_n_pes(const ctx& c) { return c.h.n_pes; }

}  // namespace gio
