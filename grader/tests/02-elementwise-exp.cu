// Grader tests for lesson 02 (elementwise exp: expf and __expf, errors in ulps, special values,
// timing with events apart from the copies).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "elementwise_exp.h"
#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/machine_code.h"
#include "stepwise/host_timer.h"

namespace {

using grader::Output;
using grader::Tolerance;
using ExpFunction = void (*)(const float*, float*, int);

constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Inputs in [-80, 80]: e^x runs from 1.8e-35 to 5.5e34, normal floats all (float's range ends
// near e^-87 for normal numbers and e^88.7 before overflow).
constexpr float kWideRange = 80;

// e^x of each input from exp in double, whose error (about 2^-53 relative) is nothing next to a
// float ulp (2^-24 to 2^-23 relative): the exact value, for a float comparison.
std::vector<double> exact_exp(const std::vector<float>& x) {
  std::vector<double> e(x.size());
  grader::in_parallel(x.size(), [&](std::size_t begin, std::size_t end) {  // 16M values: 0.2 s on one thread
    for (std::size_t i = begin; i < end; ++i) e[i] = std::exp(static_cast<double>(x[i]));
  }, 1 << 16);
  return e;
}

// Tolerances from the CUDA C++ Programming Guide's tables of maximum ulp errors. The tables
// measure from the correctly rounded float result; the grader measures from the exact value,
// and the correctly rounded result is itself up to half an ulp from it: each bound gains 0.5.
constexpr double kRoundingUlps = 0.5;

// expf: at most 2 ulp, over the whole range.
Tolerance expf_tolerance() { return Tolerance::ulps(2 + kRoundingUlps); }

// __expf: at most 2 + floor(1.173 * |x|) ulp. The error grows with |x| (README: "Why __expf
// loses accuracy as |x| grows"), so inputs in [-limit, limit] get the bound at |x| = limit.
Tolerance fast_expf_tolerance(float limit) {
  return Tolerance::ulps(2 + std::floor(1.173 * limit) + kRoundingUlps);
}

std::string range_name(float limit) {
  return "x in [-" + std::to_string(static_cast<int>(limit)) + ", " +
         std::to_string(static_cast<int>(limit)) + "]";
}

// What steps 1 and 2 must show when traced (the header's promise): kernels of the student's, on
// the default stream, no wait for the GPU, no copy to or from the host.
grader::Rules kernel_rules(const std::string& step) { return grader::Rules::kernel_step(step); }
const std::string kStep1 = "step 1 (exp_array)";
const std::string kStep2 = "step 2 (exp_array_fast)";

// Runs `exp_function` on the inputs and compares with e^x under `tolerance`; with `traced`, the
// call is traced and must follow those rules.
testing::AssertionResult exp_matches(ExpFunction exp_function, const std::vector<float>& x,
                                     const Tolerance& tolerance, const grader::Rules* traced = nullptr) {
  const int n = static_cast<int>(x.size());
  auto d_x = grader::device(x);
  Output<float> out(n);
  const auto call = [&] { exp_function(d_x.data(), out.data(), n); };
  if (traced != nullptr)
    grader::expect_ran(call, *traced);
  else
    call();
  return grader::matches(exact_exp(x), out, tolerance);
}

// The same on n random inputs in [-limit, limit].
testing::AssertionResult exp_matches_on_range(ExpFunction exp_function, int n, float limit,
                                              const Tolerance& tolerance, const grader::Rules* traced = nullptr) {
  return exp_matches(exp_function, grader::random_floats(n, -limit, limit), tolerance, traced);
}

// exp of a random sample of n device values (grader/sample.h), with the first and the last `ends`
// among them, against e^x of the sampled inputs.
testing::AssertionResult sampled_exp_matches(const float* x, const float* out, std::size_t n, const Tolerance& tolerance,
                                             std::size_t ends = 0) {
  const grader::Sample sample(n, grader::Sample::kValues, ends);
  return sample.matches(exact_exp(sample.of(x)), sample.of(out), tolerance);
}

// Every size, the largest traced.
void expect_matches_at_every_size(ExpFunction exp_function, const Tolerance& tolerance, const std::string& step) {
  const std::vector<int> sizes = grader::standard_sizes(2 * sizeof(float));
  const grader::Rules rules = kernel_rules(step);
  for (int n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", " + range_name(kWideRange));
    EXPECT_TRUE(exp_matches_on_range(exp_function, n, kWideRange, tolerance, n == sizes.back() ? &rules : nullptr));
  }
}

// Input and output that start `x_offset` and `out_offset` floats into their allocations, as
// slices of larger arrays would: not 16-byte aligned unless the offset is a multiple of 4. A
// kernel that loads float4 must still be right, and must not touch the floats before the start.
testing::AssertionResult offset_arrays_match(ExpFunction exp_function, int n, int x_offset,
                                             int out_offset, const Tolerance& tolerance) {
  const std::vector<float> all_x = grader::random_floats(n + x_offset, -kWideRange, kWideRange);
  auto d_x = grader::device(all_x);
  Output<float> out(n + out_offset);
  exp_function(d_x.data() + x_offset, out.data() + out_offset, n);
  const testing::AssertionResult guard = out.guard_intact();
  if (!guard) return guard;
  const std::vector<float> written = out.to_host();
  for (int i = 0; i < out_offset; ++i)
    if (!grader::is_poison(written[i]))
      return testing::AssertionFailure() << "wrote " << out_offset - i
                                         << " element(s) before the start of the output";
  return grader::matches(exact_exp(std::vector<float>(all_x.begin() + x_offset, all_x.end())),
                           std::vector<float>(written.begin() + out_offset, written.end()), tolerance);
}

// ---- exp_array (step 1): expf ----------------------------------------------------------------

TEST(ExpArray, MatchesCpuAtEverySize) {
  expect_matches_at_every_size(exp_array, expf_tolerance(), kStep1);
}

TEST(ExpArray, Within2UlpOnEachRange) {
  for (float limit : {1.0f, 10.0f, kWideRange}) {
    SCOPED_TRACE(range_name(limit));
    EXPECT_TRUE(exp_matches_on_range(exp_array, 1000003, limit, expf_tolerance()));
  }
}

// Near the ends of float's range: e^88.7 = 3.3e38 is close to the largest float (3.4e38),
// e^-87 = 1.6e-38 close to the smallest normal one (1.2e-38); e^-87.5 = 1.0e-38 down to
// e^-103 = 1.8e-45 are subnormal, where floats are 2^-149 apart. expf keeps its 2 ulp there.
TEST(ExpArray, Within2UlpAtTheEndsOfTheFloatRange) {
  const std::vector<float> x = {88.0f, 88.5f, 88.7f, -87.0f, -87.5f, -90.0f, -100.0f, -103.0f};
  EXPECT_TRUE(exp_matches(exp_array, x, expf_tolerance()))
      << "inputs: 88, 88.5, 88.7, -87, -87.5, -90, -100, -103";
}

// Inputs whose float exponential is known exactly: IEEE special values, and inputs so far
// beyond float's range (e^x overflows above x = 88.72 and rounds to 0 below x = -103.97) that
// the only float within any bounded error is infinity or zero.
const std::vector<float> kSpecialInputs = {kInfinity, -kInfinity, kNaN, 0.0f, -0.0f,
                                           100.0f, -200.0f, 1000.0f, -1000.0f};
const std::vector<double> kSpecialResults = {kInfinity, 0, kNaN, 1, 1, kInfinity, 0, kInfinity, 0};
constexpr const char* kSpecialNames = "inputs: +inf, -inf, NaN, +0, -0, 100, -200, 1000, -1000";

TEST(ExpArray, SpecialValues) {
  const std::vector<float> x = kSpecialInputs;
  auto d_x = grader::device(x);
  Output<float> out(x.size());
  exp_array(d_x.data(), out.data(), static_cast<int>(x.size()));
  EXPECT_TRUE(grader::matches(kSpecialResults, out, Tolerance::exact())) << kSpecialNames;
}

TEST(ExpArray, HandlesUnalignedArrays) {
  for (int n : {1, 5, 1000, 100017}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    EXPECT_TRUE(offset_arrays_match(exp_array, n, 1, 1, expf_tolerance())) << "x and out one float in";
    EXPECT_TRUE(offset_arrays_match(exp_array, n, 0, 3, expf_tolerance())) << "out three floats in";
  }
}

// n = INT_MAX (2^31 - 1), the largest n the API's `int n` takes, reaches paths no smaller size
// does: a grid rounded up as (n + 255) / 256 overflows int past INT_MAX - 255 (a launch of a
// negative number of blocks), and a grid-stride loop's last step, i + stride, passes INT_MAX and
// wraps negative in an int. Two traced calls: on cudaMalloc's arrays (a float4 kernel's aligned
// path, with n % 4 = 3 left for its tail), and one float into them (its unaligned path, n - 1
// elements). x and out take 17.2 GB: on a GPU where that is more than 3/4 of its memory, and
// under compute-sanitizer, the check is SKIPPED, saying so (grader::check_at_int_max). Inputs in
// [-80, 80] are drawn on the GPU; 2^16 random results and the first and last 512 are compared
// with e^x within the step's tolerance (expf's 2.5 ulp, or __expf's bound at |x| = 80).
void expect_matches_at_int_max(ExpFunction exp_function, const Tolerance& tolerance, const std::string& step) {
  exp_function(nullptr, nullptr, 0);  // a step not written yet is TODO, on any GPU
  constexpr int n = std::numeric_limits<int>::max();
  std::optional<stepwise::DeviceBuffer<float>> x;
  std::optional<Output<float>> out;
  const auto allocate = [&] {
    x.emplace(n);
    out.emplace(n);
  };
  grader::check_at_int_max("n = INT_MAX", 2 * sizeof(float) * std::size_t{n}, allocate, [&] {
    const std::string hint = grader::kIntMaxHint;
    grader::refill_random(x->data(), n, -kWideRange, kWideRange);
    grader::expect_ran([&] { exp_function(x->data(), out->data(), n); }, kernel_rules(step));
    EXPECT_TRUE(sampled_exp_matches(x->data(), out->data(), n, tolerance, 512)) << hint;
    out->poison();
    grader::expect_ran([&] { exp_function(x->data() + 1, out->data() + 1, n - 1); }, kernel_rules(step));
    EXPECT_TRUE(sampled_exp_matches(x->data() + 1, out->data() + 1, n - 1, tolerance, 512))
        << "x and out one float into their allocations (not 16-byte aligned), " << hint;
  });
}

TEST(ExpArray, MatchesCpuAtIntMax) {
  expect_matches_at_int_max(exp_array, expf_tolerance(), kStep1);
}

// ---- exp_array_fast (step 2): __expf ---------------------------------------------------------

TEST(ExpArrayFast, MatchesCpuAtEverySize) {
  expect_matches_at_every_size(exp_array_fast, fast_expf_tolerance(kWideRange), kStep2);
}

TEST(ExpArrayFast, MatchesCpuAtIntMax) {
  expect_matches_at_int_max(exp_array_fast, fast_expf_tolerance(kWideRange), kStep2);
}

// __expf is one float multiply and the hardware's 2^y: the same bits in every kernel that calls
// it, so the grader's own call of it is the exact reference. expf is within __expf's error
// bound, so only this check tells the step that calls expf (or exp_array) from the one that
// calls __expf: over [-80, 80] their results differ by up to some 90 ulp.
__global__ void grader_fast_exp_kernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __expf(x[i]);
}

