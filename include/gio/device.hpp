// gio device API: the contracts. Include this from CUDA or HIP code; no -rdc is needed.
//
//   __global__ void kernel(gio::device_handle h, int* sym, int peer) {
//     __shared__ gio::ctx storage;
//     const gio::ctx& ctx = gio::ctx_create_wg(h, storage);   // whole workgroup, once
//     gio::shmem_put_wg(ctx, sym, sym + 64, 64, peer);        // whole workgroup
//     if (threadIdx.x == 0) { gio::shmem_fence(ctx); gio::shmem_p(ctx, sym + 128, 1, peer); }
//   }
//
// Naming. Generic templates deduce T: shmem_put, shmem_get, shmem_p, shmem_g, shmem_wait_until,
// ... Byte forms: shmem_ctx_putmem, shmem_ctx_getmem. Typed forms from OpenSHMEM's tables:
// shmem_ctx_<type>_put / _get / _p / _g, shmem_<type>_wait_until / _test / ... Every call takes the
// context first: it carries the PE, the heap and the peer table (no device globals, so no -rdc).
//
// Cooperation is part of the name: no suffix = the calling thread alone; _wave = every thread of
// the warp/wavefront; _wg = every thread of the workgroup (block). Members pass the same
// arguments. Group calls end with a barrier of the group.
//
// RMA (the `nelems` count elements of T; the mem forms count bytes). `dest` of a put and `source`
// of a get are symmetric addresses (from shmem_malloc) in the caller's heap; the other side is any
// memory the group can load/store (global or shared).
//   shmem_put*(ctx, dest, source, nelems, pe)      on return `source` may be reused; the data is
//                                                 delivered by the next shmem_quiet, and ordered
//                                                 before later puts to `pe` by shmem_fence.
//   shmem_put_nbi*(...)                            same contract, issued without waiting (source
//                                                 may be reused only after shmem_quiet).
//   shmem_get*(ctx, dest, source, nelems, pe)      on return `dest` holds the data, for every
//                                                 member of the group.
//   shmem_get_nbi*(...)                            `dest` holds the data after shmem_quiet.
//   shmem_p(ctx, dest, value, pe)                  one element (<= 8 bytes) as one strong store:
//                                                 usable as a flag after fence/quiet.
//   shmem_g(ctx, source, pe)                       one element as one strong load.
//
// Ordering (one thread; cumulative over what happens-before it, e.g. a preceding group call):
//   shmem_fence(ctx)   earlier puts/p of this thread are delivered to each PE before later ones.
//   shmem_quiet(ctx)   earlier puts/gets/p/g of this thread are complete: visible to every PE
//                      before any later access of this thread (including store->load).
//
// Point-to-point synchronisation on symmetric `ivar`s in the caller's heap, one thread:
//   shmem_wait_until(ctx, ivar, cmp, value)        returns when the comparison holds; afterwards
//                                                 the caller sees everything the writer ordered
//                                                 before its update (acquire, system scope).
//   shmem_test(...) -> 1/0                         the same check once, without waiting.
//   _all / _any / _some (ivars, nelems, [indices], status, cmp, value): status[i] != 0 excludes
//   element i (status may be nullptr); _any returns an index or SIZE_MAX, _some a count.
//   cmp is one of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE.
//
// Checked builds (Debug, or GIO_CHECKS=1) verify PE ranges, that addresses lie in the symmetric
// heap, size overflow and comparison operators, and bound every wait by GIO_WAIT_TIMEOUT: a
// failure prints "gio: PE <n>: <call> (<file>:<line>): <cause>" and traps the kernel.
#pragma once

#include "gio/handle.hpp"
#include "gio/device/ctx.hpp"
#include "gio/device/order.hpp"
#include "gio/device/api_generated.hpp"
