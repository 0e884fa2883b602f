// Grader tests for lesson 01 (vector add, grid-stride loops, vectorize).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/machine_code.h"
#include "vector_add.h"
#include "vectorize.cuh"

// Functors at namespace scope: the untouched exercise never calls them, and internal-linkage
// functions that are never called draw a warning.
struct Add {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};
// A second function, in double, to show vectorize is not tied to one type or one operation.
struct Hypotenuse {
  __host__ __device__ double operator()(double a, double b) const { return sqrt(a * a + b * b); }
};

namespace {

using grader::Output;
using grader::Tolerance;
using AddFunction = void (*)(const float*, const float*, float*, int);

std::vector<double> exact_sums(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<double> sums(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) sums[i] = static_cast<double>(a[i]) + b[i];
  return sums;
}

// What every GPU step's trace must show (the header's promise): a kernel of the student's,
// launched on the default stream, no wait for the GPU, no copy to or from the host.
grader::Rules rules_of(const std::string& step) { return grader::Rules::kernel_step(step); }

// The sums at a random sample of n device values (grader/sample.h), with the first and the last
// `ends` among them, against the exact sums of the sampled inputs: 0.5 ulp, one correctly rounded
// float add of the exact double sum.
testing::AssertionResult sampled_sums_match(const float* a, const float* b, const float* out, std::size_t n,
                                            std::size_t ends = 0) {
  const grader::Sample sample(n, grader::Sample::kValues, ends);
  return sample.matches(exact_sums(sample.of(a), sample.of(b)), sample.of(out), Tolerance::ulps(0.5));
}

// A float sum is correctly rounded: within half a unit in the last place of the exact sum. The
// call at the largest size is traced.
void expect_adds_like_the_cpu(AddFunction add, const std::string& step) {
  const std::vector<int> sizes = grader::standard_sizes(3 * sizeof(float));
  for (int n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<float> a = grader::random_floats(n, -1000, 1000), b = grader::random_floats(n, -1000, 1000);
    auto d_a = grader::device(a), d_b = grader::device(b);
    Output<float> out(n);
    const auto call = [&] { add(d_a.data(), d_b.data(), out.data(), n); };
    if (n == sizes.back())
      grader::expect_ran(call, rules_of(step));
    else
      call();
    EXPECT_TRUE(grader::matches(exact_sums(a, b), out, Tolerance::ulps(0.5)));
  }
}

TEST(VectorAdd, OneThreadPerElementMatchesCpu) {
  expect_adds_like_the_cpu(vector_add, "step 1 (vector_add)");
}

TEST(VectorAdd, GridStrideMatchesCpu) {
  expect_adds_like_the_cpu(vector_add_grid_stride, "step 2 (vector_add_grid_stride)");
}

// Arrays that start one float into an allocation: not 16-byte aligned, as a slice of a larger
// array would be. A kernel that assumes alignment (e.g. float4 loads) must still be right.
TEST(VectorAdd, GridStrideHandlesUnalignedArrays) {
  for (int n : {1, 5, 1000, 100017}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<float> a = grader::random_floats(n + 1, -1000, 1000), b = grader::random_floats(n + 1, -1000, 1000);
    auto d_a = grader::device(a), d_b = grader::device(b);
    Output<float> out(n + 1);
    vector_add_grid_stride(d_a.data() + 1, d_b.data() + 1, out.data() + 1, n);
    a.erase(a.begin());
    b.erase(b.begin());
    std::vector<float> written = out.to_host();
    EXPECT_TRUE(grader::is_poison(written[0])) << "wrote before the start of the output";
    written.erase(written.begin());
    // 0.5 ulp: one correctly rounded float add of the exact double sum (as above).
    EXPECT_TRUE(grader::matches(exact_sums(a, b), written, Tolerance::ulps(0.5)));
    EXPECT_TRUE(out.guard_intact());
  }
}

// n = INT_MAX (2^31 - 1), the largest n the API's `int n` takes, reaches two paths no smaller
// size does: a grid rounded up as (n + 255) / 256 overflows int past INT_MAX - 255 (a launch of a
// negative number of blocks), and a grid-stride loop's last step, i + stride, passes INT_MAX and
// wraps negative in an int (the loop goes on, gigabytes before the arrays). Two traced calls: on
// cudaMalloc's arrays (a float4 kernel's aligned path, with n % 4 = 3 left for its tail), and one
// float into them (its unaligned path, n - 1 elements). a, b and out take
// 25.8 GB: on a GPU where that is more than 3/4 of its memory, and under compute-sanitizer, the
// check is SKIPPED, saying so (grader::check_at_int_max; beside other checks it waits for the
// memory). Inputs are drawn on the GPU; 2^16 random sums and the first and last 512 are compared
// with the CPU's.
void expect_adds_at_int_max(AddFunction add, const std::string& step) {
  add(nullptr, nullptr, nullptr, 0);  // a step not written yet is TODO, on any GPU
  constexpr int n = std::numeric_limits<int>::max();
  std::optional<stepwise::DeviceBuffer<float>> a, b;
  std::optional<Output<float>> out;
  const auto allocate = [&] {
    a.emplace(n);
    b.emplace(n);
    out.emplace(n);
  };
  grader::check_at_int_max("n = INT_MAX", 3 * sizeof(float) * std::size_t{n}, allocate, [&] {
    const std::string hint = grader::kIntMaxHint;
    grader::refill_random(a->data(), n, -1000, 1000);
    grader::refill_random(b->data(), n, -1000, 1000);
    grader::expect_ran([&] { add(a->data(), b->data(), out->data(), n); }, rules_of(step));
    EXPECT_TRUE(sampled_sums_match(a->data(), b->data(), out->data(), n, 512)) << hint;
    out->poison();
    grader::expect_ran([&] { add(a->data() + 1, b->data() + 1, out->data() + 1, n - 1); }, rules_of(step));
    EXPECT_TRUE(sampled_sums_match(a->data() + 1, b->data() + 1, out->data() + 1, n - 1, 512))
        << "arrays one float into their allocations (not 16-byte aligned), " << hint;
  });
}

TEST(VectorAdd, OneThreadPerElementAtIntMax) {
  expect_adds_at_int_max(vector_add, "step 1 (vector_add)");
}

TEST(VectorAdd, GridStrideAtIntMax) {
  expect_adds_at_int_max(vector_add_grid_stride, "step 2 (vector_add_grid_stride)");
}

TEST(Vectorize, GpuTargetMatchesCpuReference) {
  const std::vector<int> sizes = grader::standard_sizes(6 * sizeof(double));
  for (int n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<float> a = grader::random_floats(n, -1, 1), b = grader::random_floats(n, -1, 1);
    auto d_a = grader::device(a), d_b = grader::device(b);
    Output<float> sums(n);
    const auto call = [&] { vectorize(Target::gpu, Add{}, d_a.data(), d_b.data(), sums.data(), n); };
    if (n == sizes.back())
      grader::expect_ran(call, rules_of("step 3 (vectorize, Target::gpu)"));
    else
      call();
    // 0.5 ulp: Add is one correctly rounded float add of the exact double sum.
    EXPECT_TRUE(grader::matches(exact_sums(a, b), sums, Tolerance::ulps(0.5)));

    const std::vector<double> x = grader::random_doubles(n, -1e3, 1e3), y = grader::random_doubles(n, -1e3, 1e3);
    auto d_x = grader::device(x), d_y = grader::device(y);
    Output<double> lengths(n);
    vectorize(Target::gpu, Hypotenuse{}, d_x.data(), d_y.data(), lengths.data(), n);
    std::vector<double> expected(n);
    grader::in_parallel(static_cast<std::size_t>(n), [&](std::size_t begin, std::size_t end) {  // on the idle cores: 2^25 hypots
      for (std::size_t i = begin; i < end; ++i) expected[i] = std::hypot(x[i], y[i]);
    }, std::size_t{1} << 16);
    // sqrt(a * a + b * b) in double: two products and a sum (<= 3 roundings of u = 2^-53 each),
    // halved by sqrt, plus sqrt's own rounding: about 2.5u; hypot itself is within 1 ulp (2u):
    // about 4.5u = 5e-16 relative in all, under 1e-15; float arithmetic misses by 6e-8.
    EXPECT_TRUE(grader::matches(expected, lengths, Tolerance::close(0, 1e-15)));
  }
}

// Step 3's GPU target at n = INT_MAX, as steps 1 and 2 above (the same 25.8 GB, the same two
// traced calls): its grid rounded up as (n + 255) / 256, or its grid-stride index in an int,
// fails here as there.
void vectorize_add(const float* a, const float* b, float* out, int n) { vectorize(Target::gpu, Add{}, a, b, out, n); }

TEST(Vectorize, GpuTargetAtIntMax) {
  expect_adds_at_int_max(vectorize_add, "step 3 (vectorize, Target::gpu)");
}

TEST(CpuVectorize, CpuTargetMatchesReference) {
  for (int n : {0, 1, 33, 100017}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<float> a = grader::random_floats(n, -1, 1), b = grader::random_floats(n, -1, 1);
    std::vector<float> out(n, -1.0f);
    vectorize(Target::cpu, Add{}, a.data(), b.data(), out.data(), n);
    const std::vector<double> expected = exact_sums(a, b);
    // Exact: the double sum of two floats is exact (or, past a 29-bit exponent gap, rounds to the
    // same float), so float(exact sum) is the correctly rounded float add, the one right answer.
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<float>(expected[i])) << "at index " << i;
  }
}

