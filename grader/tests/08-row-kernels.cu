// Grader tests for lesson 08 (row kernels: seed 004's per-row recurrences through a gufunc-style
// helper in both layouts and through a shared-memory tile; seed 003's ensemble of Lorenz-96 RK4
// runs, one block or one thread per member).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ensemble.h"
#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/machine_code.h"
#include "grader/sanitizer.h"
#include "grader/yardstick.h"
#include "reference_cpu.h"
#include "row_kernels.h"

namespace {

using grader::Output;

// ---- What "right" means for a row -------------------------------------------------------------
//
// Each value is compared with the seed's own formula in long double. The allowed error of column
// k is 8 (k + 1) units of rounding of Real (eps) times the size of what the value is built from: for
// power sums, |x| + |x|^2 + ... + |x|^(k+1) (the sum without its cancellations); for Hermite,
// 1 + the largest |h_j| for j <= k. Derivation, with u = eps / 2 the most one rounding is off:
// - Power sums: column k is k multiplications (the power x^(k+1), off by at most k u of itself)
//   and k + 1 additions (each off by at most u of the partial sum): at most (2k + 1) u =
//   (k + 1/2) eps of |x| + ... + |x|^(k+1). The bound is 8 times that, for contractions and order.
// - Hermite, h_k = (x h_(k-1) - sqrt(k-1) h_(k-2)) / sqrt(k): each step rounds at most 6 times
//   (two products, the difference, the division, the two roots), 3 eps of operands at most
//   (|x| + sqrt(k-1)) / sqrt(k) <= 3.5 (x in [-4, 4], k >= 2) times the magnitude: at most
//   3 (4 / sqrt(j) + 1) eps for step j, a sum over j = 2..k of 11, 21, 75, 619 eps at k = 2, 3,
//   10, 127, under 8 (k + 1) = 24, 32, 88, 1024. Errors of earlier columns are carried forward by
//   the recurrence of h itself, whose solutions for |x| <= 4 stay the size of 1 + max |h_j|.
// Measured with the solution's recurrences on the CPU (200,000 random x, 4 to 128 columns, float
// and double, with and without fused multiply-adds): at most 0.092 of the bound (power sums 0.053).
// The smallest faults it rejects, each a broken submission: power sums from the geometric series'
// closed form x (x^(k+1) - 1) / (x - 1) (exact at x = 1), which loses digits near x = 1, 62 x the
// bound in float and 4800 x in double 2.4e-4 and 1.3e-6 from 1 (power_sums_closed_form); and the
// double Hermite rows' square roots taken in float (one float rounding, 2^29 double eps, in every
// step: 6e6 x the bound; hermite_roots_in_float). An index off by one, a value left unwritten, or
// float's overflow in the seed's unnormalised form (k! passes 3.4e38 at k = 35, and every later
// column comes out 0; He_k overflows near k = 57) lands far outside. (The seed's two loops in
// double, He_k and k! unnormalised, stay at 0.07 of the bound: the bound does not reject a right
// formula of another arithmetic.)

enum class Function { power_sums, hermite };

const char* name_of(Function f) { return f == Function::power_sums ? "power sums" : "Hermite"; }
const char* name_of(Layout layout) { return layout == Layout::row_major ? "row-major" : "column-major"; }

template <typename Real>
const char* type_name() {
  return sizeof(Real) == sizeof(double) ? "double" : "float";
}

// The inputs of each function: power sums of x in [-2, 2] stay below 2^65, Hermite rows of x in
// [-4, 4] near 1 (both far inside float's range for 128 columns).
double input_limit(Function f) { return f == Function::power_sums ? 2 : 4; }

template <typename Real>
std::vector<Real> random_inputs(std::size_t n, double limit);
template <>
std::vector<float> random_inputs<float>(std::size_t n, double limit) {
  return grader::random_floats(n, static_cast<float>(-limit), static_cast<float>(limit));
}
template <>
std::vector<double> random_inputs<double>(std::size_t n, double limit) {
  return grader::random_doubles(n, -limit, limit);
}

// Calls miss(k, at, ref, allowed, never) for each value of row r of `out` (in `layout`) that
// misses the reference row of x[r] (or was never written).
template <typename Real, typename Miss>
void check_row(Function f, const std::vector<Real>& x, const std::vector<Real>& out, int r, int rows, int cols,
               Layout layout, const Miss& miss) {
  const long double eps = std::numeric_limits<Real>::epsilon();
  const long double xr = x[r];
  const std::vector<long double> ref =
      f == Function::power_sums ? power_sums_row_cpu(xr, cols) : hermite_row_cpu(xr, cols);
  const std::vector<long double> absolute_sums = power_sums_row_cpu(std::fabs(xr), cols);
  long double largest = 0;  // the largest |h_j| so far
  for (int k = 0; k < cols; ++k) {
    largest = std::max(largest, std::fabs(ref[k]));
    const long double magnitude = f == Function::power_sums ? absolute_sums[k] : 1 + largest;
    const std::size_t at = layout == Layout::row_major ? static_cast<std::size_t>(r) * cols + k
                                                       : static_cast<std::size_t>(k) * rows + r;
    const Real got = out[at];
    // Column k: at most (k + 1/2) eps (power sums) or the sum of 3 (4 / sqrt(j) + 1) eps over j = 2..k
    // (Hermite) x magnitude from its roundings (above), 8 (k + 1) eps allowed; + Real's smallest normal so that a value
    // flushed to 0 next to a subnormal reference (FTZ) is not a failure.
    const long double allowed = 8 * eps * (k + 1) * magnitude + std::numeric_limits<Real>::min();
    const bool never = grader::is_poison(got);
    if (never || !(std::fabs(got - ref[k]) <= allowed)) miss(k, at, ref[k], allowed, never);
  }
}

// Checks the rows x cols matrix `out` (in `layout`) against the reference rows of `x`: every row
// on the idle cores first (a long-double reference of up to 4M values takes seconds on one thread),
// then the report, in order, of the rows that missed.
template <typename Real>
testing::AssertionResult rows_are_right(Function f, const std::vector<Real>& x, const std::vector<Real>& out, int rows,
                                        int cols, Layout layout) {
  std::vector<char> missed(static_cast<std::size_t>(rows), 0);
  grader::in_parallel(missed.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r)
      check_row(f, x, out, static_cast<int>(r), rows, cols, layout, [&](auto&&...) { missed[r] = 1; });
  }, 1024);
  grader::MismatchReport report;
  for (int r = 0; r < rows; ++r) {
    if (!missed[r]) continue;
    check_row(f, x, out, r, rows, cols, layout, [&](int k, std::size_t at, long double ref, long double allowed, bool never) {
      if (!report.add(never)) return;
      std::ostringstream where, expected, actual;
      where << "row " << r << " (x = " << x[r] << "), column " << k << " (" << name_of(layout) << " index " << at << "):";
      expected.precision(10);
      actual.precision(10);
      expected << static_cast<double>(ref) << " (allowed error " << static_cast<double>(allowed) << ")";
      actual << out[at];
      report.show(where.str(), expected.str(), actual.str(), never);
    });
  }
  if (report.count() == 0) return testing::AssertionSuccess();
  return report.failure(static_cast<std::size_t>(rows) * cols,
                        std::string(name_of(f)) + " in " + type_name<Real>() + ", " + name_of(layout) +
                            ", allowed error 8 (k + 1) eps times the size of column k",
                        " (are all rows covered, and every column from 0?)");
}

