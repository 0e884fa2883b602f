#pragma once
// What every demo program shares: turning errors into one clear line, and reading arguments.
//
//   int main(int argc, char** argv) {
//     return stepwise::run_demo(argc, argv, help_text(...), [&] { ...read the arguments, then run... });
//   }
// Every demo answers --help with each option and its default (exit status 0), and a bad argument
// with one error line and its usage line (exit status 2), before any GPU is looked for.
#include <cstddef>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "stepwise/check.h"
#include "stepwise/device_info.h"
#include "stepwise/not_implemented.h"
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
// in one line and returns: 2 for a bad argument (an unknown option, a value that is not a number
// or out of range, a file that cannot be read or written; checked before any GPU is looked for, so
// a machine without one still says what is wrong with the command line), 2 as well for a step of
// the exercise that is not written yet (the message tells them apart), 77 when there is no GPU
// to run on, 1 for any other error. No demo ends in a stack trace. Read the arguments at the top
// of the body, before any GPU work.
inline constexpr int kBadArgumentStatus = 2;
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
    return kBadArgumentStatus;
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

// The first line of a demo's help: its usage line.
std::string usage_line(const std::string& help);

// The same, for a demo with a help text (help_text below): --help or -h anywhere prints the help
// and returns 0 before the body runs, and a bad argument's error is followed by the usage line.
template <typename Body>
int run_demo(int argc, char** argv, const std::string& help, Body&& body) {
  for (int i = 1; i < argc; ++i)
    if (is_help(argv[i])) return detail::print_usage(HelpRequested(help), "");
  const std::string usage = usage_line(help);
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

// A demo's --help: its usage line, then one line per option (or positional argument) saying
// what it is and its default, then -h/--help.
//
//   const std::string help = stepwise::help_text("usage: lesson07-demo [--n N] [--runs R]", {
//       {"--n N", "how many floats to sum, 1 to 2^28", std::to_string(Options{}.n)},
//       {"--runs R", "runs of each way, 1 to 100", std::to_string(Options{}.runs)}});
struct OptionHelp {
  std::string name, what, default_value;
};
std::string help_text(const std::string& usage_line, const std::vector<OptionHelp>& options);
// A number as a default is shown (printf's %g: 1e+06, -2, 0.5).
std::string number_text(double value);

// The arguments of a demo that takes up to `max` words and no options (lesson00-demo 20 8): an
// option ("--size"; a negative number is a value, refused later by its parser) or a word too
// many is refused.
std::vector<std::string> positional_arguments(int argc, char** argv, std::size_t max);

// A file of the course's source folder (e.g. "assets/test-image.png") as an absolute path, so a
// demo finds its default input from any working directory: the folder this build was configured
// from (STEPWISE_SOURCE_DIR, a compile definition of stepwise::common).
std::string course_file(const std::string& relative);

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
// throw HelpRequested with the help; an error names the help's first line, the usage line):
//
//   stepwise::Flags flags(argc, argv, help);
//   while (flags.next()) {
//     if (flags.is("--size")) size = parse_size(flags.values(1)[0], "--size", 8192);
//     else flags.unknown();
//   }
class Flags {
 public:
  Flags(int argc, char** argv, std::string help);
  bool next();                                     // moves to the next flag; false after the last
  bool is(const char* flag) const { return flag_ == flag; }
  std::vector<std::string> values(int count);      // the `count` values after the flag
  [[noreturn]] void unknown() const;               // throws: not a known flag

 private:
  std::vector<std::string> args_;
  std::string help_, flag_;
  std::size_t at_ = 0;
};

}  // namespace stepwise
