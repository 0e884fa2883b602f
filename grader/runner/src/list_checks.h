#pragma once
// `stepwise list-checks --program <test program> --output <file>`: the checks a lesson's test
// program holds, one a line, for the class build (grader/class/CMakeLists.txt writes
// checks/<NN-slug>.txt with it; add_checks.cmake makes a CTest test of each line, the gradebook
// counts them):
//   <Suite.Test> <kind> <labels, comma-separated>
// e.g. "VectorAddSpeed.GridStride speed speed,gpu", "CpuVectorize.Matches cpu correctness,cpu":
// the kind by grader::check_kind, the labels by grader::check_labels (grader/check_kind.h).
// `stepwise check-kinds <check>...` prints the same line for each check named (Suite.Test, or a
// GoogleTest pattern such as VectorAddSpeed.*): how the course build's CTest tests get their kinds'
// labels and scheduling (cmake/test_kinds.cmake), one process for a test program's checks.
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

// "<check> <kind> <labels>" (no newline).
std::string check_line(const std::string& check);

// The lines of a listing (--gtest_list_tests output, read by listed_tests in test_listing.h).
std::string check_lines(const std::string& listing);

// Lists `program`'s checks into `output` (written whole, or not at all); 0, or 1 with the reason
// on stderr.
int run_list_checks(const std::filesystem::path& program, const std::filesystem::path& output);

// Prints check_line of each check, one a line, in the order given, less `prefix` where a check
// starts with it (CTest's names of discovered checks, <NN-slug>/<track>/<Suite.Test>); 0.
int run_check_kinds(const std::vector<std::string>& checks, const std::string& prefix = "");

}  // namespace runner
