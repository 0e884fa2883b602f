// Self-tests of the speed harness on the GPU: a launch that fails must be an error, never a fast
// time, and the figures it reports must be plausible.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <fstream>
#include <vector>

#include "grader/compare.h"
#include "grader/gpu.h"
#include "grader/inputs.h"
#include "grader/pinned_host.h"
#include "grader/results.h"
#include "grader/sample.h"
#include "grader/speed.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/cuda_error.h"

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

// A check bigger than 3/4 of the GPU is not run, and its SKIP says the GPU is too small (the
// report counts the lesson done there); one that fits runs, with no such mark.
TEST(GpuSpeedHarness, ACheckTooBigForThisGpuIsMarkedSo) {
  REQUIRE_GPU();
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  bool allocated = false;
  const std::string why = grader::allocate_if_it_fits(total_bytes, [&] { allocated = true; });
  EXPECT_FALSE(allocated);
  EXPECT_NE(why.find("more than 3/4 of this GPU"), std::string::npos) << why;
  EXPECT_TRUE(grader::noted_gpu_too_small());
}

TEST(GpuSpeedHarness, ACheckThatFitsIsNotMarkedTooBig) {
  REQUIRE_GPU();
  bool allocated = false;
  EXPECT_EQ(grader::allocate_if_it_fits(std::size_t{1} << 20, [&] { allocated = true; }), "");
  EXPECT_TRUE(allocated);
  EXPECT_FALSE(grader::noted_gpu_too_small());
}

TEST(GpuSpeedHarness, CopyBandwidthIsPlausible) {
  REQUIRE_GPU();
  const double gbs = grader::copy_bandwidth_gbs();
  EXPECT_GT(gbs, 20.0) << "slower than any CUDA GPU's memory";
  EXPECT_LT(gbs, 50000.0) << "faster than any GPU's memory: is the copy timed at all?";
}

__global__ void double_kernel(const float* in, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = 2 * in[i];
}

__global__ void double_all_but_every_thousandth_kernel(const float* in, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (i % 1000 != 999) out[i] = 2 * in[i];
}

// Doubling 2^24 floats four ways: honestly; skipping a call that repeats the last arguments;
// skipping one element in a thousand; and leaving the work on a non-blocking stream of its own without waiting for it.
struct Doubling {
  int n = 1 << 24;
  stepwise::DeviceBuffer<float> in{static_cast<std::size_t>(n)}, out{static_cast<std::size_t>(n)};

  static void honest(const float* in, float* out, int n) {
    double_kernel<<<264, 256>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
  }
  static void skips_repeats(const float* in, float* out, int n) {
    static const float* last = nullptr;
    if (in == last) return;
    last = in;
    honest(in, out, n);
  }
  static void skips_a_thousandth(const float* in, float* out, int n) {
    double_all_but_every_thousandth_kernel<<<264, 256>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
  }
  static void side_stream(const float* in, float* out, int n) {
    static cudaStream_t stream = [] {
      cudaStream_t s = nullptr;
      CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      return s;
    }();
    double_kernel<<<264, 256, 0, stream>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
  }

  grader::Workload with(void (*call)(const float*, float*, int)) {
    return {[this] {
              grader::refill_random(in.data(), n, -1, 1);
              grader::poison(out.data(), n);
            },
            [this, call] { call(in.data(), out.data(), n); },
            [this] {
              const grader::Sample sample(n);
              std::vector<float> x = sample.of(in.data());
              std::vector<double> expected(x.begin(), x.end());
              for (double& v : expected) v *= 2;
              return sample.matches(expected, sample.of(out.data()), grader::Tolerance::exact());
            }};
  }
};

TEST(GpuSpeedHarness, HonestWorkloadPasses) {
  REQUIRE_GPU();
  Doubling d;
  const double ms = grader::gpu_median_ms(d.with(Doubling::honest));
  EXPECT_GT(ms, 0.0);
}

TEST(GpuSpeedHarness, SkippedRepeatedCallsAreCaught) {
  REQUIRE_GPU();
  Doubling d;
  EXPECT_NONFATAL_FAILURE(grader::gpu_median_ms(d.with(Doubling::skips_repeats)), "was the work skipped?");
}

// The check after timing looks at a random sample of the output (grader/sample.h): leaving a
// thousandth of it unwritten is still caught.
TEST(GpuSpeedHarness, PartlySkippedWorkIsCaught) {
  REQUIRE_GPU();
  Doubling d;
  EXPECT_NONFATAL_FAILURE(grader::gpu_median_ms(d.with(Doubling::skips_a_thousandth)), "was the work skipped?");
}

// A sample holds the first and the last index and distinct ones between, new for every sample,
// and gathers the values at them.
TEST(GpuSpeedHarness, SampleGathersTheValuesAtItsIndices) {
  REQUIRE_GPU();
  const std::size_t n = 1000003;
  const std::vector<int> values = grader::random_ints(n, -1000000, 1000000);
  const auto device_values = grader::device(values);
  const grader::Sample sample(n);
  const std::vector<std::size_t>& at = sample.indices();
  ASSERT_GT(sample.size(), grader::Sample::kValues / 2);
  EXPECT_EQ(at.front(), 0u);
  EXPECT_EQ(at.back(), n - 1);
  EXPECT_TRUE(std::adjacent_find(at.begin(), at.end(), std::greater_equal<std::size_t>()) == at.end())
      << "the indices must increase";
  EXPECT_NE(grader::Sample(n).indices(), at) << "each sample must draw new indices";
  const std::vector<int> got = sample.of(device_values.data());
  ASSERT_EQ(got.size(), at.size());
  for (std::size_t k = 0; k < at.size(); ++k) ASSERT_EQ(got[k], values[at[k]]) << "index " << at[k];
  EXPECT_EQ(grader::Sample(5).indices(), (std::vector<std::size_t>{0, 1, 2, 3, 4})) << "a small output is taken whole";
}

