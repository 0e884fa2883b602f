#pragma once
// What every demo program shares: turning errors into one clear line, and reading arguments.
//
//   int main(int argc, char** argv) {
//     return stepwise::run_demo([&] { ... });
//   }
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "stepwise/check.h"
#include "stepwise/device_info.h"
#include "stepwise/todo.h"

namespace stepwise {

// Runs a demo's body. Returns 0, or prints the error in one line and returns 1 (2 for a step of
// the exercise that is not written yet, 77 when there is no GPU to run on), so no demo ends in
// a stack trace.
template <typename Body>
int run_demo(Body&& body) {
  try {
    body();
    return 0;
  } catch (const NotImplemented& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    const GpuStatus gpu = gpu_status();
    if (!gpu.present) {
      std::fprintf(stderr, "no GPU: %s\n", gpu.summary.c_str());
      return 77;
    }
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

// Parses a whole number within [min, max] or throws std::invalid_argument naming `what`.
long long parse_integer(const std::string& text, const char* what, long long min, long long max);
// Parses a finite floating-point number or throws std::invalid_argument naming `what`.
double parse_number(const std::string& text, const char* what);

// Parses "WIDTHxHEIGHT" (e.g. 1536x1024), each from 1 to `max`, or throws naming `what`.
struct Size2 {
  int width = 0, height = 0;
};
Size2 parse_size(const std::string& text, const char* what, int max);

// A demo's command line of "--flag value..." options, read one flag at a time:
//
//   stepwise::Flags flags(argc, argv, "usage: lesson03-demo [--size WxH] [--output FILE]");
//   while (flags.next()) {
//     if (flags.is("--size")) size = parse_size(flags.values(1)[0], "--size", 8192);
//     else flags.unknown();
//   }
class Flags {
 public:
  Flags(int argc, char** argv, std::string usage);
  bool next();                                     // moves to the next flag; false after the last
  bool is(const char* flag) const { return flag_ == flag; }
  std::vector<std::string> values(int count);      // the `count` values after the flag
  [[noreturn]] void unknown() const;               // throws: not a known flag

 private:
  std::vector<std::string> args_;
  std::string usage_, flag_;
  std::size_t at_ = 0;
};

}  // namespace stepwise