TEST(ExpArrayFast, IsTheFastIntrinsic) {
  const int n = 1000003;
  const std::vector<float> x = grader::random_floats(n, -kWideRange, kWideRange);
  auto d_x = grader::device(x);
  stepwise::DeviceBuffer<float> d_expected(n);
  grader_fast_exp_kernel<<<(n + 255) / 256, 256>>>(d_x.data(), d_expected.data(), n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> expected_float(n);
  CUDA_CHECK(cudaMemcpy(expected_float.data(), d_expected.data(), sizeof(float) * n, cudaMemcpyDeviceToHost));
  Output<float> out(n);
  exp_array_fast(d_x.data(), out.data(), n);
  EXPECT_TRUE(grader::matches(std::vector<double>(expected_float.begin(), expected_float.end()), out, Tolerance::exact()))
      << "out[i] must be __expf(x[i]) bit for bit, as the grader's own kernel computes it: does the step call "
         "expf (or exp_array) instead of the fast intrinsic __expf?";
}

TEST(ExpArrayFast, WithinItsBoundOnEachRange) {
  for (float limit : {1.0f, 10.0f, kWideRange}) {
    SCOPED_TRACE(range_name(limit));
    EXPECT_TRUE(exp_matches_on_range(exp_array_fast, 1000003, limit, fast_expf_tolerance(limit)));
  }
}

// Near the overflow end only: close to the subnormal end __expf may flush its result to zero
// (libdevice: "most input and output values around denormal range are flushed").
TEST(ExpArrayFast, WithinItsBoundNearTheLargestFloat) {
  EXPECT_TRUE(exp_matches(exp_array_fast, {88.0f, 88.5f}, fast_expf_tolerance(88.5f))) << "inputs: 88, 88.5";
}

// The math API documents __expf's special cases as those of expf; the hardware instruction
// behind it (PTX ex2.approx) maps +-0 to 1, -inf to 0, +inf to inf and NaN to NaN; 100, 1000 and
// -200, -1000 lie so far out of range that its bounded relative error cannot bring them back.
TEST(ExpArrayFast, SpecialValues) {
  const std::vector<float> x = kSpecialInputs;
  auto d_x = grader::device(x);
  Output<float> out(x.size());
  exp_array_fast(d_x.data(), out.data(), static_cast<int>(x.size()));
  EXPECT_TRUE(grader::matches(kSpecialResults, out, Tolerance::exact())) << kSpecialNames;
}

TEST(ExpArrayFast, HandlesUnalignedArrays) {
  for (int n : {1, 5, 1000, 100017}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const Tolerance tolerance = fast_expf_tolerance(kWideRange);
    EXPECT_TRUE(offset_arrays_match(exp_array_fast, n, 1, 1, tolerance)) << "x and out one float in";
    EXPECT_TRUE(offset_arrays_match(exp_array_fast, n, 0, 3, tolerance)) << "out three floats in";
  }
}

// Both steps compute in float: expf and __expf of a float, no double (`exp(double(x))`, `* 1.0`)
// on the way (grader/machine_code.h). Every kernel of the lesson is a float kernel.
TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic(".", [] {
    exp_array(nullptr, nullptr, 0);
    exp_array_fast(nullptr, nullptr, 0);
  });
}

