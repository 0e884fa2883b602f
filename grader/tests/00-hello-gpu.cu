// Grader tests for lesson 00 (device query, a first kernel, thread indexing, launch checks).
#include <functional>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "hello_gpu.h"
#include "stepwise/cuda_error.h"

namespace {

using grader::Output;
using grader::Tolerance;

// The standard sizes (around warps, a prime, a size no block divides, a large one) and 1025, just
// past a block of 1024 threads.
std::vector<int> index_sizes(std::size_t bytes_per_element) {
  std::vector<int> sizes = grader::standard_sizes(bytes_per_element);
  sizes.insert(sizes.begin() + 6, 1025);  // after 1000
  return sizes;
}

// Powers of two, and sizes that are not: 96 (three warps), 1000 (a partly filled last warp), 1.
const std::vector<int> kBlockSizes = {32, 96, 128, 256, 1000, 1024, 1};

std::string where(int n, int threads_per_block) {
  return "n = " + std::to_string(n) + ", threads_per_block = " + std::to_string(threads_per_block);
}

// What each launching step's trace must show (the header's promise): kernels of the student's,
// on the default stream, no wait for the GPU, no copy to or from the host, and the launch the
// step describes: one kernel of ceil(n / threads_per_block) blocks of threads_per_block threads.
grader::Rules launch_rules(const std::string& step, int n, int threads_per_block) {
  grader::Rules rules = grader::Rules::kernel_step(step);
  const unsigned blocks = static_cast<unsigned>((static_cast<long long>(n) + threads_per_block - 1) / threads_per_block);
  rules.also([=](const grader::Trace& t) -> testing::AssertionResult {
    const std::vector<const grader::TracedKernel*> own = t.kernels_of(grader::Origin::student);
    // Exact counts: the step is one launch, and ceil(n / threads_per_block) is the only block
    // count that covers all n elements with no block wholly past the end (integers, no slack).
    if (own.size() != 1)
      return testing::AssertionFailure() << "launched " << own.size() << " kernels of yours: this step launches one";
    const grader::TracedKernel& k = *own.front();
    if (k.grid.x == blocks && k.grid.y == 1 && k.grid.z == 1 && k.block.x == static_cast<unsigned>(threads_per_block) &&
        k.block.y == 1 && k.block.z == 1)
      return testing::AssertionSuccess();
    return testing::AssertionFailure() << "launched a grid of " << k.grid.x << "x" << k.grid.y << "x" << k.grid.z
                                       << " blocks of " << k.block.x << "x" << k.block.y << "x" << k.block.z
                                       << " threads: this step launches ceil(n / threads_per_block) = " << blocks
                                       << " blocks of threads_per_block = " << threads_per_block << " threads";
  });
  return rules;
}

int gpu_count() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  return count;
}

// Runs `call`, which CUDA must reject with one of the `expected` codes. Passes when it throws
// stepwise::CudaError with such a code; any other exception (the exercise's "not implemented yet" included) leaves
// the test as a failure of its own.
testing::AssertionResult rejected_with(std::initializer_list<cudaError_t> expected, const std::function<void()>& call,
                                       const std::string& advice) {
  cudaError_t thrown = cudaSuccess;
  std::string message;
  try {
    call();
  } catch (const stepwise::CudaError& e) {
    thrown = e.code();
    message = e.what();
  }
  // CUDA keeps a failed call's error until cudaGetLastError collects it: collect it here, or
  // the next checked launch in this process would report it as its own.
  cudaGetLastError();
  for (cudaError_t code : expected)
    if (thrown == code) return testing::AssertionSuccess();
  if (thrown == cudaSuccess) return testing::AssertionFailure() << advice;
  return testing::AssertionFailure() << "threw stepwise::CudaError, but with " << cudaGetErrorName(thrown)
                                     << ", not the error CUDA gives for this mistake:\n" << message;
}

// ---- Step 1: device query ------------------------------------------------------------------

