// Grader tests for lesson 06 (matrix multiply: naive, tiled in shared memory, cuBLAS, register
// blocking).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/machine_code.h"
#include "grader/sanitizer.h"
#include "cublas_helpers.h"
#include "matmul_cpu.h"
#include "shared_matmul.h"
#include "stepwise/not_implemented.h"

namespace {

using MatmulFunction = void (*)(const float*, const float*, float*, int, int, int);

struct Shape {
  int m, n, k;
  std::string describe() const {
    return std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k);
  }
};

// How far a float product may be from the exact one. A float sum of k products rounds k times:
// at worst the error is k * FLT_EPSILON * sum |A(i,p) B(p,j)|, bounded by k * FLT_EPSILON times
// the norms of row i of A and column j of B (Cauchy-Schwarz), which each element must meet. For
// products of random sign the errors mostly cancel and grow like sqrt(k): the relative Frobenius
// error of all that is checked must stay below 4 * sqrt(k) * FLT_EPSILON (3e-5 at k = 4096).
// TF32 (10-bit inputs) misses that by a factor of ten or more.
double frobenius_bound(int k) { return 4.0 * std::sqrt(static_cast<double>(std::max(k, 1))) * FLT_EPSILON; }

// Compares elements of C = A * B (shape s; a and b the whole inputs, row-major) with their exact
// values: got[e] is what the GPU wrote at C's element at[e] (row at[e] / n, column at[e] % n), and
// exact[e] its exact value. Each must be within its own bound, and all of them together within
// the Frobenius bound.
testing::AssertionResult elements_match(const std::vector<float>& a, const std::vector<float>& b, Shape s,
                                        const std::vector<std::size_t>& at, const std::vector<double>& exact,
                                        const std::vector<float>& got) {
  if (exact.size() != at.size() || got.size() != at.size())
    return testing::AssertionFailure() << "grader error: " << at.size() << " elements, " << exact.size()
                                       << " exact values, " << got.size() << " values of C";
  std::vector<double> column_norm(s.n, 0.0), row_norm(s.m, -1.0);  // row norms when first needed
  for (int p = 0; p < s.k; ++p)
    for (int j = 0; j < s.n; ++j) column_norm[j] += static_cast<double>(b[static_cast<std::size_t>(p) * s.n + j]) * b[static_cast<std::size_t>(p) * s.n + j];
  for (double& x : column_norm) x = std::sqrt(x);

  std::ostringstream first_bad;
  long long bad = 0, unwritten = 0;
  double error2 = 0, exact2 = 0;
  for (std::size_t e = 0; e < at.size(); ++e) {
    const std::size_t i = at[e] / s.n, j = at[e] % s.n;
    if (row_norm[i] < 0) {
      double sum = 0;
      for (int p = 0; p < s.k; ++p) sum += static_cast<double>(a[i * s.k + p]) * a[i * s.k + p];
      row_norm[i] = std::sqrt(sum);
    }
    const float value = got[e];
    const double want = exact[e];
    const bool never_written = grader::is_poison(value);
    const double d = static_cast<double>(value) - want;
    // k * FLT_EPSILON * |row| |column| >= 2ku sum |a b| (Cauchy-Schwarz; u = 2^-24) >= gamma_k sum |a b|,
    // Higham 3.1's bound; + 1e-30 keeps it above 0 where a row or column is all zeros (error 0).
    // The smallest fault it rejects: one product of k left out, where that product is larger than
    // the bound (at 1600^3, inputs in [-1, 1]: 0.10, two thirds of the products; broken submission
    // tiled_drops_one_product_in_k).
    const double allowed = std::max(s.k, 1) * FLT_EPSILON * row_norm[i] * column_norm[j] + 1e-30;
    error2 += never_written ? want * want + 1 : d * d;
    exact2 += want * want;
    if (never_written || !(std::fabs(d) <= allowed)) {  // !(<=) also catches NaN
      unwritten += never_written;
      if (++bad <= 5)
        first_bad << "\n    C(" << i << ", " << j << "): expected " << want << ", got " << value
                  << (never_written ? " (never written)" : "") << ", allowed error " << allowed;
    }
  }
  const double relative = exact2 > 0 ? std::sqrt(error2 / exact2) : std::sqrt(error2);
  if (bad > 0)
    return testing::AssertionFailure() << "values differ from the CPU reference for " << s.describe() << ": "
                                       << bad << " of " << at.size() << " elements are wrong (" << unwritten
                                       << " never written), relative Frobenius error " << relative
                                       << "; the first:" << first_bad.str();
  if (relative > frobenius_bound(s.k))
    return testing::AssertionFailure() << "values differ from the CPU reference for " << s.describe()
                                       << ": relative Frobenius error " << relative << " is above "
                                       << frobenius_bound(s.k) << " (4 sqrt(k) float epsilon): is part of the "
                                       << "arithmetic in less than float precision (TF32, half)?";
  return testing::AssertionSuccess();
}

