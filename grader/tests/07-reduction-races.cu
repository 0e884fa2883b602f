// Grader tests for lesson 07 (reductions and races: the seed's stencil done right, and three
// sums of an array: atomics, a tree in shared memory, warp shuffles; CUB as the ceiling).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cub/device/device_reduce.cuh>

#include "grader/grader.h"
#include "grader/machine_code.h"
#include "grader/splitmix.h"
#include "grader/trace.h"
#include "reduction.h"
#include "reduction_cpu.h"
#include "stepwise/cuda_error.h"
#include "stepwise/not_implemented.h"

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

// What the float inputs below (magnitudes 0.5 to 1; all positive, or one in four negative) let
// these bounds reject. The exact sum S is then all of sum |x| or about half of it (0.75 n, 0.375 n;
// sum |x| about 0.75 n), so a bound gamma(D) sum |x| below S rejects a sum of 0, and a part left
// out is rejected when its sum exceeds gamma(D) sum |x|: one element (0.5 at least) where the bound
// is below 0.5. The smallest fault rejected, by size (bound = gamma(D) x 0.75 n; the reference's own
// errors, simulated in float on the CPU in its orders on these inputs, stay below 0.09 of it):
//   n = 1 .. 33        atomic, tree: bound <= 5e-5   one element
//   n = 1025           atomic 0.047, tree 0.0012     one element
//   n = 100003         atomic 450, tree 1.9          atomic ~900 elements; tree 4 (so one warp,
//                                                    16 at least when positive)
//   n = 2^22, atomic   1.05e6: S / 3 (positive),     a third of the array (two thirds with signs);
//                      S / 1.5 (with signs)          a sum of 0 (with random signs it passed)
//   n = 2^25, tree     1.98e5: S / 127 (positive),   0.8% of the array (1.6% with signs); a sum of
//                      S / 63 (with signs)           0 (with random signs it passed: S ~ 4400)
// Those large-n bounds are the worst cases of their orders, not slack: a chain of m additions onto
// a partial sum of 2^21..2^22 (2^24..2^25) may round each by half a unit in the last place, 0.125
// (1), so m = 2^22 atomics (m = 2^17 per-block atomics) may in the worst order drift 5e5 (1.3e5).
// What those sizes leave to be caught, the integer inputs (exact sums, below) catch: one element.

// Atomics: all n values go through one address in some order, a chain of n - 1 additions.
double atomic_depth(int n) { return n > 1 ? n - 1 : 0; }

// Trees: log2 n levels, counted twice (warp, block and grid levels need not each be full), and
// one further rounding per 256 elements for the chains a grid-stride loop or one atomicAdd per
// block adds (a tree of 256-thread blocks, as step 3 asks, is 8 levels and a chain of n / 256).
// At 2^25 it admits leaving out one element in 128, or 7/8 of the array summed and scaled by
// 8/7 (table above): the integer inputs below, whose sums must be exact, catch those.
double tree_depth(int n) { return n > 1 ? 2 * std::ceil(std::log2(n)) + std::ceil(n / 256.0) : 0; }

// ---- Integer inputs: sums that must be exact ---------------------------------------------------
// Small integers (1 to 4 in magnitude, random sign), at a density that keeps sum |x| at most 2^23
// (all elements up to 2^21 of them, on average 2^21 nonzero ones beyond): every partial sum, in
// any order, is then an integer below 2^24 in magnitude, which a float holds exactly, so every
// addition is exact and a right sum equals the exact sum, bit for bit. The smallest fault this
// admits: leaving out (or adding twice) elements that are all zero; one nonzero element left out
// or added twice, or a partial sum scaled up to stand for the rest, is caught.
constexpr double kLargestNonzeros = 1 << 21;

float integer_density(std::size_t n) {
  return n <= kLargestNonzeros ? 1.0f : static_cast<float>(kLargestNonzeros / static_cast<double>(n));
}

// The integer a uniform u in [0, 1) stands for: 0 unless u < density, then +-1 .. +-4.
__host__ __device__ inline float integer_from_uniform(float u, float density) {
  if (!(u < density)) return 0.0f;
  int v = static_cast<int>(u / density * 8.0f);  // 0 .. 7 (8 only where the division rounds up)
  if (v > 7) v = 7;
  const float magnitude = 1.0f + static_cast<float>(v % 4);
  return v < 4 ? magnitude : -magnitude;
}

