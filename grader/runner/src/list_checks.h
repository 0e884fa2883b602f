#pragma once
// `stepwise list-checks --program <test program> --output <file>`: the checks a lesson's test
// program holds, one a line, for the class build (grader/class/CMakeLists.txt writes
// checks/<NN-slug>.txt with it; add_checks.cmake makes a CTest test of each line, the gradebook
// counts them):
//   <Suite.Test> <kind> <labels, comma-separated>
// e.g. "VectorAddSpeed.GridStride speed speed,gpu", "CpuVectorize.Matches cpu correctness,cpu":
// the kind by grader::check_kind, the labels by grader::check_labels (grader/check_kind.h).
#include <filesystem>
#include <string>

namespace runner {

// The lines of a listing (--gtest_list_tests output, read by listed_tests in test_listing.h).
std::string check_lines(const std::string& listing);

// Lists `program`'s checks into `output` (written whole, or not at all); 0, or 1 with the reason
// on stderr.
int run_list_checks(const std::filesystem::path& program, const std::filesystem::path& output);

}  // namespace runner
