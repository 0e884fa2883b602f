// Self-tests of several checks in one process (grader/shared_run.h). Inputs: a check draws the
// same values alone or after other checks. SharedRunFixture: checks that leave the GPU in a bad
// state, run only by shared_run.cmake (with STEPWISE_SHARED_RUN=1), which expects the process to
// end right after such a check's record, before the next check starts.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include "grader/gpu.h"
#include "grader/inputs.h"

namespace {

TEST(SharedRunInputs, ACheckDrawsTheSameAloneOrAfterOthers) {
  grader::begin_check_inputs("Lesson.First");
  const std::vector<float> alone = grader::random_floats(5, -1, 1);
  const std::uint64_t engine_alone = grader::rng()();
  grader::begin_check_inputs("Lesson.Before");
  const std::vector<float> other = grader::random_floats(7, -1, 1);
  grader::rng()();
  grader::begin_check_inputs("Lesson.First");
  EXPECT_EQ(grader::random_floats(5, -1, 1), alone);
  EXPECT_EQ(grader::rng()(), engine_alone);
  EXPECT_NE(std::vector<float>(other.begin(), other.begin() + 5), alone);  // another check, other values
}

__global__ void write_to(int* address) { *address = 1; }

TEST(SharedRunFixture, LeavesAStickyError) {
  REQUIRE_GPU();
  write_to<<<1, 1>>>(reinterpret_cast<int*>(64));  // an illegal address: every later CUDA call fails
  cudaDeviceSynchronize();
}

TEST(SharedRunFixture, LeavesDeviceMemoryAllocated) {
  REQUIRE_GPU();
  void* kept = nullptr;
  ASSERT_EQ(cudaMalloc(&kept, std::size_t{256} << 20), cudaSuccess);
}

TEST(SharedRunFixture, NeedsAWorkingGpu) {
  REQUIRE_GPU();
  void* memory = nullptr;
  ASSERT_EQ(cudaMalloc(&memory, 4), cudaSuccess);
  ASSERT_EQ(cudaFree(memory), cudaSuccess);
}

}  // namespace