__global__ void integers_from_uniforms(float* x, std::size_t n, float density) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(blockDim.x) * gridDim.x)
    x[i] = integer_from_uniform(x[i], density);
}

// Fresh integer inputs on the device (for the speed checks' large arrays).
void refill_integers(float* x, std::size_t n) {
  grader::refill_random(x, n, 0.0f, 1.0f);
  if (n == 0) return;
  integers_from_uniforms<<<grader::grid_stride_blocks(n), 256>>>(x, n, integer_density(n));
  CUDA_CHECK(cudaGetLastError());
}

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

// The inputs of the sum checks: n values with magnitudes in [0.5, 1] (a lost element always
// shows at small sizes), all positive or with random signs, one in four negative (so that the sum
// partly cancels, and yet stays near half of sum |x|: with signs even at random the exact sum
// would be about sqrt(n), inside the bound at large n, and a sum of 0 would pass), and small
// integers whose sum must be exact.
enum class Inputs { positive, mixed_signs, integers };

std::string describe(Inputs kind) {
  switch (kind) {
    case Inputs::positive: return "positive";
    case Inputs::mixed_signs: return "mixed signs";
    default: return "small integers";
  }
}

std::vector<float> sum_inputs(int n, Inputs kind) {
  if (kind == Inputs::integers) {
    std::vector<float> x = grader::random_floats(n, 0.0f, 1.0f);
    const float density = integer_density(n);
    for (float& v : x) v = integer_from_uniform(v, density);
    return x;
  }
  std::vector<float> x = grader::random_floats(n, 0.5f, 1.0f);
  if (kind == Inputs::mixed_signs) {  // one in four negative: sum x = 0.375 n, sum |x| = 0.75 n
    const std::vector<int> sign = grader::random_ints(n, 0, 3);
    for (int i = 0; i < n; ++i)
      if (sign[i] == 0) x[i] = -x[i];
  }
  return x;
}

// ---- What ran ----------------------------------------------------------------------------------
// The header's promise for every step: it launches its work on the default stream and returns
// without waiting for the GPU, on data already on the device, and is written by hand: a kernel of
// the student's, no library (a "shuffle" sum that is cub::DeviceReduce::Sum fails, naming CUB).
// Step 3 keeps its tree in shared memory; no sum step runs the kernel of another (an "atomic" or a
// "tree" sum that launches the shuffle kernel).
enum class Sum { atomic, tree, shuffle };

const char* name_of(Sum step) {
  switch (step) {
    case Sum::atomic: return "step 2 (sum_atomic)";
    case Sum::tree: return "step 3 (sum_tree)";
    default: return "step 4 (sum_shuffle)";
  }
}

SumFunction function_of(Sum step) {
  switch (step) {
    case Sum::atomic: return sum_atomic;
    case Sum::tree: return sum_tree;
    default: return sum_shuffle;
  }
}

// A tree in shared memory keeps a value for every thread of the block (for half of them at least,
// where the first level is added on the way in); a block's warp sums alone (4 B a warp, as in step
// 4) are no tree.
testing::AssertionResult holds_a_tree(const grader::Trace& t) {
  std::ostringstream shown;
  for (const grader::TracedKernel& k : t.kernels) {
    if (k.origin != grader::Origin::student) continue;
    const long long threads = static_cast<long long>(k.block.x) * k.block.y * k.block.z;
    const long long wanted = std::max<long long>(1, threads / 2 * static_cast<long long>(sizeof(float)));
    // threads / 2 floats: a tree whose first level adds two values on the way in keeps half the block.
    if (k.shared_bytes >= wanted) return testing::AssertionSuccess();
    shown.str("");
    shown << "`" << k.name.substr(0, k.name.find('(')) << "` used " << k.shared_bytes << " B for a block of "
          << threads << " threads; a tree keeps a float for every thread, at least " << wanted << " B";
  }
  return testing::AssertionFailure() << "kept no tree in shared memory ("
                                     << (shown.str().empty() ? std::string("no kernel of yours ran") : shown.str())
                                     << "): add the block's values pairwise in a __shared__ array";
}

