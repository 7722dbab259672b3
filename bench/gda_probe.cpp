// gio-bench-gda-probe: what initiating one network operation costs the GPU thread, over gda
// (the thread writes the WQE and rings) and over ikn (it writes a command for the CPU proxy),
// the GIO paper's §6.1 comparison. Run as 2 PEs with GIO_TRANSPORT=gda or ikn; PE 0's one
// thread posts `iters` 8-byte inline writes (shmem_p's WQE) to PE 1, one at a time, and times
//   call -> doorbell   reserve + WQE (or command) + publish: the GPU cycles the caller spends;
//   doorbell -> CQE    until the completion is seen by polling the CQ: the rest of the way.
// Medians over the iterations after a warm-up, in GPU clock cycles (clock64) and in ns
// (globaltimer). With GIO_GDA_NIC_MODEL the "NIC" is the test-only software model (a GPU kernel):
// the second column is then the model's latency, not a NIC's.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gio/device.hpp"
#include "gio/host.hpp"
#include "support/gpu_runtime.hpp"

namespace {

struct sample {
  long long post_cycles, complete_cycles;
  unsigned long long post_ns, complete_ns;
};

__global__ void probe(gio::device_handle h, std::uint64_t* word, int peer, int iters, sample* out) {
  const gio::ctx c = gio::ctx_default(h);
  namespace gda = gio::transports::gda;
  const gio::gda_qp& q = gda::qp_to(c, peer);
  const gio::source_location here{__FILE__, __LINE__};
  for (int i = 0; i < iters; ++i) {
    const std::uint64_t value = i;
    const long long c0 = clock64();
    const unsigned long long n0 = gio::platform::timer_ns();
    const std::uint64_t index =
        gda::post(c, q, gda::inline_command(gio::gda_kind_inline, gda::remote(c, peer, word), &value, sizeof value),
                  "probe", here);
    const long long c1 = clock64();
    const unsigned long long n1 = gio::platform::timer_ns();
    gda::ring::release(q, index);
    gda::ring::wait_completed(c, q, index + 1, "probe", here);
    const long long c2 = clock64();
    const unsigned long long n2 = gio::platform::timer_ns();
    out[i] = {c1 - c0, c2 - c1, n1 - n0, n2 - n1};
  }
}

template <class T> T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 2000;
  gio::shmem_init();
  const int me = gio::shmem_my_pe();
  if (gio::shmem_n_pes() != 2) {
    if (me == 0) std::fprintf(stderr, "gio-bench-gda-probe: run as 2 PEs\n");
    gio::shmem_finalize();
    return 2;
  }
  const gio::runtime_report rep = gio::shmem_runtime_report();
  auto* word = static_cast<std::uint64_t*>(gio::shmem_calloc(1, sizeof(std::uint64_t)));
  gio::device_handle h = gio::shmem_device_handle();
  int status = 0;
  if (me == 0) {
    if (gio::shmem_peer_report(1).how != gio::transport::gda) {
      std::fprintf(stderr, "gio-bench-gda-probe: PE 1 is not reached over gda (set GIO_TRANSPORT=gda or ikn)\n");
      status = 2;
    } else {
      support::gpu::device_memory out(sizeof(sample) * iters);
      probe<<<1, 1>>>(h, word, 1, iters, out.as<sample>());
      support::gpu::check_launch("probe");
      support::gpu::synchronize();
      std::vector<sample> s(iters);
      support::gpu::copy_to_host(s.data(), out.as<sample>(), sizeof(sample) * iters);
      s.erase(s.begin(), s.begin() + iters / 4);  // warm-up
      std::vector<long long> pc, cc;
      std::vector<unsigned long long> pn, cn;
      for (const auto& x : s) {
        pc.push_back(x.post_cycles);
        cc.push_back(x.complete_cycles);
        pn.push_back(x.post_ns);
        cn.push_back(x.complete_ns);
      }
      std::printf("network: %s\n", rep.network.c_str());
      std::printf("%-24s %14s %12s\n", "8-byte inline write", "median cycles", "median ns");
      std::printf("%-24s %14lld %12llu\n", "call -> doorbell", median(pc), median(pn));
      std::printf("%-24s %14lld %12llu\n", "doorbell -> CQE seen", median(cc), median(cn));
      std::printf("(%zu samples after a warm-up of %d)\n", s.size(), iters / 4);
    }
  }
  gio::shmem_barrier_all();
  gio::shmem_free(word);
  gio::shmem_finalize();
  return status;
}
