// Self-tests of the result records the summary table is printed from.
#include <gtest/gtest.h>

#include "grader/results.h"

namespace {

TEST(ResultRecord, JsonStringsAreEscaped) {
  EXPECT_EQ(grader::json_string("plain"), "\"plain\"");
  EXPECT_EQ(grader::json_string("a \"quote\" and \\"), "\"a \\\"quote\\\" and \\\\\"");
  EXPECT_EQ(grader::json_string("line\nbreak\ttab"), "\"line\\nbreak\\u0009tab\"");
}

TEST(ResultRecord, PathsNameLessonAndCheck) {
  EXPECT_NE(grader::record_path("Suite.Test/0").find("results/selftest/grader__Suite.Test_0.json"),
            std::string::npos);
}

}  // namespace
