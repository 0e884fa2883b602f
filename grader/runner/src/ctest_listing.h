#pragma once
// CTest's JSON list of the checks (ctest --show-only=json-v1), kept in the build folder and used
// again while nothing it was made from has changed. Listing reads every test folder's scripts and
// runs each test program's GoogleTest discovery: 1.3-1.7 s of every `stepwise grade` of the whole
// course on the H100 machine (CMake 4.4), before the first check starts.
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

// What `ctest_args` (a CTest command, --test-dir <test_dir> and a selection, without --show-only)
// print with --show-only=json-v1: the JSON text alone, CTest's notes before it left out. The
// list is kept in `cache_dir` with what it was made from: the CMake scripts under `test_dir`
// (CTestTestfile.cmake, the discovered checks and their kinds, outside CMakeFiles), the files
// that its commands name (the test programs, flock, compute-sanitizer) and this program; while
// each of them has the size and time it had, the kept list is the answer and CTest is not run.
// A test program with a stamp of its checks beside it (<program>.checks: cmake/AddLesson.cmake
// touches it when the checks' objects or the harness are built again) counts by the stamp: a
// student's rebuild links the program again (0.2 s of CTest on the H100 machine at each `watch`
// report), but only the checks decide its list. (A TEST a student adds to an exercise file is not
// listed until the checks change: it is none of the course's checks anyway.)
// Throws when CTest prints no JSON list.
std::string ctest_listing(const std::vector<std::string>& ctest_args, const std::filesystem::path& test_dir,
                          const std::filesystem::path& cache_dir);

}  // namespace runner
