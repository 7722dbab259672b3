// gio-bench-order-probe (CUDA only: hand-written PTX): what the ordering instructions behind
// put_signal, atomics and team sync cost on this machine, next to gio's calls, in one run of 2 PEs.
//   probe    8-byte payload + signal ping-pong, one way: no ordering (incorrect: the floor), each
//            release idiom (fence + strong store, st.release, red.release, atom.release), gio's
//            shmem_putmem_signal at thread and wg scope, and gio's put_signal with two other waits
//            (relaxed polls + one acquire load; volatile polls + fence.acq_rel, as NVSHMEM-like code)
//            and with the wait as a one-element shmem_wait_until_any and as a shmem_test loop
//   barrier  2-PE barrier loop: gio's shmem_barrier_all vs two hand-written protocols, one of
//            them also on gio's own sync words (does their place in the heap cost anything?),
//            and gio's sync body (sync_team_numbered) with the world team looked up once, with
//            the count read from the sync word as the call does and kept in a register: what of
//            the call's cost is the lookup, the count's read, and the body
//   micro    one thread, per instruction: .sys fences with nothing outstanding / after a remote
//            store, and dependent chains of remote atomics and loads at .sys and .gpu scope
//   amo      one thread, a chain of remote fetch_adds whose operand depends on the previous
//            answer (gio-bench's amo_fetch_add shape): the bare instruction, gio's call through a
//            context in shared memory (as gio-bench calls it) and through one in registers; the
//            differences are gio's per-call cost, split by where the context lives; then
//            gio-bench's own amo_latency_kernel (its warm-up and timing) on the same counter, and
//            the bare and gio chains at other offsets of a large symmetric buffer (whether the
//            target line's place in the peer's memory changes the round trip)
//   probe-at put_signal ping-pongs with payload and flag at offsets of a large symmetric buffer
//   red      one warp, every lane 2000 non-fetching remote adds (one counter, or one each):
//            red.relaxed.sys, red.relaxed.gpu and gio's atomic_add, in Mops/s (gio-bench's
//            1x32 `add` rate is 0.62x NVSHMEM's: is it the scope or gio's call?)
//   silence  after a gap in which this GPU sent nothing to the peer, quiet (one thread waits),
//            busy (every SM adds to 8 MiB of this GPU's own memory) or sweep (to 1 GiB, as
//            gio::ws's memset does before its first steal): a system-scope fence, one remote
//            fetch_add and the one right after it: is the stall of gio::ws's workers at their
//            first such fence or remote access after memset (docs/results.md, "Four GPUs",
//            session 24) a matter of the local phase's footprint? `target` (only the peer sweeps
//            its own 1 GiB) and `both` (both sweep, as every GPU does in memset) ask whether it is
//            the peer's local phase instead; `sweep-r` and `both-r` time a remote fetch_add before
//            the fence, the order of a worker's failed steal and the close step that stalls.
// Medians of 5-7 launches; docs/memory-model.md and docs/results.md cite the output.
#include <mpi.h>
#include <algorithm>
#include <cstdio>
#include <vector>
#include "gio/device.hpp"
#include "gio/host.hpp"
#include "kernels.hpp"
#include "support/shim_gio.hpp"

