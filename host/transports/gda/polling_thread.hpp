// A CPU thread that polls for work until it is stopped: the IKN proxy's and the doorbell relay's
// loop. `poll` does one pass and says whether it found work; after a long idle spell the thread
// yields (a spinning thread is what a CPU-driven NIC path costs: a core per GPU). With `report`
// set, `report` runs every 3 s (GIO_DEBUG=info: a stuck ring shows its next command). Private to
// the host runtime.
#pragma once
#include <atomic>
#include <chrono>
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

  // Starts the thread; everything `poll` and `report` use must be set up before.
  void start(std::function<bool()> poll, std::function<void()> report) {
    thread_ = std::thread([this, poll = std::move(poll), report = std::move(report)] {
      auto last_report = std::chrono::steady_clock::now();
      unsigned idle = 0;
      while (!stop_.load(std::memory_order_relaxed)) {
        idle = poll() ? 0 : idle + 1;
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