// The trace of another step's sum of x, into a scratch float; none where that step is not written
// yet (or fails: its own checks say so), or under compute-sanitizer (nothing is traced there).
std::optional<grader::Trace> trace_of(Sum step, const float* x, int n) {
  if (grader::under_sanitizer()) return std::nullopt;
  stepwise::DeviceBuffer<float> scratch(1);
  try {
    return grader::trace([&] { function_of(step)(x, n, scratch.data()); });
  } catch (const std::exception&) {  // a TODO (stepwise::NotImplemented), or a failure of that step
    return std::nullopt;
  }
}

// What `step`'s sum of x must show; the other sum steps are traced first on the same array (the
// atomic step on its first `most_atomic` elements at most: its kernel, the one name this rule
// compares, is the same for any n, and each of its elements is an atomic on one address).
grader::Rules what_must_run(Sum step, const float* x, int n, int most_atomic = INT_MAX) {
  grader::Rules rules = grader::Rules::kernel_step(name_of(step));
  if (step == Sum::tree) rules.also(holds_a_tree);
  for (Sum other : {Sum::atomic, Sum::tree, Sum::shuffle}) {
    if (other == step) continue;
    const int traced_n = other == Sum::atomic ? std::min(n, most_atomic) : n;
    if (const std::optional<grader::Trace> theirs = trace_of(other, x, traced_n))
      rules.kernels_differ_from(*theirs, name_of(other));
  }
  return rules;
}

// Runs `sum` on x (placed `offset` floats into its allocation) and compares with the exact sum:
// within gamma(depth) * sum |x|, or, with `exact` (integer inputs), equal. With `traced`, the call
// is traced and must show what that step's calls must show.
testing::AssertionResult sum_matches(SumFunction sum, const std::vector<float>& x, double depth, int offset = 0,
                                     bool exact = false, std::optional<Sum> traced = std::nullopt) {
  const int n = static_cast<int>(x.size()) - offset;
  auto d_x = grader::device(x);
  Output<float> out(1);
  const auto call = [&] { sum(d_x.data() + offset, n, out.data()); };
  if (traced)
    grader::expect_ran(call, what_must_run(*traced, d_x.data() + offset, n));
  else
    call();
  const testing::AssertionResult guard = out.guard_intact();
  if (!guard) return guard;
  const float got = out.to_host()[0];
  const long double exact_sum = sum_cpu<long double>(x.data() + offset, n);
  const double magnitudes = sum_of_magnitudes(x.data() + offset, n);
  std::ostringstream where;
  where << "n = " << n << (offset ? ", the array starting " + std::to_string(offset) + " floats in" : "") << ": ";
  if (grader::is_poison(got))
    return testing::AssertionFailure() << where.str() << "*sum was never written (is it set to 0 first, also for n = 0?)";
  const double error = std::fabs(static_cast<double>(got - exact_sum));
  if (exact) {
    if (magnitudes > 0x1p24)  // the inputs' promise (integer_density): a fault of the checks, not yours
      return testing::AssertionFailure() << where.str() << "the grader's integer inputs add up to " << magnitudes
                                         << " in magnitude, more than a float holds exactly";
    if (!(error == 0))
      return testing::AssertionFailure()
             << where.str() << "the sum is " << got << ", the exact sum " << static_cast<double>(exact_sum)
             << ": off by " << error << " on inputs where no rounding happens (small integers, sum |x| = " << magnitudes
             << " < 2^24, so every partial sum is exact in float, in any order). Was an element left out (the tail "
             << "past the last whole block, the odd element of a tree, part of the array) or added twice, or did two "
             << "threads overwrite each other?";
    return testing::AssertionSuccess();
  }
  const double bound = gamma(depth) * magnitudes;
  if (!(error <= bound))
    return testing::AssertionFailure()
           << where.str() << "the sum is " << got << ", the exact sum " << static_cast<double>(exact_sum) << ": off by "
           << error << ", more than rounding can explain (" << bound << " = gamma(" << depth << ") * sum |x|, sum |x| = "
           << magnitudes << "). Every element is 0.5 to 1 in size: was an element left out (the tail past the last "
           << "whole block, the odd element of a tree) or added twice, or did two threads overwrite each other?";
  return testing::AssertionSuccess();
}

// The kinds of input each size is summed on: all three; under compute-sanitizer one, since the
// values decide no access a sum makes (which elements, which shared-memory slots, which barriers
// and atomics are the same for any values), and a check's values are not graded there (its own
// row does that): three sums of the same size would find what one finds, at three times the
// launches.
std::vector<Inputs> input_kinds() {
  if (grader::under_sanitizer()) return {Inputs::integers};
  return {Inputs::positive, Inputs::mixed_signs, Inputs::integers};
}

