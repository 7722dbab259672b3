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
// arguments, and any member may read any part of `source`: it must be complete for the whole
// group at the call (a group barrier first if several members wrote it). Group calls end with a
// barrier of the group.
//
// Teams. ctx_create_wg(h, storage, team) / ctx_default(h, team) make a team context: the `pe` of
// its RMA, atomic and signal calls is a PE of that team (default SHMEM_TEAM_WORLD); a context
// for a team this PE is not in has no PEs (every PE-taking call fails its check). As in
// OpenSHMEM, shmem_my_pe(ctx) / shmem_n_pes(ctx) are WORLD's numbers even on a team context;
// the team's are shmem_team_my_pe / shmem_team_n_pes(ctx, shmem_ctx_get_team(ctx)). Queries:
// shmem_team_my_pe / shmem_team_n_pes (ctx, team) -> -1 when not a member / invalid;
// shmem_team_translate_pe(ctx, src_team, src_pe, dest_team) -> -1 when not a member.
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
//   shmem_iput*/shmem_iget*(ctx, dest, source, dst, sst, nelems, pe)   strided: element i of source
//                                                 (i * sst elements in) to element i of dest (i * dst
//                                                 in); strides >= 1; typed shmem_ctx_<type>_iput,
//                                                 sized shmem_ctx_iput8 ... 128; completion as put/get.
//
// Ordering (one thread; cumulative over what happens-before it, e.g. a preceding group call):
//   shmem_fence(ctx)   earlier puts/p and non-fetching atomics of this thread are delivered to
//                      each PE before its later ones (OpenSHMEM 1.5 §9.9.1).
//   shmem_quiet(ctx)   earlier puts/gets/p/g and atomics (fetching, non-fetching and _nbi) of this
//                      thread are complete: visible to every PE before any later access of this
//                      thread (including store->load); _nbi fetch results are in place.
//
// Point-to-point synchronisation on symmetric `ivar`s in the caller's heap, one thread:
//   shmem_wait_until(ctx, ivar, cmp, value)        returns when the comparison holds; afterwards
//                                                 the caller sees everything the writer ordered
//                                                 before its update (acquire, system scope).
//   shmem_test(...) -> 1/0                         the same check once, without waiting.
//   _all / _any / _some (ivars, nelems, [indices], status, cmp, value): status[i] != 0 excludes
//   element i (status may be nullptr); _any returns an index, or SIZE_MAX when nelems is 0 or
//   every element is excluded (it does not wait then); _some returns a count, 0 in that case.
//   cmp is one of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE.
//
// Atomics (OpenSHMEM 1.5 §9.7), one thread; any number of threads/PEs may target one word:
//   shmem_atomic_<op>(ctx, ...), shmem_ctx_<type>_atomic_<op>(ctx, ...) with op = fetch, set,
//   swap, compare_swap(dest, cond, value), fetch_inc, inc, fetch_add, add, fetch_and, and,
//   fetch_or, or, fetch_xor, xor (types per OpenSHMEM tables 6-9: 32/64-bit integers; fetch/set/
//   swap also float and double). Fetching forms return the old value; _nbi forms take `T* fetch`
//   first and store it there (complete at shmem_quiet). Atomic at system scope against every
//   other gio atomic; a CAS loop where the link lacks the operation. Atomics order nothing by
//   themselves: use fence/quiet. dest: a symmetric, naturally aligned word.
//
// Signals: shmem_put_signal[_nbi][_wave|_wg](ctx, dest, source, nelems, sig_addr, signal, sig_op,
//   pe) (and shmem_ctx_putmem_signal..., shmem_ctx_<type>_put_signal...): the put, then sig_addr at
//   `pe` is set to / increased by `signal` (SHMEM_SIGNAL_SET / SHMEM_SIGNAL_ADD). Whoever observes
//   the new signal value (shmem_signal_wait_until, shmem_signal_fetch, wait/test) sees the whole
//   payload. shmem_signal_fetch(ctx, sig_addr) -> value (acquire);
//   shmem_signal_wait_until(ctx, sig_addr, cmp, value) -> the value that satisfied it.
//   shmem_signal_set / shmem_signal_add(ctx, sig_addr, signal, pe), shmem_signal_op(ctx, sig_addr,
//   signal, sig_op, pe): the signal update alone, ordered after this thread's earlier puts, p and
//   atomics to `pe` (and what happens-before them) as put_signal's is after its payload.
// shmem_ptr(ctx, dest, pe) -> `dest` on PE `pe` of the context's team as an address this thread
//   can load and store (dest itself for this PE), or nullptr when `pe` is reached only over gda.
// Vector waits: shmem_<type>_wait_until_{all,any,some}_vector / test_*_vector compare element i
//   with values[i].
//
// Team synchronisation and collectives: one caller (a thread, or the whole wave/workgroup for
// _wave/_wg) per PE per call; every member of the team calls, in the same order, with the same
// arguments (root, sizes). Return 0.
//   shmem_barrier_all(ctx), shmem_barrier(ctx, team)   quiet, then sync: every member's earlier
//                                                      puts are visible to all members after it.
//   shmem_sync_all(ctx), shmem_team_sync(ctx, team)    sync with release/acquire ordering (what a
//                                                      member wrote before is visible after).
//   shmem_broadcast(ctx, team, dest, source, nelems, PE_root)   root's source to every dest (root's too)
//   shmem_fcollect(ctx, team, dest, source, nelems)    dest = the members' sources in team order
//   shmem_alltoall(ctx, team, dest, source, nelems)    block j of source -> block my_pe of j's dest
//   shmem_collect(ctx, team, dest, source, nelems)     as fcollect, but nelems may differ per member:
//                                                      dest = the sources concatenated in team order
//   shmem_alltoalls(ctx, team, dest, source, dst, sst, nelems)  alltoall with element strides
//                                                      (>= 1): block j is source[(j*nelems+i)*sst],
//                                                      landing at dest[(my_pe*nelems+i)*dst] of j
//   shmem_<op>_reduce(ctx, team, dest, source, nreduce) op = and, or, xor (integers), min, max,
//                                                      sum, prod; every member gets bit-identical
//                                                      results (combined in team order); dest may
//                                                      equal source (not partially overlap it).
//   ...mem forms count bytes; typed forms shmem_<type>_broadcast, shmem_<type>_sum_reduce, ...
//   dest (and reduction sources) are symmetric. As in OpenSHMEM, dest must not be in use on any
//   member when the collective starts (e.g. read by the previous round): sync first if it is.
//   On return this PE's dest holds the result and its source may be reused.
//   Co-residency: a kernel whose workgroups wait for each other across PEs must have them all
//   resident: launch it with gio::launch_collective (gio/launch.hpp).
//
// Checked builds (GIO_CHECKS=1: gio's own Debug build, or a user's target linking gio::checks)
// verify PE ranges, that addresses lie in the symmetric heap, alignment of atomics and signals,
// team membership and roots, size overflow and comparison operators, and bound every wait by
// GIO_WAIT_TIMEOUT: a failure prints "gio: PE <n>: <call> (<file>:<line>): <cause>" and traps
// the kernel.
#pragma once

#include "gio/handle.hpp"
#include "gio/device/ctx.hpp"
#include "gio/device/order.hpp"
#include "gio/device/api_generated.hpp"
