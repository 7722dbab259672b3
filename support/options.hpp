// Command-line options for the apps (jacobi2d, spts). Each option is declared once, with its
// value's placeholder and its help text, and that one declaration drives both the parsing and
// the --help listing, so the two cannot drift apart. Bad input throws support::usage_error with a
// message naming the option and the value; the value parsers below do the same.
//
//   support::option_parser p("jacobi2d", "2D Jacobi relaxation ...");
//   p.value("--iterations", "N", "iterations to run (default 1000)",
//           [&](const std::string& v) { opt.iterations = support::parse_positive("--iterations", v); });
//   p.flag("--check", "compare with the CPU reference", [&] { opt.check = true; });
//   if (!p.parse(argc, argv)) std::fputs(p.help().c_str(), stdout);   // --help was given
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace support {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class option_parser {
 public:
  option_parser(std::string program, std::string summary);

  // An option without a value ("--name").
  void flag(std::string name, std::string help, std::function<void()> on_set);
  // An option with a value: "--name VALUE" or "--name=VALUE". `on_value` throws usage_error for
  // a value it does not accept.
  void value(std::string name, std::string placeholder, std::string help,
             std::function<void(const std::string&)> on_value);
  // Free text printed after the option list (exit codes, examples).
  void epilogue(std::string text);

  // Applies argv in order (a later repetition wins). Returns false if --help (or -h) was given,
  // in which case nothing after it is parsed. Throws usage_error for an unknown option, a
  // missing value, or a value the option rejects.
  bool parse(int argc, const char* const* argv) const;
  // The usage text: summary, then one entry per option in declaration order, then the epilogue.
  std::string help() const;
  // The declared option names, in order (tests check that the help mentions each).
  std::vector<std::string> names() const;

 private:
  struct entry {
    std::string name, placeholder, help;
    std::function<void()> on_flag;
    std::function<void(const std::string&)> on_value;
  };
  const entry* find(const std::string& name) const;

  std::string program_, summary_, epilogue_;
  std::vector<entry> entries_;
};

// Value parsers. `option` names the option in the error message.
// A whole number > 0 (decimal, optional K/M/G suffix = x1024, x1024^2, x1024^3).
std::int64_t parse_positive(const std::string& option, const std::string& text);
// A whole number >= 0 (same syntax).
std::int64_t parse_non_negative(const std::string& option, const std::string& text);
// A finite floating-point number.
double parse_number(const std::string& option, const std::string& text);
// "NX" (square) or "NXxNY", each a positive whole number with an optional K suffix ("4Kx2K").
std::pair<std::int64_t, std::int64_t> parse_extent(const std::string& option, const std::string& text);
// One of `choices`, returned as given.
std::string parse_choice(const std::string& option, const std::string& text, std::initializer_list<const char*> choices);

}  // namespace support
