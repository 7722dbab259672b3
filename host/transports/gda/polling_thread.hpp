// A CPU thread that polls for work until it is stopped: the IKN proxy's and the doorbell relay's
// loop. Each pass calls `serve(i)` for every item i (a queue, a mailbox), which says whether it
// found work there; after a long idle spell the thread yields (a spinning thread is what a
// CPU-driven NIC path costs: a core per GPU). With `report` set, it runs every 3 s (GIO_DEBUG=info:
// a stuck ring shows its next command). Its owner declares it last, so that it is destroyed, and
// joined, before anything it uses. Private to the host runtime.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <thread>
#include <utility>

namespace gio::transports::gda {

class polling_thread {
 public:
  polling_thread() = default;
  polling_thread(const polling_thread&) = delete;
  polling_thread& operator=(const polling_thread&) = delete;
  ~polling_thread() { stop(); }

  // Starts the thread; everything `serve` and `report` use must be set up before. No `report`:
  // nothing is printed.
  void start(std::size_t items, std::function<bool(std::size_t)> serve, std::function<void()> report) {
    thread_ = std::thread([this, items, serve = std::move(serve), report = std::move(report)] {
      auto last_report = std::chrono::steady_clock::now();
      unsigned idle = 0;
      while (!stop_.load(std::memory_order_relaxed)) {
        bool any = false;
        for (std::size_t i = 0; i < items; ++i) any |= serve(i);
        idle = any ? 0 : idle + 1;
        if (idle > 4096) std::this_thread::yield();
        if (report && std::chrono::steady_clock::now() - last_report > std::chrono::seconds(3)) {
          last_report = std::chrono::steady_clock::now();
          report();
        }
      }
    });
  }
  // Joins the thread; the owner's state may then go. Safe to call twice.
  void stop() {
    stop_.store(true, std::memory_order_relaxed);
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace gio::transports::gda