// Every size, each kind of input, then n < 0. The call at the largest size on integer inputs is
// traced.
void expect_sums_right(Sum step, double (*depth)(int), int largest) {
  const SumFunction sum = function_of(step);
  const std::vector<int> sizes = sum_sizes(largest);
  for (int n : sizes) {
    for (Inputs kind : input_kinds()) {
      SCOPED_TRACE(describe(kind) + ", n = " + std::to_string(n));
      const bool integers = kind == Inputs::integers;
      EXPECT_TRUE(sum_matches(sum, sum_inputs(n, kind), depth(n), 0, integers,
                              integers && n == sizes.back() ? std::optional<Sum>(step) : std::nullopt));
    }
  }
  Output<float> out(1);
  EXPECT_THROW(sum(out.data(), -1, out.data()), std::invalid_argument) << "n = -1 must throw std::invalid_argument";
  EXPECT_TRUE(grader::is_poison(out.to_host()[0])) << "n = -1: nothing may be written";
}

// ---- Step 1: the stencil --------------------------------------------------------------------

// What step 1's calls must show: the header's promise (a kernel of the student's, on the default
// stream, returning at once, on data already on the device).
grader::Rules smooth_rules() { return grader::Rules::kernel_step("step 1 (smooth)"); }

// The seed's model: 960 outputs, half-width 12.
constexpr int kSeedSize = 960;
constexpr int kSeedHalfWidth = 12;

// Float products and sums of 2s + 1 terms: each term passes through at most 2s + 2 roundings
// (its product, the halving is exact, and the chain of additions), so an output is within
// gamma(2s + 2) * sum_k |a_k z| of the exact one; the largest such sum over all outputs bounds all.
// With `traced`, the call is traced.
testing::AssertionResult smooth_matches(int n, int s, bool traced = false) {
  const std::vector<float> z = grader::random_floats(static_cast<std::size_t>(n) + 2 * s, -1, 1);
  const std::vector<float> a = grader::random_floats(2 * s + 1, 0, 1);
  std::vector<double> exact(n);
  smooth_cpu(z.data(), a.data(), exact.data(), n, s);
  double largest_terms = 0;  // max over i of sum_k |a_k z|, with |z| <= 1
  for (float w : a) largest_terms += std::fabs(w);
  auto d_z = grader::device(z), d_a = grader::device(a);
  Output<float> out(n);
  const auto call = [&] { smooth(d_z.data(), d_a.data(), out.data(), n, s); };
  if (traced)
    grader::expect_ran(call, smooth_rules());
  else
    call();
  return grader::matches(exact, out, grader::Tolerance::close(gamma(2 * s + 2) * largest_terms, 0));
}

TEST(Smooth, MatchesCpuAtEverySize) {
  const int prime = grader::under_sanitizer() ? 4099 : 100003;
  const int largest = large_size(1 << 22);
  for (int s : {1, 3, kSeedHalfWidth}) {
    for (int n : {0, 1, 31, 33, 1025, prime, kSeedSize, largest}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", s = " + std::to_string(s));
      EXPECT_TRUE(smooth_matches(n, s, n == largest && s == kSeedHalfWidth));  // one traced call
    }
  }
}

// Under compute-sanitizer 1025 outputs, not 10007: a window of 201 reads each (2 million checked
// reads at 10007); 1025 is still 5 blocks of 256 and a tail of 1, each window wider than 64, so a
// block's halo in shared memory (if the code keeps one) reaches well into its neighbours' part.
TEST(Smooth, WideStencils) {
  const int n = grader::under_sanitizer() ? 1025 : 10007;
  for (int s : {31, 100}) {
    SCOPED_TRACE("s = " + std::to_string(s));
    EXPECT_TRUE(smooth_matches(n, s));
  }
}

TEST(Smooth, BadHalfWidthThrowsAndWritesNothing) {
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
  expect_sums_right(Sum::atomic, atomic_depth, 1 << 22);
}

TEST(SumTree, MatchesReferenceAtEverySize) {
  expect_sums_right(Sum::tree, tree_depth, 1 << 25);
}

TEST(SumShuffle, MatchesReferenceAtEverySize) {
  expect_sums_right(Sum::shuffle, tree_depth, 1 << 25);
}