TEST(DeviceQuery, MatchesTheRuntimeForEveryGpu) {
  for (int device = 0; device < gpu_count(); ++device) {
    SCOPED_TRACE("device " + std::to_string(device));
    const DeviceSummary got = query_device(device);
    cudaDeviceProp expected{};
    CUDA_CHECK(cudaGetDeviceProperties(&expected, device));
    EXPECT_EQ(got.name, std::string(expected.name)) << "name: the GPU's name (cudaDeviceProp::name)";
    EXPECT_EQ(got.major, expected.major) << "major: compute capability, the number before the dot";
    EXPECT_EQ(got.minor, expected.minor) << "minor: compute capability, the number after the dot";
    EXPECT_EQ(got.multiprocessors, expected.multiProcessorCount)
        << "multiprocessors: the number of SMs (cudaDeviceProp::multiProcessorCount)";
    EXPECT_EQ(got.global_memory_bytes, expected.totalGlobalMem)
        << "global_memory_bytes: the GPU's memory in bytes (cudaDeviceProp::totalGlobalMem); "
           "nvidia-smi shows MiB, and 1 MiB = 1048576 bytes";
    EXPECT_EQ(got.max_threads_per_block, expected.maxThreadsPerBlock)
        << "max_threads_per_block: cudaDeviceProp::maxThreadsPerBlock";
    EXPECT_EQ(got.warp_size, expected.warpSize) << "warp_size: cudaDeviceProp::warpSize";
    EXPECT_EQ(got.l2_cache_bytes, expected.l2CacheSize)
        << "l2_cache_bytes: the L2 cache in bytes (cudaDeviceProp::l2CacheSize)";
  }
}

TEST(DeviceQuery, MissingGpuThrowsCudaError) {
  const int missing = gpu_count();  // GPUs are numbered 0 .. count - 1
  EXPECT_TRUE(rejected_with({cudaErrorInvalidDevice}, [&] { query_device(missing); },
                            "query_device(" + std::to_string(missing) + ") returned normally, but this machine has " +
                                std::to_string(missing) + " GPU(s), numbered from 0: wrap cudaGetDeviceProperties "
                                "in CUDA_CHECK(...) so its error throws stepwise::CudaError"));
}

// ---- Step 2: global index --------------------------------------------------------------------

TEST(GlobalIndex, EveryThreadWritesItsIndex) {
  const std::vector<int> sizes = index_sizes(sizeof(int));
  for (int threads_per_block : kBlockSizes) {
    for (int n : sizes) {
      SCOPED_TRACE(where(n, threads_per_block));
      Output<int> out(n);
      // The largest size is traced, once for each block size.
      const auto call = [&] { write_global_index(out.data(), n, threads_per_block); };
      if (n == sizes.back())
        grader::expect_ran(call, launch_rules("step 2 (write_global_index)", n, threads_per_block));
      else
        call();
      std::vector<int> expected(n);
      std::iota(expected.begin(), expected.end(), 0);
      // Exact: blockIdx.x * blockDim.x + threadIdx.x is integer arithmetic, nothing rounds.
      EXPECT_TRUE(grader::matches(expected, out, Tolerance::exact()))
          << "out[i] must be i for every i < n, where i = blockIdx.x * blockDim.x + threadIdx.x";
    }
  }
}

// n = INT_MAX (2^31 - 1), the largest n the API's `int n` takes: a grid rounded up as
// (n + threads_per_block - 1) / threads_per_block overflows int there (a launch of a negative
// number of blocks, rejected), which no smaller size shows. Blocks of 256 threads, so the last
// thread's index is INT_MAX itself and an `int` index is still right. out takes 8.6 GB: on a GPU
// where that is more than 3/4 of its memory the check is SKIPPED, saying so
// (grader::allocate_if_it_fits). The call is traced as the step's other checks are; 2^16 random
// indices and the first and last 512 are compared exactly with the index itself.
TEST(GlobalIndex, AtIntMax) {
  write_global_index(nullptr, 0, 256);  // a step not written yet is TODO, on any GPU
  constexpr int n = std::numeric_limits<int>::max();
  constexpr int threads_per_block = 256;
  std::optional<Output<int>> out;
  grader::check_at_int_max("n = INT_MAX", sizeof(int) * std::size_t{n}, [&] { out.emplace(n); }, [&] {
    grader::expect_ran([&] { write_global_index(out->data(), n, threads_per_block); },
                       launch_rules("step 2 (write_global_index)", n, threads_per_block));
    const grader::Sample sample(n, grader::Sample::kValues, 512);
    std::vector<int> expected;
    expected.reserve(sample.size());
    for (std::size_t i : sample.indices()) expected.push_back(static_cast<int>(i));
    // Exact: integer arithmetic, nothing rounds.
    EXPECT_TRUE(sample.matches(expected, sample.of(out->data()), Tolerance::exact())) << grader::kIntMaxHint;
  });
}

