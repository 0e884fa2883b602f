// The rule "a suite's name says its kind" (grader/check_kind.h, its one reader: the CMake side asks
// it through `stepwise check-kinds`, cmake/test_kinds.cmake) against the table
// grader/selftest/check-kinds.txt: every name there of its kind, each kind's labels
// (grader::check_labels), whose gpu or cpu label says whether it needs the GPU (grader::needs_gpu),
// and the filters that keep the correctness and the speed checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
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

// GoogleTest's filter syntax, as far as the filters use it: '*' any run of characters, ':' between
// patterns, the patterns that keep a name (all, if none) then after a '-' those that leave it out.
bool glob(const char* pattern, const char* name) {
  if (*pattern == '\0') return *name == '\0';
  if (*pattern == '*') return glob(pattern + 1, name) || (*name != '\0' && glob(pattern, name + 1));
  return *pattern == *name && glob(pattern + 1, name + 1);
}

bool matches_any(const std::string& patterns, const std::string& name) {
  std::istringstream each(patterns);
  std::string pattern;
  bool matched = false;
  while (std::getline(each, pattern, ':')) matched = matched || glob(pattern.c_str(), name.c_str());
  return matched;
}

bool kept_by(const std::string& filter, const std::string& name) {
  const std::size_t dash = filter.find('-');
  const std::string keep = filter.substr(0, dash), leave = dash == std::string::npos ? "" : filter.substr(dash + 1);
  return (keep.empty() || matches_any(keep, name)) && !matches_any(leave, name);
}

TEST(CheckKind, AgreesWithTheTable) {
  std::ifstream table(CHECK_KINDS_TABLE);
  ASSERT_TRUE(table) << "cannot read " << CHECK_KINDS_TABLE;
  const std::array kinds{grader::CheckKind::correctness, grader::CheckKind::speed, grader::CheckKind::cpu,
                         grader::CheckKind::sanitizer};
  // The filters the table holds lines for, by kind.
  const std::map<std::string, const char*> filters{{"correctness", grader::kCorrectnessChecksFilter},
                                                   {"speed", grader::kSpeedChecksFilter}};
  std::vector<std::pair<std::string, std::string>> names;  // the table's Suite.Test names, and kinds
  int count = 0, labels_lines = 0, filter_lines = 0;
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
    if (line.rfind("filter ", 0) == 0) {  // filter <kind> <GoogleTest filter>
      std::string kind, filter;
      ASSERT_TRUE(fields >> extra >> kind >> filter && !(fields >> extra)) << line;
      ASSERT_EQ(filters.count(kind), 1u) << "no filter of kind " << kind << ": " << line;
      EXPECT_EQ(filter, filters.at(kind)) << "the table's filter of the " << kind << " checks";
      ++filter_lines;
      continue;
    }
    ASSERT_TRUE(fields >> name >> expected && !(fields >> extra)) << "not '<name> <kind>': " << line;
    EXPECT_EQ(kind_name(grader::check_kind(name)), expected) << name;
    if (name.find('.') != std::string::npos) names.emplace_back(name, expected);  // filters read Suite.Test names
    ++count;
  }
  EXPECT_GT(count, 0) << CHECK_KINDS_TABLE << " holds no names";
  EXPECT_EQ(labels_lines, static_cast<int>(kinds.size())) << CHECK_KINDS_TABLE << ": one 'labels' line a kind";
  EXPECT_EQ(filter_lines, static_cast<int>(filters.size())) << CHECK_KINDS_TABLE << ": one 'filter' line a filter";
  for (const auto& [kind, filter] : filters) {
    for (const auto& [name, expected] : names) {
      EXPECT_EQ(kept_by(filter, name), expected == kind) << name << " and the " << kind << " filter " << filter;
    }
  }
}

}  // namespace
