// stepwise lint --only requirements, its two readers: a test program's --gtest_list_tests (speed
// checks only) and a requirements file's keys. (lint/requirements-rejects-mismatches runs the
// whole lint on a fixture that names a check twice wrong.)
#include <gtest/gtest.h>

#include <stdexcept>

#include "lint_requirements.h"

namespace {

using namespace runner;

TEST(RequirementsLint, ListsOnlyTheSpeedChecksOfAProgram) {
  const std::string listing =
      "Running main() from gmock_main.cc\n"
      "VectorAdd.\n"
      "  MatchesCpu\n"
      "VectorAddSpeed.\n"
      "  OneThreadPerElement\n"
      "  GridStride\n"
      "Sizes/ScanSpeed.\n"
      "  Rows/0  # GetParam() = 3\n"
      "Sanitizer.\n"
      "  Memcheck\n";
  EXPECT_EQ(speed_checks_listed("01-vector-add", listing),
            (std::vector<std::string>{"01-vector-add/VectorAddSpeed.OneThreadPerElement", "01-vector-add/VectorAddSpeed.GridStride",
                                      "01-vector-add/Sizes/ScanSpeed.Rows/0"}));
}

TEST(RequirementsLint, KeysAreEachLinesFirstWordWithoutComments) {
  EXPECT_EQ(requirement_keys("# a comment\n\n01-vector-add/VectorAddSpeed.GridStride 0.5 x copy bandwidth  # why\n"
                             "   02-elementwise-exp/ExpSpeed.Fast\t0.4 meaning\n#02-elementwise-exp/Old 1\n"),
            (std::vector<std::string>{"01-vector-add/VectorAddSpeed.GridStride", "02-elementwise-exp/ExpSpeed.Fast"}));
}

TEST(RequirementsLint, AProgramIsNamedAsLessonEqualsPath) {
  const LessonProgram p = lesson_program("01-vector-add=build/bin/lesson01-tests-solution");
  EXPECT_EQ(p.lesson, "01-vector-add");
  EXPECT_EQ(p.program, "build/bin/lesson01-tests-solution");
  EXPECT_THROW(lesson_program("build/bin/lesson01-tests-solution"), std::invalid_argument);
  EXPECT_THROW(lesson_program("01-vector-add="), std::invalid_argument);
}

TEST(RequirementsLint, AProgramThatCannotBeListedIsAProblem) {
  const RequirementsLint lint = lint_requirements({{"01-vector-add", "/nonexistent/lesson01-tests"}}, "/nonexistent/requirements.txt");
  ASSERT_FALSE(lint.problems.empty());
  EXPECT_NE(lint.problems.front().find("could not list the checks of /nonexistent/lesson01-tests"), std::string::npos);
}

}  // namespace