template <typename Real>
void compute(Function f, Target target, const Real* x, Real* out, int rows, int cols, Layout layout,
             cudaStream_t stream = nullptr) {
  if (f == Function::power_sums) power_sums(target, x, out, rows, cols, layout, stream);
  else hermite(target, x, out, rows, cols, layout, stream);
}

using grader::CheckStream;  // a non-blocking stream the checks pass (grader/check_stream.h)

// What each GPU step's trace must show (grader/trace.h): a kernel of yours on the stream given,
// no wait for the GPU, no copy from or to the host (the header's promise for Target::gpu).
std::string step_name(Function f, Layout layout) {
  return std::string(layout == Layout::row_major ? "step 2 (" : "step 3 (") +
         (f == Function::power_sums ? "power_sums" : "hermite") + ", Target::gpu, " + name_of(layout) + ")";
}

// Runs `call` on the stream: the device synchronised first (inputs and poison in place), traced
// against `rules` when `traced`, then the stream waited for.
void run_on(cudaStream_t stream, const std::function<void()>& call, bool traced, const grader::Rules& rules) {
  CUDA_CHECK(cudaDeviceSynchronize());
  if (traced)
    grader::expect_ran(call, rules);
  else
    call();
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

// The grader's rows: 0, 1, 31, 33, a prime, and a large count (a matrix of 2^22 values on the
// GPU, fewer under compute-sanitizer or where device memory is short; 2^18 on the CPU). Columns:
// 2 (the recurrence's smallest case), 3, 4 (the seed's), 17 and 64.
const std::vector<int> kCols = {2, 3, 4, 17, 64};

std::vector<int> test_rows(int cols, std::size_t value_bytes, Target target = Target::gpu) {
  if (target == Target::cpu) return {0, 1, 31, 33, 1009, (1 << 18) / cols};
  // racecheck and synccheck look only at shared memory and barriers, at a far higher cost per
  // access than memcheck: 1 (one thread), 33 (two warps, the second partial) and 1009 (many
  // blocks, a tail of several warps: 113 rows of 128, 49 of 64, 17 of 32) reach every barrier of
  // a block, full or partial; 0 launches nothing, and memcheck still checks 31 and 2053.
  if (grader::under_race_or_sync_check()) return {1, 33, 1009};
  const int large = grader::under_sanitizer() ? 2053 : (1 << 22) / cols;
  return {0, 1, 31, 33, 1009,
          static_cast<int>(grader::fit_in_device_memory(large, value_bytes * (cols + 1)))};
}

// Every size on the CPU (host arrays, the output poisoned) or the GPU (device arrays, the output
// poisoned and guarded), one function, one layout.
template <typename Real>
void rows_match_everywhere(Function f, Target target, Layout layout) {
  for (int cols : kCols)
    for (int rows : test_rows(cols, sizeof(Real), target)) {
      SCOPED_TRACE(std::string(type_name<Real>()) + ", rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols));
      const std::vector<Real> x = random_inputs<Real>(rows, input_limit(f));
      const std::size_t values = static_cast<std::size_t>(rows) * cols;
      if (target == Target::cpu) {
        std::vector<Real> out = grader::poisoned_host<Real>(values);
        compute(f, target, x.data(), out.data(), rows, cols, layout);
        const testing::AssertionResult right = rows_are_right(f, x, out, rows, cols, layout);
        ASSERT_TRUE(right);
        continue;
      }
      auto d_x = grader::device(x);
      Output<Real> out(values);
      const CheckStream stream;
      // The largest matrix of the widest rows is traced.
      run_on(stream, [&] { compute(f, target, d_x.data(), out.data(), rows, cols, layout, stream); },
             cols == kCols.back() && rows == test_rows(cols, sizeof(Real), target).back(),
             grader::Rules::kernel_step(step_name(f, layout), stream));
      ASSERT_TRUE(out.guard_intact());
      ASSERT_TRUE(rows_are_right(f, x, out.to_host(), rows, cols, layout));
    }
}

template <typename Real>
void both_functions(Target target, Layout layout) {
  rows_match_everywhere<Real>(Function::power_sums, target, layout);
  rows_match_everywhere<Real>(Function::hermite, target, layout);
}

// The seed's two printed tables (seed 004, 4 columns): its first function on x = 1, 2, 3, 4, 1
// and its actual function on x = 0 .. 4, as its float32 GPU run printed them.
const std::vector<double> kSeedPowerSums = {1, 2, 3, 4, 2, 6, 14, 30, 3, 12, 39, 120, 4, 20, 84, 340, 1, 2, 3, 4};
const std::vector<double> kSeedHermite = {1, 0, -0.70710677, -0.0,     1, 1, 0,          -0.8164966,
                                          1, 2, 2.1213202,   0.8164966, 1, 3, 5.656854,   7.3484693,
                                          1, 4, 10.606602,   21.22891};

template <typename Real>
testing::AssertionResult seed_tables_match(Target target) {
  const std::vector<Real> powers_x = {1, 2, 3, 4, 1}, hermite_x = {0, 1, 2, 3, 4};
  std::vector<Real> powers, hermites;
  if (target == Target::cpu) {
    powers = grader::poisoned_host<Real>(20);
    hermites = grader::poisoned_host<Real>(20);
    power_sums(target, powers_x.data(), powers.data(), 5, 4);
    hermite(target, hermite_x.data(), hermites.data(), 5, 4);
  } else {
    auto d_powers_x = grader::device(powers_x), d_hermite_x = grader::device(hermite_x);
    Output<Real> d_powers(20), d_hermites(20);
    power_sums(target, d_powers_x.data(), d_powers.data(), 5, 4);
    hermite(target, d_hermite_x.data(), d_hermites.data(), 5, 4);
    powers = d_powers.to_host();
    hermites = d_hermites.to_host();
  }
  // Exact: power sums of the integers 1 .. 4 to the 4th power are integers below 2^24, which float
  // and double hold exactly, and every product and sum of them is exact.
  const testing::AssertionResult first = grader::matches(kSeedPowerSums, powers, grader::Tolerance::exact());
  if (!first) return testing::AssertionFailure() << "the seed's first table (power sums of x = 1 2 3 4 1): " << first.message();
  // The seed printed 8 digits of a float32 result.
  // 8 significant digits are within 5e-9 relative of the seed's float, itself within a few float
  // roundings (a few x 6e-8 relative) of the exact value: a right float or double row is within
  // about 3e-7 x |v| of the print (|v| <= 21.3), and 1e-6 + 1e-6 |v| allows 3x that.
  const testing::AssertionResult second = grader::matches(kSeedHermite, hermites, grader::Tolerance::close(1e-6, 1e-6));
  if (!second) return testing::AssertionFailure() << "the seed's second table (Hermite rows of x = 0 .. 4): " << second.message();
  return testing::AssertionSuccess();
}

// ---- Steps 1 and 2 on the CPU: the helper's CPU target ----------------------------------------

TEST(CpuRows, RowMajorMatchesReference) {
  both_functions<float>(Target::cpu, Layout::row_major);
  both_functions<double>(Target::cpu, Layout::row_major);
}

TEST(CpuRows, SeedTables) {
  EXPECT_TRUE(seed_tables_match<float>(Target::cpu));
  EXPECT_TRUE(seed_tables_match<double>(Target::cpu));
}

TEST(CpuRows, RejectsBadSizes) {
  std::vector<double> x(8, 0.5), out = grader::poisoned_host<double>(64);
  hermite(Target::cpu, x.data(), out.data(), 8, 8);  // a good call works first
  out = grader::poisoned_host<double>(64);
  EXPECT_THROW(power_sums(Target::cpu, x.data(), out.data(), -1, 8), std::invalid_argument);
  EXPECT_THROW(power_sums(Target::cpu, x.data(), out.data(), 8, -1), std::invalid_argument);
  EXPECT_THROW(hermite(Target::cpu, x.data(), out.data(), 8, 1), std::invalid_argument)
      << "a Hermite row has at least 2 columns (He_0 = 1 and He_1 = x)";
  EXPECT_THROW(hermite(Target::cpu, x.data(), out.data(), -3, 8), std::invalid_argument);
  for (std::size_t i = 0; i < out.size(); ++i)
    ASSERT_TRUE(grader::is_poison(out[i])) << "a rejected call wrote value " << i;
}

// A float row function computing in double (a literal without f, sqrt of a double) gives
// float-accurate rows, so only the machine code shows it. row_kernels.cu instantiates
// apply_rows.cuh's kernel with the row functions (power_sums, hermite) and the tiled kernel; the
// double instantiations are double by design. The calls on empty input reach a step still to
// write (TODO).
TEST(CpuMachineCode, FloatRowKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic("apply_rows_kernel<float,|hermite_tiled_kernel<float>", [] {
    power_sums<float>(Target::gpu, nullptr, nullptr, 0, 0);
    hermite<float>(Target::gpu, nullptr, nullptr, 0, 2);
    hermite_row_major_tiled<float>(nullptr, nullptr, 0, 2);
  });
}

TEST(CpuRows, ColumnMajorMatchesReference) {
  both_functions<float>(Target::cpu, Layout::column_major);
  both_functions<double>(Target::cpu, Layout::column_major);
}

// ---- Steps 1 and 2 on the GPU ----------------------------------------------------------------

TEST(Rows, PowerSumsRowMajor) {
  rows_match_everywhere<float>(Function::power_sums, Target::gpu, Layout::row_major);
  rows_match_everywhere<double>(Function::power_sums, Target::gpu, Layout::row_major);
}

TEST(Rows, HermiteRowMajor) {
  rows_match_everywhere<float>(Function::hermite, Target::gpu, Layout::row_major);
  rows_match_everywhere<double>(Function::hermite, Target::gpu, Layout::row_major);
}

TEST(Rows, SeedTables) {
  EXPECT_TRUE(seed_tables_match<float>(Target::gpu));
  EXPECT_TRUE(seed_tables_match<double>(Target::gpu));
}

// ---- The most rows an `int rows` takes ---------------------------------------------------------
//
// rows = INT_MAX (2^31 - 1) reaches paths no smaller matrix does: a grid rounded up as
// (rows + 255) / 256 overflows int past INT_MAX - 255 (a launch of a negative number of blocks),
// and a grid-stride loop's last step, r + stride, passes INT_MAX and wraps negative in an int
// (the loop goes on, gigabytes before the arrays). On a GPU where a check's arrays are more than
// 3/4 of its memory, and under compute-sanitizer, the check is SKIPPED, saying so
// (grader::check_at_int_max). Inputs are drawn on the GPU; the rows of 2^16 random rows and
// the first and last 512 are compared exactly (see each check).
constexpr int kMostRows = std::numeric_limits<int>::max();
const std::string kMostRowsHint =
    "rows = INT_MAX = 2147483647: does the round-up (rows + 255) / 256 overflow int, or a grid-stride row index "
    "pass INT_MAX at its last step (r += stride)? Round up as (rows - 1) / 256 + 1, and keep a grid-stride index "
    "in a long long";

// values[at[k]] for each k, gathered on the GPU.
__global__ void gather_kernel(const float* values, const std::size_t* at, std::size_t count, float* into) {
  const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (k < count) into[k] = values[at[k]];
}

std::vector<float> gathered(const float* values, const std::vector<std::size_t>& at) {
  auto d_at = grader::device(at);
  stepwise::DeviceBuffer<float> into(at.size());
  gather_kernel<<<static_cast<unsigned>((at.size() - 1) / 256 + 1), 256>>>(values, d_at.data(), at.size(), into.data());
  CUDA_CHECK_LAUNCH();
  return into.to_host();
}

// Step 2's power sums through step 1's apply_rows, row-major, float, rows = INT_MAX of 1 column
// (x and out: 17.2 GB), traced as Rows.PowerSumsRowMajor's largest call is. A row of one column
// is out[r] = 0 + x[r] = x[r]: exact.
TEST(Rows, PowerSumsAtIntMaxRows) {
  power_sums<float>(Target::gpu, nullptr, nullptr, 0, 1);  // a step not written yet is TODO, on any GPU
  std::optional<stepwise::DeviceBuffer<float>> x;
  std::optional<Output<float>> out;
  const auto allocate = [&] {
    x.emplace(kMostRows);
    out.emplace(kMostRows);
  };
  grader::check_at_int_max("rows = INT_MAX", 2 * sizeof(float) * std::size_t{kMostRows}, allocate, [&] {
    grader::refill_random(x->data(), kMostRows, -2.0f, 2.0f);
    const CheckStream stream;
    run_on(stream, [&] { power_sums(Target::gpu, x->data(), out->data(), kMostRows, 1, Layout::row_major, stream); },
           true, grader::Rules::kernel_step(step_name(Function::power_sums, Layout::row_major), stream));
    const grader::Sample sample(kMostRows, grader::Sample::kValues, 512);
    const std::vector<float> inputs = sample.of(x->data());
    EXPECT_TRUE(sample.matches(std::vector<double>(inputs.begin(), inputs.end()), sample.of(out->data()),
                               grader::Tolerance::exact()))
        << "power sums of 1 column: out[r] must be x[r]; " << kMostRowsHint;
  }, kMostRowsHint);
}

// ---- Step 3: the transposed layout and the tile ------------------------------------------------

TEST(Transposed, PowerSumsColumnMajor) {
  rows_match_everywhere<float>(Function::power_sums, Target::gpu, Layout::column_major);
  rows_match_everywhere<double>(Function::power_sums, Target::gpu, Layout::column_major);
}

TEST(Transposed, HermiteColumnMajor) {
  rows_match_everywhere<float>(Function::hermite, Target::gpu, Layout::column_major);
  rows_match_everywhere<double>(Function::hermite, Target::gpu, Layout::column_major);
}

// Step 3's tile, as the trace shows it: a kernel of yours on the stream given (no wait, no host
// copy) that keeps a tile of at least 32 rows of `cols` values in shared memory (the README: 128
// rows per block, halved down to 32 while the tile is over 48 KB), and is not step 2's kernel.
template <typename Real>
grader::Rules tiled_rules(int cols, cudaStream_t stream, const grader::Trace* row_major) {
  grader::Rules rules = grader::Rules::kernel_step("step 3 (hermite_row_major_tiled)", stream);
  rules.shared_memory(32 * cols * static_cast<int>(sizeof(Real)));
  if (row_major != nullptr) rules.kernels_differ_from(*row_major, "step 2 (hermite, row-major)");
  return rules;
}

template <typename Real>
void tiled_matches_everywhere() {
  std::vector<int> cols_list = kCols;
  cols_list.push_back(kMaxTiledCols);  // the largest tile: fewer rows per block
  for (int cols : cols_list)
    for (int rows : test_rows(cols, sizeof(Real))) {
      SCOPED_TRACE(std::string(type_name<Real>()) + ", rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols));
      const std::vector<Real> x = random_inputs<Real>(rows, input_limit(Function::hermite));
      auto d_x = grader::device(x);
      Output<Real> out(static_cast<std::size_t>(rows) * cols);
      const CheckStream stream;
      const bool traced = cols == kCols.back() && rows == test_rows(cols, sizeof(Real)).back();
      grader::Trace row_major;  // step 2's kernel on the same matrix, which the tile's must not be
      if (traced) {
        Output<Real> other(static_cast<std::size_t>(rows) * cols);
        CUDA_CHECK(cudaDeviceSynchronize());
        row_major = grader::trace([&] { hermite(Target::gpu, d_x.data(), other.data(), rows, cols, Layout::row_major, stream); });
      }
      run_on(stream, [&] { hermite_row_major_tiled(d_x.data(), out.data(), rows, cols, stream); }, traced,
             tiled_rules<Real>(cols, stream, &row_major));
      ASSERT_TRUE(out.guard_intact());
      ASSERT_TRUE(rows_are_right(Function::hermite, x, out.to_host(), rows, cols, Layout::row_major));
    }
}

TEST(Tiled, HermiteRowMajor) {
  tiled_matches_everywhere<float>();
  tiled_matches_everywhere<double>();
}

// Step 3's tile at rows = INT_MAX of 2 columns, float (x and out: 25.8 GB), traced under the
// step's rules (without the comparison with step 2's kernel, which would need another 17.2 GB). A
// Hermite row of 2 columns is h_0 = 1, h_1 = x: exact. The tile's grid is rounded up over blocks
// of 128 rows: (rows + 127) / 128 overflows int there.
TEST(Tiled, HermiteAtIntMaxRows) {
  hermite_row_major_tiled<float>(nullptr, nullptr, 0, 2);  // a step not written yet is TODO, on any GPU
  constexpr int cols = 2;
  const std::size_t values = std::size_t{kMostRows} * cols;
  std::optional<stepwise::DeviceBuffer<float>> x;
  std::optional<Output<float>> out;
  const auto allocate = [&] {
    x.emplace(kMostRows);
    out.emplace(values);
  };
  grader::check_at_int_max("rows = INT_MAX", sizeof(float) * (kMostRows + values), allocate, [&] {
    grader::refill_random(x->data(), kMostRows, -4.0f, 4.0f);
    const CheckStream stream;
    run_on(stream, [&] { hermite_row_major_tiled(x->data(), out->data(), kMostRows, cols, stream); }, true,
           tiled_rules<float>(cols, stream, nullptr));
    const grader::Sample rows(kMostRows, grader::Sample::kValues, 512);
    const std::vector<float> inputs = rows.of(x->data());
    std::vector<std::size_t> at;  // both values of each sampled row, as indices into out
    std::vector<double> expected;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      at.push_back(rows.indices()[k] * cols);
      expected.push_back(1);
      at.push_back(rows.indices()[k] * cols + 1);
      expected.push_back(inputs[k]);
    }
    EXPECT_TRUE(grader::matches(expected, gathered(out->data(), at), grader::Tolerance::exact(), &at))
        << "Hermite rows of 2 columns: out[2r] must be 1 and out[2r + 1] x[r]; " << kMostRowsHint;
  }, kMostRowsHint);
}

TEST(Tiled, RejectsBadCols) {
  auto d_x = grader::device(std::vector<float>(8, 0.5f));
  Output<float> out(8 * 200);
  hermite_row_major_tiled(d_x.data(), out.data(), 8, 4);  // a good call works first
  out.poison();
  for (int cols : {0, 1, -1, kMaxTiledCols + 1})
    EXPECT_THROW(hermite_row_major_tiled(d_x.data(), out.data(), 8, cols), std::invalid_argument) << "cols = " << cols;
  EXPECT_THROW(hermite_row_major_tiled(d_x.data(), out.data(), -1, 4), std::invalid_argument);
  const std::vector<float> after = out.to_host();
  for (std::size_t i = 0; i < after.size(); ++i)
    ASSERT_TRUE(grader::is_poison(after[i])) << "a rejected call wrote value " << i;
}

// ---- Steps 4 and 5: the ensemble -------------------------------------------------------------
//
// Every member starts from its own random state (each variable in [-5, 13], where Lorenz-96 with
// F = 8 lives), so a kernel that integrates one member many times fails. The reference is the same
// RK4 in long double, so the only difference a right kernel makes is rounding. Derivation, with
// u = eps / 2 the most one rounding is off, relative to 1 + |x|:
// - Each RK4 step rounds each variable about 30 times: 4 tendencies of 4 operations, 3 stage
//   inputs of 2, 4 multiply-adds into the sum, the update's 2. A tendency's terms reach about
//   2 x 13 x 13 = 340, but its roundings enter x times dt (the weights sum to 6, over 6), so each is
//   at most 0.01 x 340 u = 3.4 u; the others are at most u of about |x|: at most ~100 u a step.
// - Lorenz-96 is chaotic: a difference grows on average by about e^1.7 per unit of model time (its
//   largest Lyapunov exponent for N = 40, F = 8); the bound assumes e^2.5, for stretches of faster
//   growth. Step s's error has grown by e^(2.5 (T - s dt)) at the end: the sum over 100 steps is
//   (e^2.5 - 1) / (e^0.025 - 1) = 442 times a step's error, at most ~4.4e4 u.
// - The bound allows 1e4 eps e^(2.5 T) = 2.4e5 u at T = 1: about 5 times that worst case, in which
//   every rounding goes the same way.
// Measured with the solution's arithmetic on the CPU (333 members of 4, 40 and 61 variables and 40
// of 1024, float and double, 100 steps): at most 0.026 of the bound. The smallest faults it rejects,
// each a broken submission: a run one step of 100 short, 27 to 86 x the bound in float (10^10 x in
// double; ensemble_skips_the_last_step), and the double kernel's time step rounded to float
// (0.01f = 0.01 (1 - 2.2e-8)), 3e4 to 1e5 x the bound in double (ensemble_time_step_in_float; float
// unchanged). A wrong neighbour, stage or member makes O(1) differences, far outside.

template <typename Real>
long double ensemble_allowed_error(const Lorenz96& model, int steps) {
  // 1e4 eps (5 x the worst case of ~100 u a step, see above) at e^(2.5 t) growth, t = steps x dt;
  // 100 steps: 1e4 x 2^-23 x e^2.5 = 1.45e-2 (float), 1e4 x 2^-52 x e^2.5 = 2.7e-11 (double).
  return 1e4L * std::numeric_limits<Real>::epsilon() * std::exp(2.5L * steps * model.dt);
}

template <typename Real>
testing::AssertionResult states_are_right(const std::vector<Real>& initial, const std::vector<Real>& got, int members,
                                          const Lorenz96& model, int steps) {
  const std::vector<long double> ref = ensemble_cpu<long double>(initial, members, model, steps);
  const long double allowed = ensemble_allowed_error<Real>(model, steps);
  grader::MismatchReport report;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const bool never = grader::is_poison(got[i]);
    if (!never && std::fabs(got[i] - ref[i]) <= allowed * (1 + std::fabs(ref[i]))) continue;
    if (report.add(never)) {
      std::ostringstream where, expected, actual;
      where << "member " << i / model.size << ", variable " << i % model.size << ":";
      expected << static_cast<double>(ref[i]);
      actual << got[i];
      report.show(where.str(), expected.str(), actual.str(), never);
    }
  }
  if (report.count() == 0) return testing::AssertionSuccess();
  std::ostringstream required;
  required << type_name<Real>() << ", " << steps << " RK4 steps, allowed error " << static_cast<double>(allowed)
           << " x (1 + |x|)";
  return report.failure(ref.size(), required.str(), " (is every member's every variable written?)");
}

enum class Ensemble { block_per_member, thread_per_member };

template <typename Real>
void integrate(Ensemble kind, const Real* initial, Real* final, int members, const Lorenz96& model, int steps,
               cudaStream_t stream = nullptr) {
  if (kind == Ensemble::block_per_member) ensemble_block_per_member(initial, final, members, model, steps, stream);
  else ensemble_thread_per_member(initial, final, members, model, steps, stream);
}

// What each ensemble step's trace must show, besides a kernel of yours on the stream given, no
// wait and no host copy: step 4 launches one block per member, of at least one thread per
// variable, and keeps the state in shared memory (model.size values); step 5 launches one thread
// per member (at least `members` threads in blocks fewer than the members) and not step 4's
// kernel (`block_per_member`: a trace of step 4 on the same ensemble, or null).
template <typename Real>
grader::Rules ensemble_rules(Ensemble kind, int members, const Lorenz96& model, cudaStream_t stream,
                             const grader::Trace* block_per_member = nullptr) {
  const bool blocks = kind == Ensemble::block_per_member;
  grader::Rules rules = grader::Rules::kernel_step(
      blocks ? "step 4 (ensemble_block_per_member)" : "step 5 (ensemble_thread_per_member)", stream);
  if (blocks) rules.shared_memory(model.size * static_cast<int>(sizeof(Real)));
  if (!blocks && block_per_member != nullptr) rules.kernels_differ_from(*block_per_member, "step 4 (ensemble_block_per_member)");
  const int size = model.size;
  rules.also([blocks, members, size](const grader::Trace& t) -> testing::AssertionResult {
    std::ostringstream shapes;
    for (const grader::TracedKernel& k : t.kernels) {
      if (k.origin != grader::Origin::student) continue;
      const long long grid = 1LL * k.grid.x * k.grid.y * k.grid.z, block = 1LL * k.block.x * k.block.y * k.block.z;
      if (blocks ? grid == members && block >= size : grid * block >= members && grid < members) return testing::AssertionSuccess();
      shapes << (shapes.tellp() > 0 ? ", " : "") << grid << " blocks of " << block << " threads";
    }
    if (shapes.tellp() == 0) return testing::AssertionSuccess();  // no kernel of yours: said already
    auto failure = testing::AssertionFailure() << "launched " << shapes.str() << " for " << members << " members of "
                                               << size << " variables: ";
    if (blocks) return failure << "one block per member (" << members << " blocks), one thread per variable";
    return failure << "one thread per member (at least " << members << " threads, in blocks of 64)";
  });
  return rules;
}

template <typename Real>
void ensemble_matches_cpu(Ensemble kind) {
  const bool small = grader::under_sanitizer();
  // Under a sanitizer 2 steps: every stage's two barriers and the passage from one step to the
  // next, where the addresses and barriers of each later step repeat (10 steps was 5 x the checked accesses).
  const int steps = small ? 2 : 100;
  const int largest = kind == Ensemble::block_per_member ? kMaxBlockMemberSize : kMaxThreadMemberSize;
  const std::vector<int> members_list = small ? std::vector<int>{0, 1, 7} : std::vector<int>{0, 1, 40, 333};
  for (int size : {4, 5, 40, 61, largest})
    for (int members : members_list) {
      if (size == largest && members > 40) continue;  // the reference's time
      Lorenz96 model;
      model.size = size;
      SCOPED_TRACE(std::string(type_name<Real>()) + ", members = " + std::to_string(members) +
                   ", model size = " + std::to_string(size));
      const std::vector<Real> initial = random_inputs<Real>(static_cast<std::size_t>(members) * size, 9);
      std::vector<Real> shifted(initial);
      for (Real& v : shifted) v += 4;  // [-5, 13]
      auto d_initial = grader::device(shifted);
      Output<Real> final(shifted.size());
      const CheckStream stream;
      // Traced: the seed's 40 variables with the most members (and step 5 against step 4's kernel).
      const bool traced = size == 40 && members == members_list.back();
      grader::Trace block_per_member;
      if (traced && kind == Ensemble::thread_per_member) {
        Output<Real> other(shifted.size());
        CUDA_CHECK(cudaDeviceSynchronize());
        block_per_member = grader::trace([&] {
          integrate(Ensemble::block_per_member, d_initial.data(), other.data(), members, model, steps, stream);
        });
      }
      run_on(stream, [&] { integrate(kind, d_initial.data(), final.data(), members, model, steps, stream); }, traced,
             ensemble_rules<Real>(kind, members, model, stream, &block_per_member));
      ASSERT_TRUE(final.guard_intact());
      ASSERT_TRUE(states_are_right(shifted, final.to_host(), members, model, steps));
      ASSERT_EQ(d_initial.to_host(), shifted) << "the initial states must only be read";
    }
}

template <typename Real>
void zero_steps_copy_the_state(Ensemble kind) {
  Lorenz96 model;
  const std::vector<Real> initial = random_inputs<Real>(3 * model.size, 9);
  auto d_initial = grader::device(initial);
  Output<Real> final(initial.size());
  integrate(kind, d_initial.data(), final.data(), 3, model, 0);
  EXPECT_TRUE(grader::matches(initial, final, grader::Tolerance::exact())) << "0 steps leave every state as it was";
}

template <typename Real>
void ensemble_rejects_bad_arguments(Ensemble kind) {
  Lorenz96 model;
  auto d_initial = grader::device(random_inputs<Real>(2 * model.size, 9));
  Output<Real> final(2 * model.size);
  integrate(kind, d_initial.data(), final.data(), 2, model, 1);  // a good call works first
  final.poison();
  Lorenz96 tiny = model, huge = model;
  tiny.size = 3;
  huge.size = (kind == Ensemble::block_per_member ? kMaxBlockMemberSize : kMaxThreadMemberSize) + 1;
  EXPECT_THROW(integrate(kind, d_initial.data(), final.data(), -1, model, 1), std::invalid_argument);
  EXPECT_THROW(integrate(kind, d_initial.data(), final.data(), 2, model, -1), std::invalid_argument);
  EXPECT_THROW(integrate(kind, d_initial.data(), final.data(), 1, tiny, 1), std::invalid_argument);
  EXPECT_THROW(integrate(kind, d_initial.data(), final.data(), 1, huge, 1), std::invalid_argument);
  const std::vector<Real> after = final.to_host();
  for (std::size_t i = 0; i < after.size(); ++i)
    ASSERT_TRUE(grader::is_poison(after[i])) << "a rejected call wrote value " << i;
}

TEST(Ensemble, BlockPerMemberMatchesCpu) {
  ensemble_matches_cpu<float>(Ensemble::block_per_member);
  ensemble_matches_cpu<double>(Ensemble::block_per_member);
}
TEST(Ensemble, BlockPerMemberZeroSteps) {
  zero_steps_copy_the_state<double>(Ensemble::block_per_member);
}
TEST(Ensemble, BlockPerMemberRejectsBadArguments) {
  ensemble_rejects_bad_arguments<double>(Ensemble::block_per_member);
}

TEST(Ensemble, ThreadPerMemberMatchesCpu) {
  ensemble_matches_cpu<float>(Ensemble::thread_per_member);
  ensemble_matches_cpu<double>(Ensemble::thread_per_member);
}
TEST(Ensemble, ThreadPerMemberZeroSteps) {
  zero_steps_copy_the_state<double>(Ensemble::thread_per_member);
}
TEST(Ensemble, ThreadPerMemberRejectsBadArguments) {
  ensemble_rejects_bad_arguments<double>(Ensemble::thread_per_member);
}

// ---- Speed: the row kernels ---------------------------------------------------------------------
//
// Hermite rows of the seed's 4 floats, 2^25 rows (640 MB moved per call, far above any L2; fewer
// where device memory is short). A call reads x (4 bytes a row) and writes 4 values (16 bytes).

constexpr int kSpeedCols = 4;

int speed_rows() {
  return static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 25, sizeof(float) * (1 + kSpeedCols)));
}