// Speed: an add moves 12 bytes per element (two reads, one write) and does one flop, so it can
// at best run at the speed of a device-to-device copy. Each timed run adds fresh inputs, and a
// random sample of the sums is checked after timing.
struct SpeedSetup {
  // 2^26 floats (256 MB per array, like the copy the bandwidth is measured with), so the
  // launch's few microseconds are noise; smaller on a GPU with less free memory.
  int n = static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 26, 3 * sizeof(float)));
  stepwise::DeviceBuffer<float> a{static_cast<std::size_t>(n)}, b{static_cast<std::size_t>(n)},
      out{static_cast<std::size_t>(n)};
  double bytes() const { return 3.0 * sizeof(float) * n; }

  grader::Workload adding_with(AddFunction add, const std::string& step) {
    grader::Workload work{[this] {
              grader::refill_random(a.data(), n, -1000, 1000);
              grader::refill_random(b.data(), n, -1000, 1000);
              grader::poison(out.data(), n);
            },
            [this, add] { add(a.data(), b.data(), out.data(), n); },
            [this] { return sampled_sums_match(a.data(), b.data(), out.data(), n); }};
    work.what_ran = rules_of(step);
    return work;
  }
};

void expect_near_copy_speed(AddFunction add, const std::string& step) {
  SpeedSetup s;
  const grader::Workload work = s.adding_with(add, step);
  grader::expect_speed([&] { return grader::fraction_of_copy_bandwidth(s.bytes(), grader::gpu_median_ms(work)); });
}

