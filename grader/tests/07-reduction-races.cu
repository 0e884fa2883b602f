// Grader tests for lesson 07 (reductions and races: the seed's stencil done right, and three
// sums of an array: atomics, a tree in shared memory, warp shuffles; CUB as the ceiling).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cub/device/device_reduce.cuh>

#include "grader/grader.h"
#include "reduction.h"
#include "reduction_cpu.h"

namespace {

using grader::Output;
using SumFunction = void (*)(const float*, int, float*);

constexpr double kUnitRoundoff = 0x1p-24;  // u: a float operation is exact to within (1 + u)

// ---- Error bounds ------------------------------------------------------------------------
// A float sum whose every value passes through at most `depth` roundings on its way to the
// result is within gamma(depth) * sum |x| of the exact sum, gamma(k) = k u / (1 - k u)
// (Higham, Accuracy and Stability of Numerical Algorithms, section 4.2). The bound holds for
// every order of the additions; infinite when k u >= 1 (nothing can be promised).
double gamma(double depth) {
  const double ku = depth * kUnitRoundoff;
  return ku >= 1 ? std::numeric_limits<double>::infinity() : ku / (1 - ku);
}

// Atomics: all n values go through one address in some order, a chain of n - 1 additions.
double atomic_depth(int n) { return n > 1 ? n - 1 : 0; }

// Trees: log2 n levels, counted twice (warp, block and grid levels need not each be full), and
// one further rounding per 256 elements for the chains a grid-stride loop or one atomicAdd per
// block adds.
double tree_depth(int n) { return n > 1 ? 2 * std::ceil(std::log2(n)) + std::ceil(n / 256.0) : 0; }

// Under compute-sanitizer (racecheck makes every shared-memory access slow) the checks stay
// small: races show at any size, and a minute is enough for all of them.
constexpr int kLargestUnderSanitizer = 1 << 14;
int large_size(int wanted) {
  const int fits = static_cast<int>(grader::fit_in_device_memory(wanted, 2 * sizeof(float)));
  return grader::under_sanitizer() ? std::min(fits, kLargestUnderSanitizer) : fits;
}

// The sizes of the sum checks: the empty array, one element, a warp and either side of it, a
// block and one more (the odd element of a tree), primes, and a large one.
std::vector<int> sum_sizes(int largest) {
  if (grader::under_sanitizer()) return {0, 1, 31, 32, 33, 256, 1025, 4099, large_size(largest)};
  return {0, 1, 31, 32, 33, 256, 1025, 100003, large_size(largest)};
}

// n values with magnitudes in [0.5, 1] (a lost element always shows at small sizes); all
// positive, or with random signs, so that the sum cancels.
std::vector<float> sum_inputs(int n, bool mixed_signs) {
  std::vector<float> x = grader::random_floats(n, 0.5f, 1.0f);
  if (mixed_signs) {
    const std::vector<int> sign = grader::random_ints(n, 0, 1);
    for (int i = 0; i < n; ++i)
      if (sign[i]) x[i] = -x[i];
  }
  return x;
}

// Runs `sum` on x (placed `offset` floats into its allocation) and compares with the exact sum.
testing::AssertionResult sum_matches(SumFunction sum, const std::vector<float>& x, double depth, int offset = 0) {
  const int n = static_cast<int>(x.size()) - offset;
  auto d_x = grader::device(x);
  Output<float> out(1);
  sum(d_x.data() + offset, n, out.data());
  const testing::AssertionResult guard = out.guard_intact();
  if (!guard) return guard;
  const float got = out.to_host()[0];
  const long double exact = sum_cpu<long double>(x.data() + offset, n);
  const double magnitudes = sum_of_magnitudes(x.data() + offset, n);
  const double bound = gamma(depth) * magnitudes;
  std::ostringstream where;
  where << "n = " << n << (offset ? ", the array starting " + std::to_string(offset) + " floats in" : "") << ": ";
  if (grader::is_poison(got))
    return testing::AssertionFailure() << where.str() << "*sum was never written (is it set to 0 first, also for n = 0?)";
  const double error = std::fabs(static_cast<double>(got - exact));
  if (!(error <= bound))
    return testing::AssertionFailure()
           << where.str() << "the sum is " << got << ", the exact sum " << static_cast<double>(exact) << ": off by "
           << error << ", more than rounding can explain (" << bound << " = gamma(" << depth << ") * sum |x|, sum |x| = "
           << magnitudes << "). Every element is 0.5 to 1 in size: was an element left out (the tail past the last "
           << "whole block, the odd element of a tree) or added twice, or did two threads overwrite each other?";
  return testing::AssertionSuccess();
}

// Every size, positive and mixed-sign inputs, then n < 0.
void expect_sums_right(SumFunction sum, double (*depth)(int), int largest) {
  for (int n : sum_sizes(largest)) {
    for (bool mixed : {false, true}) {
      SCOPED_TRACE(std::string(mixed ? "mixed signs, " : "positive, ") + "n = " + std::to_string(n));
      EXPECT_TRUE(sum_matches(sum, sum_inputs(n, mixed), depth(n)));
    }
  }
  Output<float> out(1);
  EXPECT_THROW(sum(out.data(), -1, out.data()), std::invalid_argument) << "n = -1 must throw std::invalid_argument";
  EXPECT_TRUE(grader::is_poison(out.to_host()[0])) << "n = -1: nothing may be written";
}

// ---- Step 1: the stencil --------------------------------------------------------------------

// The seed's model: 960 outputs, half-width 12.
constexpr int kSeedSize = 960;
constexpr int kSeedHalfWidth = 12;

// Float products and sums of 2s + 1 terms: each term passes through at most 2s + 2 roundings
// (its product, the halving is exact, and the chain of additions), so an output is within
// gamma(2s + 2) * sum_k |a_k z| of the exact one; the largest such sum over all outputs bounds all.
testing::AssertionResult smooth_matches(int n, int s) {
  const std::vector<float> z = grader::random_floats(static_cast<std::size_t>(n) + 2 * s, -1, 1);
  const std::vector<float> a = grader::random_floats(2 * s + 1, 0, 1);
  std::vector<double> exact(n);
  smooth_cpu(z.data(), a.data(), exact.data(), n, s);
  double largest_terms = 0;  // max over i of sum_k |a_k z|, with |z| <= 1
  for (float w : a) largest_terms += std::fabs(w);
  auto d_z = grader::device(z), d_a = grader::device(a);
  Output<float> out(n);
  smooth(d_z.data(), d_a.data(), out.data(), n, s);
  return grader::matches(exact, out, grader::Tolerance::close(gamma(2 * s + 2) * largest_terms, 0));
}

TEST(Smooth, MatchesCpuAtEverySize) {
  REQUIRE_GPU();
  const int prime = grader::under_sanitizer() ? 4099 : 100003;
  for (int s : {1, 3, kSeedHalfWidth}) {
    for (int n : {0, 1, 31, 33, 1025, prime, kSeedSize, large_size(1 << 22)}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", s = " + std::to_string(s));
      EXPECT_TRUE(smooth_matches(n, s));
    }
  }
}