// Compares all of C (m x n floats, as the GPU wrote them) with the exact product.
testing::AssertionResult product_matches(const std::vector<float>& a, const std::vector<float>& b, Shape s,
                                         const std::vector<double>& exact, const std::vector<float>& c) {
  std::vector<std::size_t> every_element(c.size());
  for (std::size_t e = 0; e < c.size(); ++e) every_element[e] = e;
  return elements_match(a, b, s, every_element, exact, c);
}

// The exact values of C = A * B (shape s, row-major) at the elements `at` (i * n + j), in double:
// B's columns are copied into rows first (in blocks, for the cache), so that each value is one
// pass over two rows, in four independent sums.
// "Exact": each float product is exact in double, and the k double sums add at most
// k * 2^-53 * sum |a b|, 2^-30 of the float bound above: nothing next to it.
std::vector<double> exact_elements(const std::vector<float>& a, const std::vector<float>& b, Shape s,
                                   const std::vector<std::size_t>& at) {
  constexpr int kBlock = 32;
  std::vector<float> b_columns(static_cast<std::size_t>(s.n) * s.k);
  for (int j0 = 0; j0 < s.n; j0 += kBlock)
    for (int p0 = 0; p0 < s.k; p0 += kBlock)
      for (int j = j0; j < std::min(j0 + kBlock, s.n); ++j)
        for (int p = p0; p < std::min(p0 + kBlock, s.k); ++p)
          b_columns[static_cast<std::size_t>(j) * s.k + p] = b[static_cast<std::size_t>(p) * s.n + j];
  std::vector<double> exact(at.size());
  for (std::size_t e = 0; e < at.size(); ++e) {
    const float* a_row = &a[at[e] / s.n * s.k];
    const float* b_column = &b_columns[at[e] % s.n * s.k];
    double sum[4] = {0, 0, 0, 0};
    int p = 0;
    for (; p + 4 <= s.k; p += 4)
      for (int q = 0; q < 4; ++q) sum[q] += static_cast<double>(a_row[p + q]) * b_column[p + q];
    for (; p < s.k; ++p) sum[0] += static_cast<double>(a_row[p]) * b_column[p];
    exact[e] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
  }
  return exact;
}

// ---- What ran ---------------------------------------------------------------------------
// The header's promise for every step: it launches its work on the default stream and returns
// without waiting for the GPU, on matrices already on the device. Steps 1, 2 and 4 are written by
// hand (a kernel of the student's, no library), step 2 stages its tiles in shared memory, step 4
// too, and no hand-written step runs the kernel of another (a "register-blocked" multiply that
// launches the tiled kernel, a "naive" one that launches the register-blocked kernel); step 3 is
// cuBLAS itself.
enum class Step { naive, tiled, cublas, register_blocked };

const char* name_of(Step step) {
  switch (step) {
    case Step::naive: return "step 1 (matmul_naive)";
    case Step::tiled: return "step 2 (matmul_tiled)";
    case Step::cublas: return "step 3 (matmul_cublas)";
    default: return "step 4 (matmul_register_blocked)";
  }
}

MatmulFunction function_of(Step step) {
  switch (step) {
    case Step::naive: return matmul_naive;
    case Step::tiled: return matmul_tiled;
    case Step::cublas: return matmul_cublas;
    default: return matmul_register_blocked;
  }
}

// The trace of another step's call on the same matrices and shape, its C written into `scratch`;
// none where that step is not written yet (or fails: its own checks say so), or under
// compute-sanitizer (nothing is traced there).
std::optional<grader::Trace> trace_of(Step step, const float* a, const float* b, float* scratch, Shape s) {
  if (grader::under_sanitizer()) return std::nullopt;
  try {
    return grader::trace([&] { function_of(step)(a, b, scratch, s.m, s.n, s.k); });
  } catch (const std::exception&) {  // a TODO (stepwise::NotImplemented), or a failure of that step
    return std::nullopt;
  }
}

