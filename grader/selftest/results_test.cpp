// Self-tests of the result records the summary table is printed from.
#include <gtest/gtest.h>

#include <limits>

#include "grader/results.h"

namespace {

TEST(ResultRecord, DetailIsTheGradersExplanationNotGoogleTestsFraming) {
  EXPECT_EQ(grader::explanation("Value of: grader::matches(e, out, tol)\n  Actual: false (3 of 9 values differ)\nExpected: true"),
            "3 of 9 values differ");
  EXPECT_EQ(grader::explanation("Expected: (best.value) >= (required.minimum), actual: 0.1 vs 0.5\ntoo slow for '01.x'"),
            "too slow for '01.x'");
  EXPECT_EQ(grader::explanation("plain message"), "plain message");
}

TEST(ResultRecord, PathsNameLessonAndCheck) {
  EXPECT_NE(grader::record_path("Suite.Test/0").find("results/selftest/grader__Suite.Test_0.json"),
            std::string::npos);
}

TEST(ResultRecord, SpeedCheckShowsItsSpeedNotTheAccuracyOfItsTimedOutput) {
  grader::note_figure(2, "max error 2 ulp", "<= 4 ulp");
  grader::note_speed("99/Suite.Fast", 0.9, 0.5, "x copy bandwidth", "0.9 x copy bandwidth", ">= 0.5");
  grader::note_figure(3, "max error 3 ulp", "<= 4 ulp");
  EXPECT_EQ(grader::noted_measured(), "0.9 x copy bandwidth");
}

TEST(ResultRecord, WrongValuesShowEvenInASpeedCheck) {
  grader::note_speed("99/Suite.Fast", 0.9, 0.5, "x copy bandwidth", "0.9 x copy bandwidth", ">= 0.5");
  grader::note_figure(std::numeric_limits<double>::infinity(), "3 of 9 wrong", "<= 4 ulp");
  EXPECT_EQ(grader::noted_measured(), "3 of 9 wrong");
}

}  // namespace