namespace {

// The last four send as gio_thread does but wait otherwise than gio's signal_wait_until: relaxed
// polls then one acquire load of the flag (correct), volatile polls then a fence (NVSHMEM-like),
// and gio's wait_until_any (one element) and test (in a loop).
enum variant { relaxed_only, fence_acqrel, st_release, fence_sc, red_release, atom_exch_release, payload_fence_acqrel,
               gio_thread, gio_wg, gio_thread_relaxed_poll, gio_thread_volatile_poll, gio_thread_wait_any,
               gio_thread_test_loop, nvariants };
const char* names[] = {"no order (incorrect: floor)", "fence.acq_rel.sys + st.relaxed.sys", "st.release.sys",
                       "fence.sc.sys + st.relaxed.sys", "red.release.sys.add", "atom.release.sys.exch",
                       "payload ld+st, fence.acq_rel.sys, st.relaxed.sys", "gio shmem_put_signal", "gio shmem_put_signal_wg",
                       "gio put_signal; wait: relaxed polls + ld.acquire", "gio put_signal; wait: volatile + fence",
                       "gio put_signal; wait: shmem_wait_until_any", "gio put_signal; wait: shmem_test loop"};

__device__ void order_and_signal(int v, std::uint64_t* rsig, std::uint64_t seq) {
  switch (v) {
    case relaxed_only: asm volatile("st.relaxed.sys.b64 [%0], %1;" ::"l"(rsig), "l"(seq) : "memory"); break;
    case fence_acqrel: asm volatile("fence.acq_rel.sys;\n st.relaxed.sys.b64 [%0], %1;" ::"l"(rsig), "l"(seq) : "memory"); break;
    case st_release: asm volatile("st.release.sys.b64 [%0], %1;" ::"l"(rsig), "l"(seq) : "memory"); break;
    case fence_sc: asm volatile("fence.sc.sys;\n st.relaxed.sys.b64 [%0], %1;" ::"l"(rsig), "l"(seq) : "memory"); break;
    case red_release: asm volatile("red.release.sys.global.add.u64 [%0], 1;" ::"l"(rsig) : "memory"); break;
    default: {
      std::uint64_t old;  // the exchange's answer, unused: only its ordering is measured
      asm volatile("atom.release.sys.exch.b64 %0, [%1], %2;" : "=l"(old) : "l"(rsig), "l"(seq) : "memory");
      (void)old;
    }
  }
}

__global__ void pingpong(gio::device_handle h, int v, std::uint64_t* data, std::uint64_t* sig, std::uint64_t* rdata,
                         std::uint64_t* rsig, int iters, std::uint64_t base, unsigned long long* out) {
  __shared__ gio::ctx st;
  const gio::ctx& c = gio::ctx_create_wg(h, st);
  const int me = h.my_pe, peer = 1 - me;
  unsigned long long t0 = 0;
  for (int i = 0; i < iters; ++i) {
    if (i == iters / 4 && threadIdx.x == 0) t0 = gio::platform::timer_ns();
    const std::uint64_t seq = base + i;
    const bool send_first = me == 0;
    for (int phase = 0; phase < 2; ++phase) {
      const bool sending = (phase == 0) == send_first;
      if (sending) {
        if (v == gio_wg) {
          gio::shmem_ctx_putmem_signal_wg(c, data, data + 1, 8, sig, seq, gio::SHMEM_SIGNAL_SET, peer);
        } else if (threadIdx.x == 0) {
          if (v >= gio_thread && v != gio_wg) {
            gio::shmem_ctx_putmem_signal(c, data, data + 1, 8, sig, seq, gio::SHMEM_SIGNAL_SET, peer);
          } else {
            // The hand-written send: the payload is the sequence number, or (payload_fence_acqrel)
            // 8 bytes loaded from this PE's heap as a put reads its source.
            rdata[0] = v == payload_fence_acqrel ? data[1] + seq : seq;
            order_and_signal(v == payload_fence_acqrel ? fence_acqrel : v, rsig, v == red_release ? 0 : seq);
          }
        }
      } else {
        if (threadIdx.x == 0) {
          if (v == gio_thread_relaxed_poll) {
            // The acquire load's value decides, as in a correct wait (a later SET may lower the
            // flag): a variant that discarded it never waited for that load (session 12).
            while (gio::platform::ld_relaxed_sys(sig) < seq || gio::platform::ld_acquire_sys(sig) < seq) {}
          } else if (v == gio_thread_volatile_poll) {
            while (*static_cast<volatile std::uint64_t*>(sig) < seq) {}
            asm volatile("fence.acq_rel.sys;" ::: "memory");
          } else if (v == gio_thread_wait_any) {
            gio::shmem_uint64_wait_until_any(c, sig, 1, nullptr, gio::SHMEM_CMP_GE, seq);
          } else if (v == gio_thread_test_loop) {
            while (!gio::shmem_uint64_test(c, sig, gio::SHMEM_CMP_GE, seq)) {}
          } else {
            gio::shmem_signal_wait_until(c, sig, gio::SHMEM_CMP_GE, seq);
          }
        }
        __syncthreads();
      }
    }
  }
  if (threadIdx.x == 0) *out = gio::platform::timer_ns() - t0;
}

enum micro { fence_sc_idle, fence_acqrel_idle, fence_acquire_idle, fence_sc_after_remote_store, fence_sc_after_local_store,
             atom_sys, atom_gpu, atom_plain, cas_sys, cas_gpu, ld_sys, ld_gpu, nmicro };
const char* micro_names[] = {"fence.sc.sys, nothing outstanding", "fence.acq_rel.sys, nothing outstanding",
  "acquire fence (platform::fence_acquire_system), nothing outstanding",
  "st.relaxed.sys remote + fence.sc.sys", "st local + fence.sc.sys", "atom.relaxed.sys.add.u64 remote (chain)",
  "atom.relaxed.gpu.add.u64 remote (chain)", "atom.add.u64 remote (chain)", "atom.relaxed.sys.cas.b64 remote (chain)",
  "atom.relaxed.gpu.cas.b64 remote (chain)", "ld.relaxed.sys remote (chain)", "ld.relaxed.gpu remote (chain)"};

__global__ void micro_kernel(int m, std::uint64_t* local, std::uint64_t* remote, int iters, unsigned long long* out) {
  std::uint64_t v = 0;
  const unsigned long long t0 = gio::platform::timer_ns();
  for (int i = 0; i < iters; ++i) {
    switch (m) {
      case fence_sc_idle: asm volatile("fence.sc.sys;" ::: "memory"); break;
      case fence_acqrel_idle: asm volatile("fence.acq_rel.sys;" ::: "memory"); break;
      case fence_acquire_idle: gio::platform::fence_acquire_system(); break;
      case fence_sc_after_remote_store: asm volatile("st.relaxed.sys.b64 [%0], %1;\n fence.sc.sys;" ::"l"(remote + 8), "l"(v + i) : "memory"); break;
      case fence_sc_after_local_store: asm volatile("st.relaxed.sys.b64 [%0], %1;\n fence.sc.sys;" ::"l"(local + 8), "l"(v + i) : "memory"); break;
      case atom_sys: asm volatile("atom.relaxed.sys.add.u64 %0, [%1], 1;" : "=l"(v) : "l"(remote + (v & 0)) : "memory"); break;
      case atom_gpu: asm volatile("atom.relaxed.gpu.add.u64 %0, [%1], 1;" : "=l"(v) : "l"(remote + (v & 0)) : "memory"); break;
      case atom_plain: asm volatile("atom.add.u64 %0, [%1], 1;" : "=l"(v) : "l"(remote + (v & 0)) : "memory"); break;
      case cas_sys: asm volatile("atom.relaxed.sys.cas.b64 %0, [%1], %2, %3;" : "=l"(v) : "l"(remote + 16 + (v & 0)), "l"(v), "l"(v + 1) : "memory"); break;
      case cas_gpu: asm volatile("atom.relaxed.gpu.cas.b64 %0, [%1], %2, %3;" : "=l"(v) : "l"(remote + 16 + (v & 0)), "l"(v), "l"(v + 1) : "memory"); break;
      case ld_sys: asm volatile("ld.relaxed.sys.b64 %0, [%1];" : "=l"(v) : "l"(remote + 24 + (v & 0)) : "memory"); break;
      default: asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(v) : "l"(remote + 24 + (v & 0)) : "memory"); break;
    }
  }
  *out = (gio::platform::timer_ns() - t0) + (v == 12345678 ? 1 : 0);
}