// What `step`'s call on a and b (shape s) must show. The other hand-written steps are traced first
// on the same matrices, their C into `scratch` (which may be the step's own C if it is poisoned
// again before the step runs), so that the step's kernels can be told apart from theirs.
grader::Rules what_must_run(Step step, const float* a, const float* b, float* scratch, Shape s) {
  if (step == Step::cublas)
    return grader::Rules(name_of(step)).own_kernels().library("cuBLAS").on_stream(nullptr).returns_at_once().no_host_copies();
  grader::Rules rules = grader::Rules::kernel_step(name_of(step));
  // Step 2's tiles: a kTile x kTile tile of A and one of B per block, 8 KB of floats.
  if (step == Step::tiled) rules.shared_memory(2 * kTile * kTile * static_cast<int>(sizeof(float)));
  if (step == Step::register_blocked) rules.shared_memory();
  for (Step other : {Step::naive, Step::tiled, Step::register_blocked}) {
    if (other == step) continue;
    if (const std::optional<grader::Trace> theirs = trace_of(other, a, b, scratch, s))
      rules.kernels_differ_from(*theirs, name_of(other));
  }
  return rules;
}

// Runs `matmul` on fresh random inputs of shape s, into a poisoned output with a guard behind it,
// and compares all of C with the CPU reference. `offset` floats into each allocation: 0, or 1 for
// matrices that are not 16-byte aligned. With `traced`, the call is traced and must show what
// that step's calls must show.
// The lesson's CPU reference (one thread), its rows shared out over the cores: at 1600 x 1600 it
// takes seconds on one thread, and four checks need it.
std::vector<double> reference_product(const std::vector<float>& a, const std::vector<float>& b, Shape s) {
  std::vector<double> c(static_cast<std::size_t>(s.m) * s.n);
  grader::in_parallel(static_cast<std::size_t>(s.m), [&](std::size_t first, std::size_t end) {
    const std::vector<double> rows = cpu_matmul_rows(a, b, s.n, s.k, static_cast<int>(first), static_cast<int>(end - first));
    std::copy(rows.begin(), rows.end(), c.begin() + static_cast<std::ptrdiff_t>(first * s.n));
  });
  return c;
}

testing::AssertionResult multiplies_like_the_cpu(MatmulFunction matmul, Shape s, int offset = 0,
                                                 std::optional<Step> traced = std::nullopt) {
  const std::vector<float> a = grader::random_floats(static_cast<std::size_t>(s.m) * s.k, -1, 1);
  const std::vector<float> b = grader::random_floats(static_cast<std::size_t>(s.k) * s.n, -1, 1);
  std::vector<float> a_padded(offset, 0.0f), b_padded(offset, 0.0f);
  a_padded.insert(a_padded.end(), a.begin(), a.end());
  b_padded.insert(b_padded.end(), b.begin(), b.end());
  auto d_a = grader::device(a_padded), d_b = grader::device(b_padded);
  const std::size_t count = static_cast<std::size_t>(s.m) * s.n;
  grader::Output<float> out(count + offset);
  const auto call = [&] { matmul(d_a.data() + offset, d_b.data() + offset, out.data() + offset, s.m, s.n, s.k); };
  if (traced) {
    const grader::Rules rules = what_must_run(*traced, d_a.data() + offset, d_b.data() + offset, out.data() + offset, s);
    out.poison();  // the other steps' C is not this step's
    grader::expect_ran(call, rules);
  } else {
    call();
  }
  const testing::AssertionResult guard = out.guard_intact();
  if (!guard) return guard;
  std::vector<float> c = out.to_host();
  for (int i = 0; i < offset; ++i)
    if (!grader::is_poison(c[i])) return testing::AssertionFailure() << "wrote before the start of C";
  c.erase(c.begin(), c.begin() + offset);
  return product_matches(a, b, s, reference_product(a, b, s), c);
}