TEST(Smooth, WideStencils) {
  REQUIRE_GPU();
  for (int s : {31, 100}) {
    SCOPED_TRACE("s = " + std::to_string(s));
    EXPECT_TRUE(smooth_matches(10007, s));
  }
}

TEST(Smooth, BadHalfWidthThrowsAndWritesNothing) {
  REQUIRE_GPU();
  const std::vector<float> z = grader::random_floats(100, -1, 1), a = grader::random_floats(3, 0, 1);
  auto d_z = grader::device(z), d_a = grader::device(a);
  Output<float> out(10);
  smooth(d_z.data(), d_a.data(), out.data(), 10, 1);  // a valid call first (TODO until step 1)
  out.poison();
  EXPECT_THROW(smooth(d_z.data(), d_a.data(), out.data(), 10, 0), std::invalid_argument) << "s = 0";
  EXPECT_THROW(smooth(d_z.data(), d_a.data(), out.data(), -1, 1), std::invalid_argument) << "n = -1";
  const std::vector<float> after = out.to_host();
  EXPECT_TRUE(std::all_of(after.begin(), after.end(), [](float v) { return grader::is_poison(v); }))
      << "a call that throws must write nothing";
}

// ---- Steps 2-4: the sums ----------------------------------------------------------------------

// The atomic sum at 2^22 at most: a chain of n additions can promise nothing beyond 2^24.
TEST(SumAtomic, MatchesReferenceAtEverySize) {
  REQUIRE_GPU();
  expect_sums_right(sum_atomic, atomic_depth, 1 << 22);
}