// The x and the `cols` outputs of the rows `picked` (device indices, `count` of them), gathered on
// the GPU from a rows x cols matrix in either layout: x_picked[i], out_picked[i * cols + k].
__global__ void gather_rows_kernel(const float* x, const float* out, const std::size_t* picked, int count, int rows,
                                   int cols, bool row_major, float* x_picked, float* out_picked) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const std::size_t r = picked[i];
  x_picked[i] = x[r];
  for (int k = 0; k < cols; ++k)
    out_picked[static_cast<std::size_t>(i) * cols + k] =
        out[row_major ? r * cols + k : static_cast<std::size_t>(k) * rows + r];
}

// A Hermite call as the grader times it: fresh x before every run, the output poisoned, and after
// the run a fresh random sample of rows (grader::Sample: 65536 of them, the first and the last
// always) checked against the reference, so that code which computes only some rows cannot know
// which. The traced call must show the step's kernel on the default stream (the timed calls pass
// none), no wait, no host copy, and for the tile its shared memory.
class TimedHermite {
 public:
  enum class Version { row_major, column_major, tiled };
  TimedHermite(int rows, Version version) : rows_(rows), version_(version), x_(rows), out_(rows * std::size_t{kSpeedCols}) {}

  grader::Workload workload() {
    grader::Workload timed{[this] {
                             grader::refill_random(x_.data(), rows_, -4.0f, 4.0f);
                             grader::poison(out_.data(), out_.size());
                           },
                           [this] {
                             if (version_ == Version::tiled) hermite_row_major_tiled(x_.data(), out_.data(), rows_, kSpeedCols);
                             else hermite(Target::gpu, x_.data(), out_.data(), rows_, kSpeedCols, layout());
                           },
                           [this] { return sample_is_right(); }};
    timed.what_ran = version_ == Version::tiled ? tiled_rules<float>(kSpeedCols, nullptr, nullptr)
                                                : grader::Rules::kernel_step(step_name(Function::hermite, layout()));
    return timed;
  }

