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

// Runs the check and writes its record to `results`. The program writes its record to a folder of
// its own (STEPWISE_RESULTS_DIR), from which only this check's record is taken, so a program
// cannot write another check's record; a check that crashed, was killed at the time limit (with
// everything it started) or ended without a record gets a FAIL record saying which.
// Returns 0 (PASS), 77 (SKIP: CTest's skip status for these tests) or 1.
int run_class_check(const ClassCheck& check);

// The CUDA device a CTest resource allocation names: CTEST_RESOURCE_GROUP_0_GPUS is
// "id:<n>,slots:<k>"; <n> counts the GPUs this process may see (CUDA_VISIBLE_DEVICES, if set,
// lists them). Empty when no GPU was allocated.
std::string allocated_device(const char* group_gpus, const char* visible_devices);

}  // namespace runner
