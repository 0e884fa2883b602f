#pragma once
// What a GPU check needs before it starts. Without a GPU the check is Skipped (never Passed);
// with a GPU this build cannot run on, it fails with the fix (which CMAKE_CUDA_ARCHITECTURES to
// use). A lesson's checks get this from their suite's name (grader/check_kind.h, grader::Check
// below, TEST in grader/grader.h); REQUIRE_GPU() says it by hand where that convention does not
// hold (the grader's self-tests).
#include <gtest/gtest.h>

#include "stepwise/device_info.h"

namespace grader {
// stepwise::gpu_status(), looked up once per process.
const stepwise::GpuStatus& gpu();
}  // namespace grader

#define REQUIRE_GPU()                                                        \
  do {                                                                       \
    const ::stepwise::GpuStatus& gpu_ = ::grader::gpu();                     \
    if (!gpu_.present) GTEST_SKIP() << gpu_.summary;                         \
    if (!gpu_.can_run) FAIL() << gpu_.summary << "\n  fix: " << gpu_.fix;    \
  } while (0)

namespace grader {
// The base of every check of a lesson (TEST in grader/grader.h): before a check whose suite's
// name says it needs the GPU, REQUIRE_GPU().
class Check : public testing::Test {
 protected:
  void SetUp() override;
};
}  // namespace grader
