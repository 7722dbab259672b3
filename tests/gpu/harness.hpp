// Host side shared by the GPU tests (gio-gpu-tests, run as 2 PEs under mpirun): the run's
// PE pair and seed, buffers, byte patterns, and the one exchange-and-verify routine that every
// data-moving test goes through. Every PE runs the same tests in the same order, so the
// collective calls in here (barriers, shmem_malloc) always match up across PEs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gio/host.hpp"

namespace gio_test {

// Fixed after main's shmem_init: this PE, its partner (PEs pair up as 0-1, 2-3, ...), and the
// run's seed (fresh each run; GIO_TEST_SEED=<n> repeats one).
struct run_info {
  int my_pe = -1;
  int n_pes = 0;
  int peer = -1;
  std::uint64_t seed = 0;
  gio::device_handle handle{};
};
const run_info& run();

// Rounds of each litmus test: GIO_LITMUS_ROUNDS, default 2000.
int litmus_rounds();
// Workgroups of a litmus kernel that can hold `coresident` of them at once (gio::max_coresident_wgs:
// this PE's share of the GPU under MPS, so that every PE sharing it stays resident): at most 264,
// never more than half of them (two PEs time-slicing one GPU must both be resident), and at most
// GIO_LITMUS_WGS if set. Over the software NIC model every remote operation costs ~20 us, so the
// gda/ikn runs cap the agents (not the rounds): 67k thread-scope agents x 2000 rounds would take
// hours there.
unsigned litmus_workgroups(int coresident);

// Whether two PEs of the run share a GPU (the same answer on every PE: it compares every PE's
// GPU). PEs that share a GPU without MPS time-slice it, so a kernel that waits for another PE's
// kernel on the same GPU progresses one time slice (milliseconds) at a time.
bool gpus_shared();
// Rounds of tests in which every round needs every PE (barrier rounds, collectives in lockstep):
// litmus_rounds(), or a twentieth of it (at least 16) when PEs time-slice a GPU.
int lockstep_rounds();
// How `rounds` shrinks when PEs time-slice a GPU (the same rule as lockstep_rounds()).
int lockstep(int rounds);

// The device handle as of now: kernels launched after a team split take a fresh one.
inline gio::device_handle fresh_handle() { return gio::shmem_device_handle(); }

// Device memory owned by this process (not symmetric).
class device_buffer {
 public:
  explicit device_buffer(std::size_t bytes);
  ~device_buffer();
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  template <class T = unsigned char> T* get() const { return static_cast<T*>(ptr_); }
  std::size_t size() const { return bytes_; }

 private:
  void* ptr_;
  std::size_t bytes_;
};

// Symmetric memory: collective allocation (every PE, same size, same order), zero-filled.
class sym_buffer {
 public:
  explicit sym_buffer(std::size_t bytes);
  ~sym_buffer();
  sym_buffer(const sym_buffer&) = delete;
  sym_buffer& operator=(const sym_buffer&) = delete;
  template <class T = unsigned char> T* get() const { return static_cast<T*>(ptr_); }
  std::size_t size() const { return bytes_; }

 private:
  void* ptr_;
  std::size_t bytes_;
};

// A symmetric and a local buffer of staging_bytes each, shared by the data-movement tests.
inline constexpr std::size_t staging_bytes = std::size_t(8) << 20;
sym_buffer& staging_sym();
device_buffer& staging_local();

// Mixes words into a 64-bit key (splitmix64 steps).
std::uint64_t mix(std::uint64_t a, std::uint64_t b);
std::uint64_t hash(const std::string& text);
// `bytes` pseudo-random bytes determined by `key`.
std::vector<unsigned char> pattern(std::size_t bytes, std::uint64_t key);

// The byte every destination holds before a transfer; bytes no case writes must keep it.
inline constexpr unsigned char poison = 0xA5;

// One transfer of an exchange: `bytes` from offset `src` of the writer's source buffer land at
// offset `dst` of the reader's destination buffer.
struct transfer_case {
  std::size_t src;
  std::size_t dst;
  std::size_t bytes;
};

// Both PEs of a pair run the same exchange: fill `source` (first `extent` bytes) with this PE's
// pattern for `what`, poison `dest`, barrier, `transfer()` (moves the peer's source bytes into
// this PE's dest, in whichever direction the call under test works), barrier, then check every
// byte of `dest`: the peer's pattern where a case wrote, poison everywhere else.
// `then_barrier = false` leaves out the second barrier, for transfers that synchronise the PEs
// themselves (the test then checks that synchronisation).
void exchange_and_verify(const std::string& what, void* source, void* dest, std::size_t extent,
                         const std::vector<transfer_case>& cases, const std::function<void()>& transfer,
                         bool then_barrier = true);

// Sums per-thread counters written by a kernel (violation counts) after copying them back.
std::uint64_t sum_counters(const std::uint32_t* device_counters, std::size_t count);

}  // namespace gio_test
