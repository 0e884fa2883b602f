// The rule "a suite's name says its kind" as C++ reads it (grader/check_kind.h) against the table
// grader/selftest/check-kinds.txt, which grader/selftest/check_kind.cmake holds CMake's reader
// (cmake/CheckKind.cmake, stepwise_check_kind) to: the two readers agree on every name there.
#include <gtest/gtest.h>

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

TEST(CheckKind, AgreesWithTheTable) {
  std::ifstream table(CHECK_KINDS_TABLE);
  ASSERT_TRUE(table) << "cannot read " << CHECK_KINDS_TABLE;
  int count = 0;
  std::string line;
  while (std::getline(table, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, expected, extra;
    ASSERT_TRUE(fields >> name >> expected && !(fields >> extra)) << "not '<name> <kind>': " << line;
    EXPECT_EQ(kind_name(grader::check_kind(name)), expected) << name;
    ++count;
  }
  EXPECT_GT(count, 0) << CHECK_KINDS_TABLE << " holds no names";
}

}  // namespace
