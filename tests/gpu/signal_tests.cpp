// put-with-signal litmus: a reader that observes the signal sees the whole payload.
//
// Agents are groups of Coop (threads, waves or workgroups); agent a of PE p and agent a of its
// peer form a pair, one writing and one reading (roles alternate by workgroup and PE, so both
// GPUs do both). Round r: the writer waits until slot r % ring is free (the reader's ack), fills
// its source with round r's pattern and calls shmem_ctx_putmem_signal[_nbi][_wave|_wg] into the
// slot with the slot's signal: SHMEM_SIGNAL_SET to r + 1, or SHMEM_SIGNAL_ADD of 1 (the slot's
// use count). The reader's leader acquires the signal (shmem_signal_wait_until, a
// shmem_signal_fetch loop or a shmem_test loop), the group checks every byte of the slot (a byte
// of another round is a violation, so is a signal value other than the expected one), and the
// leader acks. Payloads of 1 B to 1 MiB; GIO_LITMUS_ROUNDS rounds (fewer for the big ones), every
// round checked on the device, and the bytes after each slot's payload must stay untouched.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device_forms.hpp"
#include "gio/device.hpp"
#include "gio/launch.hpp"
#include "gpu_runtime.hpp"
#include "harness.hpp"

namespace gio_test {
namespace {

constexpr unsigned sig_threads = 256;
constexpr std::size_t sig_guard = 64;  // bytes after each payload that nothing writes
constexpr std::uint64_t spin_budget_ns = 30'000'000'000ull;

enum class sig_acquire : int { wait_until, fetch_loop, test_loop };
const char* acquire_name(sig_acquire a) {
  return a == sig_acquire::wait_until ? "signal_wait_until" : a == sig_acquire::fetch_loop ? "signal_fetch loop" : "test loop";
}

struct litmus_args {
  unsigned char* payload;     // symmetric: agents x ring slots x stride
  std::uint64_t* sigs;        // symmetric: agents x ring
  unsigned* acks;             // symmetric: agents
  unsigned char* source;      // this PE's memory: agents x ring x stride
  std::uint32_t* violations;  // per thread
  std::size_t bytes, stride;
  unsigned rounds, ring;
  int sig_op;
  sig_acquire acquire;
  int peer;
  std::uint64_t seed;
};

GIO_HOST_DEVICE std::uint32_t payload_word(std::uint64_t seed, int writer, unsigned agent, unsigned round, std::size_t word) {
  std::uint32_t x = static_cast<std::uint32_t>(seed) ^ static_cast<std::uint32_t>(seed >> 32) * 31u;
  x ^= (agent * 0x9E3779B1u) ^ (round * 0x85EBCA77u) ^ (static_cast<std::uint32_t>(word) * 0xC2B2AE3Du) ^
       (static_cast<std::uint32_t>(writer) << 28);
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

template <class Coop, bool Nbi>
GIO_DEVICE void put_signal_call(const gio::ctx& c, void* d, const void* s, std::size_t n, std::uint64_t* sig,
                                std::uint64_t v, int op, int pe) {
  if constexpr (std::is_same_v<Coop, thread>) {
    if constexpr (Nbi) gio::shmem_ctx_putmem_signal_nbi(c, d, s, n, sig, v, op, pe);
    else gio::shmem_ctx_putmem_signal(c, d, s, n, sig, v, op, pe);
  } else if constexpr (std::is_same_v<Coop, wave>) {
    if constexpr (Nbi) gio::shmem_ctx_putmem_signal_nbi_wave(c, d, s, n, sig, v, op, pe);
    else gio::shmem_ctx_putmem_signal_wave(c, d, s, n, sig, v, op, pe);
  } else {
    if constexpr (Nbi) gio::shmem_ctx_putmem_signal_nbi_wg(c, d, s, n, sig, v, op, pe);
    else gio::shmem_ctx_putmem_signal_wg(c, d, s, n, sig, v, op, pe);
  }
}

// The reader leader's acquire of the slot's signal; returns the value seen, or ~0 on a timeout
// of the test's own loops (gio's waits are bounded by GIO_WAIT_TIMEOUT in checked builds).
GIO_DEVICE std::uint64_t acquire_signal(const gio::ctx& c, sig_acquire how, std::uint64_t* sig, std::uint64_t expect) {
  if (how == sig_acquire::wait_until) return gio::shmem_signal_wait_until(c, sig, gio::SHMEM_CMP_GE, expect);
  const std::uint64_t start = gio::platform::timer_ns();
  for (;;) {
    if (how == sig_acquire::fetch_loop) {
      const std::uint64_t v = gio::shmem_signal_fetch(c, sig);
      if (v >= expect) return v;
    } else if (gio::shmem_test(c, sig, gio::SHMEM_CMP_GE, expect)) {
      return gio::shmem_signal_fetch(c, sig);
    }
    if (gio::platform::timer_ns() - start > spin_budget_ns) return ~std::uint64_t(0);
  }
}

template <class Coop, bool Nbi>
__global__ void __launch_bounds__(sig_threads) signal_litmus_kernel(gio::device_handle h, litmus_args a) {
  __shared__ gio::ctx storage;
  __shared__ int gave_up[sig_threads];  // per group: its leader timed out
  const gio::ctx& c = gio::ctx_create_wg(h, storage);
  const unsigned groups = gio::platform::wg_size() / Coop::size();
  const unsigned group = gio::platform::thread_in_wg() / Coop::size();
  const unsigned agent = gio::platform::wg_id() * groups + group;
  const unsigned rank = Coop::rank(), size = Coop::size();
  const bool leader = rank == 0;
  const int me = gio::shmem_my_pe(c);
  const std::size_t full_words = a.bytes / 4;
  std::uint32_t bad = 0;
  if (leader) gave_up[group] = 0;
  Coop::sync();

  if ((gio::platform::wg_id() + me) % 2 == 0) {  // writer
    for (unsigned r = 0; r < a.rounds; ++r) {
      const unsigned slot = r % a.ring;
      if (leader && r >= a.ring) gio::shmem_wait_until(c, a.acks + agent, gio::SHMEM_CMP_GE, r - a.ring + 1);
      if constexpr (Nbi) {
        if (leader && slot == 0 && r > 0) gio::shmem_quiet(c);  // the last ring of _nbi puts is done with its sources
      }
      Coop::sync();
      const std::size_t at = (std::size_t(agent) * a.ring + slot) * a.stride;
      unsigned char* src = a.source + at;
      for (std::size_t w = rank; w < full_words; w += size)
        reinterpret_cast<std::uint32_t*>(src)[w] = payload_word(a.seed, me, agent, r, w);
      for (std::size_t i = full_words * 4 + rank; i < a.bytes; i += size)
        src[i] = static_cast<unsigned char>(payload_word(a.seed, me, agent, r, i / 4) >> (8 * (i % 4)));
      Coop::sync();
      const std::uint64_t value = a.sig_op == gio::SHMEM_SIGNAL_SET ? r + 1 : 1;
      put_signal_call<Coop, Nbi>(c, a.payload + at, src, a.bytes, a.sigs + std::size_t(agent) * a.ring + slot, value,
                                 a.sig_op, a.peer);
    }
    if constexpr (Nbi) {
      if (leader) gio::shmem_quiet(c);
    }
  } else {  // reader
    for (unsigned r = 0; r < a.rounds; ++r) {
      const unsigned slot = r % a.ring;
      const std::uint64_t expect = a.sig_op == gio::SHMEM_SIGNAL_SET ? r + 1 : r / a.ring + 1;
      if (leader) {
        const std::uint64_t seen = acquire_signal(c, a.acquire, a.sigs + std::size_t(agent) * a.ring + slot, expect);
        if (seen == ~std::uint64_t(0)) gave_up[group] = 1;
        if (seen != expect) ++bad;  // the writer cannot be ahead in this slot
      }
      Coop::sync();
      if (gave_up[group]) break;
      const unsigned char* msg = a.payload + (std::size_t(agent) * a.ring + slot) * a.stride;
      for (std::size_t w = rank; w < full_words; w += size)
        if (reinterpret_cast<const std::uint32_t*>(msg)[w] != payload_word(a.seed, a.peer, agent, r, w)) ++bad;
      for (std::size_t i = full_words * 4 + rank; i < a.bytes; i += size)
        if (msg[i] != static_cast<unsigned char>(payload_word(a.seed, a.peer, agent, r, i / 4) >> (8 * (i % 4)))) ++bad;
      Coop::sync();
      if (leader) {
        gio::shmem_quiet(c);  // the group's reads of the slot are done before the writer may reuse it
        gio::shmem_p(c, a.acks + agent, r + 1, a.peer);
      }
    }
    // Nothing may land past a payload.
    for (unsigned slot = 0; slot < a.ring; ++slot) {
      const unsigned char* msg = a.payload + (std::size_t(agent) * a.ring + slot) * a.stride;
      for (std::size_t i = a.bytes + rank; i < a.bytes + sig_guard; i += size)
        if (msg[i] != 0) ++bad;
    }
  }
  a.violations[std::size_t(gio::platform::wg_id()) * gio::platform::wg_size() + gio::platform::thread_in_wg()] = bad;
}

struct litmus_case {
  std::string name;
  void (*run)(const std::string& name, std::size_t bytes, int sig_op, sig_acquire how);
  std::size_t bytes;
  int sig_op;
  sig_acquire acquire;
};
void PrintTo(const litmus_case& k, std::ostream* os) { *os << k.name; }  // gtest names a failing case by it

template <class Coop, bool Nbi> void run_signal_litmus(const std::string& name, std::size_t bytes, int sig_op, sig_acquire how) {
  auto kernel = signal_litmus_kernel<Coop, Nbi>;
  const std::size_t big = std::size_t(64) << 10;
  // One thread moving 64 KiB per round is slow: thread-scope agents get smaller workgroups then.
  const unsigned threads = std::is_same_v<Coop, thread> && bytes > 4096 ? 32 : sig_threads;
  const unsigned agents_per_wg = threads / (std::is_same_v<Coop, thread> ? 1 : std::is_same_v<Coop, wave> ? gio::platform::wave_size : threads);
  const unsigned ring = bytes <= 4096 ? 16 : 4;
  const std::size_t stride = (bytes + sig_guard + 255) / 256 * 256;
  const std::size_t budget = std::size_t(40) << 20;  // payload bytes per PE
  const std::size_t per_wg = std::size_t(agents_per_wg) * ring * stride;
  const unsigned most = litmus_workgroups(gio::max_coresident_wgs(kernel, threads));
  const unsigned wgs = static_cast<unsigned>(std::clamp<std::size_t>(budget / per_wg, 1, most));
  const unsigned agents = wgs * agents_per_wg;
  const int base_rounds = bytes <= 4096 ? litmus_rounds() : bytes <= big + 3 ? litmus_rounds() / 4 : litmus_rounds() / 16;
  // A round trip per ring of rounds needs both PEs running: fewer rounds when they time-slice.
  const unsigned rounds = static_cast<unsigned>(std::max(16, lockstep(base_rounds)));

  sym_buffer payload(std::size_t(agents) * ring * stride);
  sym_buffer sigs(std::size_t(agents) * ring * sizeof(std::uint64_t));
  sym_buffer acks(std::size_t(agents) * sizeof(unsigned));
  device_buffer source(std::size_t(agents) * ring * stride);
  device_buffer violations(std::size_t(wgs) * threads * sizeof(std::uint32_t));
  gpu::fill(violations.get(), 0xFF, violations.size());
  litmus_args a{payload.get(), sigs.get<std::uint64_t>(), acks.get<unsigned>(), source.get(), violations.get<std::uint32_t>(),
                bytes, stride, rounds, ring, sig_op, how, run().peer, run().seed};
  gio::shmem_barrier_all();
  kernel<<<wgs, threads>>>(run().handle, a);
  gpu::finish_launch(name.c_str());
  gio::shmem_barrier_all();
  EXPECT_EQ(sum_counters(violations.get<std::uint32_t>(), std::size_t(wgs) * threads), 0u)
      << name << ": " << bytes << " B payloads, " << (sig_op == gio::SHMEM_SIGNAL_SET ? "SET" : "ADD") << ", reader by "
      << acquire_name(how) << ": stale payload bytes, a wrong signal value, a write past the payload or a timed-out "
      << "wait, over " << rounds << " rounds x " << agents << " agents on PE " << run().my_pe << ", seed 0x" << std::hex
      << run().seed;
}

std::vector<litmus_case> litmus_cases() {
  std::vector<litmus_case> out;
  const std::size_t sizes[] = {1, 8, 100, 4096, (std::size_t(64) << 10) + 3, std::size_t(1) << 20};
  int index = 0;
  auto add = [&](const std::string& form, auto run, bool thread_scope) {
    for (std::size_t bytes : sizes) {
      if (thread_scope && bytes > (std::size_t(64) << 10) + 3) continue;  // one thread and 1 MiB per round: too slow
      for (int op : {gio::SHMEM_SIGNAL_SET, gio::SHMEM_SIGNAL_ADD}) {
        const auto how = static_cast<sig_acquire>(index++ % 3);
        const std::string acq = how == sig_acquire::wait_until ? "wait" : how == sig_acquire::fetch_loop ? "fetch" : "test";
        out.push_back({form + "_" + std::to_string(bytes) + "B_" + (op == gio::SHMEM_SIGNAL_SET ? "set" : "add") + "_" + acq,
                       run, bytes, op, how});
      }
    }
  };
  add("putmem_signal", &run_signal_litmus<thread, false>, true);
  add("putmem_signal_nbi", &run_signal_litmus<thread, true>, true);
  add("putmem_signal_wave", &run_signal_litmus<wave, false>, false);
  add("putmem_signal_nbi_wave", &run_signal_litmus<wave, true>, false);
  add("putmem_signal_wg", &run_signal_litmus<wg, false>, false);
  add("putmem_signal_nbi_wg", &run_signal_litmus<wg, true>, false);
  return out;
}

class SignalLitmus : public ::testing::TestWithParam<litmus_case> {};
TEST_P(SignalLitmus, ObservedSignalMeansWholePayload) {
  const litmus_case& k = GetParam();
  k.run(k.name, k.bytes, k.sig_op, k.acquire);
}
INSTANTIATE_TEST_SUITE_P(MemoryModel, SignalLitmus, ::testing::ValuesIn(litmus_cases()),
                         [](const ::testing::TestParamInfo<litmus_case>& info) { return info.param.name; });

}  // namespace
}  // namespace gio_test
