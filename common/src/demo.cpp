#include "stepwise/demo.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace stepwise {

bool is_help(const std::string& argument) { return argument == "--help" || argument == "-h"; }

long long parse_integer(const std::string& text, const char* what, long long min, long long max) {
  if (is_help(text)) throw HelpRequested("");
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max)
    throw std::invalid_argument(std::string(what) + " must be a whole number from " +
                                std::to_string(min) + " to " + std::to_string(max) + ", got '" +
                                text + "'");
  return value;
}

double parse_number(const std::string& text, const char* what) {
  if (is_help(text)) throw HelpRequested("");
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw std::invalid_argument(std::string(what) + " must be a finite number, got '" + text + "'");
  return value;
}

Size2 parse_size(const std::string& text, const char* what, int max) {
  if (is_help(text)) throw HelpRequested("");
  const std::size_t cross = text.find('x');
  if (cross == std::string::npos)
    throw std::invalid_argument(std::string(what) + " must be WIDTHxHEIGHT, e.g. 1000x800, got '" + text + "'");
  const std::string name(what);
  return {static_cast<int>(parse_integer(text.substr(0, cross), (name + "'s width").c_str(), 1, max)),
          static_cast<int>(parse_integer(text.substr(cross + 1), (name + "'s height").c_str(), 1, max))};
}

// argv[0] is the program's name (argc may be 0, then argv holds nothing).
Flags::Flags(int argc, char** argv, std::string usage)
    : args_(argv + (argc > 0 ? 1 : 0), argv + argc), usage_(std::move(usage)) {}

bool Flags::next() {
  if (at_ >= args_.size()) return false;
  flag_ = args_[at_++];
  if (is_help(flag_)) throw HelpRequested(usage_);
  return true;
}

std::vector<std::string> Flags::values(int count) {
  if (at_ + count > args_.size())
    throw std::invalid_argument(flag_ + " needs " + std::to_string(count) + " value(s); " + usage_);
  std::vector<std::string> taken(args_.begin() + at_, args_.begin() + at_ + count);
  at_ += count;
  return taken;
}

void Flags::unknown() const { throw std::invalid_argument("unknown argument '" + flag_ + "'; " + usage_); }

}  // namespace stepwise