// Squares that catch indexing bugs: 1, a warp and either side of it, 100, the seed's 1600.
// Under compute-sanitizer (100 times slower, and racecheck far more; the work is m x n x k, for
// the tiled kernel one block per 32 x 32 tile of C times one step per 32 of k, every thread of the
// block loading and reading the tiles in every step) 1, 31 (one block, one step), 33 (2 x 2
// blocks, 2 steps: a tail in m, n and k, and a step that overwrites the tiles the last one read,
// where a missing barrier shows) and 64 (2 x 2 whole blocks, 2 whole steps); the register-blocked
// kernel's whole 128 x 128 tiles are its own checks' {256, 128, 64} and odd_shapes' {128, 256, 24}.
std::vector<Shape> square_shapes() {
  if (grader::under_sanitizer()) return {{1, 1, 1}, {31, 31, 31}, {33, 33, 33}, {64, 64, 64}};
  return {{1, 1, 1}, {31, 31, 31}, {32, 32, 32}, {33, 33, 33}, {100, 100, 100}, {1600, 1600, 1600}};
}

// Shapes that are no multiple of any tile, tall, wide, k = 1, one a little over a 128 tile, and
// whole 128 x 128 tiles of C with a k that is no multiple of a tile's depth (37) or is one, but
// not of 128 (200): a fast path chosen by m and n alone, or one that assumes k is a multiple of
// its tile, is wrong there.
// Under compute-sanitizer the same kinds of shape, smaller (the tiled kernel's block-steps, its
// work there, 168 instead of 544): no multiple of any tile and a little over a 128 tile in m and
// n (129 x 129 x 19: 2 x 2 register-blocked tiles, 3 steps of 8, the last partial); k = 1; wide;
// tall; k between the register-blocked depth 8 and 32 (130 x 132 x 9); a long k (300: 10 tiled
// steps, 38 register-blocked ones, both ending partial); and whole 128 x 128 tiles of C with k
// no multiple of 8 (128 x 128 x 37) or a multiple of 8 and not of 32 or 128, m != n (128 x 256 x
// 24: the register-blocked fast path, 3 steps, so that its double buffer is written again after
// it was read, where a missing barrier shows).
// racecheck and synccheck look only at shared memory and barriers, and each access costs them far
// more than memcheck: they take the three shapes whose barriers differ from the square sizes' (edge
// blocks in m and n with a partial k; 10 tiled and 38 register-blocked steps ending partial; the
// register-blocked fast path, m != n): 67 tiled block-steps of the 168 and 56 register-blocked of
// 106. The other five add edges in one direction, k = 1 and k < 32, whose out-of-bounds accesses
// memcheck still checks.
std::vector<Shape> odd_shapes() {
  if (grader::under_race_or_sync_check()) return {{129, 129, 19}, {7, 5, 300}, {128, 256, 24}};
  if (grader::under_sanitizer())
    return {{129, 129, 19}, {64, 48, 1}, {1, 300, 45}, {300, 1, 45}, {130, 132, 9}, {7, 5, 300},
            {128, 128, 37}, {128, 256, 24}};
  return {{257, 129, 67}, {64, 48, 1}, {1, 300, 45}, {300, 1, 45}, {130, 260, 9}, {7, 5, 1000},
          {256, 128, 37}, {128, 256, 200}};
}

// Every square size; the call at the largest is traced.
void expect_square_sizes(Step step) {
  const std::vector<Shape> shapes = square_shapes();
  for (const Shape& s : shapes)
    EXPECT_TRUE(multiplies_like_the_cpu(function_of(step), s, 0,
                                        &s == &shapes.back() ? std::optional<Step>(step) : std::nullopt))
        << "for " << s.describe();
}

void expect_odd_shapes(MatmulFunction matmul) {
  for (Shape s : odd_shapes()) EXPECT_TRUE(multiplies_like_the_cpu(matmul, s));
  // m or n = 0: nothing to do, nothing written. k = 0: C is all zeros.
  for (Shape s : {Shape{0, 5, 5}, Shape{5, 0, 5}}) {
    grader::Output<float> out(0);
    matmul(nullptr, nullptr, out.data(), s.m, s.n, s.k);
    EXPECT_TRUE(out.guard_intact()) << "for " << s.describe();
  }
  grader::Output<float> zeros(6 * 7);
  matmul(nullptr, nullptr, zeros.data(), 6, 7, 0);
  // Exact: an empty sum is 0 in any precision, so every element must be exactly 0.
  EXPECT_TRUE(grader::matches(std::vector<double>(6 * 7, 0.0), zeros, grader::Tolerance::exact()))
      << "with k = 0, C = A * B is all zeros";
}

