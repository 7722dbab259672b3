#include "support/csv.hpp"

#include <fstream>
#include <stdexcept>

namespace support {

namespace {

std::vector<std::string> split_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += line[++i];
      else if (ch == '"') quoted = false;
      else fields.back() += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.emplace_back();
    } else if (ch != '\r') {
      fields.back() += ch;
    }
  }
  return fields;
}

}  // namespace

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    const std::string& f = fields[i];
    if (f.find_first_of(",\"\n") == std::string::npos) {
      line += f;
      continue;
    }
    line += '"';
    for (char ch : f) line += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    line += '"';
  }
  return line;
}

int csv_table::column(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

csv_table read_csv(const std::string& path) {
  csv_table table;
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line.empty()) return table;
  table.columns = split_line(line);
  while (std::getline(in, line))
    if (!line.empty()) table.rows.push_back(split_line(line));
  return table;
}

csv_appender::csv_appender(const std::string& path, std::vector<std::string> columns, csv_open open)
    : path_(path), columns_(std::move(columns)) {
  const bool append = open == csv_open::append;
  const csv_table existing = append ? read_csv(path) : csv_table{};
  if (!existing.columns.empty() && existing.columns != columns_)
    throw std::runtime_error("--csv file '" + path + "' has other columns (" + csv_line(existing.columns) +
                             "); write to a new file");
  file_ = std::fopen(path.c_str(), append ? "a" : "w");
  if (file_ == nullptr)
    throw std::runtime_error("cannot open --csv file '" + path + (append ? "' for appending" : "' for writing"));
  if (existing.columns.empty()) {
    std::fprintf(file_, "%s\n", csv_line(columns_).c_str());
    std::fflush(file_);
  }
}

csv_appender::~csv_appender() {
  if (file_) std::fclose(file_);
}

void csv_appender::row(const std::vector<std::string>& values) {
  if (values.size() != columns_.size())
    throw std::logic_error("csv row of " + std::to_string(values.size()) + " values for " +
                           std::to_string(columns_.size()) + " columns");
  std::fprintf(file_, "%s\n", csv_line(values).c_str());
  std::fflush(file_);
}

}  // namespace support
