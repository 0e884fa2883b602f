// Where this test program's build kept its device code (grader/machine_code.h). Compiled into
// each test program, as identity.cpp is (stepwise_add_test_program in cmake/AddLesson.cmake),
// from its STEPWISE_DEVICE_CODE_* definitions: the --keep folders of the student's code and of
// the checks, the .cu files of each ('|'-separated) and the CUDA architectures built.
#include <sstream>

#include "grader/machine_code.h"
#include "grader/trace.h"

namespace grader {
namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::istringstream text(list);
  for (std::string item; std::getline(text, item, '|');)
    if (!item.empty()) items.push_back(item);
  return items;
}

}  // namespace

DeviceCode students_device_code() {
  return {STEPWISE_DEVICE_CODE_DIR, split(STEPWISE_DEVICE_CODE_SOURCES),
          virtual_architectures(STEPWISE_DEVICE_CODE_ARCHITECTURES), kernels_built().student, "your files"};
}

DeviceCode checks_device_code() {
  return {STEPWISE_DEVICE_CODE_CHECKS_DIR, split(STEPWISE_DEVICE_CODE_CHECKS_SOURCES),
          virtual_architectures(STEPWISE_DEVICE_CODE_ARCHITECTURES), kernels_built().checks,
          "the grader's checks (with the templates of your headers they instantiate)"};
}

}  // namespace grader