TEST(SumTree, MatchesReferenceAtEverySize) {
  REQUIRE_GPU();
  expect_sums_right(sum_tree, tree_depth, 1 << 25);
}

TEST(SumShuffle, MatchesReferenceAtEverySize) {
  REQUIRE_GPU();
  expect_sums_right(sum_shuffle, tree_depth, 1 << 25);
}

// float4 loads need 16-byte alignment: an array that starts 1, 2 or 3 floats in must still be
// summed whole, and nothing before its start may be added.
TEST(SumShuffle, UnalignedArrays) {
  REQUIRE_GPU();
  for (int n : {1, 2, 3, 5, 33, 1025, grader::under_sanitizer() ? 4099 : 100003}) {
    for (int offset : {1, 2, 3}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", offset = " + std::to_string(offset));
      EXPECT_TRUE(sum_matches(sum_shuffle, sum_inputs(n + offset, false), tree_depth(n), offset));
    }
  }
}

// ---- Speed ------------------------------------------------------------------------------------

// The sums' data: 2^28 floats (1 GiB) where free memory allows. Fresh values in [0.5, 1] before
// every timed call, so sum |x| is the sum itself, and the exact sum of each draw, computed on
// the GPU in double by CUB (error about 28 * 2^-53 of the sum), to check the timed call with.
class SumBench {
 public:
  SumBench() : n_(static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 28, sizeof(float)))), x_(n_) {
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes_, x_.data(), exact_.data(), n_));
    std::size_t float_bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, float_bytes, x_.data(), cub_sum_.data(), n_));
    temp_ = stepwise::DeviceBuffer<unsigned char>(std::max(temp_bytes_, float_bytes));  // outside every timing
    temp_bytes_ = temp_.size();
  }

  // CUB's float sum of the same data: the ceiling, timed like any library call.
  double cub_ms() {
    grader::refill_random(x_.data(), n_, 0.5f, 1.0f);
    return grader::gpu_median_ms([&] {
      std::size_t bytes = temp_bytes_;
      CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, x_.data(), cub_sum_.data(), n_));
    });
  }

  // The student's sum, timed through a Workload: fresh data and a poisoned result before every
  // run, the result checked after it.
  double sum_ms(SumFunction sum, double (*depth)(int)) {
    grader::Workload work;
    work.fresh_inputs = [&] {
      grader::refill_random(x_.data(), n_, 0.5f, 1.0f);
      std::size_t bytes = temp_bytes_;
      CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, x_.data(), exact_.data(), n_));
      exact_value_ = exact_.to_host()[0];
      grader::poison(out_.data(), 1);
    };
    work.call = [&] { sum(x_.data(), n_, out_.data()); };
    work.output_is_right = [&, depth]() -> testing::AssertionResult {
      const float got = out_.to_host()[0];
      const double bound = gamma(depth(n_)) * exact_value_;
      if (grader::is_poison(got)) return testing::AssertionFailure() << "*sum was never written";
      if (!(std::fabs(got - exact_value_) <= bound))
        return testing::AssertionFailure() << "the sum of " << n_ << " floats is " << got << ", the exact sum "
                                           << exact_value_ << " (allowed error " << bound << ")";
      return testing::AssertionSuccess();
    };
    return grader::gpu_median_ms(work);
  }

  int n() const { return n_; }

 private:
  int n_;
  stepwise::DeviceBuffer<float> x_;
  stepwise::DeviceBuffer<double> exact_{1};
  stepwise::DeviceBuffer<float> cub_sum_{1}, out_{1};
  stepwise::DeviceBuffer<unsigned char> temp_;
  std::size_t temp_bytes_ = 0;
  double exact_value_ = 0;
};