// cuBLAS is NVIDIA's code, built without line information: compute-sanitizer has nothing of the
// student's to find in it, and racecheck is very slow on its kernels.
#define SKIP_CUBLAS_UNDER_SANITIZER() \
  if (grader::under_sanitizer()) GTEST_SKIP() << "cuBLAS itself is not run under compute-sanitizer"

TEST(Naive, SquareSizesMatchCpu) {
  expect_square_sizes(Step::naive);
}

TEST(Naive, OddShapesMatchCpu) {
  expect_odd_shapes(matmul_naive);
}

TEST(Tiled, SquareSizesMatchCpu) {
  expect_square_sizes(Step::tiled);
}

TEST(Tiled, OddShapesMatchCpu) {
  expect_odd_shapes(matmul_tiled);
}

TEST(Cublas, SquareSizesMatchCpu) {
  SKIP_CUBLAS_UNDER_SANITIZER();
  expect_square_sizes(Step::cublas);
}

TEST(Cublas, OddShapesMatchCpu) {
  SKIP_CUBLAS_UNDER_SANITIZER();
  expect_odd_shapes(matmul_cublas);
}

TEST(Cublas, OneHandleInPlainFp32) {
  SKIP_CUBLAS_UNDER_SANITIZER();
  const cublasHandle_t first = cublas_handle(), second = cublas_handle();
  ASSERT_NE(first, nullptr) << "cublas_handle() returned no handle";
  EXPECT_EQ(first, second) << "cublas_handle() made a new handle on its second call: keep the first (a static)";
  cublasMath_t mode{};
  ASSERT_EQ(cublasGetMathMode(first, &mode), CUBLAS_STATUS_SUCCESS);
  EXPECT_TRUE(mode == CUBLAS_DEFAULT_MATH || mode == CUBLAS_PEDANTIC_MATH)
      << "the handle's math mode is " << static_cast<int>(mode)
      << ": set CUBLAS_DEFAULT_MATH, so that cublasSgemm computes in FP32, not TF32";
}

TEST(RegisterBlocked, SquareSizesMatchCpu) {
  expect_square_sizes(Step::register_blocked);
  // Whole tiles only: the fast path, traced too (its kernel may be another).
  EXPECT_TRUE(multiplies_like_the_cpu(matmul_register_blocked, {256, 128, 64}, 0, Step::register_blocked));
}

TEST(RegisterBlocked, OddShapesMatchCpu) {
  expect_odd_shapes(matmul_register_blocked);
}

// Whole tiles, but every matrix starts one float into its allocation: float4 loads there would
// fault ("misaligned address").
TEST(RegisterBlocked, UnalignedMatricesMatchCpu) {
  EXPECT_TRUE(multiplies_like_the_cpu(matmul_register_blocked, {256, 128, 64}, 1));
}

// ---- C past 2^31 elements --------------------------------------------------------------------
// A C of more than 2^31 elements, the largest that stays cheap: m x n just past 2^31 (9.1 to 9.3
// GB of floats), k of 3 to 24 (a few ms of work). Its index row * n + col passes INT_MAX from row
// INT_MAX / n on, the last 6 to 7.5% of C: computed in int it wraps negative, and the kernel
// writes about 8 GB before C (an illegal address) or into memory the check does not see (C's
// last rows never written). Only C is that large: A and B hold at most 1.7 million elements, so
// their indices row * k + p and p * n + col stay far below INT_MAX.
// Two kinds of shape: odd m, n and k (every tile sticks out: naive, tiled, and the
// register-blocked kernel's checked path), and m, n multiples of 128 and k of 8 (the
// register-blocked fast path: whole tiles, float4 stores). A, B and C take 9.1 to 9.3 GB: on a
// GPU where that is more than 3/4 of its memory, or under compute-sanitizer, the check is
// SKIPPED, saying so (grader::check_at_int_max). A and B are drawn on the GPU, in [-1, 1). The
// call is traced under its step's rules (what_must_run; the other steps are traced on a small
// product of the same kind, so that a fault of theirs at this size, a sticky error that ends
// every later CUDA call of the process, cannot fail this step's check). 4096 random elements of C
// and its first and last 512 are compared with their exact values under the per-element and
// Frobenius bounds of every check (elements_match); a wrapped index fails every one of the last
// 512, which lie past INT_MAX.
constexpr const char* kIndexOfCHint =
    "C has more than 2^31 elements here: does row * n + col overflow int (it passes INT_MAX from row INT_MAX / n "
    "on)? Compute the index of C in 64 bits, static_cast<size_t>(row) * n + col";

