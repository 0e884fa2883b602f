// The rule "a suite's name says its kind" as C++ reads it (grader/check_kind.h) against the table
// grader/selftest/check-kinds.txt, which grader/selftest/check_kind.cmake holds CMake's reader
// (cmake/CheckKind.cmake, stepwise_check_kind) to: the two readers agree on every name there, and
// on which kinds need the GPU (grader::needs_gpu, stepwise_check_labels' gpu or cpu label).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string>

#include "grader/check_kind.h"

namespace {

std::string kind_name(grader::CheckKind kind) {
  switch (kind) {
    case grader::CheckKind::speed: return "speed";
    case grader::CheckKind::cpu: return "cpu";
    case grader::CheckKind::sanitizer: return "sanitizer";
    case grader::CheckKind::correctness: return "correctness";
  }
  return "?";
}

// GoogleTest's filter syntax, as far as the filter uses it: '*' any run of characters, ':' between
// patterns, a leading '-' starting the patterns that leave a name out.
bool glob(const char* pattern, const char* name) {
  if (*pattern == '\0') return *name == '\0';
  if (*pattern == '*') return glob(pattern + 1, name) || (*name != '\0' && glob(pattern, name + 1));
  return *pattern == *name && glob(pattern + 1, name + 1);
}

bool kept_by(const std::string& filter, const std::string& name) {
  const bool negative = !filter.empty() && filter[0] == '-';
  std::istringstream patterns(negative ? filter.substr(1) : filter);
  std::string pattern;
  bool matched = false;
  while (std::getline(patterns, pattern, ':')) matched = matched || glob(pattern.c_str(), name.c_str());
  return negative ? !matched : matched;
}

TEST(CheckKind, AgreesWithTheTable) {
  std::ifstream table(CHECK_KINDS_TABLE);
  ASSERT_TRUE(table) << "cannot read " << CHECK_KINDS_TABLE;
  const std::array kinds{grader::CheckKind::correctness, grader::CheckKind::speed, grader::CheckKind::cpu,
                         grader::CheckKind::sanitizer};
  int count = 0, needs_lines = 0;
  std::string line;
  while (std::getline(table, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, expected, extra;
    if (line.rfind("needs ", 0) == 0) {  // needs <kind> <gpu|cpu>
      std::string kind, needs;
      ASSERT_TRUE(fields >> extra >> kind >> needs) << line;
      const auto named = std::find_if(kinds.begin(), kinds.end(), [&](auto k) { return kind_name(k) == kind; });
      ASSERT_NE(named, kinds.end()) << "no kind " << kind << ": " << line;
      EXPECT_EQ(grader::needs_gpu(*named) ? "gpu" : "cpu", needs) << "what a " << kind << " check needs";
      ++needs_lines;
      continue;
    }
    ASSERT_TRUE(fields >> name >> expected && !(fields >> extra)) << "not '<name> <kind>': " << line;
    if (name == "filter") {
      EXPECT_EQ(expected, grader::kCorrectnessChecksFilter) << "the table's filter";
      continue;
    }
    EXPECT_EQ(kind_name(grader::check_kind(name)), expected) << name;
    if (name.find('.') != std::string::npos) {  // the filter reads Suite.Test names
      EXPECT_EQ(kept_by(grader::kCorrectnessChecksFilter, name), expected == "correctness") << name << " and the filter";
    }
    ++count;
  }
  EXPECT_GT(count, 0) << CHECK_KINDS_TABLE << " holds no names";
  EXPECT_EQ(needs_lines, static_cast<int>(kinds.size())) << CHECK_KINDS_TABLE << ": one 'needs' line a kind";
}

}  // namespace
