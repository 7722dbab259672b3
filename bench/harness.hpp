// The benchmark driver shared by gio-bench and gio-bench-nvshmem: allocation, iteration counts,
// repetitions, data checks and CSV rows. `Shim` is the comm shim (shim_gio.hpp or
// shim_nvshmem.hpp); everything here is the same for both, so their numbers compare like for like.
//
// PE 0 initiates and times; PE 1 answers (and holds the AMO targets); further PEs only join the
// host collectives, except for the device barriers and collectives (barrier, coll), which launch
// one workgroup on every PE. Every PE makes the same sequence of host collective calls (barriers,
// broadcasts), so no configuration can hang one side.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "options.hpp"
#include "rows.hpp"
#include "support/failure.hpp"
#include "support/gpu_runtime.hpp"
#include "support/node.hpp"
#include "support/shim_types.hpp"

namespace bench {

namespace gpu = support::gpu;
using support::library_init_report;

using support::exit_skipped;

inline double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// Data each PE sends: varies with the position and the sender, so a missing, shifted or
// foreign byte shows. Receive buffers are poisoned before each configuration.
inline std::uint8_t pattern_byte(int pe, std::size_t i) {
  return static_cast<std::uint8_t>((i * 7u + (i >> 9) * 13u + static_cast<unsigned>(pe) * 101u + 1u) & 0xffu);
}
inline constexpr int poison_byte = 0xEE;

inline void fill_with_pattern(void* device, std::size_t bytes, int pe) {
  std::vector<std::uint8_t> host(bytes);
  for (std::size_t i = 0; i < bytes; ++i) host[i] = pattern_byte(pe, i);
  gpu::copy_to_device(device, host.data(), bytes);
}

inline void check_received(const char* what, const void* device, std::size_t bytes, int sender) {
  std::vector<std::uint8_t> host(bytes);
  gpu::copy_to_host(host.data(), device, bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    if (host[i] != pattern_byte(sender, i)) {
      throw std::runtime_error(std::string("data check failed after ") + what + ": byte " + std::to_string(i) +
                               " of " + std::to_string(bytes) + " is " + std::to_string(host[i]) +
                               ", PE " + std::to_string(sender) + " sent " +
                               std::to_string(pattern_byte(sender, i)));
    }
  }
}

inline std::vector<std::size_t> doubling_sizes(std::size_t from, std::size_t to) {
  std::vector<std::size_t> sizes;
  for (std::size_t s = from; s <= to; s *= 2) sizes.push_back(s);
  return sizes;
}

// A failed check of a benchmark's result: a benchmark that measures wrong code is worthless.
inline void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("result check failed: " + what);
}

// The first byte where `device` differs from `expected`, reported by require().
inline void check_bytes(const char* what, const void* device, const std::vector<std::uint8_t>& expected) {
  std::vector<std::uint8_t> host(expected.size());
  gpu::copy_to_host(host.data(), device, host.size());
  const auto diff = std::mismatch(host.begin(), host.end(), expected.begin());
  if (diff.first == host.end()) return;
  const std::size_t at = std::size_t(diff.first - host.begin());
  require(false, std::string(what) + ": byte " + std::to_string(at) + " of " + std::to_string(host.size()) + " is " +
                     std::to_string(*diff.first) + ", expected " + std::to_string(*diff.second));
}

// `count` values of T, value(i) each, as bytes.
template <class T, class Value> std::vector<std::uint8_t> bytes_of(std::size_t count, Value value) {
  std::vector<std::uint8_t> out(count * sizeof(T));
  for (std::size_t i = 0; i < count; ++i) {
    const T v = value(i);
    std::memcpy(out.data() + i * sizeof(T), &v, sizeof(T));
  }
  return out;
}

inline const char* collective_name(collective kind) {
  switch (kind) {
    case collective::reduce_int64_sum: return "reduce_int64_sum";
    case collective::reduce_double_sum: return "reduce_double_sum";
    case collective::broadcast: return "broadcast";
    case collective::fcollect: return "fcollect";
    case collective::alltoall: return "alltoall";
  }
  return "?";
}

// One collective at one size, as seen by PE `me` of `n`: what it contributes and what its `dest`
// must hold afterwards (closed forms; empty `expected`: not checked, the broadcast root's dest).
struct collective_case {
  std::vector<std::uint8_t> source;
  std::vector<std::uint8_t> expected;
  std::size_t dest_bytes;
};