// ---- exp_timed (step 3): timing with events ----------------------------------------------------

// How many kernels `exp_function` launches for n elements in buffers from cudaMalloc (untraced
// by the rules: a step of its own), or -1 where the trace is not available.
int kernels_launched(ExpFunction exp_function, int n) {
  stepwise::DeviceBuffer<float> d_x(n), d_out(n);
  const grader::Trace t = grader::trace([&] { exp_function(d_x.data(), d_out.data(), n); });
  return t.available ? static_cast<int>(t.kernels_of(grader::Origin::student).size()) : -1;
}

// One call of exp_timed traced: what it promises (its own kernels, all on the default stream,
// everything finished when it returns; it copies, so host copies are allowed), and its four
// times against the traced times, in the same call, of the copy of x in, exp_array's kernels,
// then exp_array_fast's, and the copy back (grader::reported_time_matches: a slow launch under CUPTI widens
// the window the events may span as much as it lengthens what they time).
void expect_times_match_trace(const std::vector<float>& x, int n) {
  const int accurate_kernels = kernels_launched(exp_array, n), fast_kernels = kernels_launched(exp_array_fast, n);
  std::vector<float> out = grader::poisoned_host<float>(n);
  ExpTimings t{};
  const grader::Trace ran = grader::expect_ran(
      [&] { t = exp_timed(x.data(), out.data(), n); },
      grader::Rules("step 3 (exp_timed)").own_kernels().on_stream(nullptr).done_when_returned());
  EXPECT_TRUE(grader::matches(exact_exp(x), out, expf_tolerance())) << "the traced call of exp_timed";
  if (!ran.available || accurate_kernels < 0) return;

  std::vector<const grader::TracedCopy*> copy_in, copy_out;
  for (const grader::TracedCopy& c : ran.copies) {
    if (c.direction == "host to device") copy_in.push_back(&c);
    if (c.direction == "device to host") copy_out.push_back(&c);
  }
  EXPECT_TRUE(grader::reported_time_matches(t.copy_in_ms, ran, copy_in, "your copy_in_ms (the copy of x to the GPU)"));
  EXPECT_TRUE(grader::reported_time_matches(t.copy_out_ms, ran, copy_out, "your copy_out_ms (the copy of the result back)"));
  std::vector<const grader::TracedKernel*> kernels = ran.kernels_of(grader::Origin::student);
  std::sort(kernels.begin(), kernels.end(), [](auto a, auto b) { return a->start < b->start; });
  if (static_cast<int>(kernels.size()) != accurate_kernels + fast_kernels) {
    ADD_FAILURE() << "step 3 (exp_timed) ran " << kernels.size() << " kernel(s) of yours; exp_array launches "
                  << accurate_kernels << " and exp_array_fast " << fast_kernels
                  << " for this n: call each of them once.\n  What ran:\n" << ran.listing();
    return;
  }
  const std::vector<const grader::TracedKernel*> accurate(kernels.begin(), kernels.begin() + accurate_kernels),
      fast(kernels.begin() + accurate_kernels, kernels.end());
  EXPECT_TRUE(grader::reported_time_matches(t.kernel_ms, ran, accurate, "your kernel_ms (exp_array's kernels)"));
  EXPECT_TRUE(grader::reported_time_matches(t.fast_kernel_ms, ran, fast, "your fast_kernel_ms (exp_array_fast's kernels)"));
}