// ---- Step 3: block and thread numbers --------------------------------------------------------

TEST(BlockAndThread, EachElementKnowsItsBlockAndThread) {
  const std::vector<int> sizes = index_sizes(2 * sizeof(int));
  for (int threads_per_block : kBlockSizes) {
    for (int n : sizes) {
      SCOPED_TRACE(where(n, threads_per_block));
      Output<int> block_of(n), thread_of(n);
      const auto call = [&] { write_block_and_thread(block_of.data(), thread_of.data(), n, threads_per_block); };
      if (n == sizes.back())
        grader::expect_ran(call, launch_rules("step 3 (write_block_and_thread)", n, threads_per_block));
      else
        call();
      // On the idle cores, and counted up rather than divided: 7 x 2^25 integer divisions on one
      // thread were most of the check's 2.3 s.
      std::vector<int> expected_block(n), expected_thread(n);
      grader::in_parallel(static_cast<std::size_t>(n), [&](std::size_t begin, std::size_t end) {
        int block = static_cast<int>(begin) / threads_per_block, thread = static_cast<int>(begin) % threads_per_block;
        for (std::size_t i = begin; i < end; ++i) {
          expected_block[i] = block;
          expected_thread[i] = thread;
          if (++thread == threads_per_block) {
            thread = 0;
            ++block;
          }
        }
      }, std::size_t{1} << 16);
      // Exact: blockIdx.x and threadIdx.x are integers, i / threads_per_block and its remainder.
      EXPECT_TRUE(grader::matches(expected_block, block_of, Tolerance::exact()))
          << "block_of[i] must be blockIdx.x, which is i / threads_per_block";
      EXPECT_TRUE(grader::matches(expected_thread, thread_of, Tolerance::exact()))
          << "thread_of[i] must be threadIdx.x, which is i % threads_per_block";
    }
  }
}

// ---- Error checking (steps 2 and 3) ----------------------------------------------------------

std::string silent_launch_advice(const std::string& call, int threads_per_block) {
  return call + " returned normally, but no GPU runs " + std::to_string(threads_per_block) +
         " threads per block (the limit is 1024), so the kernel never ran and the output holds "
         "garbage: check the launch with CUDA_CHECK_LAUNCH() on the line after <<<...>>>, so a "
         "rejected launch throws stepwise::CudaError instead of failing silently";
}

// A launch with too many threads per block: CUDA 12 reports cudaErrorInvalidConfiguration,
// CUDA 13 (seen on an H100) cudaErrorInvalidValue.
const std::initializer_list<cudaError_t> kRejectedLaunch = {cudaErrorInvalidConfiguration, cudaErrorInvalidValue};

TEST(LaunchErrors, TooManyThreadsPerBlockThrows) {
  const int n = 5000;
  // 1025 = the limit of 1024 threads per block (every GPU since compute capability 2.0) + 1, the
  // smallest size CUDA must reject; 2048 is well past it.
  for (int threads_per_block : {2048, 1025}) {
    SCOPED_TRACE(where(n, threads_per_block));
    Output<int> out(n), other(n);
    EXPECT_TRUE(rejected_with(kRejectedLaunch,
                              [&] { write_global_index(out.data(), n, threads_per_block); },
                              silent_launch_advice("write_global_index", threads_per_block)));
    EXPECT_TRUE(rejected_with(kRejectedLaunch,
                              [&] { write_block_and_thread(out.data(), other.data(), n, threads_per_block); },
                              silent_launch_advice("write_block_and_thread", threads_per_block)));
  }
}

}  // namespace