inline collective_case make_collective_case(collective kind, std::size_t bytes, int me, int n, int root) {
  const std::int64_t pes = n;
  const std::int64_t pe_sum = pes * (pes - 1) / 2;  // 0 + 1 + ... + (n - 1)
  constexpr std::int64_t pe_weight = 1000003;
  auto pattern = [](int pe, std::size_t from, std::size_t count) {
    return bytes_of<std::uint8_t>(count, [&](std::size_t i) { return pattern_byte(pe, from + i); });
  };
  collective_case c;
  c.dest_bytes = bytes;
  switch (kind) {
    case collective::reduce_int64_sum: {  // PE p gives p * w + i: the sum is n * i + w * (0 + ... + n-1)
      const std::size_t count = bytes / sizeof(std::int64_t);
      c.source = bytes_of<std::int64_t>(count, [&](std::size_t i) { return me * pe_weight + std::int64_t(i); });
      c.expected = bytes_of<std::int64_t>(count, [&](std::size_t i) { return pes * std::int64_t(i) + pe_weight * pe_sum; });
      break;
    }
    case collective::reduce_double_sum: {  // PE p gives p + i/4; every partial sum is exact
      const std::size_t count = bytes / sizeof(double);
      c.source = bytes_of<double>(count, [&](std::size_t i) { return double(me) + 0.25 * double(i); });
      c.expected = bytes_of<double>(count, [&](std::size_t i) { return double(pes) * 0.25 * double(i) + double(pe_sum); });
      break;
    }
    case collective::broadcast:
      c.source = pattern(me, 0, bytes);
      if (me != root) c.expected = pattern(root, 0, bytes);
      break;
    case collective::fcollect:  // block p of dest = PE p's source
      c.source = pattern(me, 0, bytes);
      c.dest_bytes = std::size_t(n) * bytes;
      for (int p = 0; p < n; ++p) {
        const std::vector<std::uint8_t> block = pattern(p, 0, bytes);
        c.expected.insert(c.expected.end(), block.begin(), block.end());
      }
      break;
    case collective::alltoall:  // block p of dest = block `me` of PE p's source
      c.source = pattern(me, 0, std::size_t(n) * bytes);
      c.dest_bytes = std::size_t(n) * bytes;
      for (int p = 0; p < n; ++p) {
        const std::vector<std::uint8_t> block = pattern(p, std::size_t(me) * bytes, bytes);
        c.expected.insert(c.expected.end(), block.begin(), block.end());
      }
      break;
  }
  return c;
}

inline const char* amo_name(amo_kind kind) {
  switch (kind) {
    case amo_kind::fetch_add: return "amo_fetch_add";
    case amo_kind::compare_swap: return "amo_compare_swap";
    case amo_kind::fetch: return "amo_fetch";
  }
  return "?";
}

inline double per_iteration_ns(const timing_slot& t, unsigned iterations) {
  return double(t.end_ns - t.start_ns) / iterations;
}

