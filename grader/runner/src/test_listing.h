#pragma once
// A GoogleTest program's checks, from its --gtest_list_tests output: the one reader of that
// listing (stepwise lint --only requirements, lint_requirements.h; stepwise list-checks, the class
// build's lists of checks, list_checks.h).
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

// The "Suite.Test" names of a listing, in its order. GoogleTest writes a suite's line, then one
// line per test, two spaces in:
//   Suite.
//     Test
//   Prefix/Suite.          (parameterised: TEST_P with INSTANTIATE_TEST_SUITE_P)
//     Test/0  # GetParam() = 3
// Comments ("  # ...") are left out; any other line (e.g. "Running main() from ...") is ignored.
std::vector<std::string> listed_tests(const std::string& listing);

// Runs `program --gtest_list_tests`; returns its exit status (0: listed) and sets `output` to what
// it wrote (stdout and stderr together: on failure, the reason).
int list_tests(const std::filesystem::path& program, std::string& output);

}  // namespace runner