TEST(ExpTimed, ReturnsExpOfTheInput) {
  for (int n : {0, 1, 33, 100017, 1000003}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<float> x = grader::random_floats(n, -kWideRange, kWideRange);
    std::vector<float> out = grader::poisoned_host<float>(n);
    exp_timed(x.data(), out.data(), n);
    EXPECT_TRUE(grader::matches(exact_exp(x), out, expf_tolerance()));
  }
}

TEST(ExpTimed, TimesKernelsApartFromCopies) {
  grader::hold_the_gpu_alone();  // it compares times
  {  // warm-up: the first launches also load the kernels' code
    const std::vector<float> x = grader::random_floats(1000, -1, 1);
    std::vector<float> out(x.size());
    exp_timed(x.data(), out.data(), static_cast<int>(x.size()));
  }
  const int n = static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 24, 3 * sizeof(float)));
  SCOPED_TRACE("n = " + std::to_string(n));
  const std::vector<float> x = grader::random_floats(n, -kWideRange, kWideRange);
  std::vector<float> out = grader::poisoned_host<float>(n);
  ExpTimings t{};
  const double call_ms = stepwise::host_ms([&] { t = exp_timed(x.data(), out.data(), n); });
  ASSERT_TRUE(grader::matches(exact_exp(x), out, expf_tolerance()));
  expect_times_match_trace(x, n);

  // Greater than 0: each part moves or computes 4 bytes per element for millions of elements,
  // micro- to milliseconds, far above the events' resolution (about 0.5 us); 0 means not timed.
  EXPECT_GT(t.copy_in_ms, 0.0f) << "copy_in_ms was not measured";
  EXPECT_GT(t.kernel_ms, 0.0f) << "kernel_ms was not measured";
  EXPECT_GT(t.fast_kernel_ms, 0.0f) << "fast_kernel_ms was not measured";
  EXPECT_GT(t.copy_out_ms, 0.0f) << "copy_out_ms was not measured";

  // Four parts, one after the other, all inside the call: together they cannot take longer
  // than the call did.
  EXPECT_TRUE(grader::parts_fit_in_whole(t.copy_in_ms + t.kernel_ms + t.fast_kernel_ms + t.copy_out_ms, call_ms,
                                         "the four times"));

  // A GPU moves data in its own memory many times faster than data crosses to it from the host
  // (lesson 01): a kernel that reads and writes 8 bytes per element beats the copy of 4 bytes
  // per element to the GPU.
  EXPECT_LT(t.kernel_ms, t.copy_in_ms)
      << "kernel_ms (" << t.kernel_ms << " ms) is not below copy_in_ms (" << t.copy_in_ms
      << " ms): the time taken for exp_array includes a copy (or the kernel is very slow: see "
      << "the speed checks)";
  EXPECT_LT(t.fast_kernel_ms, t.copy_in_ms)
      << "fast_kernel_ms (" << t.fast_kernel_ms << " ms) is not below copy_in_ms (" << t.copy_in_ms
      << " ms): the time taken for exp_array_fast includes a copy (or the kernel is very slow: "
      << "see the speed checks)";
}