// float4 loads need 16-byte alignment: an array that starts 1, 2 or 3 floats in must still be
// summed whole, and nothing before its start may be added. (Under compute-sanitizer on integers
// only: input_kinds says why.)
TEST(SumShuffle, UnalignedArrays) {
  for (int n : {1, 2, 3, 5, 33, 1025, grader::under_sanitizer() ? 4099 : 100003}) {
    for (int offset : {1, 2, 3}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", offset = " + std::to_string(offset));
      if (!grader::under_sanitizer())
        EXPECT_TRUE(sum_matches(sum_shuffle, sum_inputs(n + offset, Inputs::positive), tree_depth(n), offset));
      EXPECT_TRUE(sum_matches(sum_shuffle, sum_inputs(n + offset, Inputs::integers), tree_depth(n), offset, true));
    }
  }
}

// ---- n near INT_MAX ----------------------------------------------------------------------------
// The functions take an int n, so the largest arrays they must handle hold nearly 2^31 floats
// (8.6 GB). There a count or an index that runs past n overflows int: the block count
// (n + 255) / 256, a grid-stride index i + stride, the stencil's window index i + 2s. n = INT_MAX
// - 2: odd, 253 threads of the last 256-thread block used, one float after the last whole float4.
// The call is traced with its step's rules. Where the arrays take more than 3/4 of the GPU's memory
// (grader::allocate_if_it_fits), and under compute-sanitizer, the check is SKIPPED, saying so.
constexpr int kNearIntMax = INT_MAX - 2;

std::string near_int_max_hint() {
  return "n = " + std::to_string(kNearIntMax) + " (INT_MAX - 2): is a count or an index computed in int where it "
         "can pass INT_MAX? The block count (n + 255) / 256 (compute it in long long), a grid-stride index i + "
         "stride, the stencil's z[i + 2s - k] (index from a pointer z + i, or in std::size_t).";
}

// The sum of kNearIntMax small integers (refill_integers: about 2^21 nonzero values of 1 to 4 in
// magnitude, sum |x| near 5.2e6). Exact: every partial sum of them, in any order, is an integer
// below 2^24 in magnitude, which a float holds exactly, so a right sum adds without rounding (as
// in sum_matches' integer inputs); the reference is CUB's sum of the same floats in double, exact.
void expect_sum_right_near_int_max(Sum step) {
  const SumFunction sum = function_of(step);
  Output<float> out(1);
  sum(nullptr, 0, out.data());  // a step not written yet is TODO, on any GPU
  if (grader::under_sanitizer()) GTEST_SKIP() << "2^31 floats are too many to sum under compute-sanitizer";
  const std::size_t n = kNearIntMax;
  std::optional<stepwise::DeviceBuffer<float>> x;
  const std::string why = grader::allocate_if_it_fits(n * sizeof(float), [&] { x.emplace(n); });
  if (!why.empty()) GTEST_SKIP() << "INT_MAX - 2 floats: " << why;
  try {
    refill_integers(x->data(), n);
    stepwise::DeviceBuffer<double> exact(1);
    std::size_t temp_bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, x->data(), exact.data(), kNearIntMax));
    stepwise::DeviceBuffer<unsigned char> temp(temp_bytes);
    CUDA_CHECK(cub::DeviceReduce::Sum(temp.data(), temp_bytes, x->data(), exact.data(), kNearIntMax));
    const double exact_sum = exact.to_host()[0];
    out.poison();
    // The other steps are traced on x too, the atomic one on its first 2^22 floats (the largest size of its
    // own checks, where it is traced): at kNearIntMax its 2^31 atomics on one address take seconds, for a
    // kernel name that is the same at any n.
    grader::expect_ran([&] { sum(x->data(), kNearIntMax, out.data()); },
                       what_must_run(step, x->data(), kNearIntMax, 1 << 22));
    const float got = out.to_host()[0];
    EXPECT_FALSE(grader::is_poison(got)) << "*sum was never written. " << near_int_max_hint();
    EXPECT_EQ(static_cast<double>(got), exact_sum)
        << "on small integers (every partial sum exact in float, in any order) a right sum is exact; was part of the "
        << "array left out or added twice? " << near_int_max_hint();
  } catch (const stepwise::CudaError& e) {
    ADD_FAILURE() << e.what() << "\n  " << near_int_max_hint();
  }
}