void expect_product_past_int_max(Step step, bool whole_tiles) {
  function_of(step)(nullptr, nullptr, nullptr, 0, 0, 0);  // a step not written yet is TODO, on any GPU
  const std::vector<int> r = grader::random_ints(3, 0, 63);
  // m x n >= 69633 x 32769 = 2^31 + 1.3e8 (odd), 69632 x 32768 = 2^31 + 1.3e8 (whole tiles).
  const Shape s = whole_tiles ? Shape{69632 + 128 * (r[0] % 4), 32768 + 128 * (r[1] % 4), 8 * (1 + r[2] % 3)}
                              : Shape{69633 + 2 * r[0], 32769 + 2 * r[1], 3 + 2 * (r[2] % 3)};
  SCOPED_TRACE(s.describe());
  const std::size_t count = static_cast<std::size_t>(s.m) * s.n;
  const std::size_t a_count = static_cast<std::size_t>(s.m) * s.k, b_count = static_cast<std::size_t>(s.k) * s.n;
  std::optional<stepwise::DeviceBuffer<float>> a, b;
  std::optional<grader::Output<float>> c;
  const auto allocate = [&] {
    a.emplace(a_count);
    b.emplace(b_count);
    c.emplace(count);
  };
  const std::size_t bytes = sizeof(float) * (a_count + b_count + count + grader::Output<float>::kGuard);
  grader::check_at_int_max(
      "a C of " + std::to_string(count) + " elements (" + s.describe() + ")", bytes, allocate,
      [&] {
        grader::refill_random(a->data(), a_count, -1, 1);
        grader::refill_random(b->data(), b_count, -1, 1);
        // A small product of the same kind (odd, or whole 128 x 128 tiles with k a multiple of 8),
        // on which the other steps are traced.
        const Shape small = whole_tiles ? Shape{128, 256, 16} : Shape{33, 35, 3};
        stepwise::DeviceBuffer<float> small_a(static_cast<std::size_t>(small.m) * small.k),
            small_b(static_cast<std::size_t>(small.k) * small.n), small_c(static_cast<std::size_t>(small.m) * small.n);
        grader::refill_random(small_a.data(), small_a.size(), -1, 1);
        grader::refill_random(small_b.data(), small_b.size(), -1, 1);
        const grader::Rules rules = what_must_run(step, small_a.data(), small_b.data(), small_c.data(), small);
        grader::expect_ran([&] { function_of(step)(a->data(), b->data(), c->data(), s.m, s.n, s.k); }, rules);
        ASSERT_TRUE(c->guard_intact()) << kIndexOfCHint;
        const grader::Sample sample(count, 4096, 512);
        const std::vector<float> got = sample.of(c->data()), host_a = a->to_host(), host_b = b->to_host();
        const testing::AssertionResult right =
            elements_match(host_a, host_b, s, sample.indices(), exact_elements(host_a, host_b, s, sample.indices()), got);
        EXPECT_TRUE(right) << "(a random sample of " << sample.size() << " elements of C, its first and last 512 among "
                           << "them)\n  " << kIndexOfCHint;
      },
      kIndexOfCHint);
}

TEST(Naive, ElementsPastIntMaxMatchCpu) {
  expect_product_past_int_max(Step::naive, false);
}

TEST(Tiled, ElementsPastIntMaxMatchCpu) {
  expect_product_past_int_max(Step::tiled, false);
}

// The register-blocked kernel's checked path (odd shapes) and its fast path (whole tiles).
TEST(RegisterBlocked, ElementsPastIntMaxMatchCpu) {
  expect_product_past_int_max(Step::register_blocked, false);
}

TEST(RegisterBlocked, WholeTilesPastIntMaxMatchCpu) {
  expect_product_past_int_max(Step::register_blocked, true);
}