 private:
  Layout layout() const { return version_ == Version::column_major ? Layout::column_major : Layout::row_major; }

  testing::AssertionResult sample_is_right() const {
    const grader::Sample sample(static_cast<std::size_t>(rows_));
    const int count = static_cast<int>(sample.size());
    const stepwise::DeviceBuffer<std::size_t> picked = stepwise::DeviceBuffer<std::size_t>::from_host(sample.indices());
    stepwise::DeviceBuffer<float> d_x(count), d_out(static_cast<std::size_t>(count) * kSpeedCols);
    gather_rows_kernel<<<(count + 255) / 256, 256>>>(x_.data(), out_.data(), picked.data(), count, rows_, kSpeedCols,
                                                     layout() == Layout::row_major, d_x.data(), d_out.data());
    CUDA_CHECK_LAUNCH();
    const std::vector<float> x = d_x.to_host(), out = d_out.to_host();
    const testing::AssertionResult right = rows_are_right(Function::hermite, x, out, count, kSpeedCols, Layout::row_major);
    if (right) return right;
    return testing::AssertionFailure() << "(the rows of a random sample of " << count << ", numbered in the sample) "
                                       << right.message();
  }

  int rows_;
  Version version_;
  stepwise::DeviceBuffer<float> x_, out_;
};

