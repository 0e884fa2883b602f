#pragma once
// One check of one student, as a class's CTest test runs it (`stepwise class-check`, from
// grader/class/add_checks.cmake): the student's program, run with only that check, in the
// student's scratch folder, on the GPU CTest gave the test, stopped at the time limit.
#include <filesystem>
#include <string>

namespace runner {

struct ClassCheck {
  std::filesystem::path program;  // <class build>/students/<id>/bin/lessonNN-tests
  std::filesystem::path results;  // where the record goes: <out>/results/<id>
  std::filesystem::path scratch;  // the working folder: <class build>/students/<id>/scratch
  std::string lesson, student, check;
  int time_limit = 120;           // seconds
};

// Runs the check and writes its record to `results`. The program writes its record to a fresh
// private folder this process makes for the check (STEPWISE_RESULTS_DIR), and GoogleTest's report
// of the run (--gtest_output) beside it. The record is taken only when the folder holds nothing
// else (a Sanitizer check: also the records its compute-sanitizer run wrote), it was written
// during this run, and, for a PASS or SKIP, the program ended with status 0 and GoogleTest's report
// names exactly this check with the same outcome; otherwise the check is a FAIL saying why
// ("refused: ..."). A check that crashed, was killed at the time limit (with everything it
// started) or ended without a record gets a FAIL record saying which.
// Returns 0 (PASS), 77 (SKIP: CTest's skip status for these tests) or 1.
int run_class_check(const ClassCheck& check);

// The CUDA device a CTest resource allocation names: CTEST_RESOURCE_GROUP_0_GPUS is
// "id:<n>,slots:<k>"; <n> counts the GPUs this process may see (CUDA_VISIBLE_DEVICES, if set,
// lists them). Empty when no GPU was allocated.
std::string allocated_device(const char* group_gpus, const char* visible_devices);

// The outcome (PASS, FAIL, SKIP) GoogleTest's JSON report gives of `check`, the one check run;
// "" with `problem` set when the report is missing or names other checks.
std::string gtest_outcome(const std::filesystem::path& report, const std::string& check, std::string& problem);

}  // namespace runner
