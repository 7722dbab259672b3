// shmem_fence / shmem_quiet (docs/memory-model.md has the why): a system-scope fence for the
// load/store transport, and on each transport that holds operations in flight (gda) the
// completion of every one the context has posted (gda's fence is its quiet: docs/transports.md,
// "Ordering").
#pragma once
#include "gio/device/ctx.hpp"
#include "gio/device/transports/dispatch.hpp"
#include "gio/platform/platform.hpp"

namespace gio {

// Orders this thread's earlier puts/p to each PE before its later ones (delivery order, not
// completion): a release fence at system scope. Cumulative over accesses that happen-before it,
// so after a _wg/_wave call (which ends with a group barrier) it covers the whole group's stores.
GIO_DEVICE void shmem_ctx_fence(const ctx& c) {
  platform::fence_acq_rel_system();
  transports::complete(c, "shmem_fence", {__FILE__, __LINE__});
}

// Completes this thread's earlier puts, gets and p/g: every later access by this thread (a flag
// store, or a get that must see an earlier put) is ordered after them at system scope. Needs
// store->load ordering, hence sequentially consistent rather than acq_rel.
GIO_DEVICE void shmem_ctx_quiet(const ctx& c) {
  platform::fence_sc_system();
  transports::complete(c, "shmem_quiet", {__FILE__, __LINE__});
}

GIO_DEVICE void shmem_fence(const ctx& c) { shmem_ctx_fence(c); }
GIO_DEVICE void shmem_quiet(const ctx& c) { shmem_ctx_quiet(c); }

}  // namespace gio
