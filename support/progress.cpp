#include "support/progress.hpp"

#include <unistd.h>

namespace support {

progress_line::progress_line(std::string label, std::int64_t total, bool enabled, std::FILE* out,
                             double silent_seconds)
    : label_(std::move(label)),
      total_(total),
      enabled_(enabled && out != nullptr),
      out_(out),
      terminal_(out != nullptr && isatty(fileno(out))),
      silent_seconds_(silent_seconds),
      start_(clock::now()),
      last_print_(start_) {}

progress_line::~progress_line() { finish(); }

void progress_line::update(std::int64_t done) {
  if (!enabled_) return;
  const clock::time_point now = clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since_print = std::chrono::duration<double>(now - last_print_).count();
  if (elapsed < silent_seconds_) return;
  if (printed_ && since_print < (terminal_ ? 0.5 : 10.0)) return;
  const double fraction = total_ > 0 ? double(done) / double(total_) : 0.0;
  char left[32] = "";
  if (fraction > 0 && fraction < 1) std::snprintf(left, sizeof left, ", ~%.0f s left", elapsed * (1 - fraction) / fraction);
  std::fprintf(out_, "%s%s: %lld/%lld (%.0f%%), %.0f s%s%s", terminal_ ? "\r" : "", label_.c_str(),
               static_cast<long long>(done), static_cast<long long>(total_), 100.0 * fraction, elapsed, left,
               terminal_ ? "\033[K" : "\n");
  std::fflush(out_);
  printed_ = true;
  last_print_ = now;
}

void progress_line::finish() {
  if (enabled_ && printed_ && terminal_) {
    std::fputc('\n', out_);
    std::fflush(out_);
  }
  printed_ = false;
  enabled_ = false;
}

}  // namespace support