double hermite_ms(TimedHermite::Version version) {
  TimedHermite timed(speed_rows(), version);
  return grader::gpu_median_ms(timed.workload());
}

// The bytes a timed call moves: each row's x read and its kSpeedCols values written.
double hermite_bytes() { return static_cast<double>(speed_rows()) * sizeof(float) * (1 + kSpeedCols); }

grader::Figure hermite_fraction_of_copy_bandwidth(TimedHermite::Version version) {
  return grader::fraction_of_copy_bandwidth(hermite_bytes(), hermite_ms(version));
}

// Step 2's row-major layout on its own: it is the yardstick of TransposedOverRowMajor below, which
// a slow row-major call would flatter, so it has a minimum of its own. Its stores are strided (a
// warp's 32 rows of 4 values span 16 sectors per store instruction, of which it fills a quarter:
// the README's ncu table), so it moves its bytes slower than the coalesced versions: 0.38 x copy
// bandwidth on the H100 from the README's row-major time (0.5962 ms for 671 MB at 2955 GB/s).
TEST(RowSpeed, RowMajorFractionOfCopyBandwidth) {
  grader::expect_speed([] { return hermite_fraction_of_copy_bandwidth(TimedHermite::Version::row_major); });
}

// The issue's comparison: the same kernel, the same function, only the layout differs.
//
// The row-major call is this check's yardstick, so it is held to its own minimum here too
// (RowSpeed.RowMajorFractionOfCopyBandwidth's), in this check's own measurements
// (grader/yardstick.h: the highest figure, the fastest call, counts): a row-major call made slow,
// here or only here, would flatter the transposed layout's figure. The smallest fault this
// admits: a row-major call at that minimum (0.15 of copy bandwidth against the solution's 0.38 on
// the H100) flatters the ratio by up to 0.38 / 0.15 = 2.5x.
TEST(RowSpeed, TransposedOverRowMajor) {
  grader::Yardstick yardstick("the row-major layout", "08-row-kernels/RowSpeed.RowMajorFractionOfCopyBandwidth",
                              "copy bandwidth",
                              "a slow row-major call flatters the transposed layout's figure, so it counts only once "
                              "step 2 is fast enough");
  grader::expect_speed([&] {
    const double row_major_ms = hermite_ms(TimedHermite::Version::row_major);
    const double bytes = hermite_bytes();
    const grader::Figure row_major = grader::fraction_of_copy_bandwidth(bytes, row_major_ms);
    yardstick.add(row_major.value, row_major.how, ", ", row_major_ms, " ms for ", speed_rows(), " rows of ",
                  kSpeedCols, " floats");
    grader::Figure figure =
        grader::speedup(row_major_ms, hermite_ms(TimedHermite::Version::column_major), "the row-major layout");
    // The transposed call moves its bytes no faster than 1.1 x the device's copy bandwidth (the
    // ceiling of fraction_of_copy_bandwidth), so it is at most row_major_ms over that time faster.
    figure.ceiling = row_major_ms / grader::fastest_ms_to_move(bytes);
    return figure;
  });
  EXPECT_TRUE(yardstick.fast_enough());
}