// A sum as a fraction of CUB's speed on the same data. No honest sum is much faster than CUB,
// which reads at about the speed of memory: above 1.25 times it, work was skipped.
void expect_fraction_of_cub(SumFunction sum, double (*depth)(int)) {
  SumBench bench;
  const double cub_ms = bench.cub_ms();
  grader::expect_speed([&] {
    const double ms = bench.sum_ms(sum, depth);
    std::ostringstream how;
    how << std::fixed << std::setprecision(3) << ms << " ms vs CUB " << cub_ms << " ms, " << bench.n()
        << " floats; CUB reads " << std::setprecision(0) << 1e-6 * sizeof(float) * bench.n() / cub_ms << " GB/s";
    return grader::Figure{cub_ms / ms, how.str(), 1.25};
  });
}

TEST(SumSpeed, ShuffleVsCub) {
  REQUIRE_GPU();
  expect_fraction_of_cub(sum_shuffle, tree_depth);
}

TEST(SumSpeed, TreeVsCub) {
  REQUIRE_GPU();
  expect_fraction_of_cub(sum_tree, tree_depth);
}

TEST(SumSpeed, AtomicVsCub) {
  REQUIRE_GPU();
  expect_fraction_of_cub(sum_atomic, atomic_depth);
}

// The stencil on 2^24 outputs of the seed's 25 terms, against the same loop on one CPU thread.
// The timed calls are checked at 4096 outputs spread over the array and at its last ones.
TEST(SmoothSpeed, FasterThanOneCpuThread) {
  REQUIRE_GPU();
  const int n = static_cast<int>(grader::fit_in_device_memory(1 << 24, 2 * sizeof(float)));
  const int s = kSeedHalfWidth;
  const std::vector<float> a = grader::random_floats(2 * s + 1, 0, 1);
  double terms = 0;
  for (float w : a) terms += w;
  auto d_a = grader::device(a);
  stepwise::DeviceBuffer<float> d_z(static_cast<std::size_t>(n) + 2 * s), d_out(n);

  std::vector<float> z = grader::random_floats(d_z.size(), -1, 1), cpu_out(n);
  const double cpu_ms = grader::cpu_median_ms([&] { smooth_cpu(z.data(), a.data(), cpu_out.data(), n, s); });

  grader::Workload work;
  work.fresh_inputs = [&] {
    grader::refill_random(d_z.data(), d_z.size(), -1.0f, 1.0f);
    grader::poison(d_out.data(), d_out.size());
  };
  work.call = [&] { smooth(d_z.data(), d_a.data(), d_out.data(), n, s); };
  work.output_is_right = [&]() -> testing::AssertionResult {
    const std::vector<float> out = d_out.to_host();
    z = d_z.to_host();
    const double bound = gamma(2 * s + 2) * terms;
    for (int i = 0; i < n; i += (i < n - 64 ? std::max(1, n / 4096) : 1)) {
      double exact = 0;
      smooth_cpu(z.data() + i, a.data(), &exact, 1, s);
      if (!(std::fabs(out[i] - exact) <= bound))
        return testing::AssertionFailure() << "out[" << i << "] is " << out[i] << ", expected " << exact;
    }
    return testing::AssertionSuccess();
  };
  grader::expect_speed([&] { return grader::speedup(cpu_ms, grader::gpu_median_ms(work), "one CPU thread"); });
}

}  // namespace