// Chains of remote fetch_adds shaped like gio-bench's (fixed address, operand 1 + (answer >> 63)).
enum amo_variant { amo_bare, amo_gio_shared_ctx, amo_gio_register_ctx, namo };
const char* amo_names[] = {"atom.relaxed.sys.add.u64 (operand from the answer)", "gio fetch_add, context in shared memory",
                           "gio fetch_add, context in registers"};

__global__ void amo_chain(gio::device_handle h, int v, std::uint64_t* counter, std::uint64_t* remote_counter, int peer,
                          int iters, unsigned long long* out) {
  __shared__ gio::ctx st;
  const gio::ctx& shared_ctx = gio::ctx_create_wg(h, st);
  const gio::ctx register_ctx = gio::ctx_default(h);
  std::uint64_t value = 0;
  const unsigned long long t0 = gio::platform::timer_ns();
  for (int i = 0; i < iters; ++i) {
    const std::uint64_t add = 1 + (value >> 63);
    if (v == amo_bare)
      asm volatile("atom.relaxed.sys.add.u64 %0, [%1], %2;" : "=l"(value) : "l"(remote_counter), "l"(add) : "memory");
    else if (v == amo_gio_shared_ctx)
      value = gio::shmem_ctx_uint64_atomic_fetch_add(shared_ctx, counter, add, peer);
    else
      value = gio::shmem_ctx_uint64_atomic_fetch_add(register_ctx, counter, add, peer);
  }
  *out = (gio::platform::timer_ns() - t0) + (value == 12345678 ? 1 : 0);
}