TEST(RowSpeed, TransposedFractionOfCopyBandwidth) {
  grader::expect_speed([] { return hermite_fraction_of_copy_bandwidth(TimedHermite::Version::column_major); });
}

TEST(RowSpeed, TiledRowMajorFractionOfCopyBandwidth) {
  grader::expect_speed([] { return hermite_fraction_of_copy_bandwidth(TimedHermite::Version::tiled); });
}

// ---- Speed: the ensemble ------------------------------------------------------------------------
//
// float64 (the seed's model ran in Python floats), 40 variables, 100 RK4 steps, against the same
// RK4 in double on one CPU thread (reference_cpu.h), timed on the same initial states.

constexpr int kSpeedSteps = 100;

class TimedEnsemble {
 public:
  TimedEnsemble(int members, Ensemble kind) : members_(members), kind_(kind), initial_(values()), final_(values()) {}

  // With check_every_run, a few members of every call's output are checked too (see
  // ensemble_vs_one_cpu_thread: where no ceiling can tell an empty call from a fast one).
  grader::Workload workload(bool check_every_run) {
    grader::Workload timed{[this] {
                             grader::refill_random(initial_.data(), values(), -5.0, 13.0);
                             grader::poison(final_.data(), values());
                           },
                           [this] { integrate(kind_, initial_.data(), final_.data(), members_, model_, kSpeedSteps); },
                           [this] { return sample_is_right(17); }};
    // One random member and the first and last (grader::Sample): a skipped call leaves poison in all.
    if (check_every_run) timed.every_run_is_right = [this] { return sample_is_right(1); };
    timed.what_ran = ensemble_rules<double>(kind_, members_, model_, nullptr);
    return timed;
  }

