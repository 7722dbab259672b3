#include "support/options.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace support {

option_parser::option_parser(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

void option_parser::flag(std::string name, std::string help, std::function<void()> on_set) {
  entries_.push_back({std::move(name), "", std::move(help), std::move(on_set), nullptr});
}

void option_parser::value(std::string name, std::string placeholder, std::string help,
                          std::function<void(const std::string&)> on_value) {
  entries_.push_back({std::move(name), std::move(placeholder), std::move(help), nullptr, std::move(on_value)});
}

void option_parser::epilogue(std::string text) { epilogue_ = std::move(text); }

const option_parser::entry* option_parser::find(const std::string& name) const {
  for (const entry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

bool option_parser::parse(int argc, const char* const* argv) const {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") return false;
    std::string value;
    const std::size_t eq = arg.find('=');
    const bool inline_value = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    const entry* e = find(arg);
    if (e == nullptr) throw usage_error("unknown option '" + arg + "'");
    if (e->on_flag) {
      if (inline_value) throw usage_error(arg + " takes no value");
      e->on_flag();
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw usage_error(arg + " needs a value (" + e->placeholder + ")");
      value = argv[++i];
    }
    e->on_value(value);
  }
  return true;
}

std::string option_parser::help() const {
  constexpr std::size_t column = 26;  // where the help text starts
  std::string text = "Usage: " + program_ + " [options]\n" + summary_ + "\n\nOptions:\n";
  for (const entry& e : entries_) {
    std::string head = "  " + e.name + (e.placeholder.empty() ? "" : " " + e.placeholder);
    head += head.size() + 1 < column ? std::string(column - head.size(), ' ') : "\n" + std::string(column, ' ');
    // Continuation lines of the help are indented to the same column.
    std::string body;
    for (char ch : e.help) body += ch == '\n' ? "\n" + std::string(column, ' ') : std::string(1, ch);
    text += head + body + "\n";
  }
  text += "  --help, -h              this text\n";
  if (!epilogue_.empty()) text += "\n" + epilogue_ + (epilogue_.back() == '\n' ? "" : "\n");
  return text;
}

std::vector<std::string> option_parser::names() const {
  std::vector<std::string> out;
  for (const entry& e : entries_) out.push_back(e.name);
  return out;
}

namespace {

std::int64_t parse_whole(const std::string& option, const std::string& text, std::int64_t minimum,
                         const char* expected) {
  const auto bad = [&] { return usage_error(option + ": '" + text + "' is not " + expected); };
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) throw bad();
  errno = 0;
  char* end = nullptr;
  const unsigned long long number = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str() || errno == ERANGE) throw bad();
  const std::string suffix(end);
  int shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (!suffix.empty()) throw bad();
  constexpr auto max = static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max());
  if (number > (max >> shift)) throw usage_error(option + ": '" + text + "' is too large");
  const auto value = static_cast<std::int64_t>(number << shift);
  if (value < minimum) throw bad();
  return value;
}

}  // namespace

std::int64_t parse_positive(const std::string& option, const std::string& text) {
  return parse_whole(option, text, 1, "a positive whole number");
}

std::int64_t parse_non_negative(const std::string& option, const std::string& text) {
  return parse_whole(option, text, 0, "a whole number >= 0");
}

double parse_number(const std::string& option, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value))
    throw usage_error(option + ": '" + text + "' is not a finite number");
  return value;
}

std::pair<std::int64_t, std::int64_t> parse_extent(const std::string& option, const std::string& text) {
  const std::size_t x = text.find('x');
  if (x == std::string::npos) {
    const std::int64_t n = parse_positive(option, text);
    return {n, n};
  }
  if (text.find('x', x + 1) != std::string::npos) throw usage_error(option + ": '" + text + "' is not NX or NXxNY");
  return {parse_positive(option, text.substr(0, x)), parse_positive(option, text.substr(x + 1))};
}

std::string parse_choice(const std::string& option, const std::string& text, std::initializer_list<const char*> choices) {
  std::string listed;
  for (const char* choice : choices) {
    if (text == choice) return text;
    listed += (listed.empty() ? "" : ", ") + std::string(choice);
  }
  throw usage_error(option + ": '" + text + "' is not one of " + listed);
}

}  // namespace support
