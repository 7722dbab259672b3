// The benchmarks' result rows (gio-bench, gio-bench-nvshmem, gio-bench-floor): one set of columns,
// the one scripts/plot_bench.py reads. Rows go to stdout and, with --csv FILE, to FILE through
// support's CSV writer; FILE is replaced, since it holds one run's rows.
#pragma once
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "support/csv.hpp"

namespace bench {

class csv_writer {
 public:
  // Only the PE that reports (PE 0) writes; the others pass writes = false.
  csv_writer(const std::string& path, bool writes) : writes_(writes) {
    if (!writes_) return;
    if (!path.empty()) file_.emplace(path, columns(), support::csv_open::replace);
    print(columns());
  }

  void row(const char* system, const char* benchmark, const char* scope, std::size_t size_bytes,
           unsigned workgroups, unsigned threads, double value, const char* unit) {
    if (!writes_) return;
    char value_text[64];
    std::snprintf(value_text, sizeof value_text, "%.4f", value);
    const std::vector<std::string> fields{system,
                                          benchmark,
                                          scope,
                                          std::to_string(size_bytes),
                                          std::to_string(workgroups),
                                          std::to_string(threads),
                                          value_text,
                                          unit};
    print(fields);
    if (file_) file_->row(fields);
  }

 private:
  static const std::vector<std::string>& columns() {
    static const std::vector<std::string> names{"system", "benchmark", "scope", "size_bytes",
                                                "workgroups", "threads", "value", "unit"};
    return names;
  }
  // Flushed per row, like the file, so a run that dies half way still shows what it measured.
  static void print(const std::vector<std::string>& fields) {
    std::printf("%s\n", support::csv_line(fields).c_str());
    std::fflush(stdout);
  }

  bool writes_;
  std::optional<support::csv_appender> file_;
};

}  // namespace bench