// ---- speed -------------------------------------------------------------------------------------

// exp reads 4 bytes and writes 4 per element, and its dozen or so instructions are cheap next
// to moving those bytes: a device-to-device copy is the ceiling. Each timed run gets fresh
// inputs, and a random sample of the results is checked after timing.
struct SpeedSetup {
  // 2^26 floats (256 MB per array), so the launch's few microseconds are noise; fewer on a GPU
  // with less free memory.
  int n = static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 26, 2 * sizeof(float)));
  stepwise::DeviceBuffer<float> x{static_cast<std::size_t>(n)}, out{static_cast<std::size_t>(n)};
  double bytes() const { return 2.0 * sizeof(float) * n; }

  grader::Workload exp_with(ExpFunction exp_function, Tolerance tolerance, const std::string& step) {
    grader::Workload work{[this] {
              grader::refill_random(x.data(), n, -kWideRange, kWideRange);
              grader::poison(out.data(), n);
            },
            [this, exp_function] { exp_function(x.data(), out.data(), n); },
            [this, tolerance] { return sampled_exp_matches(x.data(), out.data(), n, tolerance); }};
    work.what_ran = kernel_rules(step);
    return work;
  }
};

void expect_near_copy_speed(ExpFunction exp_function, Tolerance tolerance, const std::string& step) {
  SpeedSetup s;
  const grader::Workload work = s.exp_with(exp_function, tolerance, step);
  grader::expect_speed([&] { return grader::fraction_of_copy_bandwidth(s.bytes(), grader::gpu_median_ms(work)); });
}

