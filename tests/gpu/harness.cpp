// gio-gpu-tests' main and the shared host helpers (harness.hpp). Compiled as GPU code only for
// gpu_runtime.hpp's calls; it includes no device headers.
#include "harness.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>

#include "gpu_runtime.hpp"

namespace gio_test {
namespace {

run_info g_run;
bool g_gpus_shared = false;
std::unique_ptr<sym_buffer> g_staging_sym;
std::unique_ptr<device_buffer> g_staging_local;

std::uint64_t fresh_seed() {
  if (const char* s = std::getenv("GIO_TEST_SEED")) return std::strtoull(s, nullptr, 0);
  std::random_device rd;
  return (std::uint64_t(rd()) << 32) ^ rd();
}

// PE 0 picks the seed; the others read it from PE 0's heap (host getmem into device memory).
std::uint64_t agree_on_seed(int my_pe) {
  sym_buffer slot(sizeof(std::uint64_t));
  if (my_pe == 0) {
    const std::uint64_t seed = fresh_seed();
    gpu::to_device(slot.get(), &seed, sizeof seed);
  }
  gio::shmem_barrier_all();
  device_buffer staging(sizeof(std::uint64_t));
  gio::shmem_getmem(staging.get(), slot.get(), sizeof(std::uint64_t), 0);
  std::uint64_t seed = 0;
  gpu::to_host(&seed, staging.get(), sizeof seed);
  gio::shmem_barrier_all();  // PE 0 frees the slot only after everyone has read it
  return seed;
}

// Every PE of the node sees every PE's GPU ordinal, so all agree.
bool any_gpu_shared(int my_pe, int n_pes) {
  std::vector<int> gpus;
  for (int pe = 0; pe < n_pes; ++pe) {
    const int gpu = pe == my_pe ? gio::shmem_runtime_report().gpu : gio::shmem_peer_report(pe).gpu;
    if (gpu < 0) continue;
    if (std::find(gpus.begin(), gpus.end(), gpu) != gpus.end()) return true;
    gpus.push_back(gpu);
  }
  return false;
}

}  // namespace

const run_info& run() { return g_run; }

bool gpus_shared() { return g_gpus_shared; }
int lockstep(int rounds) { return g_gpus_shared ? std::max(16, rounds / 20) : rounds; }
int lockstep_rounds() { return lockstep(litmus_rounds()); }

int litmus_rounds() {
  const char* s = std::getenv("GIO_LITMUS_ROUNDS");
  const int rounds = s ? std::atoi(s) : 2000;
  return rounds > 0 ? rounds : 2000;
}

unsigned litmus_workgroups(int coresident) {
  const char* s = std::getenv("GIO_LITMUS_WGS");
  const int asked = s ? std::atoi(s) : 0;
  const int cap = asked > 0 ? std::min(264, asked) : 264;
  return static_cast<unsigned>(std::max(1, std::min(cap, coresident / 2)));
}

device_buffer::device_buffer(std::size_t bytes) : ptr_(gpu::alloc(bytes)), bytes_(bytes) {}
device_buffer::~device_buffer() { gpu::dealloc(ptr_); }

sym_buffer::sym_buffer(std::size_t bytes) : ptr_(gio::shmem_malloc(bytes)), bytes_(bytes) {
  if (ptr_ == nullptr) throw std::runtime_error("shmem_malloc(" + std::to_string(bytes) + ") returned nullptr");
  gpu::fill(ptr_, 0, bytes);
  gio::shmem_barrier_all();  // no PE writes into a peer's copy before that peer has zeroed it
}
sym_buffer::~sym_buffer() { gio::shmem_free(ptr_); }

sym_buffer& staging_sym() { return *g_staging_sym; }
device_buffer& staging_local() { return *g_staging_local; }

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = a + 0x9e3779b97f4a7c15ull * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t hash(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

std::vector<unsigned char> pattern(std::size_t bytes, std::uint64_t key) {
  std::vector<unsigned char> out(bytes);
  for (std::size_t i = 0; i < bytes; i += 8) {
    const std::uint64_t word = mix(key, i / 8);
    std::memcpy(out.data() + i, &word, std::min<std::size_t>(8, bytes - i));
  }
  return out;
}

void exchange_and_verify(const std::string& what, void* source, void* dest, std::size_t extent,
                         const std::vector<transfer_case>& cases, const std::function<void()>& transfer,
                         bool then_barrier) {
  const run_info& r = run();
  const std::uint64_t what_key = mix(r.seed, hash(what));
  const std::vector<unsigned char> mine = pattern(extent, mix(what_key, r.my_pe));
  const std::vector<unsigned char> theirs = pattern(extent, mix(what_key, r.peer));
  gpu::to_device(source, mine.data(), extent);
  gpu::fill(dest, poison, extent);
  gio::shmem_barrier_all();
  transfer();
  if (then_barrier) gio::shmem_barrier_all();

  std::vector<unsigned char> expected(extent, poison);
  for (const transfer_case& c : cases) std::memcpy(expected.data() + c.dst, theirs.data() + c.src, c.bytes);
  std::vector<unsigned char> got(extent);
  gpu::to_host(got.data(), dest, extent);
  if (got == expected) return;

  // Name the first few wrong bytes by case, relative to the case's first destination byte
  // (negative or >= bytes: a write outside the requested range).
  std::ostringstream report;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < extent; ++i) {
    if (got[i] == expected[i]) continue;
    if (++wrong > 8) continue;
    const auto nearest = std::min_element(cases.begin(), cases.end(), [&](const transfer_case& a, const transfer_case& b) {
      auto dist = [&](const transfer_case& c) { return i < c.dst ? c.dst - i : i >= c.dst + c.bytes ? i - c.dst - c.bytes + 1 : 0; };
      return dist(a) < dist(b);
    });
    report << "\n  byte " << i << ": case " << (nearest - cases.begin()) << " (" << nearest->bytes
           << " B at dest offset " << nearest->dst << ", src offset " << nearest->src << "), position "
           << static_cast<long long>(i) - static_cast<long long>(nearest->dst) << ": expected 0x" << std::hex
           << int(expected[i]) << " got 0x" << int(got[i]) << std::dec;
  }
  ADD_FAILURE() << what << ": " << wrong << " wrong byte(s) of " << extent << " on PE " << r.my_pe
                << " (data from PE " << r.peer << ", seed 0x" << std::hex << r.seed << std::dec << ")"
                << report.str();
}

std::uint64_t sum_counters(const std::uint32_t* device_counters, std::size_t count) {
  std::vector<std::uint32_t> host(count);
  gpu::to_host(host.data(), device_counters, count * sizeof(std::uint32_t));
  std::uint64_t sum = 0;
  for (std::uint32_t v : host) sum += v;
  return sum;
}

}  // namespace gio_test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  gio::shmem_init();
  int status = 1;
  {
    gio_test::run_info& r = gio_test::g_run;
    r.my_pe = gio::shmem_my_pe();
    r.n_pes = gio::shmem_n_pes();
    r.handle = gio::shmem_device_handle();
    if (r.n_pes < 2 || r.n_pes % 2 != 0) {
      std::fprintf(stderr, "gio-gpu-tests: needs an even number of PEs (got %d): run under mpirun -np 2\n", r.n_pes);
    } else {
      r.peer = r.my_pe ^ 1;
      r.seed = gio_test::agree_on_seed(r.my_pe);
      gio_test::g_gpus_shared = gio_test::any_gpu_shared(r.my_pe, r.n_pes);
      if (r.my_pe == 0)
        std::printf("gio-gpu-tests: %d PEs, seed 0x%llx (GIO_TEST_SEED=0x%llx repeats it), %d litmus rounds, "
                    "%d lockstep rounds (GPUs %s)\n",
                    r.n_pes, static_cast<unsigned long long>(r.seed), static_cast<unsigned long long>(r.seed),
                    gio_test::litmus_rounds(), gio_test::lockstep_rounds(),
                    gio_test::g_gpus_shared ? "time-sliced by several PEs" : "one per PE");
      gio_test::g_staging_sym = std::make_unique<gio_test::sym_buffer>(gio_test::staging_bytes);
      gio_test::g_staging_local = std::make_unique<gio_test::device_buffer>(gio_test::staging_bytes);
      status = RUN_ALL_TESTS();
      gio_test::g_staging_local.reset();
      gio_test::g_staging_sym.reset();
    }
  }
  gio::shmem_finalize();
  return status;
}
