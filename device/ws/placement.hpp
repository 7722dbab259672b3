// Where the public queues and termination words live, and how a worker reaches another PE's:
// one small interface the worker is written against (MGWS thesis §4.7), over a comm (the
// library's calls, comm_gio.hpp). Every operation on a queue word, the owner's own included, goes
// through it, so a word is only ever updated one way (docs/memory-model.md, "Work stealing"):
// where the comm says its atomics on a PE's words are this GPU's own (direct_word), the thief's
// claim and completion are this GPU's system-scope atomics at the words' addresses there, as the
// comm's would be; elsewhere the comm's calls.
//   symmetric_queues  the symmetric heap: peers directly or through the comm (gio: load/store
//                     over NVLink/xGMI/PCIe, or gda)
//   host_queues       one pinned host area of the node, mapped into every GPU: plain system-scope
//                     atomics and loads (the thesis's multi-GPU design, a baseline)
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/device/copy.hpp"
#include "gio/device/transports/p2p/p2p.hpp"
#include "gio/device/ws/layout.hpp"
#include "gio/platform/platform.hpp"
#include "gio/platform/strong.hpp"

namespace gio::ws {

// n tasks from src to dst by the whole workgroup (after the thief's acquire), synchronised on return.
GIO_DEVICE void copy_tasks_wg(task* dst, const task* src, std::uint32_t n) {
  using unit = gio::detail::vec16;
  static_assert(sizeof(task) % sizeof(unit) == 0, "tasks move in 16-byte units");
  gio::detail::copy_units(reinterpret_cast<unit*>(dst), reinterpret_cast<const unit*>(src),
                          std::size_t{n} * (sizeof(task) / sizeof(unit)), platform::thread_in_wg(), platform::wg_size());
  platform::wg_barrier();
}

// How a thief reaches a victim PE's queue words and ring: directly (this GPU's own loads and
// system-scope atomics at the address the words have there, `delta` bytes from this PE's), or
// through the comm's calls (direct = false; `victim_path{}`). Trivial, so that it may live in
// shared memory.
struct victim_path {
  bool direct;
  std::ptrdiff_t delta;
  template <class T> GIO_DEVICE T* at(T* p) const { return transports::p2p::translate(p, delta); }
};

// What every placement holds: the worker's context and the run's configuration.
template <class Comm> class placement_base {
 public:
  using comm = Comm;
  using context_type = typename Comm::ctx;
  GIO_DEVICE placement_base(const context_type& c, const run_config& cfg) : c_(c), cfg_(cfg) {}
  GIO_DEVICE const context_type& context() const { return c_; }
  GIO_DEVICE int my_pe() const { return Comm::my_pe(c_); }

 protected:
  const context_type& c_;
  const run_config& cfg_;
};

template <class Comm> class symmetric_queues : public placement_base<Comm> {
  using base = placement_base<Comm>;
  using base::c_;
  using base::cfg_;

 public:
  // A thief may acquire a same-GPU victim's release at device scope (the queues are GPU memory).
  static constexpr bool same_gpu_device_scope = true;
  // Whether this GPU's own atomics update this PE's queue words is asked once, here: asked on
  // every steal from this PE, gio's route code on the thief's path cost a fifth of the steal
  // (docs/worksteal.md). Another PE's is asked once per steal (path_to).
  GIO_DEVICE symmetric_queues(const typename base::context_type& c, const run_config& cfg)
      : base(c, cfg), my_pe_(Comm::my_pe(c)), own_direct_(Comm::direct_word(c, first_word(cfg), my_pe_) != nullptr) {}
  // The same symmetric address names the word on every PE; `pe` picks the PE.
  GIO_DEVICE queue_header* header(int, unsigned worker) const {
    return reinterpret_cast<queue_header*>(cfg_.queues) + worker;
  }
  GIO_DEVICE task* ring(int, unsigned worker) const {
    return reinterpret_cast<task*>(cfg_.queues + cfg_.ring_offset) + std::size_t{worker} * cfg_.public_capacity;
  }
  GIO_DEVICE termination_words* term(int) const { return cfg_.term_words; }
  GIO_DEVICE std::uint64_t fetch(std::uint64_t* w, int pe) const { return Comm::fetch(c_, w, pe); }
  GIO_DEVICE std::uint64_t fetch_add(std::uint64_t* w, std::uint64_t v, int pe) const {
    return Comm::fetch_add(c_, w, v, pe);
  }
  GIO_DEVICE std::uint64_t fetch_or(std::uint64_t* w, std::uint64_t v, int pe) const {
    return Comm::fetch_or(c_, w, v, pe);
  }
  GIO_DEVICE void add(std::uint64_t* w, std::uint64_t v, int pe) const { Comm::add(c_, w, v, pe); }
  GIO_DEVICE void set(std::uint64_t* w, std::uint64_t v, int pe) const { Comm::set(c_, w, v, pe); }
  // How a thief of this PE reaches `pe`'s queues (claim_slice, get_wg, report_copied): directly
  // where this GPU's atomics update that PE's queue words (the queues are one allocation, so its
  // first word answers for all), asked once per steal; through the comm where a NIC updates them
  // (another node, or the heap's atomics area while a NIC is on) or under GIO_ATOMICS=cas.
  GIO_DEVICE victim_path path_to(int pe) const {
    if (pe == my_pe_) return {own_direct_, 0};
    std::uint64_t* mine = first_word(cfg_);
    const std::uint64_t* there = Comm::direct_word(c_, mine, pe);
    if (!there) return victim_path{};
    return {true, reinterpret_cast<const char*>(there) - reinterpret_cast<const char*>(mine)};
  }
  // Whole workgroup: n tasks of `pe`'s ring into this workgroup's memory; directly (and this PE's
  // always): its own loads, without the call's route and second barrier.
  GIO_DEVICE void get_wg(task* dst, const task* src, std::uint32_t n, int pe, const victim_path& path) const {
    if (path.direct || pe == my_pe_) return copy_tasks_wg(dst, path.at(src), n);
    Comm::get_wg(c_, dst, src, std::size_t{n} * sizeof(task), pe);
  }
  // Release: this thread's (after a workgroup barrier, its group's) earlier accesses before its
  // later stores and atomics, at every PE.
  GIO_DEVICE void fence() const { Comm::fence(c_); }

 private:
  static GIO_DEVICE std::uint64_t* first_word(const run_config& cfg) { return reinterpret_cast<std::uint64_t*>(cfg.queues); }
  int my_pe_;
  bool own_direct_;  // this PE's queue words take this GPU's atomics
};

template <class Comm> class host_queues : public placement_base<Comm> {
  using base = placement_base<Comm>;
  using base::cfg_;

 public:
  // System scope throughout: host memory's lines may be held where device-scope fences do not
  // look (one hypothesis for the nodes UTS lost through host queues on one GPU, docs/results.md).
  static constexpr bool same_gpu_device_scope = false;
  using base::base;
  GIO_DEVICE queue_header* header(int pe, unsigned worker) const {
    return reinterpret_cast<queue_header*>(cfg_.queues + std::size_t(pe) * cfg_.pe_stride) + worker;
  }
  GIO_DEVICE task* ring(int pe, unsigned worker) const {
    return reinterpret_cast<task*>(cfg_.queues + std::size_t(pe) * cfg_.pe_stride + cfg_.ring_offset) +
           std::size_t{worker} * cfg_.public_capacity;
  }
  GIO_DEVICE termination_words* term(int pe) const {
    return reinterpret_cast<termination_words*>(reinterpret_cast<char*>(cfg_.term_words) + std::size_t(pe) * cfg_.term_stride);
  }
  // Reads are atomics too: a GPU may perform its atomics on host memory where plain loads do not
  // look (seen on the 2xH200 machines: completions added by atomics never seen by polling loads).
  GIO_DEVICE std::uint64_t fetch(std::uint64_t* w, int) const {
    return platform::atomic_rmw_sys_bits<platform::rmw::or_>(w, std::uint64_t{0});
  }
  GIO_DEVICE std::uint64_t fetch_add(std::uint64_t* w, std::uint64_t v, int) const {
    return platform::atomic_rmw_sys_bits<platform::rmw::add>(w, v);
  }
  GIO_DEVICE std::uint64_t fetch_or(std::uint64_t* w, std::uint64_t v, int) const {
    return platform::atomic_rmw_sys_bits<platform::rmw::or_>(w, v);
  }
  GIO_DEVICE void add(std::uint64_t* w, std::uint64_t v, int) const {
    platform::atomic_rmw_sys_bits<platform::rmw::add>(w, v);
  }
  GIO_DEVICE void set(std::uint64_t* w, std::uint64_t v, int) const {
    platform::atomic_rmw_sys_bits<platform::rmw::exchange>(w, v);
  }
  GIO_DEVICE victim_path path_to(int) const { return victim_path{}; }  // the calls above are system-scope atomics already
  GIO_DEVICE void get_wg(task* dst, const task* src, std::uint32_t n, int, const victim_path&) const {
    copy_tasks_wg(dst, src, n);
  }
  GIO_DEVICE void fence() const { platform::fence_acq_rel_system(); }

};

}  // namespace gio::ws