TEST(SumAtomic, NearIntMax) {
  expect_sum_right_near_int_max(Sum::atomic);
}
TEST(SumTree, NearIntMax) {
  expect_sum_right_near_int_max(Sum::tree);
}
TEST(SumShuffle, NearIntMax) {
  expect_sum_right_near_int_max(Sum::shuffle);
}

// z drawn on the GPU by the counter-based hash (grader/splitmix.h), so that the CPU makes any
// window of it again without copying gigabytes back. uniform_value's 2 * u is exact, so a fused
// multiply-add on the GPU gives the same float as the CPU's multiply and add.
__global__ void fill_hashed_floats(float* z, std::size_t n, std::uint64_t draw) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    z[i] = grader::uniform_value<float>(grader::draw_bits(draw, i), -1.0, 2.0);
}

// The seed's stencil (s = 12) on kNearIntMax outputs: z (n + 24 floats) and out take 17.2 GB.
// Compared: a random sample of 4096 outputs (grader::Sample: the first and the last among them)
// and the whole last block of 256, whose windows z[i .. i + 2s] pass INT_MAX; within
// gamma(2s + 2) * sum |a_k|, smooth_matches' bound (2s + 2 roundings per term, |z| <= 1). The
// 4096 floats after out stay poison (nothing written past the end).
TEST(Smooth, NearIntMax) {
  smooth(nullptr, nullptr, nullptr, 0, 1);  // a step not written yet is TODO, on any GPU
  if (grader::under_sanitizer()) GTEST_SKIP() << "2^31 outputs are too many under compute-sanitizer";
  const int s = kSeedHalfWidth;
  constexpr std::size_t kGuard = 4096;
  const std::size_t n = kNearIntMax, z_count = n + 2 * s;
  std::optional<stepwise::DeviceBuffer<float>> z, out;
  const std::string why = grader::allocate_if_it_fits((z_count + n + kGuard) * sizeof(float), [&] {
    z.emplace(z_count);
    out.emplace(n + kGuard);
  });
  if (!why.empty()) GTEST_SKIP() << "INT_MAX - 2 outputs and their inputs: " << why;
  const std::vector<float> a = grader::random_floats(2 * s + 1, 0, 1);
  double terms = 0;
  for (float w : a) terms += w;
  const grader::Tolerance tolerance = grader::Tolerance::close(gamma(2 * s + 2) * terms, 0);
  // The exact outputs at `indices`, from their windows of z made again on the CPU.
  const std::uint64_t draw = grader::next_draw();
  const auto exact_at = [&](const std::vector<std::size_t>& indices) {
    std::vector<double> exact(indices.size());
    std::vector<float> window(2 * s + 1);
    for (std::size_t j = 0; j < indices.size(); ++j) {
      for (int k = 0; k <= 2 * s; ++k)
        window[k] = grader::uniform_value<float>(grader::draw_bits(draw, indices[j] + k), -1.0, 2.0);
      smooth_cpu(window.data(), a.data(), &exact[j], 1, s);
    }
    return exact;
  };
  try {
    auto d_a = grader::device(a);
    fill_hashed_floats<<<4096, 256>>>(z->data(), z_count, draw);
    CUDA_CHECK_LAUNCH();
    grader::poison(out->data(), n + kGuard);
    grader::expect_ran([&] { smooth(z->data(), d_a.data(), out->data(), kNearIntMax, s); }, smooth_rules());
    const grader::Sample sample(n, 4096);
    EXPECT_TRUE(sample.matches(exact_at(sample.indices()), sample.of(out->data()), tolerance)) << near_int_max_hint();
    std::vector<float> tail(256 + kGuard);
    CUDA_CHECK(cudaMemcpy(tail.data(), out->data() + n - 256, tail.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<std::size_t> last_block(256);
    for (std::size_t j = 0; j < 256; ++j) last_block[j] = n - 256 + j;
    EXPECT_TRUE(grader::matches(exact_at(last_block), std::vector<float>(tail.begin(), tail.begin() + 256), tolerance,
                                &last_block))
        << "the last block of outputs. " << near_int_max_hint();
    EXPECT_TRUE(std::all_of(tail.begin() + 256, tail.end(), [](float v) { return grader::is_poison(v); }))
        << "wrote past the end of out[" << n << "]";
  } catch (const stepwise::CudaError& e) {
    ADD_FAILURE() << e.what() << "\n  " << near_int_max_hint();
  }
}

// ---- Speed ------------------------------------------------------------------------------------

// The sums' data: 2^28 floats (1 GiB) where free memory allows. Fresh small integers before every
// timed call (refill_integers: every partial sum exact in float, so a right sum is exact) and the
// exact sum of each draw, computed on the GPU in double by CUB (integers below 2^24 in all: exact
// in double too), to check the timed call with: one element left out shows.
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
  // run, the result checked after it, and one more call traced (the other sum steps traced once
  // first on this array, to tell their kernels apart).
  double sum_ms(Sum step) {
    if (!rules_) {
      refill_integers(x_.data(), n_);
      rules_ = what_must_run(step, x_.data(), n_);
    }
    grader::Workload work;
    work.fresh_inputs = [&] {
      refill_integers(x_.data(), n_);
      std::size_t bytes = temp_bytes_;
      CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, x_.data(), exact_.data(), n_));
      exact_value_ = exact_.to_host()[0];
      grader::poison(out_.data(), 1);
    };
    const SumFunction sum = function_of(step);
    work.call = [&, sum] { sum(x_.data(), n_, out_.data()); };
    work.output_is_right = [&]() -> testing::AssertionResult {
      const float got = out_.to_host()[0];
      if (grader::is_poison(got)) return testing::AssertionFailure() << "*sum was never written";
      // Exact: integer inputs with sum |x| below 2^24 (integer_density), so every partial sum in any
      // order is a float integer and every addition exact; CUB's double sum of them is exact too.
      if (!(got == exact_value_))
        return testing::AssertionFailure() << "the sum of " << n_ << " floats is " << got << ", the exact sum "
                                           << exact_value_ << ": on these inputs (small integers, every partial "
                                           << "sum exact in float) a right sum is exact; was part of the array left out?";
      return testing::AssertionSuccess();
    };
    work.what_ran = rules_;
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
  std::optional<grader::Rules> rules_;
};

