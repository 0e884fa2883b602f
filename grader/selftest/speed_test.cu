// Self-tests of the speed harness on the GPU: a launch that fails must be an error, never a fast
// time, and the figures it reports must be plausible.
#include <gtest/gtest.h>

#include "grader/gpu.h"
#include "grader/speed.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"

namespace {

__global__ void spin_kernel(float* out, int iterations) {
  float x = threadIdx.x;
  for (int i = 0; i < iterations; ++i) x = x * 0.999f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

TEST(GpuSpeedHarness, FailedLaunchIsAnErrorNotAFastRun) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> out(2048);
  // 2048 threads per block cannot launch; a harness that timed it would report ~0 ms.
  EXPECT_THROW(grader::gpu_median_ms([&] { spin_kernel<<<1, 2048>>>(out.data(), 10); }), stepwise::CudaError);
}

TEST(GpuSpeedHarness, LongerWorkTakesLonger) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> out(1024 * 132);
  const double short_ms = grader::gpu_median_ms([&] { spin_kernel<<<132, 1024>>>(out.data(), 1 << 12); });
  const double long_ms = grader::gpu_median_ms([&] { spin_kernel<<<132, 1024>>>(out.data(), 1 << 16); });
  EXPECT_GT(long_ms, 4 * short_ms) << "16x the work measured " << short_ms << " ms vs " << long_ms << " ms";
}

TEST(GpuSpeedHarness, CopyBandwidthIsPlausible) {
  REQUIRE_GPU();
  const double gbs = grader::copy_bandwidth_gbs();
  EXPECT_GT(gbs, 20.0) << "slower than any CUDA GPU's memory";
  EXPECT_LT(gbs, 50000.0) << "faster than any GPU's memory: is the copy timed at all?";
}

}  // namespace
