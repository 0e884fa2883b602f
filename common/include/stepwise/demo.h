#pragma once
// What every demo program shares: turning errors into one clear line, and reading arguments.
//
//   int main(int argc, char** argv) {
//     return stepwise::run_demo([&] { ... });
//   }
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "stepwise/check.h"
#include "stepwise/device_info.h"
#include "stepwise/todo.h"

namespace stepwise {

// Thrown when the command line asks for help (--help or -h): run_demo prints the usage and
// returns 0. `usage` is empty when the reader that saw it does not know the demo's usage.
class HelpRequested : public std::exception {
 public:
  explicit HelpRequested(std::string usage) : usage_(std::move(usage)) {}
  const char* what() const noexcept override { return usage_.c_str(); }

 private:
  std::string usage_;
};

bool is_help(const std::string& argument);  // --help or -h

namespace detail {
inline int print_usage(const HelpRequested& help, const char* lesson_dir) {
  if (help.what()[0] != '\0')
    std::printf("%s\n", help.what());
  else
    std::printf("usage: see the comment at the top of %s/demo.cu, and 'Run and grade' in %s/README.md\n",
                lesson_dir, lesson_dir);
  return 0;
}
}  // namespace detail

// Runs a demo's body. Returns 0 (also after printing the usage for --help), or prints the error
// in one line and returns: 64 for a bad argument (checked before any GPU is looked for, so a
// machine without one still says what is wrong with the command line), 2 for a step of the
// exercise that is not written yet, 77 when there is no GPU to run on, 1 for any other error.
// No demo ends in a stack trace. Read the arguments at the top of the body, before any GPU work.
template <typename Body>
int run_demo(Body&& body) {
#ifdef STEPWISE_LESSON_DIR
  const char* const lesson_dir = STEPWISE_LESSON_DIR;
#else
  const char* const lesson_dir = "lessons/NN-slug";
#endif
  try {
    body();
    return 0;
  } catch (const HelpRequested& help) {
    return detail::print_usage(help, lesson_dir);
  } catch (const NotImplemented& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 64;
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

// The same, for a demo with a usage line: --help or -h anywhere prints `usage` and returns 0
// before the body runs, and a bad argument's error is followed by the usage.
template <typename Body>
int run_demo(int argc, char** argv, const char* usage, Body&& body) {
  for (int i = 1; i < argc; ++i)
    if (is_help(argv[i])) return detail::print_usage(HelpRequested(usage), "");
  return run_demo([&] {
    try {
      body();
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      if (message.find(usage) != std::string::npos) throw;  // Flags already named the usage
      throw std::invalid_argument(message + "\n" + usage);
    }
  });
}

// Parses a whole number within [min, max] or throws std::invalid_argument naming `what`
// (HelpRequested for --help or -h, so positional demos answer --help too).
long long parse_integer(const std::string& text, const char* what, long long min, long long max);
// Parses a finite floating-point number or throws std::invalid_argument naming `what`.
double parse_number(const std::string& text, const char* what);

// Parses "WIDTHxHEIGHT" (e.g. 1536x1024), each from 1 to `max`, or throws naming `what`.
struct Size2 {
  int width = 0, height = 0;
};
Size2 parse_size(const std::string& text, const char* what, int max);

// A demo's command line of "--flag value..." options, read one flag at a time (--help and -h
// throw HelpRequested with the usage):
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