// One warp of non-fetching remote adds; each lane its own counter (128 B apart) or all one.
enum red_variant { red_sys, red_gpu, red_gio, nred };
const char* red_names[] = {"red.relaxed.sys.add.u64", "red.relaxed.gpu.add.u64", "gio shmem_ctx_uint64_atomic_add"};

__global__ void red_rate(gio::device_handle h, int v, std::uint64_t* counters, std::uint64_t* remote_counters,
                         bool per_lane, int peer, int ops, unsigned long long* out) {
  __shared__ gio::ctx st;
  const gio::ctx& c = gio::ctx_create_wg(h, st);
  const unsigned lane = threadIdx.x;
  std::uint64_t* mine = counters + (per_lane ? lane * 16 : 0);
  std::uint64_t* remote_mine = remote_counters + (per_lane ? lane * 16 : 0);
  __syncwarp();
  const unsigned long long t0 = gio::platform::timer_ns();
  for (int i = 0; i < ops; ++i) {
    if (v == red_sys) asm volatile("red.relaxed.sys.global.add.u64 [%0], 1;" ::"l"(remote_mine) : "memory");
    else if (v == red_gpu) asm volatile("red.relaxed.gpu.global.add.u64 [%0], 1;" ::"l"(remote_mine) : "memory");
    else gio::shmem_ctx_uint64_atomic_add(c, mine, 1, peer);
  }
  asm volatile("fence.sc.sys;" ::: "memory");  // every variant's adds complete (what gio's quiet does over p2p)
  __syncwarp();
  if (lane == 0) *out = gio::platform::timer_ns() - t0;
}

// Barrier variants between 2 PEs, one thread: word 0 = local count, word 1 + mine = this PE's
// arrival (stored into the peer's area), word 1 + theirs = the peer's (gio's team sync layout).
// 5 and 6 run gio's own sync body on the world team's words, the team looked up before the loop:
// 5 reads the count from the sync word each time (as the call does), 6 keeps it in a register,
// 7 keeps it in a register but still loads the sync word before the body and uses the value only
// after it (the load's issue without the wait for its value).
__global__ void barrier_variant(gio::device_handle h, int v, std::uint64_t* area, std::uint64_t* rarea, int mine,
                                int theirs, int iters, unsigned long long* out) {
  __shared__ gio::ctx st;
  const gio::ctx& c = gio::ctx_create_wg(h, st);
  const gio::source_location here = gio::source_location::current();
  const gio::team_info world = gio::detail::team_of(c, gio::SHMEM_TEAM_WORLD, "probe", here);
  const std::uint64_t first_count = gio::detail::next_sync_number(c, world);  // 6: the counts to come
  std::uint64_t unused_counts = 0;  // 7: the loaded counts, folded in after each body
  const unsigned long long t0 = gio::platform::timer_ns();
  for (int i = 0; i < iters; ++i) {
    if (v == 0) {  // library
      gio::shmem_barrier_all(c);
    } else if (v == 5 || v == 6 || v == 7) {
      const std::uint64_t loaded = v == 7 ? gio::detail::next_sync_number(c, world) : 0;
      gio::detail::sync_team_numbered<gio::coop::thread>(
          c, world, v == 5 ? gio::detail::next_sync_number(c, world) : first_count + i, true, "probe", here);
      unused_counts += loaded;
    } else if (v == 1 || v == 3 || v == 4) {  // load count, fence, store count, wait
      const std::uint64_t e = gio::platform::ld_relaxed_sys(area) + 1;
      asm volatile("fence.sc.sys;" ::: "memory");
      gio::platform::st_relaxed_sys(rarea + 1 + mine, e);
      if (v == 4) {  // gio's wait form: relaxed polls, one acquire fence once satisfied
        while (gio::platform::ld_relaxed_sys(area + 1 + theirs) < e) {}
        gio::platform::fence_acquire_system();
      } else {
        while (gio::platform::ld_acquire_sys(area + 1 + theirs) < e) {}
      }
      gio::platform::st_relaxed_sys(area, e);
    } else {  // count in a register: fence, red, wait (lower bound)
      asm volatile("fence.sc.sys;" ::: "memory");
      asm volatile("red.relaxed.sys.add.u64 [%0], 1;" ::"l"(rarea + 1) : "memory");
      while (gio::platform::ld_acquire_sys(area + 1) < std::uint64_t(i + 1)) {}
    }
  }
  *out = (gio::platform::timer_ns() - t0) + (unused_counts == 12345678 ? 1 : 0);  // keeps 7's loads
}