TEST(VectorAddSpeed, OneThreadPerElement) {
  expect_near_copy_speed(vector_add, "step 1 (vector_add)");
}

TEST(VectorAddSpeed, GridStride) {
  expect_near_copy_speed(vector_add_grid_stride, "step 2 (vector_add_grid_stride)");
}

TEST(VectorAddSpeed, FasterThanOneCpuThread) {
  SpeedSetup s;
  const std::vector<float> a = grader::random_floats(s.n, -1, 1), b = grader::random_floats(s.n, -1, 1);
  std::vector<float> out(s.n);
  const double cpu_ms = grader::cpu_median_ms([&] {
    for (int i = 0; i < s.n; ++i) out[i] = a[i] + b[i];
  });
  const grader::Workload work = s.adding_with(vector_add, "step 1 (vector_add)");
  grader::expect_speed([&] {
    grader::Figure figure = grader::speedup(cpu_ms, grader::gpu_median_ms(work), "one CPU thread");
    // The ceiling: the add must read a and b and write out, bytes() in all, and no kernel moves
    // them faster than 1.1 x the device's copy bandwidth (fraction_of_copy_bandwidth's ceiling), so
    // its time is at least fastest_ms_to_move(bytes()) (0.24 ms for 2^26 floats on an H100) and the
    // figure at most cpu_ms over that. The smallest fault it admits: a timed call that skips a
    // sixth of the work of the solution's (at 0.92 of copy bandwidth, README); a call that does its
    // work only on the calls the grader checks reads far above it (broken submission
    // works_only_on_checked_calls).
    figure.ceiling = cpu_ms / grader::fastest_ms_to_move(s.bytes());
    return figure;
  });
}

// ---- The float steps compute in float (no GPU needed) ----------------------------------------

// An add in double (a double temporary, 1.0 * a[i]) gives the same sums, so only the machine code
// shows it (grader/machine_code.h).
TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic(".", [] {
    vector_add(nullptr, nullptr, nullptr, 0);
    vector_add_grid_stride(nullptr, nullptr, nullptr, 0);
  });
}

// Step 3's kernel is a template in your header, vectorize.cuh: the grader's checks instantiate it,
// so its machine code is theirs. Its float instantiation (Add) must compute in float; the double
// one (Hypotenuse) is double by design and not checked.
TEST(CpuMachineCode, VectorizeKernelUsesNoDoubleArithmetic) {
  grader::expect_header_float_arithmetic("vectorize_kernel<float, Add>", [] {
    vectorize<float>(Target::gpu, Add{}, nullptr, nullptr, nullptr, 0);
  });
}

}  // namespace