TEST(Matmul, NegativeSizesThrow) {
  for (MatmulFunction matmul : {matmul_naive, matmul_tiled, matmul_cublas, matmul_register_blocked}) {
    EXPECT_TRUE(multiplies_like_the_cpu(matmul, {3, 4, 5}));  // (also: TODO until written)
    grader::Output<float> out(16);
    EXPECT_THROW(matmul(nullptr, nullptr, out.data(), -1, 4, 4), std::invalid_argument);
    EXPECT_THROW(matmul(nullptr, nullptr, out.data(), 4, 4, -4), std::invalid_argument);
    EXPECT_TRUE(out.guard_intact());
    const std::vector<float> c = out.to_host();
    EXPECT_TRUE(std::all_of(c.begin(), c.end(), [](float x) { return grader::is_poison(x); }))
        << "a call with a negative size changed C";
  }
}

// ---- Speed ----------------------------------------------------------------------------------
// 4096 x 4096 x 4096 (64 MB per matrix, 1.4e11 flops), smaller on a GPU with less free memory,
// every kernel against cuBLAS in FP32, called by the grader with its own handle.

cublasHandle_t grader_cublas() {
  static const cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS)
      throw std::runtime_error("the grader could not create its cuBLAS handle");
    return h;
  }();
  return handle;
}

struct SpeedSetup {
  int n;
  stepwise::DeviceBuffer<float> a, b, c;
  explicit SpeedSetup(int wanted)
      : n(square_that_fits(wanted)), a(count()), b(count()), c(count()) {}

  static int square_that_fits(int wanted) {
    const std::size_t elements = grader::fit_in_device_memory(static_cast<std::size_t>(wanted) * wanted, 3 * sizeof(float));
    int n = wanted;
    while (static_cast<std::size_t>(n) * n > elements) n /= 2;
    return n;
  }
  std::size_t count() const { return static_cast<std::size_t>(n) * n; }
  double gflop() const { return 2.0 * n * n * n / 1e9; }

  // A call: fresh A and B, C poisoned, and afterwards all of C written and a random sample of its
  // elements right (all of C on the CPU would take a minute).
  grader::Workload multiplying_with(MatmulFunction matmul) {
    return {[this] {
              grader::refill_random(a.data(), count(), -1, 1);
              grader::refill_random(b.data(), count(), -1, 1);
              grader::poison(c.data(), count());
            },
            [this, matmul] { matmul(a.data(), b.data(), c.data(), n, n, n); },
            [this] { return sample_right(); }};
  }
  // The student's call of `step`, with one more call traced after the timed ones, which must show
  // what the step's calls must show (the other steps traced on these matrices first, into C,
  // which every run poisons again).
  grader::Workload multiplying_with(Step step) {
    grader::Workload work = multiplying_with(function_of(step));
    grader::refill_random(a.data(), count(), -1, 1);
    grader::refill_random(b.data(), count(), -1, 1);
    work.what_ran = what_must_run(step, a.data(), b.data(), c.data(), {n, n, n});
    return work;
  }

  // Elements of C checked against the CPU after a call: as many as four whole rows of a 4096^2
  // product, but anywhere in C.
  // A fault on a share f of C escapes with probability (1 - f)^16384: one wrong row of 4096
  // (f = 1/4096) e^-4 = 1.8%, one wrong 32 x 32 tile of 4096^2 e^-1 = 37%.
  static constexpr std::size_t kSampledElements = 16384;

  testing::AssertionResult sample_right() const {
    // C first: read right when a call returns, it must already be complete.
    const std::vector<float> host_c = c.to_host(), host_a = a.to_host(), host_b = b.to_host();
    for (std::size_t i = 0; i < host_c.size(); ++i)
      if (grader::is_poison(host_c[i]))
        return testing::AssertionFailure() << "C(" << i / n << ", " << i % n
                                           << ") was never written: the output of the timed call is wrong";
    // Random elements, new for each check (grader::Sample: the first and the last always among
    // them), so that a call cannot know which elements will be looked at.
    const grader::Sample sample(count(), kSampledElements);
    std::vector<float> got;
    got.reserve(sample.size());
    for (std::size_t i : sample.indices()) got.push_back(host_c[i]);
    const Shape s{n, n, n};
    const testing::AssertionResult right =
        elements_match(host_a, host_b, s, sample.indices(), exact_elements(host_a, host_b, s, sample.indices()), got);
    if (right) return right;
    return testing::AssertionFailure() << "(a random sample of " << sample.size() << " elements of C) " << right.message();
  }