inline double since_ns(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

template <class Shim>
class harness {
 public:
  harness(const options& opt, csv_writer& out, const char* system)
      : opt_(opt), out_(out), system_(system), me_(Shim::my_pe()), n_pes_(Shim::n_pes()) {
    if (n_pes_ < 2) throw std::runtime_error("needs at least 2 PEs (mpirun -np 2)");
    peer_ = me_ == 0 ? 1 : 0;
    // PE 0's multiprocessor count names the launch shapes, so every PE agrees on them.
    sm_count_ = gpu::multiprocessor_count();
    MPI_Bcast(&sm_count_, 1, MPI_INT, 0, MPI_COMM_WORLD);
    handle_ = Shim::device_handle();
    allocate();
  }

  // Not a destructor: freeing is collective, and unwinding after an error on one PE must not
  // wait for the others (main aborts the job instead).
  void run() {
    if (opt_.wants("p")) run_pingpong("pingpong_p", {scope::thread, message::p, 1, 1, sizeof(std::uint64_t)});
    if (opt_.wants("put")) {
      for (scope s : opt_.scopes)
        for (std::size_t bytes : doubling_sizes(opt_.min_size, opt_.max_size))
          run_pingpong("pingpong_put", {s, message::put, 1, group_threads(s), bytes});
    }
    if (opt_.wants("multi")) {
      for (std::size_t bytes : opt_.multi_sizes)
        for (unsigned wgs : opt_.multi_workgroups)
          run_pingpong("pingpong_multi_wg", {scope::wave, message::put, wgs, platform::wave_size, bytes});
    }
    if (opt_.wants("bw")) {
      for (const launch_shape& shape : opt_.bw_shapes) {
        run_bandwidth(shape, false);
        run_bandwidth(shape, true);
      }
    }
    if (opt_.wants("signal")) {
      for (scope s : opt_.scopes)
        for (std::size_t bytes : doubling_sizes(opt_.min_size, opt_.signal_max_size))
          run_pingpong("pingpong_put_signal", {s, message::put_signal, 1, group_threads(s), bytes});
    }
    if (opt_.wants("amo")) {
      for (amo_kind kind : {amo_kind::fetch_add, amo_kind::compare_swap, amo_kind::fetch}) run_amo_latency(kind);
    }
    if (opt_.wants("amo_rate")) {
      for (const launch_shape& shape : opt_.amo_shapes)
        for (bool per_thread : {false, true})
          for (bool fetching : {true, false}) run_amo_rate(shape, per_thread, fetching);
    }
    if (opt_.wants("barrier")) {
      for (sync_kind kind : {sync_kind::barrier_all, sync_kind::sync_all})
        for (scope s : opt_.scopes) run_sync(kind, s);
    }
    if (opt_.wants("coll")) {
      for (collective kind : all_collectives)
        for (std::size_t bytes : doubling_sizes(std::max<std::size_t>(opt_.min_size, 8), opt_.coll_max_size))
          run_collective(kind, bytes);
      fill_with_pattern(send_, std::size_t(n_pes_) * opt_.coll_max_size, me_);  // the collectives' sources replaced it
    }
    if (opt_.wants("interk")) {
      run_inter_k(false);
      run_inter_k(true);
    }
    release();
  }

 private:
  struct pingpong_config {
    scope group;
    message kind;
    unsigned workgroups;
    unsigned threads;
    std::size_t bytes;  // per workgroup
  };

  unsigned group_threads(scope s) const {
    switch (s) {
      case scope::thread: return 1;
      case scope::wave: return platform::wave_size;
      case scope::wg: return opt_.wg_threads;
    }
    return 1;
  }
  unsigned shape_workgroups(const launch_shape& shape) const {
    return shape.workgroups ? shape.workgroups : shape.per_sm * static_cast<unsigned>(sm_count_);
  }
  bool takes_part() const { return me_ < 2; }
  // Offset of the collectives' second result buffer in recv_ (the largest result: n x max size).
  std::size_t coll_dest_stride() const { return (std::size_t(n_pes_) * opt_.coll_max_size + 255) / 256 * 256; }

  void allocate() {
    std::size_t bytes = 0;
    unsigned flag_workgroups = 1;
    if (opt_.wants("put")) bytes = std::max(bytes, opt_.max_size);
    if (opt_.wants("multi")) {
      flag_workgroups = *std::max_element(opt_.multi_workgroups.begin(), opt_.multi_workgroups.end());
      bytes = std::max(bytes, flag_workgroups * *std::max_element(opt_.multi_sizes.begin(), opt_.multi_sizes.end()));
    }
    if (opt_.wants("bw")) bytes = std::max(bytes, opt_.bw_bytes);
    if (opt_.wants("signal")) bytes = std::max(bytes, opt_.signal_max_size);
    if (opt_.wants("coll")) bytes = std::max(bytes, 2 * coll_dest_stride());  // two fcollect/alltoall results
    buffer_bytes_ = std::max<std::size_t>((bytes + 255) / 256 * 256, 256);

    max_workgroups_ = flag_workgroups;
    for (const launch_shape& shape : opt_.bw_shapes) max_workgroups_ = std::max(max_workgroups_, shape_workgroups(shape));
    // AMO counters: two words (amo), or one 128-byte line per thread of the largest amo_rate grid.
    std::size_t counter_words = 2;
    if (opt_.wants("amo_rate")) {
      for (const launch_shape& shape : opt_.amo_shapes) {
        max_workgroups_ = std::max(max_workgroups_, shape_workgroups(shape));
        counter_words = std::max(counter_words, std::size_t(shape_workgroups(shape)) * shape.threads * flag_stride);
      }
    }

    send_ = static_cast<char*>(symmetric_malloc(buffer_bytes_));
    recv_ = static_cast<char*>(symmetric_malloc(buffer_bytes_));
    const std::size_t flag_words = std::size_t(flag_workgroups) * flag_stride;
    flags_ = static_cast<std::uint64_t*>(symmetric_malloc(2 * flag_words * sizeof(std::uint64_t)));
    ping_flags_ = flags_;
    pong_flags_ = flags_ + flag_words;
    timings_ = static_cast<timing_slot*>(gpu::malloc_device(max_workgroups_ * sizeof(timing_slot)));
    counters_ = static_cast<std::uint64_t*>(symmetric_malloc(counter_words * sizeof(std::uint64_t)));
    amo_last_ = static_cast<std::uint64_t*>(gpu::malloc_device(sizeof(std::uint64_t)));

    fill_with_pattern(send_, buffer_bytes_, me_);
    gpu::fill(flags_, 0, 2 * flag_words * sizeof(std::uint64_t));  // below every sequence number
    gpu::fill(recv_, poison_byte, buffer_bytes_);
    gpu::synchronize();
    Shim::barrier_all();
  }

  void release() {
    gpu::free_device(amo_last_);
    Shim::free(counters_);
    gpu::free_device(timings_);
    Shim::free(flags_);
    Shim::free(recv_);
    Shim::free(send_);
  }

  void* symmetric_malloc(std::size_t bytes) {
    void* ptr = Shim::malloc(bytes);
    if (ptr == nullptr)
      throw std::runtime_error("symmetric allocation of " + std::to_string(bytes) + " bytes failed (raise --heap)");
    return ptr;
  }

  std::vector<timing_slot> read_timings(unsigned workgroups) const {
    std::vector<timing_slot> slots(workgroups);
    gpu::copy_to_host(slots.data(), timings_, workgroups * sizeof(timing_slot));
    return slots;
  }

  // Runs `run(warmup, timed)`, which returns PE 0's mean time per iteration in ns, with an
  // iteration count that makes one repetition last about --target-ms; returns the median time per
  // iteration in us (meaningful on PE 0). Every PE calls it, and `run` on every PE.
  template <class Run> double median_iteration_us(Run run) {
    constexpr unsigned probe_iterations = 4;
    const double probe_ns = run(2u, probe_iterations);
    unsigned timed = opt_.max_iterations;
    if (me_ == 0 && probe_ns > 0) {
      const double fitting = opt_.target_ms * 1e6 / probe_ns;
      timed = static_cast<unsigned>(std::clamp(fitting, 1.0, static_cast<double>(opt_.max_iterations)));
    }
    MPI_Bcast(&timed, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    // Warm-up absorbs the skew between the two PEs' launches and warms caches and TLBs.
    const unsigned warmup = std::clamp(timed / 4, 2u, 200u);
    std::vector<double> us;
    for (unsigned r = 0; r < opt_.repetitions; ++r) us.push_back(run(warmup, timed) / 1e3);
    return median(us);
  }
  // The same for a `round_trip` in ns; returns the median one-way latency (half a round trip).
  template <class RoundTrip> double measure_latency_us(RoundTrip round_trip) {
    return median_iteration_us(round_trip) / 2.0;
  }

  template <scope S, message M>
  void launch_pingpong(const pingpong_config& cfg, const pingpong_args& a) {
    pingpong_kernel<Shim, S, M><<<cfg.workgroups, cfg.threads>>>(handle_, a);
  }
  template <message M> void launch_pingpong_at_scope(const pingpong_config& cfg, const pingpong_args& a) {
    switch (cfg.group) {
      case scope::thread: launch_pingpong<scope::thread, M>(cfg, a); break;
      case scope::wave: launch_pingpong<scope::wave, M>(cfg, a); break;
      case scope::wg: launch_pingpong<scope::wg, M>(cfg, a); break;
    }
  }

  // One launch on PE 0 and PE 1; returns PE 0's mean round-trip ns over its workgroups.
  double pingpong_round_trip_ns(const pingpong_config& cfg, unsigned warmup, unsigned timed) {
    Shim::barrier_all();
    const std::uint64_t first_sequence = next_sequence_;
    next_sequence_ += warmup + timed;
    if (!takes_part()) return 0.0;
    const pingpong_args a{send_,    recv_, ping_flags_,    pong_flags_, cfg.bytes, peer_,
                          me_ == 0, first_sequence, warmup, timed,     timings_};
    if (cfg.kind == message::p) {
      if (cfg.group != scope::thread) throw std::logic_error("shmem_p ping-pong runs at thread scope");
      launch_pingpong<scope::thread, message::p>(cfg, a);
    } else if (cfg.kind == message::put) {
      launch_pingpong_at_scope<message::put>(cfg, a);
    } else {
      launch_pingpong_at_scope<message::put_signal>(cfg, a);
    }
    gpu::check_launch("pingpong_kernel");
    gpu::synchronize();
    if (me_ != 0) return 0.0;
    double sum_ns = 0.0;
    for (const timing_slot& t : read_timings(cfg.workgroups)) sum_ns += double(t.end_ns - t.start_ns) / timed;
    return sum_ns / cfg.workgroups;
  }

  void run_pingpong(const char* benchmark, const pingpong_config& cfg) {
    const bool moves_data = cfg.kind != message::p;
    const std::size_t received = std::size_t(cfg.workgroups) * cfg.bytes;
    if (moves_data) {
      gpu::fill(recv_, poison_byte, received);
      gpu::synchronize();
    }
    const double us = measure_latency_us(
        [&](unsigned warmup, unsigned timed) { return pingpong_round_trip_ns(cfg, warmup, timed); });
    if (moves_data) {
      Shim::barrier_all();
      if (takes_part()) check_received(benchmark, recv_, received, peer_);
    }
    out_.row(system_, benchmark, scope_name(cfg.group), cfg.bytes, cfg.workgroups, cfg.threads, us, "us");
  }

  // From the first workgroup's start to the last one's end, after a multi-workgroup launch.
  double span_ns(unsigned workgroups) const {
    std::uint64_t first_start = UINT64_MAX, last_end = 0;
    for (const timing_slot& t : read_timings(workgroups)) {
      first_start = std::min(first_start, t.start_ns);
      last_end = std::max(last_end, t.end_ns);
    }
    return double(last_end - first_start);
  }

  // One launch; returns GB/s on PE 0 (bytes moved over the slower sender's time).
  double bandwidth_gbps(const bandwidth_args& a, unsigned workgroups, unsigned threads, bool both_directions) {
    Shim::barrier_all();
    const bool sends = both_directions ? takes_part() : me_ == 0;
    double elapsed_ns = 0.0;
    if (sends) {
      put_bandwidth_kernel<Shim><<<workgroups, threads>>>(handle_, a);
      gpu::check_launch("put_bandwidth_kernel");
      gpu::synchronize();
      elapsed_ns = span_ns(workgroups);
    }
    double slowest_ns = 0.0;
    MPI_Reduce(&elapsed_ns, &slowest_ns, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me_ != 0 || slowest_ns <= 0) return 0.0;
    const double directions = both_directions ? 2.0 : 1.0;
    return directions * double(a.bytes) * a.iterations / slowest_ns;  // bytes per ns = GB/s
  }

  void run_bandwidth(const launch_shape& shape, bool both_directions) {
    const unsigned workgroups = shape_workgroups(shape);
    const std::size_t slice = ((opt_.bw_bytes + workgroups - 1) / workgroups + 255) / 256 * 256;
    bandwidth_args a{send_, recv_, opt_.bw_bytes, slice, peer_, 2, timings_};
    gpu::fill(recv_, poison_byte, opt_.bw_bytes);
    gpu::synchronize();
    bandwidth_gbps(a, workgroups, shape.threads, both_directions);  // warm-up
    a.iterations = opt_.bw_iterations;
    std::vector<double> gbps;
    for (unsigned r = 0; r < opt_.repetitions; ++r) gbps.push_back(bandwidth_gbps(a, workgroups, shape.threads, both_directions));
    const char* benchmark = both_directions ? "put_bw_bi" : "put_bw_uni";
    Shim::barrier_all();
    if (both_directions ? takes_part() : me_ == 1) check_received(benchmark, recv_, opt_.bw_bytes, peer_);
    out_.row(system_, benchmark, "wg", opt_.bw_bytes, workgroups, shape.threads, median(gbps), "GB/s");
  }

  // ---- AMOs: PE 0 operates on PE 1's counters; PE 1 checks them ----

  // One launch of a chain of warmup + timed dependent AMOs; returns PE 0's ns per call.
  double amo_latency_ns(amo_kind kind, unsigned warmup, unsigned timed) {
    constexpr std::uint64_t fetched_value = 0x5A5A5A5A5A5A5A5Aull;  // what amo_fetch reads
    const std::uint64_t calls = std::uint64_t(warmup) + timed;
    const std::uint64_t initial = kind == amo_kind::fetch ? fetched_value : 0;
    const std::uint64_t final_value = kind == amo_kind::fetch ? fetched_value : calls;  // each call adds 1
    if (me_ == 1) {
      gpu::copy_to_device(counters_, &initial, sizeof initial);
      gpu::synchronize();
    }
    Shim::barrier_all();
    double ns = 0.0;
    if (me_ == 0) {
      const amo_latency_args x{counters_, peer_, amo_last_};
      const loop_args loop{warmup, timed, timings_};
      switch (kind) {
        case amo_kind::fetch_add: amo_latency_kernel<Shim, amo_kind::fetch_add><<<1, 1>>>(handle_, x, loop); break;
        case amo_kind::compare_swap: amo_latency_kernel<Shim, amo_kind::compare_swap><<<1, 1>>>(handle_, x, loop); break;
        case amo_kind::fetch: amo_latency_kernel<Shim, amo_kind::fetch><<<1, 1>>>(handle_, x, loop); break;
      }
      gpu::check_launch("amo_latency_kernel");
      gpu::synchronize();
      std::uint64_t last = 0;
      gpu::copy_to_host(&last, amo_last_, sizeof last);
      require(last == final_value, std::string(amo_name(kind)) + ": the chain ended at " + std::to_string(last) +
                                       ", expected " + std::to_string(final_value));
      ns = per_iteration_ns(read_timings(1)[0], timed);
    }
    Shim::barrier_all();
    if (me_ == 1) {
      std::uint64_t counter = 0;
      gpu::copy_to_host(&counter, counters_, sizeof counter);
      require(counter == final_value, std::string(amo_name(kind)) + ": PE 1's counter is " + std::to_string(counter) +
                                          ", expected " + std::to_string(final_value));
    }
    return ns;
  }

  void run_amo_latency(amo_kind kind) {
    const double us = median_iteration_us([&](unsigned warmup, unsigned timed) { return amo_latency_ns(kind, warmup, timed); });
    out_.row(system_, amo_name(kind), "thread", sizeof(std::uint64_t), 1, 1, us, "us");
  }

  // One launch of the whole grid on PE 0; returns its span in ns (on PE 0).
  double amo_rate_launch_ns(const amo_rate_args& a, bool fetching, unsigned workgroups, unsigned threads) {
    Shim::barrier_all();
    if (me_ != 0) return 0.0;
    if (fetching) amo_rate_kernel<Shim, true><<<workgroups, threads>>>(handle_, a);
    else amo_rate_kernel<Shim, false><<<workgroups, threads>>>(handle_, a);
    gpu::check_launch("amo_rate_kernel");
    gpu::synchronize();
    return span_ns(workgroups);
  }

  void run_amo_rate(const launch_shape& shape, bool per_thread, bool fetching) {
    const unsigned workgroups = shape_workgroups(shape);
    const std::size_t threads = std::size_t(workgroups) * shape.threads;
    const std::size_t counter_bytes = (per_thread ? threads * flag_stride : 1) * sizeof(std::uint64_t);
    if (me_ == 1) {
      gpu::fill(counters_, 0, counter_bytes);
      gpu::synchronize();
    }
    const amo_rate_args a{counters_, per_thread, opt_.amo_ops, peer_, timings_};
    amo_rate_launch_ns(a, fetching, workgroups, shape.threads);  // warm-up
    std::vector<double> mops;
    for (unsigned r = 0; r < opt_.repetitions; ++r) {
      const double ns = amo_rate_launch_ns(a, fetching, workgroups, shape.threads);
      if (me_ == 0) mops.push_back(double(threads) * opt_.amo_ops / ns * 1e3);  // ops per ns = Gops/s
    }
    std::string benchmark = fetching ? "amo_rate_fetch_add" : "amo_rate_add";
    if (per_thread) benchmark += "_spread";
    Shim::barrier_all();
    if (me_ == 1) {  // every launch added amo_ops per thread
      const std::uint64_t per_counter = std::uint64_t(opt_.repetitions + 1) * opt_.amo_ops * (per_thread ? 1 : threads);
      std::vector<std::uint64_t> counters(counter_bytes / sizeof(std::uint64_t));
      gpu::copy_to_host(counters.data(), counters_, counter_bytes);
      for (std::size_t t = 0; t < (per_thread ? threads : 1); ++t) {
        const std::uint64_t got = counters[per_thread ? t * flag_stride : 0];
        require(got == per_counter, benchmark + ": counter " + std::to_string(t) + " on PE 1 is " + std::to_string(got) +
                                        ", expected " + std::to_string(per_counter));
      }
    }
    out_.row(system_, benchmark.c_str(), "thread", sizeof(std::uint64_t), workgroups, shape.threads,
             median(mops), "Mops/s");
  }

  // ---- Barriers and collectives: one workgroup on every PE ----

  // One launch of warmup + timed barriers on every PE; returns PE 0's ns per barrier.
  double sync_ns(sync_kind kind, scope s, unsigned warmup, unsigned timed) {
    Shim::barrier_all();
    const loop_args a{warmup, timed, timings_};
    switch (s) {
      case scope::thread: Shim::launch_collective(&sync_kernel<Shim, scope::thread>, 1, group_threads(s), handle_, kind, a); break;
      case scope::wave: Shim::launch_collective(&sync_kernel<Shim, scope::wave>, 1, group_threads(s), handle_, kind, a); break;
      case scope::wg: Shim::launch_collective(&sync_kernel<Shim, scope::wg>, 1, group_threads(s), handle_, kind, a); break;
    }
    gpu::check_launch("sync_kernel");
    gpu::synchronize();
    return me_ == 0 ? per_iteration_ns(read_timings(1)[0], timed) : 0.0;
  }

  void run_sync(sync_kind kind, scope s) {
    const double us = median_iteration_us([&](unsigned warmup, unsigned timed) { return sync_ns(kind, s, warmup, timed); });
    out_.row(system_, kind == sync_kind::barrier_all ? "barrier_all" : "sync_all", scope_name(s), 0, 1,
             group_threads(s), us, "us");
  }

  // Times the collective on every PE, then checks this PE's result against the closed form.
  void run_collective(collective kind, std::size_t bytes) {
    constexpr int root = 0;
    const collective_case expected = make_collective_case(kind, bytes, me_, n_pes_, root);
    const std::size_t stride = coll_dest_stride();
    gpu::copy_to_device(send_, expected.source.data(), expected.source.size());
    gpu::fill(recv_, poison_byte, expected.dest_bytes);
    gpu::fill(recv_ + stride, poison_byte, expected.dest_bytes);
    gpu::synchronize();
    const collective_args x{kind, recv_, stride, send_, bytes, root};
    const double us = median_iteration_us([&](unsigned warmup, unsigned timed) {
      Shim::barrier_all();
      Shim::launch_collective(&collective_kernel<Shim>, 1, opt_.wg_threads, handle_, x, loop_args{warmup, timed, timings_});
      gpu::check_launch("collective_kernel");
      gpu::synchronize();
      return me_ == 0 ? per_iteration_ns(read_timings(1)[0], timed) : 0.0;
    });
    check_bytes(collective_name(kind), recv_, expected.expected);  // every launch makes >= 2 calls
    check_bytes(collective_name(kind), recv_ + stride, expected.expected);
    out_.row(system_, collective_name(kind), "wg", bytes, 1, opt_.wg_threads, us, "us");
  }

  // Inter-K (GIO paper §6.1): the data sits in GPU memory and the host moves it between kernels:
  // D2H into pinned memory, MPI_Send/Recv, H2D. With `empty_kernel`, each side also launches and
  // waits for an empty kernel per step: the kernel boundary a GPU-initiated put avoids.
  struct inter_k_buffers {
    void* device_send;
    void* device_recv;
    void* host_send;
    void* host_recv;
  };

  void inter_k_round_trip(const inter_k_buffers& b, std::size_t bytes, bool empty_kernel_per_step) {
    const int count = static_cast<int>(bytes);
    auto send = [&] {
      if (empty_kernel_per_step) {
        empty_kernel<<<1, 1>>>();
        gpu::check_launch("empty_kernel");
        gpu::synchronize();
      }
      gpu::copy_to_host(b.host_send, b.device_send, bytes);
      MPI_Send(b.host_send, count, MPI_BYTE, peer_, 0, MPI_COMM_WORLD);
    };
    auto receive = [&] {
      MPI_Recv(b.host_recv, count, MPI_BYTE, peer_, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      gpu::copy_to_device(b.device_recv, b.host_recv, bytes);
    };
    if (me_ == 0) {
      send();
      receive();
    } else {
      receive();
      send();
    }
  }

  double inter_k_round_trip_ns(const inter_k_buffers& b, std::size_t bytes, bool empty_kernel_per_step,
                               unsigned warmup, unsigned timed) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (!takes_part()) return 0.0;
    for (unsigned i = 0; i < warmup; ++i) inter_k_round_trip(b, bytes, empty_kernel_per_step);
    const auto start = std::chrono::steady_clock::now();
    for (unsigned i = 0; i < timed; ++i) inter_k_round_trip(b, bytes, empty_kernel_per_step);
    return since_ns(start) / timed;
  }

  void run_inter_k(bool empty_kernel_per_step) {
    const char* system = empty_kernel_per_step ? "inter-k-empty" : "inter-k";
    const std::size_t capacity = opt_.max_size;
    const inter_k_buffers b{gpu::malloc_device(capacity), gpu::malloc_device(capacity), gpu::malloc_pinned(capacity),
                            gpu::malloc_pinned(capacity)};
    fill_with_pattern(b.device_send, capacity, me_);
    for (std::size_t bytes : doubling_sizes(opt_.min_size, opt_.max_size)) {
      gpu::fill(b.device_recv, poison_byte, bytes);
      gpu::synchronize();
      const double us = measure_latency_us([&](unsigned warmup, unsigned timed) {
        return inter_k_round_trip_ns(b, bytes, empty_kernel_per_step, warmup, timed);
      });
      if (takes_part()) check_received(system, b.device_recv, bytes, peer_);
      out_.row(system, "pingpong_put", "host", bytes, 0, 0, us, "us");
    }
    gpu::free_pinned(b.host_recv);
    gpu::free_pinned(b.host_send);
    gpu::free_device(b.device_recv);
    gpu::free_device(b.device_send);
  }

  const options& opt_;
  csv_writer& out_;
  const char* system_;  // the CSV's system column
  int me_;
  int n_pes_;
  int peer_ = 1;
  int sm_count_ = 0;
  typename Shim::handle handle_{};
  char* send_ = nullptr;
  char* recv_ = nullptr;
  std::uint64_t* flags_ = nullptr;
  std::uint64_t* ping_flags_ = nullptr;
  std::uint64_t* pong_flags_ = nullptr;
  timing_slot* timings_ = nullptr;
  std::uint64_t* counters_ = nullptr;  // symmetric: AMO targets
  std::uint64_t* amo_last_ = nullptr;  // device: the AMO chain's last value
  std::size_t buffer_bytes_ = 0;
  unsigned max_workgroups_ = 1;
  std::uint64_t next_sequence_ = 1;  // flags start at 0, below every sequence number
};

// Maximum over PEs, written by PE 0.
inline void report_max(csv_writer& out, const char* system, const char* benchmark, std::size_t heap_bytes, double value,
                       const char* unit) {
  double max_value = 0.0;
  MPI_Reduce(&value, &max_value, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  out.row(system, benchmark, "host", heap_bytes, 0, 0, max_value, unit);
}

// The symmetric heap size in force: the library's variable if the user set it, else --heap.
inline std::size_t configure_heap_size(const char* variable, std::size_t default_bytes) {
  setenv(variable, std::to_string(default_bytes).c_str(), 0);
  try {
    return parse_size(std::getenv(variable));
  } catch (const usage_error&) {
    return 0;  // a form this parser does not read; the library will say if it is wrong
  }
}

template <class Shim>
int run_benchmarks(const options& opt, int world_rank) {
  csv_writer out(opt.csv_path, world_rank == 0);

  // One GPU per PE where there are enough, by node-local rank; the library may choose itself.
  const support::node_place place = support::place_on_node(MPI_COMM_WORLD);
  const int local_rank = place.rank, local_size = place.size;
  const int devices = gpu::device_count();
  if (devices == 0) throw std::runtime_error("no GPU visible");
  if (Shim::traits.needs_gpu_per_pe && support::gpus_shared_without_mps(MPI_COMM_WORLD, devices)) {
    if (world_rank == 0)
      std::fprintf(stderr,
                   "%s benchmarks skipped: %d PEs on a node with %d visible GPU(s) and no MPS. %s needs one GPU\n"
                   "per PE or MPS (docs/running.md); run one PE per GPU, start MPS, or use gio-bench.\n",
                   Shim::traits.system, local_size, devices, Shim::traits.system);
    return exit_skipped;
  }
  const int device = local_rank % devices;
  gpu::set_device(device);
  gpu::create_context();  // so that the memory measured below is the library's, not the context's
  const std::size_t heap_bytes = configure_heap_size(Shim::traits.heap_size_variable, opt.heap_bytes);

  MPI_Barrier(MPI_COMM_WORLD);
  const std::size_t free_before = gpu::free_memory();
  const auto start = std::chrono::steady_clock::now();
  const library_init_report library = Shim::init(MPI_COMM_WORLD);
  const double init_ms = since_ns(start) / 1e6;
  if (library.gpu >= 0 && library.gpu != device) {
    std::fprintf(stderr, "%s: PE %d: library chose GPU %d, not %d; gpu_memory is not meaningful\n", Shim::traits.system,
                 world_rank, library.gpu, device);
    gpu::set_device(library.gpu);
  }
  if (Shim::my_pe() != world_rank) throw std::runtime_error("PE numbers differ from MPI ranks");
  MPI_Barrier(MPI_COMM_WORLD);
  const std::size_t free_after = gpu::free_memory();
  const double used_mib = free_before > free_after ? double(free_before - free_after) / (1 << 20) : 0.0;
  const char* system = library.system ? library.system : Shim::traits.system;

  if (opt.wants("init")) {
    report_max(out, system, "init_time", heap_bytes, init_ms, "ms");
    report_max(out, system, "gpu_memory", heap_bytes, used_mib, "MiB");
    if (library.reported_seconds >= 0)
      report_max(out, system, "init_time_reported", heap_bytes, library.reported_seconds * 1e3, "ms");
    if (library.reported_bytes > 0)
      report_max(out, system, "gpu_memory_reported", heap_bytes, double(library.reported_bytes) / (1 << 20), "MiB");
  }

  harness<Shim>(opt, out, system).run();
  Shim::finalize();
  return 0;
}

// main() of both binaries. MPI comes first: the NVSHMEM bootstrap and the Inter-K baselines use
// it, and gio bootstraps over an already initialised MPI.
// main() of a benchmark binary over one library: MPI around it (support/failure.hpp), bad usage
// ends every PE with the cause, any other failure every process with the failing PE's line.
template <class Shim>
int main_for(int argc, char** argv) {
  return support::run_mpi_main(argc, argv, MPI_THREAD_MULTIPLE, [&](MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    options opt;
    std::string problem;
    try {  // every PE parses the same arguments, so all agree on the outcome
      opt = parse_options(argc, argv, Shim::traits.system, Shim::traits.runs_host_baselines);
    } catch (const usage_error& e) {
      problem = std::string(e.what()) + " (see --help)";
    }
    support::agree(comm, problem, support::exit_usage);
    if (opt.help) {
      if (rank == 0) print_help(argv[0], Shim::traits.system, Shim::traits.runs_host_baselines);
      return 0;
    }
    return run_benchmarks<Shim>(opt, rank);
  });
}

}  // namespace bench
