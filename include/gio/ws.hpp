// gio::ws — in-kernel multi-GPU work stealing on gio (MGWS thesis §4-5; docs/worksteal.md).
// Include from CUDA or HIP code. One persistent kernel per PE, one worker per workgroup; each
// worker runs tasks from a local queue in shared memory with all its threads (one task per
// thread per phase), shares surplus through a public queue in the symmetric heap, and steals
// from other workers' public queues, on its GPU, other GPUs of the node and other nodes, with
// one 64-bit fetch-add (SWS). The run ends when every task, spawned ones included, has run.
//
// A task type: a trivially copyable functor of at most 28 bytes, run by one thread:
//   struct visit {
//     std::uint64_t index;
//     template <class Spawn> GIO_DEVICE void operator()(const my_program& p, Spawn& spawn) const {
//       p.out[index] = 1;
//       if (index < p.n / 2) spawn.spawn(visit{index + p.n / 2});   // into this worker's queue
//     }
//   };
// A program: trivially copyable (passed to the kernel by value), listing its task types and
// making its initial tasks:
//   struct my_program {
//     using tasks = gio::ws::task_list<visit>;                        // the tag is the index here
//     std::uint64_t* out; std::uint64_t n;
//     GIO_DEVICE gio::ws::task initial(std::uint64_t i) const { return gio::ws::make_task<tasks>(visit{i}); }
//   };
// Running it (host, after gio::shmem_init; collective over every PE):
//   gio::ws::runtime<my_program> rt(gio::ws::options{});             // sizes workers, allocates queues
//   gio::ws::run_result r = rt.run(program, initial_count_on_this_pe);
//   r.seconds, r.executed(), r.workers[w].steal_successes[...]      // this PE's figures
//
// Contracts.
//  * Every task runs exactly once: a task made by initial() or spawn() is executed by exactly
//    one thread of one worker of one PE before run() returns on any PE.
//  * spawn() may be called any number of times per task; the local queue (options.local_capacity
//    tasks) overflows into a per-worker spill stack (spill_capacity); beyond that run() throws
//    run_failure (a gio::error) on every PE, naming the worker (no task is silently dropped).
//  * What a task wrote is visible to the host after run() returns. Tasks see each other's writes
//    only through their own synchronisation (atomics); a spawned task sees what its parent wrote
//    before spawn() (same worker; a thief copies it after the owner's release fence).
//  * Tallies: spawn.tally(i, v) (i = 0, 1) and spawn.tally_max(v) are summed / maximised per
//    worker into run_result::workers[w].tally / tally_max (cheap per-thread counters).
//  * options: workers per PE (0 = as many as are co-resident; more is an error), threads per
//    worker, queue sizes, max_steal, phase_tasks (tasks per phase; more than threads: any free
//    thread takes the next), victim biases, termination::counter | tree, watch_busy_phases
//    (worker 0 also watches PE 0's abort word while it has work, every that many phases),
//    scheduling::stealing | fixed_share (no stealing: each worker runs its equal share of the
//    initial tasks), placement::symmetric | host, pes (run on PEs 0 .. pes-1 only).
//  * runtime<Program, Comm>: Comm is the library the runtime reaches the PEs through, gio_comm by
//    default (gio/device/ws/comm_gio.hpp lists what a comm provides); spawn.context() is the
//    comm's context and Spawn::comm its calls.
//  * Errors at construction are thrown on every PE: config_error (options no GPU here can run,
//    too many workers, a PE reached over gda by kernels compiled without the NIC path),
//    placement_unsupported (host queues where GPU atomics on host memory are not atomic across
//    the GPUs, probed). run() throws run_failure on every PE when a worker of any PE failed.
#pragma once

#include "gio/device/ws/layout.hpp"
#include "gio/device/ws/runtime.hpp"
#include "gio/device/ws/sws.hpp"
#include "gio/device/ws/task.hpp"