  // cuBLAS FP32 on the same matrices, called by the grader with its own handle, timed and
  // checked the same way as the student's call (so a small product pays the same host overhead).
  double library_ms() {
    return grader::gpu_median_ms(multiplying_with([](const float* a, const float* b, float* c, int m, int n, int k) {
      const float one = 1.0f, zero = 0.0f;
      if (cublasSgemm(grader_cublas(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n) !=
          CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error("the grader's cublasSgemm failed");
    }));
  }
};

// ms of the student's call as a fraction of cuBLAS's. Above 1.5 is beyond what FP32 arithmetic
// allows next to cuBLAS: TF32, or work skipped.
// 1.5: cuBLAS SGEMM at 4096^3 runs at roughly 70% or more of the FP32 peak (H100 SXM: ~50 of 67
// TFLOP/s), so even a kernel at peak is at most about 1 / 0.7 = 1.4 times faster.
grader::Figure fraction_of_cublas(const SpeedSetup& s, double library_ms, double ms) {
  std::ostringstream how;
  how.precision(3);
  how << s.gflop() / ms << " vs " << s.gflop() / library_ms << " TFLOP/s (cuBLAS FP32), " << s.n << "^3";
  return grader::Figure{library_ms / ms, how.str(), 1.5};
}

void expect_fraction_of_cublas(Step step) {
  SpeedSetup s(4096);
  const grader::Workload work = s.multiplying_with(step);
  grader::expect_speed([&] {
    const double ms = grader::gpu_median_ms(work);
    return fraction_of_cublas(s, s.library_ms(), ms);
  });
}

TEST(MatmulSpeed, NaiveFractionOfCublas) {
  expect_fraction_of_cublas(Step::naive);
}

TEST(MatmulSpeed, TiledFractionOfCublas) {
  expect_fraction_of_cublas(Step::tiled);
}

TEST(MatmulSpeed, RegisterBlockedFractionOfCublas) {
  expect_fraction_of_cublas(Step::register_blocked);
}

// The ceiling: no FP32 kernel runs faster than 1.5 times cuBLAS FP32 (fraction_of_cublas), so
// the tiled kernel takes at least library_ms / 1.5 and can be at most 1.5 naive_ms / library_ms
// times faster than the naive one.
TEST(MatmulSpeed, TiledOverNaive) {
  SpeedSetup s(4096);
  const grader::Workload naive = s.multiplying_with(Step::naive), tiled = s.multiplying_with(Step::tiled);
  grader::expect_speed([&] {
    const double naive_ms = grader::gpu_median_ms(naive);
    grader::Figure figure = grader::speedup(naive_ms, grader::gpu_median_ms(tiled), "the naive kernel");
    figure.ceiling = 1.5 * naive_ms / s.library_ms();
    return figure;
  });
}

// Your cuBLAS call against the grader's, on a large product: the same library, so about 1.
TEST(CublasSpeed, LargeProductMatchesLibrary) {
  expect_fraction_of_cublas(Step::cublas);
}

// A 256^3 product takes cuBLAS about 10 us; creating a handle takes far longer. A call that
// creates (or destroys) its handle each time falls far below the grader's call with a handle
// made beforehand.
TEST(CublasSpeed, SmallProductKeepsSetupOut) {
  SpeedSetup s(256);
  const grader::Workload work = s.multiplying_with(Step::cublas);
  grader::expect_speed([&] {
    const double ms = grader::gpu_median_ms(work);
    return fraction_of_cublas(s, s.library_ms(), ms);
  });
}

// ---- The float steps compute in float (no GPU needed) ----------------------------------------

// A product accumulated in double is more accurate than the float bound asks and slower on most
// GPUs, so only the machine code shows it (grader/machine_code.h). cuBLAS's kernels are not
// yours and are not read.
TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic(".", [] {
    matmul_naive(nullptr, nullptr, nullptr, 0, 0, 0);
    matmul_tiled(nullptr, nullptr, nullptr, 0, 0, 0);
    matmul_register_blocked(nullptr, nullptr, nullptr, 0, 0, 0);
  });
}

}  // namespace