// A sum as a fraction of CUB's speed on the same data. No honest sum is much faster than CUB,
// which reads at about the speed of memory: above 1.25 times it, work was skipped.
void expect_fraction_of_cub(Sum step) {
  SumBench bench;
  const double cub_ms = bench.cub_ms();
  grader::expect_speed([&] {
    const double ms = bench.sum_ms(step);
    std::ostringstream how;
    how << std::fixed << std::setprecision(3) << ms << " ms vs CUB " << cub_ms << " ms, " << bench.n()
        << " floats; CUB reads " << std::setprecision(0) << 1e-6 * sizeof(float) * bench.n() / cub_ms << " GB/s";
    // The ceiling 1.25: CUB reads the n floats at about the copy bandwidth (2992 to 2998 GB/s in the
    // README's H100 run), no kernel reads them faster than 1.1 x a copy (fraction_of_copy_bandwidth's
    // ceiling), and 1.25 / 1.1 leaves about 14% for CUB's own shortfall from a copy and timing noise.
    return grader::Figure{cub_ms / ms, how.str(), 1.25};
  });
}

TEST(SumSpeed, ShuffleVsCub) {
  expect_fraction_of_cub(Sum::shuffle);
}

TEST(SumSpeed, TreeVsCub) {
  expect_fraction_of_cub(Sum::tree);
}

TEST(SumSpeed, AtomicVsCub) {
  expect_fraction_of_cub(Sum::atomic);
}

