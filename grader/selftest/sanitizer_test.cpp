// Self-tests of the sanitizer checks' reading of compute-sanitizer's output (CPU): the error
// count and the first error with its place, for memcheck's and racecheck's formats.
#include <gtest/gtest.h>

#include "grader/sanitizer.h"

namespace {

TEST(SanitizerOutput, MemcheckErrorWithItsPlace) {
  const grader::SanitizerReport report = grader::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "[==========] Running 1 test from 1 test suite.\n"
      "========= Invalid __global__ write of size 4 bytes\n"
      "=========     at add_kernel(const float *, const float *, float *, int)+0x80 in /src/vector_add.cu:12\n"
      "=========     by thread (31,0,0) in block (3,0,0)\n"
      "========= ERROR SUMMARY: 2 errors\n");
  EXPECT_EQ(report.errors, 2);
  EXPECT_EQ(report.first_error,
            "Invalid __global__ write of size 4 bytes at add_kernel(const float *, const float *, float *, int)+0x80 in "
            "/src/vector_add.cu:12");
}

TEST(SanitizerOutput, RacecheckErrorsNotWarnings) {
  const grader::SanitizerReport report = grader::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Race reported between Write access at reduce(const float *, float *, int)+0x1d0 in /src/r.cu:30\n"
      "=========     and Read access at reduce(const float *, float *, int)+0x1f0 in /src/r.cu:33 [512 hazards]\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
  EXPECT_EQ(report.errors, 1);
  EXPECT_NE(report.first_error.find("Race reported"), std::string::npos);
  EXPECT_NE(report.first_error.find("r.cu:33"), std::string::npos);
}

// Hazards racecheck reports as warnings (warp-synchronous code without __syncwarp()) are counted
// and named as warnings, not as "0 errors".
TEST(SanitizerOutput, RacecheckWarningsAreCountedAndNamed) {
  const grader::SanitizerReport report = grader::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "========= Warning: Race reported between Write access at warp_sum(const float *, float *, int)+0x2c0 in /src/w.cu:41\n"
      "=========     and Read access at warp_sum(const float *, float *, int)+0x2e0 in /src/w.cu:42 [96 hazards]\n"
      "========= RACECHECK SUMMARY: 3 hazards displayed (0 errors, 3 warnings)\n");
  EXPECT_EQ(report.errors, 0);
  EXPECT_EQ(report.warnings, 3);
  EXPECT_EQ(report.first_error, "");
  EXPECT_NE(report.first_warning.find("Race reported"), std::string::npos);
  EXPECT_NE(report.first_warning.find("w.cu:42"), std::string::npos);
}

// Older compute-sanitizers write ERROR/WARNING in capitals, with the place on the same line: the
// warning is still a warning (not the first error), and the first error is still the error.
TEST(SanitizerOutput, RacecheckWarningsInCapitalsWithAnError) {
  const grader::SanitizerReport report = grader::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n"
      "========= WARNING: Race reported between Read access at 0x2e0 in /src/w.cu:42:warp_sum(float const*, float*, int)\n"
      "=========     and Write access at 0x2c0 in /src/w.cu:41:warp_sum(float const*, float*, int) [96 hazards]\n"
      "=========\n"
      "========= ERROR: Race reported between Write access at 0x1d0 in /src/r.cu:30:reduce(float const*, float*, int)\n"
      "=========     and Read access at 0x1f0 in /src/r.cu:33:reduce(float const*, float*, int) [512 hazards]\n"
      "=========\n"
      "========= RACECHECK SUMMARY: 3 hazards displayed (1 error, 2 warnings)\n");
  EXPECT_EQ(report.errors, 1);
  EXPECT_EQ(report.warnings, 2);
  EXPECT_NE(report.first_error.find("ERROR: Race reported"), std::string::npos);
  EXPECT_NE(report.first_error.find("r.cu:30"), std::string::npos);
  EXPECT_NE(report.first_warning.find("WARNING: Race reported"), std::string::npos);
  EXPECT_NE(report.first_warning.find("w.cu:42"), std::string::npos);
}

TEST(SanitizerOutput, CleanRun) {
  const grader::SanitizerReport report = grader::read_sanitizer_output(
      "========= COMPUTE-SANITIZER\n[  PASSED  ] 3 tests.\n========= ERROR SUMMARY: 0 errors\n");
  EXPECT_EQ(report.errors, 0);
  EXPECT_EQ(report.first_error, "");
}

}  // namespace
