// The rule "a suite's name says its kind" (grader/check_kind.h, its one reader: the CMake side asks
// it through `stepwise check-kinds`, cmake/test_kinds.cmake) against the table
// grader/selftest/check-kinds.txt: every name there of its kind, each kind's labels
// (grader::check_labels), whose gpu or cpu label says whether it needs the GPU (grader::needs_gpu),
// and the filter that keeps the correctness checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "grader/check_kind.h"

namespace {

std::string kind_name(grader::CheckKind kind) { return grader::check_kind_name(kind); }

std::string joined(const std::vector<std::string>& labels) {
  std::string text;
  for (const std::string& label : labels) text += (text.empty() ? "" : ",") + label;
  return text;
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
  int count = 0, labels_lines = 0;
  std::string line;
  while (std::getline(table, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, expected, extra;
    if (line.rfind("labels ", 0) == 0) {  // labels <kind> <labels, comma-separated>
      std::string kind, labels;
      ASSERT_TRUE(fields >> extra >> kind >> labels && !(fields >> extra)) << line;
      const auto named = std::find_if(kinds.begin(), kinds.end(), [&](auto k) { return kind_name(k) == kind; });
      ASSERT_NE(named, kinds.end()) << "no kind " << kind << ": " << line;
      EXPECT_EQ(joined(grader::check_labels(*named)), labels) << "the labels of a " << kind << " check";
      const bool gpu = ("," + labels + ",").find(",gpu,") != std::string::npos;
      const bool cpu = ("," + labels + ",").find(",cpu,") != std::string::npos;
      EXPECT_NE(gpu, cpu) << line << ": one label of gpu and cpu";
      EXPECT_EQ(grader::needs_gpu(*named), gpu) << "whether a " << kind << " check needs the GPU";
      ++labels_lines;
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
  EXPECT_EQ(labels_lines, static_cast<int>(kinds.size())) << CHECK_KINDS_TABLE << ": one 'labels' line a kind";
}

}  // namespace