 private:
  std::size_t values() const { return static_cast<std::size_t>(members_) * model_.size; }

  // `count` members drawn anew for each check (grader::Sample: the first and the last always),
  // against the long-double reference: a call that integrates only some members cannot know which.
  testing::AssertionResult sample_is_right(std::size_t count) const {
    const grader::Sample sample(static_cast<std::size_t>(members_), count);
    const std::vector<std::size_t>& picked = sample.indices();
    const std::size_t n = model_.size, row_bytes = n * sizeof(double);
    std::vector<double> initial(picked.size() * n), final(picked.size() * n);
    for (std::size_t i = 0; i < picked.size(); ++i) {
      CUDA_CHECK(cudaMemcpy(&initial[i * n], initial_.data() + picked[i] * n, row_bytes, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(&final[i * n], final_.data() + picked[i] * n, row_bytes, cudaMemcpyDeviceToHost));
    }
    return states_are_right(initial, final, static_cast<int>(picked.size()), model_, kSpeedSteps);
  }

  int members_;
  Ensemble kind_;
  Lorenz96 model_;
  stepwise::DeviceBuffer<double> initial_, final_;
};

// ---- The ensemble's ceiling: what the device's float64 arithmetic allows -----------------------
//
// A right call does its RK4 arithmetic in float64 (the allowed error, 2.7e-11 x (1 + |x|) after
// 100 steps, is far below one float rounding, 6e-8), so its GPU time is at least the longer of:
// - kFp64PerVariableStep float64 instructions for each variable and step at the device's float64
//   instruction rate (throughput), and
// - kDependentFp64PerStep float64 instructions per step, each waiting for the one before, at the
//   latency of one such instruction (a chain no number of threads shortens),
// each measured on this device by the grader's own kernel below, and allowed 1.1 x the measured
// figure, as fastest_ms_to_move allows 1.1 x a copy (a kernel may beat the grader's by a little).
//
// kFp64PerVariableStep, per variable and RK4 step: each of the 4 tendencies
// (x[j+1] - x[j-2]) x[j-1] - x[j] + F needs a difference, a multiply-add and one more instruction
// to bring in the last value (an instruction reads at most three), 12; the inputs x + c dt k of
// stages 2 to 4 one each, 3 (the neighbours read them); the new x one multiply-add per k, 4: 19.
// 16 leaves room for a contraction not thought of. (The solution's PTX holds over 40.)
constexpr double kFp64PerVariableStep = 16;
// kDependentFp64PerStep: each stage's k is made from the previous stage's k through at least the
// stage input (one instruction) and then the product in the tendency (a second one that waits
// for the first): 2 x 4 stages. (The update of x and the tendency's difference add more.)
constexpr double kDependentFp64PerStep = 8;

// Float64 multiply-adds for the rate: each thread runs kChains independent chains of `rounds`
// fma (b and c are run-time values the compiler cannot fold; the sum, stored only when it equals
// b, keeps the work live; unrolled, so loop counting hides behind the fma). With one chain and
// one thread it measures the latency of one fma that waits for the one before.
template <int kChains>
__global__ void fp64_fma_kernel(double b, double c, int rounds, double* sink) {
  double a[kChains];
  for (int k = 0; k < kChains; ++k) a[k] = threadIdx.x + k;
#pragma unroll 16
  for (int i = 0; i < rounds; ++i)
#pragma unroll
    for (int k = 0; k < kChains; ++k) a[k] = fma(a[k], b, c);
  double sum = 0;
  for (int k = 0; k < kChains; ++k) sum += a[k];
  if (sum == b) *sink = sum;
}

// The least GPU time, in ms, in which any kernel can integrate `members` members of `model` for
// `steps` RK4 steps in float64 on this device: the throughput and latency bounds above, from the
// grader's own kernels timed now (about 2 ms in all).
double fastest_ensemble_ms(int members, const Lorenz96& model, int steps) {
  int device = 0, multiprocessors = 0, blocks_per_multiprocessor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  constexpr int kChains = 8, kThreads = 256, kRounds = 2048, kLatencyRounds = 1 << 18;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_multiprocessor, fp64_fma_kernel<kChains>, kThreads, 0));
  const int blocks = multiprocessors * std::max(blocks_per_multiprocessor, 1);
  stepwise::DeviceBuffer<double> sink(1);
  const grader::TimingOptions options{2, 5, false};  // no memory traffic to flush
  const double rate_ms = grader::gpu_median_ms([&] {
    fp64_fma_kernel<kChains><<<blocks, kThreads>>>(0.999999, 1e-7, kRounds, sink.data());
  }, options);
  const double per_ms = static_cast<double>(blocks) * kThreads * kChains * kRounds / rate_ms;  // instructions
  const double latency_ms = grader::gpu_median_ms([&] {
    fp64_fma_kernel<1><<<1, 1>>>(0.999999, 1e-7, kLatencyRounds, sink.data());
  }, options) / kLatencyRounds;
  const double throughput_bound = kFp64PerVariableStep * members * model.size * steps / (1.1 * per_ms);
  const double latency_bound = kDependentFp64PerStep * steps * latency_ms / 1.1;
  return std::max(throughput_bound, latency_bound);
}

// The GPU call against the same RK4 on one CPU thread; its ceiling is cpu_ms over the least time
// above. An estimate for the H100 from NVIDIA's figure for its float64 rate (33.5 TFLOP/s, 16.7e12
// multiply-adds a second): at 4096 members (1.6e7 variable-steps x 16 instructions) the least
// time is about 0.014 ms, 1/12 of the block-per-member call's 0.1668 ms and 1/70 of the
// thread-per-member call's 1.007 ms (README, the grader's run of 2026-11-26), so the smallest
// fault these ceilings still admit is a call whose timer misses 11/12 (block per member) or 69/70
// (thread per member) of its work. The broken submission works_only_on_checked_calls, which does
// nothing on 14 of the 15 timed calls (the harness checks the output of the last one), reads a
// few microseconds, about 1/5 of the least time, and fails here. At the seed's 40 members the
// latency bound decides (800 dependent instructions at the measured latency, about 0.01 ms at the
// H100's few-nanosecond float64 latency), and an empty call's few microseconds may not read faster
// than it: there this ceiling catches only work that escaped the timer more completely than that,
// so with check_every_run a few members of every call's output are checked as well (broken
// submission seed_ensemble_works_only_on_checked_calls; works_only_on_checked_calls leaves 40
// members alone).
grader::Figure ensemble_vs_one_cpu_thread(int members, Ensemble kind, bool check_every_run = false) {
  const Lorenz96 model;
  integrate<double>(kind, nullptr, nullptr, 0, model, 1);  // the step is written? (before timing the CPU)
  const std::vector<double> initial = grader::random_doubles(static_cast<std::size_t>(members) * model.size, -5, 13);
  const double cpu_ms = grader::cpu_median_ms([&] {
    const std::vector<double> out = ensemble_cpu<double>(initial, members, model, kSpeedSteps);
    ASSERT_EQ(out.size(), initial.size());
  });
  TimedEnsemble timed(members, kind);
  grader::Figure figure =
      grader::speedup(cpu_ms, grader::gpu_median_ms(timed.workload(check_every_run)), "one CPU thread");
  figure.ceiling = cpu_ms / fastest_ensemble_ms(members, model, kSpeedSteps);
  return figure;
}