// Every thread of the grid adds to `local` (local_words words of it, in turn) until gap_ns after
// `start`.
__device__ void add_until(std::uint64_t* local, std::size_t local_words, std::uint64_t start, std::uint64_t gap_ns) {
  std::size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  while (gio::platform::timer_ns() - start < gap_ns) {
    asm volatile("red.relaxed.sys.global.add.u64 [%0], 1;" ::"l"(local + i % local_words) : "memory");
    i += gridDim.x * blockDim.x;
  }
}

// The peer's side of `target` and `both`.
__global__ void sweep_for(std::uint64_t* local, std::size_t local_words, std::uint64_t gap_ns) {
  add_until(local, local_words, gio::platform::timer_ns(), gap_ns);
}

// `busy`: every thread adds to `local` (local_words words of it) until the gap is over; else only
// thread 0 waits. Then thread 0 of block 0 times three steps: a system-scope fence and two remote
// fetch_adds in a row, or (remote_first, the order of a gio::ws thief's failed steal and then its
// close) a remote fetch_add, the fence, a fetch_add. Each fetch_add is waited for: its answer is
// stored to out[3] before the clock is read again.
__global__ void after_silence(std::uint64_t* remote, std::uint64_t* local, std::size_t local_words, std::uint64_t gap_ns,
                              bool busy, bool remote_first, unsigned long long* out) {
  const std::uint64_t start = gio::platform::timer_ns();
  if (busy) add_until(local, local_words, start, gap_ns);
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  while (gio::platform::timer_ns() - start < gap_ns) {}
  unsigned long long t[4];
  for (int k = 0; k < 3; ++k) {
    t[k] = gio::platform::timer_ns();
    if (k == (remote_first ? 1 : 0)) {
      gio::platform::fence_acq_rel_system();
      continue;
    }
    std::uint64_t v;
    asm volatile("atom.relaxed.sys.add.u64 %0, [%1], 1;" : "=l"(v) : "l"(remote) : "memory");
    static_cast<volatile unsigned long long*>(out)[3] = v;
  }
  t[3] = gio::platform::timer_ns();
  out[0] = t[1] - t[0];
  out[1] = t[2] - t[1];
  out[2] = t[3] - t[2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  gio::shmem_init();
  const int me = gio::shmem_my_pe();
  auto* data = static_cast<std::uint64_t*>(gio::shmem_calloc(64, 8));
  auto* sig = data + 32;
  auto* rdata = static_cast<std::uint64_t*>(gio::shmem_ptr(data, 1 - me));
  auto* rsig = static_cast<std::uint64_t*>(gio::shmem_ptr(sig, 1 - me));
  unsigned long long* out;
  cudaMalloc(&out, 8);
  const gio::device_handle h = gio::shmem_device_handle();
  const int iters = 4000;
  std::uint64_t base = 1;
  // One-way time of variant v with payload `at` and flag `at_sig` (both PEs): sorted, 7 launches.
  const auto pingpong_us = [&](int v, std::uint64_t* at, std::uint64_t* at_sig) {
    auto* remote_at = static_cast<std::uint64_t*>(gio::shmem_ptr(at, 1 - me));
    auto* remote_sig = static_cast<std::uint64_t*>(gio::shmem_ptr(at_sig, 1 - me));
    std::vector<double> us;
    for (int rep = 0; rep < 7; ++rep) {
      // red.release adds 1 per message: reset and count from 1
      if (v == red_release) { cudaMemset(at_sig, 0, 8); base = 1; }
      gio::shmem_barrier_all();
      pingpong<<<1, v == gio_wg ? 256 : 32>>>(h, v, at, at_sig, remote_at, remote_sig, iters, base, out);
      cudaDeviceSynchronize();
      base += iters;
      unsigned long long ns;
      cudaMemcpy(&ns, out, 8, cudaMemcpyDeviceToHost);
      us.push_back(ns / 1000.0 / (iters - iters / 4) / 2);
    }
    if (v == red_release) { cudaMemset(at_sig, 0, 8); }
    std::sort(us.begin(), us.end());
    if (v == red_release) base = 1ull << 40;  // later variants compare >= seq: jump past
    gio::shmem_barrier_all();
    return us;
  };
  for (int v = 0; v < nvariants; ++v) {
    const std::vector<double> us = pingpong_us(v, data, sig);
    if (me == 0) std::printf("probe %-40s one-way %.3f us (min %.3f)\n", names[v], us[us.size() / 2], us[0]);
  }
  // Variants 3 and 4 are the second's protocol on gio's own world sync words (the same protocol
  // as gio's, so gio's later syncs stay consistent): whether those words' place costs anything,
  // and then whether gio's wait form (relaxed polls, one acquire fence) does. 5 and 6 run gio's
  // sync body itself on those words (barrier_variant).
  const char* bnames[] = {"gio shmem_barrier_all (thread)", "ld count; fence.sc; st count; wait",
                          "fence.sc; red.add; wait (count in register)", "the second, on gio's world sync words",
                          "the fourth, relaxed polls + fence.acquire",
                          "gio's sync body, team looked up once",
                          "gio's sync body, team once, count in a register",
                          "... count in a register, the word loaded, used after"};
  auto* gio_area = reinterpret_cast<std::uint64_t*>(h.heap_base + h.world_sync_offset);
  auto* remote_gio_area = static_cast<std::uint64_t*>(gio::shmem_ptr(gio_area, 1 - me));
  for (int v = 0; v < static_cast<int>(sizeof bnames / sizeof bnames[0]); ++v) {
    std::vector<double> us;
    for (int rep = 0; rep < 5; ++rep) {
      const bool on_gio_words = v >= 3;
      if (!on_gio_words) cudaMemset(data + 40, 0, 64);
      gio::shmem_barrier_all();
      if (on_gio_words)
        barrier_variant<<<1, 1>>>(h, v, gio_area, remote_gio_area, me, 1 - me, 4000, out);
      else
        barrier_variant<<<1, 1>>>(h, v, data + 40, rdata + 40, 0, 0, 4000, out);
      cudaDeviceSynchronize();
      unsigned long long ns;
      cudaMemcpy(&ns, out, 8, cudaMemcpyDeviceToHost);
      us.push_back(ns / 4000.0 / 1000.0);
      gio::shmem_barrier_all();
    }
    std::sort(us.begin(), us.end());
    if (me == 0) std::printf("barrier %-45s %.3f us\n", bnames[v], us[2]);
  }
  // One thread's chains (PE 0 alone): the median of 5 launches of 2000 steps, in ns per step.
  constexpr int steps = 2000;
  const auto median_ns_per_step = [&](auto launch) {
    std::vector<double> ns_per;
    for (int rep = 0; rep < 5; ++rep) {
      launch();
      cudaDeviceSynchronize();
      unsigned long long ns;
      cudaMemcpy(&ns, out, 8, cudaMemcpyDeviceToHost);
      ns_per.push_back(ns / double(steps));
    }
    std::sort(ns_per.begin(), ns_per.end());
    return ns_per[2];
  };
  for (int m = 0; m < nmicro && me == 0; ++m)
    std::printf("micro %-45s %.1f ns\n", micro_names[m],
                median_ns_per_step([&] { micro_kernel<<<1, 1>>>(m, data, rdata, steps, out); }));
  for (int v = 0; v < namo && me == 0; ++v)
    std::printf("amo %-55s %.1f ns\n", amo_names[v],
                median_ns_per_step([&] { amo_chain<<<1, 1>>>(h, v, data + 48, rdata + 48, 1 - me, steps, out); }));
  if (me == 0) {
    // gio-bench's kernel itself, 200 warm-up calls then `steps` timed, on the counter above.
    bench::timing_slot* slot;
    std::uint64_t* last;
    cudaMalloc(&slot, sizeof *slot);
    cudaMalloc(&last, sizeof *last);
    const bench::amo_latency_args x{data + 48, 1 - me, last};
    std::printf("amo %-55s %.1f ns\n", "gio-bench's amo_latency_kernel (fetch_add)", median_ns_per_step([&] {
                  bench::amo_latency_kernel<support::gio_shim, bench::amo_kind::fetch_add><<<1, 1>>>(h, x, bench::loop_args{200, steps, slot});
                  cudaDeviceSynchronize();
                  bench::timing_slot t;
                  cudaMemcpy(&t, slot, sizeof t, cudaMemcpyDeviceToHost);
                  const unsigned long long ns = t.end_ns - t.start_ns;
                  cudaMemcpy(out, &ns, 8, cudaMemcpyHostToDevice);
                }));
    cudaFree(slot);
    cudaFree(last);
  }
  // The same chains at offsets spread over a 16 MiB symmetric buffer (memory partitions, slices).
  constexpr std::size_t spread_bytes = std::size_t{16} << 20;
  auto* spread = static_cast<std::uint64_t*>(gio::shmem_calloc(spread_bytes / 8, 8));
  auto* rspread = static_cast<std::uint64_t*>(gio::shmem_ptr(spread, 1 - me));
  const std::size_t offsets[] = {0, 128, 256, 384, 4096, 65536 + 640, (std::size_t{1} << 20) + 896,
                                 (std::size_t{5} << 20) + 1152, (std::size_t{11} << 20) + 1408,
                                 spread_bytes - 128};
  // put_signal's ping-pong with payload and flag 256 B apart at some of those offsets (both PEs;
  // before the chains below, which leave counts in these words).
  for (std::size_t offset : {std::size_t{0}, std::size_t{128} << 10, std::size_t{1} << 20, std::size_t{5} << 20,
                             std::size_t{11} << 20}) {
    for (int v : {int(st_release), int(gio_thread), int(gio_thread_relaxed_poll)}) {
      const std::vector<double> us = pingpong_us(v, spread + offset / 8, spread + offset / 8 + 32);
      if (me == 0) std::printf("probe-at +0x%07zx %-40s one-way %.3f us\n", offset, names[v], us[us.size() / 2]);
    }
  }
  // One warp's non-fetching adds, 2000 per lane, at 14 MiB (clear of every word above).
  constexpr int red_ops = 2000;
  std::uint64_t* red_counters = spread + (std::size_t{14} << 20) / 8;
  auto* remote_red_counters = static_cast<std::uint64_t*>(gio::shmem_ptr(red_counters, 1 - me));
  for (int v = 0; v < nred && me == 0; ++v)
    for (bool per_lane : {false, true}) {
      const double ns = median_ns_per_step([&] {
        red_rate<<<1, 32>>>(h, v, red_counters, remote_red_counters, per_lane, 1 - me, red_ops, out);
      });  // ns per step of `steps`; rescaled below to the 32 x red_ops adds
      const double mops = 32.0 * red_ops / (ns * steps) * 1e3;
      std::printf("red %-35s %-12s %.1f Mops/s\n", red_names[v], per_lane ? "lane each" : "one counter", mops);
    }
  for (std::size_t offset : offsets) {
    if (me != 0) break;
    const std::size_t word = offset / 8;
    const double bare = median_ns_per_step(
        [&] { amo_chain<<<1, 1>>>(h, amo_bare, spread + word, rspread + word, 1 - me, steps, out); });
    const double through_gio = median_ns_per_step(
        [&] { amo_chain<<<1, 1>>>(h, amo_gio_shared_ctx, spread + word, rspread + word, 1 - me, steps, out); });
    std::printf("amo-at +0x%07zx  bare %.1f ns  gio %.1f ns\n", offset, bare, through_gio);
  }
  // After a silent gap (PE 0; 9 launches, medians): a system-scope fence, the first remote
  // fetch_add and the next one. `busy` adds to 8 MiB of local memory meanwhile; `sweep` to 1 GiB,
  // as a long local phase does (gio::ws's memset writes 128-512 MiB per GPU); in `target` and
  // `both` PE 1 sweeps its own 1 GiB during the gap, launched after the same host barrier.
  {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    constexpr std::size_t busy_words = std::size_t{1} << 20;  // 8 MiB of the buffer, clear of the words above
    constexpr std::size_t sweep_words = std::size_t{1} << 27;  // 1 GiB of its own
    std::uint64_t* sweep = nullptr;
    cudaMalloc(&sweep, sweep_words * 8);
    cudaMemset(sweep, 0, sweep_words * 8);
    unsigned long long* times;
    cudaMalloc(&times, 32);
    struct silence_mode {
      const char* name;
      std::uint64_t* local;  // what PE 0's SMs add to during the gap (null: one thread waits)
      std::size_t words;
      bool peer_sweeps;      // PE 1 adds to its own 1 GiB meanwhile
      bool remote_first;     // a remote fetch_add before the fence (after_silence)
    };
    const silence_mode modes[] = {{"quiet", nullptr, 0, false, false},
                                  {"busy", spread + (std::size_t{2} << 20) / 8, busy_words, false, false},
                                  {"sweep", sweep, sweep_words, false, false},
                                  {"target", nullptr, 0, true, false},
                                  {"both", sweep, sweep_words, true, false},
                                  {"sweep-r", sweep, sweep_words, false, true},
                                  {"both-r", sweep, sweep_words, true, true}};
    for (const silence_mode& mode : modes)
      for (std::uint64_t gap_us : {0, 10, 30, 100, 300, 1000, 3000}) {
        const bool busy = mode.local != nullptr;
        std::vector<double> step[3];  // after_silence's three steps, in its order
        for (int rep = 0; rep < 9; ++rep) {
          gio::shmem_barrier_all();
          if (me == 0)
            after_silence<<<busy ? sms : 1, busy ? 256 : 32>>>(rspread + 8, mode.local, mode.words, gap_us * 1000, busy,
                                                               mode.remote_first, times);
          else if (mode.peer_sweeps)
            sweep_for<<<sms, 256>>>(sweep, sweep_words, gap_us * 1000);
          cudaDeviceSynchronize();
          if (me != 0) continue;
          unsigned long long ns[3];
          cudaMemcpy(ns, times, 24, cudaMemcpyDeviceToHost);
          for (int k = 0; k < 3; ++k) step[k].push_back(ns[k] / 1000.0);
        }
        if (me != 0) continue;
        for (auto& v : step) std::sort(v.begin(), v.end());
        const char* names[2][3] = {{"fence.sys", "first remote fetch_add", "the next"},
                                   {"first remote fetch_add", "then fence.sys", "the next fetch_add"}};
        const auto& name = names[mode.remote_first ? 1 : 0];
        std::printf("silence %-7s gap %5llu us: %s %.2f us (max %.2f), %s %.2f us (max %.2f), %s %.2f us\n", mode.name,
                    static_cast<unsigned long long>(gap_us), name[0], step[0][4], step[0].back(), name[1], step[1][4],
                    step[1].back(), name[2], step[2][4]);
      }
    cudaFree(times);
    cudaFree(sweep);
  }
  gio::shmem_barrier_all();
  gio::shmem_free(spread);
  gio::shmem_barrier_all();
  gio::shmem_finalize();
  MPI_Finalize();
}
