// The one reader of a test program's --gtest_list_tests (test_listing.h: listed_tests) and
// `stepwise list-checks` (list_checks.h), which writes the class build's lists of checks: each
// check with its kind (grader::check_kind) and labels (grader::check_labels).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "list_checks.h"
#include "test_listing.h"

namespace {

namespace fs = std::filesystem;
using namespace runner;

// What a lesson's test program prints: GoogleTest's banner, plain suites, a suite of each other
// kind, a parameterised suite (with the GetParam comments) and a typed one (TypeParam comment).
const char* const kListing =
    "Running main() from gmock_main.cc\n"
    "VectorAdd.\n"
    "  GridStrideHandlesUnalignedArrays\n"
    "  OneThreadPerElement\n"
    "VectorAddSpeed.\n"
    "  GridStride\n"
    "CpuVectorize.\n"
    "  CpuTargetMatchesReference\n"
    "Sanitizer.\n"
    "  Memcheck\n"
    "Sizes/ScanSpeed.\n"
    "  Rows/0  # GetParam() = 3\n"
    "  Rows/1  # GetParam() = 1024\n"
    "Typed/0.  # TypeParam = float\n"
    "  Sums\n";

TEST(TestListing, ReadsSuitesParameterisedSuitesAndComments) {
  EXPECT_EQ(listed_tests(kListing),
            (std::vector<std::string>{"VectorAdd.GridStrideHandlesUnalignedArrays", "VectorAdd.OneThreadPerElement",
                                      "VectorAddSpeed.GridStride", "CpuVectorize.CpuTargetMatchesReference",
                                      "Sanitizer.Memcheck", "Sizes/ScanSpeed.Rows/0", "Sizes/ScanSpeed.Rows/1", "Typed/0.Sums"}));
  EXPECT_TRUE(listed_tests("").empty());
  EXPECT_TRUE(listed_tests("  BeforeAnySuite\nnot a suite.\n  Orphan\n").empty()) << "a test line needs its suite's line";
  EXPECT_EQ(listed_tests("Suite.\r\n  Test\r\n"), (std::vector<std::string>{"Suite.Test"}));
}

TEST(ListChecks, WritesEachCheckWithItsKindAndLabels) {
  EXPECT_EQ(check_lines(kListing),
            "VectorAdd.GridStrideHandlesUnalignedArrays correctness correctness,gpu\n"
            "VectorAdd.OneThreadPerElement correctness correctness,gpu\n"
            "VectorAddSpeed.GridStride speed speed,gpu\n"
            "CpuVectorize.CpuTargetMatchesReference cpu correctness,cpu\n"
            "Sanitizer.Memcheck sanitizer sanitizer,gpu\n"
            "Sizes/ScanSpeed.Rows/0 speed speed,gpu\n"
            "Sizes/ScanSpeed.Rows/1 speed speed,gpu\n"
            "Typed/0.Sums correctness correctness,gpu\n");
}

// A "test program" that is a shell script printing kListing, or failing.
struct ScriptProgram {
  fs::path dir;
  ScriptProgram(const std::string& name, const std::string& body)
      : dir(fs::temp_directory_path() / ("stepwise-list-checks-" + name + "-" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "program.sh") << "#!/bin/sh\n" << body;
    fs::permissions(dir / "program.sh", fs::perms::owner_all);
  }
  ~ScriptProgram() { fs::remove_all(dir); }
  fs::path program() const { return dir / "program.sh"; }
};

TEST(ListChecks, WritesTheListOfAProgramAndNothingWhenItCannotBeListed) {
  ScriptProgram listing("lists", "[ \"$1\" = --gtest_list_tests ] || exit 3\ncat <<'END'\n" + std::string(kListing) + "END\n");
  const fs::path output = listing.dir / "checks" / "01-vector-add.txt";
  ASSERT_EQ(run_list_checks(listing.program(), output), 0);
  std::ifstream in(output);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), check_lines(kListing));

  ScriptProgram failing("fails", "echo 'cannot start' >&2\nexit 1\n");
  const fs::path none = failing.dir / "checks" / "01-vector-add.txt";
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_list_checks(failing.program(), none), 1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("cannot start"), std::string::npos);
  EXPECT_FALSE(fs::exists(none));
}

}  // namespace
