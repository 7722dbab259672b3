// A progress line for long runs, on stderr of one PE. Silent for the first few seconds, so short
// runs (tests, small benchmarks) print nothing; after that it shows "label: done/total (p%),
// elapsed, estimate of what is left" at most twice a second, rewriting one line on a terminal
// and printing a new line every 10 s otherwise (log files). finish() (or the destructor) ends
// the line if one was printed. A disabled line (other PEs, --quiet) does nothing.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace support {

class progress_line {
 public:
  progress_line(std::string label, std::int64_t total, bool enabled, std::FILE* out = stderr,
                double silent_seconds = 3.0);
  ~progress_line();
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;

  void update(std::int64_t done);
  void finish();

 private:
  using clock = std::chrono::steady_clock;
  std::string label_;
  std::int64_t total_;
  bool enabled_;
  std::FILE* out_;
  bool terminal_;
  double silent_seconds_;
  clock::time_point start_;
  clock::time_point last_print_;
  bool printed_ = false;
};

}  // namespace support