// The stencil on 2^24 outputs of the seed's 25 terms (fewer where free memory is short). The timed
// calls get fresh inputs and are checked at a fresh random sample of outputs (grader::Sample), and
// one more call is traced. The ceiling of both figures below: the kernel must read all of z from
// memory (L2 is flushed before each timed run) and write out, of which as much as L2 holds may
// stay in L2 when the kernel ends; no GPU moves those bytes faster than its copy bandwidth allows
// (1.1 times it, as fraction_of_copy_bandwidth allows), so a figure above the reference's time over
// that time is work skipped.
struct SmoothSetup {
  SmoothSetup()
      : n(static_cast<int>(grader::fit_in_device_memory(1 << 24, 2 * sizeof(float)))),
        a(grader::random_floats(2 * s + 1, 0, 1)), d_a(grader::device(a)), d_z(static_cast<std::size_t>(n) + 2 * s),
        d_out(n), z(grader::random_floats(d_z.size(), -1, 1)) {
    for (float w : a) terms += w;
    work.fresh_inputs = [this] {
      grader::refill_random(d_z.data(), d_z.size(), -1.0f, 1.0f);
      grader::poison(d_out.data(), d_out.size());
    };
    work.call = [this] { smooth(d_z.data(), d_a.data(), d_out.data(), n, s); };
    work.output_is_right = [this]() -> testing::AssertionResult {
      const grader::Sample sample(n);
      const std::vector<float> out = sample.of(d_out.data());
      z = d_z.to_host();
      std::vector<double> exact(sample.size());
      for (std::size_t j = 0; j < sample.size(); ++j) smooth_cpu(z.data() + sample.indices()[j], a.data(), &exact[j], 1, s);
      return sample.matches(exact, out, grader::Tolerance::close(gamma(2 * s + 2) * terms, 0));
    };
    work.what_ran = smooth_rules();
    int device = 0, l2_bytes = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    least_bytes = sizeof(float) * (n + 2.0 * s) + std::max(0.0, sizeof(float) * static_cast<double>(n) - l2_bytes);
  }
  // The least time any call takes (the ceiling above).
  double fastest_ms() const { return grader::fastest_ms_to_move(least_bytes); }

  static constexpr int s = kSeedHalfWidth;
  int n;
  std::vector<float> a;
  stepwise::DeviceBuffer<float> d_a, d_z, d_out;
  std::vector<float> z;
  double terms = 0;
  double least_bytes = 0;
  grader::Workload work;
};

// Against the same loop on one CPU thread: the seed's headline.
TEST(SmoothSpeed, FasterThanOneCpuThread) {
  SmoothSetup b;
  std::vector<float> cpu_out(b.n);
  const double cpu_ms = grader::cpu_median_ms([&] { smooth_cpu(b.z.data(), b.a.data(), cpu_out.data(), b.n, b.s); });
  grader::expect_speed([&] {
    grader::Figure figure = grader::speedup(cpu_ms, grader::gpu_median_ms(b.work), "one CPU thread");
    figure.ceiling = cpu_ms / b.fastest_ms();
    return figure;
  });
}

// The grader's own kernel for the same stencil: one thread per output, the same loop as the
// header's formula (the reference solution's kernel).
__global__ void grader_smooth_kernel(const float* z, const float* a, float* out, int n, int s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* zi = z + i;
  float acc = a[0] * zi[2 * s] / 2;
  for (int k = 1; k < 2 * s; ++k) acc += a[k] * zi[2 * s - k];
  acc += a[2 * s] * zi[0] / 2;
  out[i] = acc;
}

// Against the grader's own kernel on the same GPU, timed alone in the same run on the same data
// (L2 flushed before each run, as for the student's): 1 is as fast. One CPU thread admits large
// waste (the README's H100 run reads 1020 x it against a minimum of 20: a kernel launched 8 times
// over still passes); this figure does not. The smallest fault the minimum admits: a call that
// takes up to twice the grader's kernel (its kernel run twice) passes at 0.5.
TEST(SmoothSpeed, NearGraderKernel) {
  SmoothSetup b;
  const int blocks = (b.n - 1) / 256 + 1;
  grader::expect_speed([&] {
    const double ms = grader::gpu_median_ms(b.work);  // first: a step not written yet stops here
    const double grader_ms = grader::gpu_median_ms([&] {
      grader_smooth_kernel<<<blocks, 256>>>(b.d_z.data(), b.d_a.data(), b.d_out.data(), b.n, b.s);
      CUDA_CHECK_LAUNCH();
    });
    grader::Figure figure = grader::speedup(grader_ms, ms, "the grader's kernel");
    figure.ceiling = grader_ms / b.fastest_ms();
    return figure;
  });
}

// ---- The float steps compute in float (no GPU needed) ----------------------------------------

// A sum accumulated in double passes the float bound with room to spare, so only the machine code
// shows it (grader/machine_code.h). (The sums with n = 0 zero *sum on the device: without a GPU,
// or with a null pointer, that fails, and the failure is left to the other checks.)
TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic(".", [] {
    smooth(nullptr, nullptr, nullptr, 0, 1);
    sum_atomic(nullptr, 0, nullptr);
    sum_tree(nullptr, 0, nullptr);
    sum_shuffle(nullptr, 0, nullptr);
  });
}

}  // namespace
