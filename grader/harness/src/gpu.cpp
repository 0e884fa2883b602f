#include "grader/gpu.h"

#include "grader/check_kind.h"

namespace grader {

const stepwise::GpuStatus& gpu() {
  static const stepwise::GpuStatus status = stepwise::gpu_status();
  return status;
}

void Check::SetUp() {
  const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
  if (needs_gpu(check_kind(test->test_suite_name()))) REQUIRE_GPU();
}

}  // namespace grader
