#include "stepwise/demo.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <utility>

#ifndef STEPWISE_SOURCE_DIR
#define STEPWISE_SOURCE_DIR "."
#endif

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

std::string usage_line(const std::string& help) { return help.substr(0, help.find('\n')); }

std::string help_text(const std::string& usage_line, const std::vector<OptionHelp>& options) {
  std::size_t width = std::string("-h, --help").size();
  for (const OptionHelp& option : options) width = std::max(width, option.name.size());
  const auto line = [&](const std::string& name, const std::string& what) {
    return "  " + name + std::string(width - name.size() + 2, ' ') + what + "\n";
  };
  std::string text = usage_line + "\n";
  for (const OptionHelp& option : options)
    text += line(option.name, option.what + " (default: " + option.default_value + ")");
  text += line("-h, --help", "print this help and exit");
  return text.substr(0, text.size() - 1);
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::vector<std::string> positional_arguments(int argc, char** argv, std::size_t max) {
  std::vector<std::string> words(argv + (argc > 0 ? 1 : 0), argv + argc);
  for (const std::string& word : words) {
    if (is_help(word)) throw HelpRequested("");
    const bool number = word.size() > 1 && word[0] == '-' && (std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.');
    if (word.size() > 1 && word[0] == '-' && !number)
      throw std::invalid_argument("unknown option '" + word + "'");
  }
  if (words.size() > max)
    throw std::invalid_argument("too many arguments: takes at most " + std::to_string(max) + ", got '" +
                                words[max] + "' as number " + std::to_string(max + 1));
  return words;
}

std::string course_file(const std::string& relative) {
  return (std::filesystem::path(STEPWISE_SOURCE_DIR) / relative).lexically_normal().string();
}

// argv[0] is the program's name (argc may be 0, then argv holds nothing).
Flags::Flags(int argc, char** argv, std::string help)
    : args_(argv + (argc > 0 ? 1 : 0), argv + argc), help_(std::move(help)) {}

bool Flags::next() {
  if (at_ >= args_.size()) return false;
  flag_ = args_[at_++];
  if (is_help(flag_)) throw HelpRequested(help_);
  return true;
}

std::vector<std::string> Flags::values(int count) {
  if (at_ + count > args_.size())
    throw std::invalid_argument(flag_ + " needs " + std::to_string(count) + " value(s)\n" + usage_line(help_));
  std::vector<std::string> taken(args_.begin() + at_, args_.begin() + at_ + count);
  at_ += count;
  return taken;
}

void Flags::unknown() const {
  const char* const kind = flag_.size() > 1 && flag_[0] == '-' ? "unknown option '" : "unexpected argument '";
  throw std::invalid_argument(kind + flag_ + "'\n" + usage_line(help_));
}

}  // namespace stepwise