TEST(GridStrideBlocks, EnoughForTheItemsAndAtMost1024) {
  EXPECT_EQ(grader::grid_stride_blocks(0), 1u);
  EXPECT_EQ(grader::grid_stride_blocks(256), 1u);
  EXPECT_EQ(grader::grid_stride_blocks(257), 2u);
  EXPECT_EQ(grader::grid_stride_blocks(4099), 17u);
  EXPECT_EQ(grader::grid_stride_blocks(std::size_t{1} << 31), 1024u);
  EXPECT_EQ(grader::grid_stride_blocks(100, 32), 4u);
}

// More pinned host memory than the host has is an allocation error (a check SKIPs on it), asked
// of /proc/meminfo or mmap before anything is written: not a process killed for memory.
TEST(PinnedHostArray, MoreThanTheHostHasIsAnAllocationError) {
  try {
    grader::PinnedHostArray<float> too_much(std::size_t{1} << 48);
    ADD_FAILURE() << "2^50 bytes of pinned host memory were given";
  } catch (const stepwise::CudaError& e) {
    EXPECT_EQ(e.code(), cudaErrorMemoryAllocation) << e.what();
  }
  grader::PinnedHostArray<float> none(0);
  EXPECT_EQ(none.data(), nullptr);
}

// The fills launch as many blocks as the values need: each value written, from the first to the
// last, and nothing after them (the poisoned value past the end stays).
TEST(GpuSpeedHarness, RefillRandomWritesEveryValueAndNoMore) {
  REQUIRE_GPU();
  for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{4099}, std::size_t{1} << 20}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    stepwise::DeviceBuffer<float> floats(n + 1);
    stepwise::DeviceBuffer<int> ints(n + 1);
    CUDA_CHECK(cudaMemset(floats.data(), grader::kPoisonByte, floats.bytes()));
    CUDA_CHECK(cudaMemset(ints.data(), grader::kPoisonByte, ints.bytes()));
    grader::refill_random(floats.data(), n, 2.0f, 3.0f);
    grader::refill_random(ints.data(), n, 5, 9);
    const std::vector<float> f = floats.to_host();
    const std::vector<int> i = ints.to_host();
    EXPECT_EQ(std::count_if(f.begin(), f.end() - 1, [](float v) { return v >= 2.0f && v < 3.0f; }), static_cast<long>(n));
    EXPECT_EQ(std::count_if(i.begin(), i.end() - 1, [](int v) { return v >= 5 && v <= 9; }), static_cast<long>(n));
    EXPECT_TRUE(grader::is_poison(f.back()));
    EXPECT_TRUE(grader::is_poison(i.back()));
  }
}

TEST(GpuSpeedHarness, WorkHiddenOnAnotherStreamIsTimedAndCaught) {
  REQUIRE_GPU();
  Doubling d;
  const double honest_ms = grader::gpu_median_ms(d.with(Doubling::honest));
  double hidden_ms = 0;
  EXPECT_NONFATAL_FAILURE(hidden_ms = grader::gpu_median_ms(d.with(Doubling::side_stream)),
                          "results were not ready when the call returned");
  EXPECT_GT(hidden_ms, 0.7 * honest_ms) << "the work on the other stream was not timed";
}

TEST(GpuSpeedHarness, FigureAboveItsCeilingFails) {
  REQUIRE_GPU();
  const auto path = std::filesystem::temp_directory_path() / ("stepwise-ceiling-" + std::to_string(::getpid()) + ".txt");
  std::ofstream(path) << "grader/GpuSpeedHarness.FigureAboveItsCeilingFails 0.5 x copy bandwidth\n";
  setenv("STEPWISE_REQUIREMENTS", path.c_str(), 1);
  EXPECT_NONFATAL_FAILURE(grader::expect_speed([] { return grader::Figure{3.0, "made up", 1.1}; }),
                          "faster than the memory can move the data: was work skipped?");
  unsetenv("STEPWISE_REQUIREMENTS");
  std::filesystem::remove(path);
}

// An impossible figure is measured again: one that came from a transient in the grader's own
// reference measurement passes on the next measurement; one that stays impossible fails (above).
// No GPU needed: the figures are made up.
TEST(SpeedFigures, ImpossibleFigureOnceIsMeasuredAgain) {
  const auto path = std::filesystem::temp_directory_path() / ("stepwise-again-" + std::to_string(::getpid()) + ".txt");
  std::ofstream(path) << "grader/SpeedFigures.ImpossibleFigureOnceIsMeasuredAgain 0.5 x copy bandwidth\n";
  setenv("STEPWISE_REQUIREMENTS", path.c_str(), 1);
  int measurements = 0;
  grader::expect_speed([&] { return grader::Figure{++measurements == 1 ? 3.0 : 0.9, "made up", 1.1}; });
  EXPECT_EQ(measurements, 2);
  unsetenv("STEPWISE_REQUIREMENTS");
  std::filesystem::remove(path);
}

}  // namespace
