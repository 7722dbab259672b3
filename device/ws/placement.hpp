// Where the public queues and termination words live, and how a worker reaches another PE's:
// one small interface the worker is written against (MGWS thesis §4.7), over a comm (the
// library's calls, comm_gio.hpp). Every operation on a queue word, the owner's own included, goes
// through it, so a word is only ever updated one way (docs/memory-model.md, "Work stealing").
//   symmetric_queues  the symmetric heap: peers through the comm (gio: load/store over
//                     NVLink/xGMI/PCIe, or gda)
//   host_queues       one pinned host area of the node, mapped into every GPU: plain system-scope
//                     atomics and loads (the thesis's multi-GPU design, a baseline)
#pragma once
#include <cstddef>
#include <cstdint>

#include "gio/device/copy.hpp"
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
  // Whether this GPU's own atomics update this PE's queue words is asked once: asked on every
  // steal, gio's route code on the thief's path cost a fifth of the steal (docs/worksteal.md).
  GIO_DEVICE symmetric_queues(const typename base::context_type& c, const run_config& cfg)
      : base(c, cfg), my_pe_(Comm::my_pe(c)), own_native_(Comm::native_own_word(c, reinterpret_cast<const std::uint64_t*>(cfg.queues))) {}
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
  // Whether the thief's side of a steal from `pe` may use this GPU's atomics on the victim's queue
  // words directly (claim_slice, report_copied): a victim of this PE whose words no NIC updates.
  GIO_DEVICE bool native_own(int pe) const { return own_native_ && pe == my_pe_; }
  // Whole workgroup: n tasks of `pe`'s ring into this workgroup's memory (this PE's: its own
  // loads, without the call's route and second barrier).
  GIO_DEVICE void get_wg(task* dst, const task* src, std::uint32_t n, int pe) const {
    if (pe == my_pe_) return copy_tasks_wg(dst, src, n);
    Comm::get_wg(c_, dst, src, std::size_t{n} * sizeof(task), pe);
  }
  // Release: this thread's (after a workgroup barrier, its group's) earlier accesses before its
  // later stores and atomics, at every PE.
  GIO_DEVICE void fence() const { Comm::fence(c_); }

 private:
  int my_pe_;
  bool own_native_;  // the queue words (one allocation) take this GPU's atomics
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
  GIO_DEVICE bool native_own(int) const { return false; }  // system-scope atomics throughout
  GIO_DEVICE void get_wg(task* dst, const task* src, std::uint32_t n, int) const { copy_tasks_wg(dst, src, n); }
  GIO_DEVICE void fence() const { platform::fence_acq_rel_system(); }

};

}  // namespace gio::ws