TEST(ExpSpeed, AccurateNearCopyBandwidth) {
  expect_near_copy_speed(exp_array, expf_tolerance(), kStep1);
}

TEST(ExpSpeed, FastNearCopyBandwidth) {
  expect_near_copy_speed(exp_array_fast, fast_expf_tolerance(kWideRange), kStep2);
}

TEST(ExpSpeed, FasterThanOneCpuThread) {
  SpeedSetup s;
  const std::vector<float> host_x = grader::random_floats(s.n, -kWideRange, kWideRange);
  std::vector<float> cpu_out(s.n);
  const double cpu_ms = grader::cpu_median_ms([&] {
    for (int i = 0; i < s.n; ++i) cpu_out[i] = std::exp(host_x[i]);
  });
  const grader::Workload work = s.exp_with(exp_array, expf_tolerance(), kStep1);
  grader::expect_speed([&] {
    grader::Figure figure = grader::speedup(cpu_ms, grader::gpu_median_ms(work), "one CPU thread");
    // Ceiling: the kernel must move bytes() through memory, at best 1.1 x copy bandwidth (the
    // ceiling of fraction_of_copy_bandwidth), so no honest GPU time is below that.
    figure.ceiling = cpu_ms / grader::fastest_ms_to_move(s.bytes());
    return figure;
  });
}

}  // namespace
