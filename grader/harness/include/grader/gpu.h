#pragma once
// The first line of every GPU check. Without a GPU the check is Skipped (never Passed); with a
// GPU this build cannot run on, it fails with the fix (which CMAKE_CUDA_ARCHITECTURES to use).
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