constexpr int kThousandsOfMembers = 4096;

TEST(EnsembleSpeed, BlockPerMemberVsOneCpuThread) {
  grader::expect_speed([] { return ensemble_vs_one_cpu_thread(kThousandsOfMembers, Ensemble::block_per_member); });
}

TEST(EnsembleSpeed, ThreadPerMemberVsOneCpuThread) {
  grader::expect_speed([] { return ensemble_vs_one_cpu_thread(kThousandsOfMembers, Ensemble::thread_per_member); });
}

// The seed's 40 members: 40 blocks on a GPU of 100 or more multiprocessors. Does the GPU still win?
TEST(EnsembleSpeed, SeedFortyMembersVsOneCpuThread) {
  grader::expect_speed([] { return ensemble_vs_one_cpu_thread(40, Ensemble::block_per_member, true); });
}

// ---- Speed: the ensemble against the grader's own kernels ---------------------------------------
//
// One CPU thread is a low bar: a block-per-member kernel that does its member's work 8 times over
// (every thread integrating the whole member, say) still clears 20 x one CPU thread by far on an
// H100 (2440 x for the solution). So each ensemble step is also held against the grader's own
// kernel for the same launch shape, the same RK4 and the same 4096 members on the same GPU, timed in
// the same run: wasted work shows on any GPU. The grader's kernels below are the plain versions of
// steps 4 and 5 (the README's): one block per member, the state in shared memory, two barriers per
// stage; and one thread per member, the whole state in the thread's own arrays.

__device__ double grader_tendency(const double* x, int j, int n, double forcing) {
  const int next = j + 1 == n ? 0 : j + 1, prev = j == 0 ? n - 1 : j - 1, prev2 = j < 2 ? j + n - 2 : j - 2;
  return (x[next] - x[prev2]) * x[prev] - x[j] + forcing;
}

__global__ void grader_block_per_member_kernel(const double* initial, double* final, int n, double forcing, double dt,
                                               int steps) {
  extern __shared__ double grader_stage[];
  const int j = threadIdx.x;
  const bool mine = j < n;
  const std::size_t row = static_cast<std::size_t>(blockIdx.x) * n;
  double x = mine ? initial[row + j] : 0;
  for (int step = 0; step < steps; ++step) {
    double k = 0, sum = 0;
    for (int s = 0; s < 4; ++s) {
      if (mine) grader_stage[j] = x + (s == 0 ? 0.0 : s == 3 ? 1.0 : 0.5) * dt * k;
      __syncthreads();
      if (mine) k = grader_tendency(grader_stage, j, n, forcing);
      sum += (s == 1 || s == 2 ? 2.0 : 1.0) * k;
      __syncthreads();
    }
    x += dt / 6 * sum;
  }
  if (mine) final[row + j] = x;
}

__global__ void grader_thread_per_member_kernel(const double* initial, double* final, int members, int n,
                                                double forcing, double dt, int steps) {
  const int member = blockIdx.x * blockDim.x + threadIdx.x;
  if (member >= members) return;
  double x[kMaxThreadMemberSize], stage[kMaxThreadMemberSize], k[kMaxThreadMemberSize], sum[kMaxThreadMemberSize];
  const std::size_t row = static_cast<std::size_t>(member) * n;
  for (int j = 0; j < n; ++j) x[j] = initial[row + j];
  for (int step = 0; step < steps; ++step) {
    for (int j = 0; j < n; ++j) {
      stage[j] = x[j];
      sum[j] = 0;
    }
    for (int s = 0; s < 4; ++s) {
      if (s > 0)
        for (int j = 0; j < n; ++j) stage[j] = x[j] + (s == 3 ? 1.0 : 0.5) * dt * k[j];
      for (int j = 0; j < n; ++j) k[j] = grader_tendency(stage, j, n, forcing);
      for (int j = 0; j < n; ++j) sum[j] += (s == 1 || s == 2 ? 2.0 : 1.0) * k[j];
    }
    for (int j = 0; j < n; ++j) x[j] += dt / 6 * sum[j];
  }
  for (int j = 0; j < n; ++j) final[row + j] = x[j];
}

// The grader's kernel's GPU time for `members` members of `model`, kSpeedSteps steps, on random
// states in [-5, 13] (the same launch shapes as the README's steps 4 and 5).
double grader_ensemble_ms(int members, Ensemble kind, const Lorenz96& model) {
  const std::size_t values = static_cast<std::size_t>(members) * model.size;
  stepwise::DeviceBuffer<double> initial(values), final(values);
  grader::refill_random(initial.data(), values, -5.0, 13.0);
  return grader::gpu_median_ms([&] {
    if (kind == Ensemble::block_per_member)
      grader_block_per_member_kernel<<<members, (model.size + 31) / 32 * 32, model.size * sizeof(double)>>>(
          initial.data(), final.data(), model.size, model.forcing, model.dt, kSpeedSteps);
    else
      grader_thread_per_member_kernel<<<(members - 1) / 64 + 1, 64>>>(initial.data(), final.data(), members,
                                                                      model.size, model.forcing, model.dt, kSpeedSteps);
  });
}

// The student's step against the grader's kernel for it: grader_ms / the student's time, 1 for a
// call as fast as the grader's. The ceiling is the float64 bound of ensemble_vs_one_cpu_thread
// (grader_ms over fastest_ensemble_ms): the most any kernel can do on this GPU, not a multiple of
// the grader's kernel, which a right kernel may beat by far (a thread per member that keeps its
// state in registers instead of local memory, a block per member of one warp with shuffles instead
// of barriers), and which would then fail as impossible. Wasted work is what the minimum catches;
// work that escapes the timer is what the ceiling catches, as in the checks against one CPU thread
// (broken submission works_only_on_checked_calls: a few microseconds against the grader's 0.17 ms
// and 1.0 ms on the H100, far above the ceiling).
grader::Figure ensemble_vs_grader_kernel(int members, Ensemble kind) {
  const Lorenz96 model;
  integrate<double>(kind, nullptr, nullptr, 0, model, 1);  // the step is written? (before timing anything)
  const double grader_ms = grader_ensemble_ms(members, kind, model);
  TimedEnsemble timed(members, kind);
  grader::Figure figure = grader::speedup(grader_ms, grader::gpu_median_ms(timed.workload(false)),
                                          kind == Ensemble::block_per_member
                                              ? "the grader's block-per-member kernel"
                                              : "the grader's thread-per-member kernel");
  figure.ceiling = grader_ms / fastest_ensemble_ms(members, model, kSpeedSteps);
  return figure;
}

TEST(EnsembleSpeed, BlockPerMemberNearGraderKernel) {
  grader::expect_speed([] { return ensemble_vs_grader_kernel(kThousandsOfMembers, Ensemble::block_per_member); });
}

TEST(EnsembleSpeed, ThreadPerMemberNearGraderKernel) {
  grader::expect_speed([] { return ensemble_vs_grader_kernel(kThousandsOfMembers, Ensemble::thread_per_member); });
}

}  // namespace
