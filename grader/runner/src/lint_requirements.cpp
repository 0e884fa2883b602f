#include "lint_requirements.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "grader/check_kind.h"
#include "test_listing.h"

namespace runner {

namespace {

// Adds `message` (its @ITEM@ replaced) for each of `items` missing from `present`.
void report_missing(std::vector<std::string>& problems, const std::vector<std::string>& items,
                    const std::vector<std::string>& present, const std::string& message) {
  for (const std::string& item : items) {
    if (std::find(present.begin(), present.end(), item) != present.end()) continue;
    problems.push_back(std::regex_replace(message, std::regex("@ITEM@"), item));
  }
}

}  // namespace

LessonProgram lesson_program(const std::string& pair) {
  const std::size_t equals = pair.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == pair.size())
    throw std::invalid_argument("'" + pair + "' is not <lesson>=<test program>");
  return {pair.substr(0, equals), pair.substr(equals + 1)};
}

std::vector<std::string> speed_checks_listed(const std::string& lesson, const std::string& listing) {
  std::vector<std::string> checks;
  for (const std::string& check : listed_tests(listing))
    if (grader::check_kind(check) == grader::CheckKind::speed) checks.push_back(lesson + "/" + check);
  return checks;
}

std::vector<std::string> requirement_keys(const std::string& text) {
  std::vector<std::string> keys;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string key;
    if (words >> key) keys.push_back(key);
  }
  return keys;
}

RequirementsLint lint_requirements(const std::vector<LessonProgram>& programs, const std::filesystem::path& requirements) {
  RequirementsLint lint;
  std::vector<std::string> checks;
  for (const LessonProgram& p : programs) {
    std::string listing;
    const int status = list_tests(p.program, listing);
    if (status != 0) {
      lint.problems.push_back("could not list the checks of " + p.program.string() + " (is it built?):\n" + listing);
      continue;
    }
    for (std::string& check : speed_checks_listed(p.lesson, listing)) checks.push_back(std::move(check));
  }
  if (!lint.problems.empty()) return lint;  // without every program's checks, each requirement would look wrong
  std::ifstream in(requirements);
  if (!in) {
    lint.problems.push_back("cannot read the requirements file " + requirements.string());
    return lint;
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<std::string> keys = requirement_keys(text.str());
  report_missing(lint.problems, checks, keys,
                 "the speed check @ITEM@ has no requirement: add a line '@ITEM@ <minimum> <meaning>' to " + requirements.string());
  report_missing(lint.problems, keys, checks,
                 "the requirement @ITEM@ names no speed check (a test in a suite ending in Speed): rename or remove it");
  lint.speed_checks = checks.size();
  return lint;
}

}  // namespace runner
