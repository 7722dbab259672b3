// CSV result files. csv_appender adds rows to a file that may already hold earlier runs: the header
// is written when the file is new or empty, and an existing header must name the same columns (a
// file of another program or version is refused rather than mixed). Every row is flushed, so a
// run that dies later keeps what it measured. With csv_open::replace the file holds one run's rows
// instead: it starts afresh whatever it held. read_csv reads such a file back (baselines, tests,
// plots). Fields holding a comma, quote or newline are quoted.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace support {

enum class csv_open { append, replace };

class csv_appender {
 public:
  // Throws std::runtime_error naming the file when it cannot be opened or (append) has other columns.
  csv_appender(const std::string& path, std::vector<std::string> columns, csv_open open = csv_open::append);
  ~csv_appender();
  csv_appender(const csv_appender&) = delete;
  csv_appender& operator=(const csv_appender&) = delete;

  // One value per column.
  void row(const std::vector<std::string>& values);

 private:
  std::string path_;
  std::vector<std::string> columns_;
  std::FILE* file_ = nullptr;
};

struct csv_table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  // Index of column `name`, or -1.
  int column(const std::string& name) const;
};

// The file's header and rows; an empty table when the file does not exist or is empty.
csv_table read_csv(const std::string& path);

// One line of fields, quoted where needed, without the newline.
std::string csv_line(const std::vector<std::string>& fields);

}  // namespace support
