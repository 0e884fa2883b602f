// Grader tests for lesson 13 (prefix sums: rows of a batch, one whole array in three phases and in
// one pass with decoupled look-back, stream compaction, CUB as the ceiling).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// The grader's own CUB calls (the reference and the ceiling), not the lesson's given
// cub_library.cu: compiled once, with the checks.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/machine_code.h"
#include "grader/sanitizer.h"
#include "grader/splitmix.h"
#include "grader/trace.h"
#include "scan.h"
#include "stepwise/cuda_error.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

using grader::Output;

// ---- Streams and watched calls -------------------------------------------------------------------
// Every function takes a stream; the correctness checks pass a non-blocking stream of their own.
using grader::CheckStream;  // grader/check_stream.h

// A scan whose blocks wait for one another can wait forever: a block spinning on a tile that no
// started block will ever publish (README, "Why a tile's index comes from a counter"). Every
// untraced call runs watched: the inputs are in place (device synchronised), the call is made,
// and the check waits for its stream at most `limit` seconds. A kernel that never ends cannot be
// stopped, and freeing memory would wait for it, so past the limit the test program reports the
// failure and exits at once.
void run_watched(const std::function<void()>& call, cudaStream_t stream, const std::string& what) {
  CUDA_CHECK(cudaDeviceSynchronize());
  call();
  cudaEvent_t done = nullptr;
  CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(done, stream));
  const double limit = grader::under_sanitizer() ? 300 : 20;
  const auto start = std::chrono::steady_clock::now();
  cudaError_t state = cudaSuccess;
  while ((state = cudaEventQuery(done)) == cudaErrorNotReady) {
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > limit) {
      ADD_FAILURE() << what << " did not finish within " << limit << " s. Is a block waiting for a tile that no "
                    << "block which has started will ever publish (a deadlock: README, \"Why a tile's index comes "
                    << "from a counter\")? The test program stops here: a kernel that never ends cannot be stopped.";
      // GoogleTest's closing lines are never reached: say which check stopped the program, in their form.
      const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
      const testing::TestInfo* test = unit.current_test_info();
      const std::string name = test ? std::string(test->test_suite_name()) + "." + test->name() : what;
      std::printf("[  FAILED  ] %s (stopped: a kernel did not finish)\n", name.c_str());
      std::printf("[==========] %d tests from %d test suites selected; the program stopped in %s\n",
                  unit.test_to_run_count(), unit.test_suite_to_run_count(), name.c_str());
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CUDA_CHECK(state);
  CUDA_CHECK(cudaEventDestroy(done));
  CUDA_CHECK(cudaDeviceSynchronize());
}

// The traced call: its rules checked, then the device synchronised. Made after watched calls of
// the same size, so a scan that hangs has failed before it.
void run_traced(const std::function<void()>& call, const grader::Rules& rules) {
  CUDA_CHECK(cudaDeviceSynchronize());
  grader::expect_ran(call, rules);
  CUDA_CHECK(cudaDeviceSynchronize());
}

// ---- Inputs --------------------------------------------------------------------------------------
// int inputs: |x| at most 1000, and at most INT_MAX / n, so that no prefix sum overflows (the
// functions wrap around like the hardware, but a right answer should not depend on it). Any order
// of integer additions gives the same sums: a right scan is exact.
// float inputs: uniform in [-1, 1] (sums that cancel).
template <typename T>
std::vector<T> scan_inputs(std::size_t n) {
  if constexpr (std::is_same<T, int>::value) {
    const long long hi = std::clamp<long long>(INT_MAX / std::max<long long>(1, static_cast<long long>(n)), 1, 1000);
    return grader::random_ints(n, static_cast<int>(-hi), static_cast<int>(hi));
  } else {
    return grader::random_floats(n, -1.0f, 1.0f);
  }
}

template <typename T>
const char* type_name() {
  return std::is_same<T, int>::value ? "int" : "float";
}

// ---- Float error bounds ----------------------------------------------------------------------------
// Each output y_i = x_0 + ... + x_i is a float sum. Every rounding adds at most u = 2^-24 of its
// result (first order; gamma(d) = d u / (1 - d u) covers the rest, Higham, Accuracy and Stability
// of Numerical Algorithms, 3.1 and 4.2). The roundings on the way to y_i are of two kinds:
//   - sums of elements within a tile or piece and of tile totals: a thread's elements in sequence,
//     warp and block trees, Hillis-Steele or Blelloch levels, a tile's total, the totals a look-back
//     window or a scan of totals adds. Each is at most the |x| sum of what it adds, and each x_k
//     passes through at most kLocalDepth = 64 of them (32 elements of a thread in sequence,
//     2 log2 4096 tree levels, 8 more): gamma(64) (|x_0| + ... + |x_i|);
//   - those that add a carry (the sum of everything before a tile or piece boundary): their result
//     is a prefix x_0 + ... + x_j (j <= i), such a prefix plus tile totals (whose |x| the first kind
//     counts), or a range of the totals (a difference of two prefixes): at most
//     2 max_{j <= i} |x_0 + ... + x_j|. There are at most 9 on y_i's way per tile or piece of 1536
//     elements or more (a look-back's 5 butterfly levels, its window sum, the published prefix and
//     the tile's adds; a row piece of 256 or 512 has 1; CUB's tiles are 1920 elements or more from
//     compute capability 7.5 on), and 9 more (Blelloch's down-sweep over the tile totals, the final
//     adds): chain_depth(n) = 9 ceil(n / 1536) + 9.
// The second term keeps a dropped carry visible: with inputs in [-1, 1] the carries are random walks
// (about sqrt(n / 3)), far below the |x| sum (about n / 2) that gamma(chain_depth) would otherwise
// multiply. The reference solution's scans, simulated on the CPU in float in their exact order (the
// look-back finding its prefix 1 to 40 tiles back), stay within 0.021 of the bound at every size of
// the checks (5 draws each); a three-phase scan whose scan of the 4096 tile totals of 2^24 elements
// drops its carry between pieces of 512 is off by 36 to 65 times it, on 12 to 15 million of the
// values (the old bound, gamma(2 log2 n + n / 16 + 32) times the |x| sum, passed it: at most 0.027).
double gamma(double depth) {
  const double ku = depth * 0x1p-24;
  return ku >= 1 ? INFINITY : ku / (1 - ku);
}
constexpr double kLocalDepth = 64;
double chain_depth(long long n) { return n > 1 ? 9 * std::ceil(n / 1536.0) + 9 : 0; }

// ---- Comparing a scan ------------------------------------------------------------------------------
// `got`: the rows x cols outputs of an inclusive scan of each row of `x`. int: exact. float:
// within the bound above. When every wrong value is the exclusive scan's (x_i left out), the
// message says so.
template <typename T>
testing::AssertionResult scan_matches(const std::vector<T>& x, const std::vector<T>& got, long long rows, long long cols) {
  const double local = cols > 1 ? gamma(kLocalDepth) : 0, chain = gamma(chain_depth(cols));
  // Whether row r is right everywhere; with a report, each wrong value goes into it, and
  // all_exclusive stays true only while every wrong one is the exclusive scan's.
  const auto check_row = [&](long long r, grader::MismatchReport* report, bool& all_exclusive) {
    bool row_right = true;
    long double exact = 0, magnitude = 0, largest_prefix = 0;
    for (long long c = 0; c < cols; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * cols + c);
      const long double exclusive = exact;
      exact += x[i];
      magnitude += std::fabs(static_cast<long double>(x[i]));
      largest_prefix = std::max(largest_prefix, std::fabs(exact));
      const bool unwritten = grader::is_poison(got[i]);
      bool right = false, is_exclusive = false;
      if constexpr (std::is_same<T, int>::value) {
        const int want = static_cast<int>(static_cast<std::uint32_t>(static_cast<long long>(exact)));
        right = got[i] == want;
        is_exclusive = got[i] == static_cast<int>(static_cast<long long>(exclusive));
      } else {
        const double bound = local * static_cast<double>(magnitude) + chain * 2 * static_cast<double>(largest_prefix);
        right = std::fabs(static_cast<long double>(got[i]) - exact) <= bound;
        is_exclusive = std::fabs(static_cast<long double>(got[i]) - exclusive) <= bound;
      }
      if (right) continue;
      row_right = false;
      if (report == nullptr) return false;
      all_exclusive = all_exclusive && is_exclusive && !unwritten;
      if (report->add(unwritten)) {
        std::ostringstream where, want, have;
        where << (rows > 1 ? "row " + std::to_string(r) + ", " : std::string()) << "[" << c << "]";
        want << std::setprecision(9) << static_cast<double>(exact);
        have << std::setprecision(9) << got[i];
        report->show(where.str(), want.str(), have.str(), unwritten);
      }
    }
    return row_right;
  };
  // Every row on the idle cores first (the largest shape is 4096 rows of 4099, summed in long
  // double); only a miss takes the loop below, row after row, for the report.
  std::atomic<bool> all_right{true};
  grader::in_parallel(static_cast<std::size_t>(rows), [&](std::size_t begin, std::size_t end) {
    bool unused = true;
    for (std::size_t r = begin; r < end && all_right; ++r)
      if (!check_row(static_cast<long long>(r), nullptr, unused)) all_right = false;
  });
  if (all_right) return testing::AssertionSuccess();
  grader::MismatchReport report;
  bool all_exclusive = true;
  for (long long r = 0; r < rows; ++r) check_row(r, &report, all_exclusive);
  if (report.count() == 0) return testing::AssertionSuccess();
  std::string required = std::is_same<T, int>::value
                             ? std::string("int: exact, in any order of additions")
                             : "float: within gamma(" + std::to_string(cols > 1 ? static_cast<long long>(kLocalDepth) : 0) +
                                   ") * (|x_0| + ... + |x_i|) + gamma(" +
                                   std::to_string(static_cast<long long>(chain_depth(cols))) +
                                   ") * 2 max_{j <= i} |x_0 + ... + x_j|";
  if (all_exclusive)
    required += "; every wrong value is the EXCLUSIVE scan (x[i] left out of out[i]): these functions return the "
                "inclusive scan, out[i] = x[0] + ... + x[i]";
  return report.failure(static_cast<std::size_t>(rows * cols), required,
                        ": is every element of every piece or tile written, the last partial one too?");
}

// The largest size up to `wanted` that fits (grader::fit_in_device_memory); under compute-sanitizer
// 3 x 4096 = 12288, three whole tiles and no tail (where tiles_and_a_tail() ends in a partial one):
// blocks look back over whole tiles, vector loads in every tile, at a fifth of 2^16's accesses.
int large_size(std::size_t wanted, std::size_t bytes_per_element) {
  const std::size_t fits = grader::fit_in_device_memory(wanted, bytes_per_element);
  return static_cast<int>(grader::under_sanitizer() ? std::min<std::size_t>(fits, 3 * 4096) : fits);
}

// The prime that stands for "many tiles and a partial last one" in the whole-array checks:
// 100003 (25 tiles of 4096); under compute-sanitizer, where every access is checked, 16411 = 4
// tiles of 4096 and 27 elements (16 of 1024): a look-back, a scan of several tile totals and
// offsets added to a partial tile all still happen, at a sixth of the elements.
int tiles_and_a_tail() { return grader::under_sanitizer() ? 16411 : 100003; }

// ---- Step 1: the rows --------------------------------------------------------------------------
template <typename T>
using RowScan = void (*)(const T*, T*, int, int, cudaStream_t);

struct Shape {
  int rows, cols;
};

// Rows of 0 and 1 elements, a warp and either side, a block (256) and a Blelloch piece (512) and
// either side, 1024 either side, a prime, the seed's 1,280,000 rows of 4, and a large batch.
std::vector<Shape> row_shapes() {
  std::vector<Shape> shapes = {{0, 5},   {5, 0},    {1, 1},    {3, 31},    {2, 32},     {2, 33}, {4, 255}, {4, 256},
                               {4, 257}, {3, 511},  {3, 512},  {3, 513},   {2, 1023},   {2, 1024}, {2, 1025}};
  if (grader::under_sanitizer()) {
    // A block works through its row a piece at a time (256 elements in Hillis-Steele, 512 in
    // Blelloch), every thread of the block in every piece, so a shared-memory race (rounds
    // updated in place, a missing barrier) shows in any piece, and the work under
    // compute-sanitizer is the number of pieces, rows x pieces per row. The shapes above take
    // every kind of piece (whole, partial, a second and third one after a carry); these add a
    // long row, the prime 4099 (17 pieces of 256, 9 of 512, the carry through all of them, a
    // partial last one), and a batch, 32 rows of 300 (2 pieces of 256 and 1 of 512 each): 81
    // pieces of 256 where 100003 and 64 x 1000 took 647.
    shapes.push_back({1, 4099});
    shapes.push_back({32, 300});
  } else {
    shapes.push_back({1, 100003});
    shapes.push_back({1280000, 4});
    shapes.push_back({4096, 4099});
  }
  return shapes;
}

// The trace of the other row scan on the same rows, into scratch memory: none where that one is
// not written yet (or fails: its own checks say so), or under compute-sanitizer (nothing is traced).
template <typename T>
std::optional<grader::Trace> trace_of(RowScan<T> other, const T* x, int rows, int cols, cudaStream_t stream) {
  if (grader::under_sanitizer()) return std::nullopt;
  stepwise::DeviceBuffer<T> scratch(static_cast<std::size_t>(rows) * cols);
  try {
    CUDA_CHECK(cudaDeviceSynchronize());
    return grader::trace([&] { other(x, scratch.data(), rows, cols, stream); }, stream);
  } catch (const std::exception&) {  // a TODO (stepwise::NotImplemented), or a failure of that step
    return std::nullopt;
  }
}

// Every shape, then bad arguments. The call on the last shape is traced: a kernel of the
// student's, with shared memory, on the stream given, and not the kernel of the other row scan.
template <typename T>
void expect_rows_right(RowScan<T> scan, const std::string& step, RowScan<T> other, const std::string& other_step) {
  const std::vector<Shape> shapes = row_shapes();
  const CheckStream stream;
  for (const Shape& s : shapes) {
    SCOPED_TRACE(std::string(type_name<T>()) + ", " + std::to_string(s.rows) + " rows x " + std::to_string(s.cols) +
                 " columns");
    const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
    const std::vector<T> x = scan_inputs<T>(n);
    auto d_x = grader::device(x);
    Output<T> out(n);
    const auto call = [&] { scan(d_x.data(), out.data(), s.rows, s.cols, stream.get()); };
    run_watched(call, stream.get(), step);
    EXPECT_TRUE(out.guard_intact());
    EXPECT_TRUE(scan_matches(x, out.to_host(), s.rows, s.cols));
    // Traced: a kernel of the student's, in shared memory, on the stream. (Not under
    // compute-sanitizer, where nothing is traced: the same call again would find nothing new.)
    if (&s == &shapes.back() && !grader::under_sanitizer()) {
      grader::Rules rules = grader::Rules::kernel_step(step, stream.get()).shared_memory();
      if (const std::optional<grader::Trace> theirs = trace_of(other, d_x.data(), s.rows, s.cols, stream.get()))
        rules.kernels_differ_from(*theirs, other_step);
      out.poison();
      run_traced(call, rules);
      EXPECT_TRUE(scan_matches(x, out.to_host(), s.rows, s.cols));
    }
  }
  Output<T> out(4);
  EXPECT_THROW(scan(out.data(), out.data(), -1, 2, stream.get()), std::invalid_argument) << "rows = -1 must throw";
  EXPECT_THROW(scan(out.data(), out.data(), 2, -1, stream.get()), std::invalid_argument) << "cols = -1 must throw";
}

TEST(RowScan, HillisSteeleInt) {
  expect_rows_right<int>(scan_rows_hillis_steele, "step 1 (scan_rows_hillis_steele)", scan_rows_blelloch,
                         "step 1 (scan_rows_blelloch)");
}
TEST(RowScan, HillisSteeleFloat) {
  expect_rows_right<float>(scan_rows_hillis_steele, "step 1 (scan_rows_hillis_steele)", scan_rows_blelloch,
                         "step 1 (scan_rows_blelloch)");
}
TEST(RowScan, BlellochInt) {
  expect_rows_right<int>(scan_rows_blelloch, "step 1 (scan_rows_blelloch)", scan_rows_hillis_steele,
                         "step 1 (scan_rows_hillis_steele)");
}
TEST(RowScan, BlellochFloat) {
  expect_rows_right<float>(scan_rows_blelloch, "step 1 (scan_rows_blelloch)", scan_rows_hillis_steele,
                         "step 1 (scan_rows_hillis_steele)");
}

// Seed 004's table: row r holds x, x^2, x^3, x^4 with x = r % 4 + 1; its running sums are the power
// sums 1 2 3 4 / 2 6 14 30 / 3 12 39 120 / 4 20 84 340, exact in float and in int.
TEST(RowScan, SeedPowerSumTable) {
  const int rows = 16, cols = 4;
  std::vector<float> x(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) x[r * cols + c] = std::pow(static_cast<float>(r % 4 + 1), static_cast<float>(c + 1));
  const float table[4][4] = {{1, 2, 3, 4}, {2, 6, 14, 30}, {3, 12, 39, 120}, {4, 20, 84, 340}};
  for (RowScan<float> scan : {static_cast<RowScan<float>>(scan_rows_hillis_steele),
                              static_cast<RowScan<float>>(scan_rows_blelloch)}) {
    auto d_x = grader::device(x);
    Output<float> out(x.size());
    const CheckStream stream;
    run_watched([&] { scan(d_x.data(), out.data(), rows, cols, stream.get()); }, stream.get(), "the row scan");
    const std::vector<float> got = out.to_host();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        EXPECT_EQ(got[r * cols + c], table[r % 4][c]) << "row " << r << ", column " << c << " (x = " << r % 4 + 1 << ")";
  }
}

// ---- Step 1 past 2^31 values ----------------------------------------------------------------------
// A batch of more than 2^31 values: row r starts r * cols values in, past 2^31 for the last rows,
// where a row offset kept in a 32-bit int (int start = blockIdx.x * cols) turns negative and the
// row is read and written gigabytes away; past 2^32 an unsigned 32-bit product (in + blockIdx.x *
// cols) wraps too. Of the two batches of rows of 4099 ints just past 2^32 and just past 2^31
// values, the larger whose input and output take at most 3/4 of the GPU's memory is scanned
// (grader::allocate_if_it_fits, which waits while checks beside it hold the memory): past 2^31
// needs 17.2 GB, past 2^32 34.4 GB. Where neither fits, the check is SKIPPED, saying so.
// The inputs, ints in [-1000, 1000], are drawn on the GPU by the counter-based hash of
// grader/splitmix.h, so the CPU makes any row's values again without copying gigabytes back; a
// fresh random sample of the outputs (grader::Sample: 4096 values, the first and the last among
// them) is compared exactly with the CPU's running sums of their rows (at most 4099 * 1000 in
// magnitude: no int overflows). The call is made watched (a scan that hangs fails), then once more
// traced under the rules of step 1's other checks (expect_rows_right): a kernel of the student's,
// in shared memory, on the stream given, returning at once, no host copies; so a path that only
// this size takes (copying the batch to the host and scanning it there, a library call) fails
// here too. (Not "kernels_differ_from" the other row scan: its trace would need another output of
// 17 to 34 GB.)
constexpr int kHugeBatchCols = 4099;

__global__ void fill_hashed_ints(int* x, std::size_t n, std::uint64_t draw) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = grader::uniform_int(grader::draw_bits(draw, i), -1000, 2001);
}

void expect_rows_right_past_2_to_31(RowScan<int> scan, const std::string& step) {
  const CheckStream stream;
  scan(nullptr, nullptr, 0, kHugeBatchCols, stream.get());  // a step not written yet is TODO, on any GPU
  if (grader::under_sanitizer()) GTEST_SKIP() << "2^31 values are too many to scan under compute-sanitizer";
  const long long past_2_to_32 = (1ll << 32) / kHugeBatchCols + 2, past_2_to_31 = (1ll << 31) / kHugeBatchCols + 2;
  const auto bytes_for = [](long long rows) { return 2 * sizeof(int) * static_cast<std::size_t>(rows) * kHugeBatchCols; };
  const std::size_t most = grader::most_device_memory_for_one_check();
  const long long rows = bytes_for(past_2_to_32) <= most ? past_2_to_32 : past_2_to_31;
  std::optional<stepwise::DeviceBuffer<int>> x, out;
  const std::string why = grader::allocate_if_it_fits(bytes_for(rows), [&] {
    x.emplace(static_cast<std::size_t>(rows) * kHugeBatchCols);
    out.emplace(static_cast<std::size_t>(rows) * kHugeBatchCols);
  });
  if (!why.empty()) GTEST_SKIP() << "a batch past 2^31 values (its input and output): " << why;
  const std::size_t n = static_cast<std::size_t>(rows) * kHugeBatchCols;
  const std::string shape = std::to_string(rows) + " rows x " + std::to_string(kHugeBatchCols) + " columns = " +
                            std::to_string(n) + " values, past 2^" + (rows == past_2_to_32 ? "32" : "31");
  const std::string hint = shape +
                           ": row r starts r * cols values in, past 2^31 for the last rows. Is a row's offset or an "
                           "index computed in 32 bits (int, or unsigned)? Multiply in std::size_t: in + "
                           "static_cast<std::size_t>(blockIdx.x) * cols.";
  try {
    const std::uint64_t draw = grader::next_draw();
    fill_hashed_ints<<<4096, 256>>>(x->data(), n, draw);
    CUDA_CHECK_LAUNCH();
    grader::poison(out->data(), n);
    const auto call = [&] { scan(x->data(), out->data(), static_cast<int>(rows), kHugeBatchCols, stream.get()); };
    run_watched(call, stream.get(), step);
    const grader::Sample sample(n, 4096);
    const std::vector<int> got = sample.of(out->data());
    std::vector<int> expected;
    expected.reserve(sample.size());
    std::size_t row = n, column = 0;  // the row summed so far, and its next column
    int sum = 0;
    for (std::size_t i : sample.indices()) {
      if (i / kHugeBatchCols != row) {
        row = i / kHugeBatchCols;
        column = 0;
        sum = 0;
      }
      for (; column <= i % kHugeBatchCols; ++column)
        sum += grader::uniform_int(grader::draw_bits(draw, row * kHugeBatchCols + column), -1000, 2001);
      expected.push_back(sum);
    }
    // Exact: int sums of a row's at most 4099 values in [-1000, 1000] stay within 4.1e6, far
    // inside int, and integer addition in any order gives the same sum.
    EXPECT_TRUE(sample.matches(expected, got, grader::Tolerance::exact())) << hint;
    grader::poison(out->data(), n);
    run_traced(call, grader::Rules::kernel_step(step, stream.get()).shared_memory());
    EXPECT_TRUE(sample.matches(expected, sample.of(out->data()), grader::Tolerance::exact())) << hint;
  } catch (const stepwise::CudaError& e) {
    ADD_FAILURE() << e.what() << "\n  " << hint;
  }
}

TEST(RowScan, HillisSteelePast2To31Values) {
  expect_rows_right_past_2_to_31(scan_rows_hillis_steele, "step 1 (scan_rows_hillis_steele)");
}
TEST(RowScan, BlellochPast2To31Values) {
  expect_rows_right_past_2_to_31(scan_rows_blelloch, "step 1 (scan_rows_blelloch)");
}

// ---- Step 2: one whole array ---------------------------------------------------------------------
template <typename T>
using ArrayScan = void (*)(const T*, T*, int, cudaStream_t);

// 0, 1, a warp and either side, 1024 and 4096 either side (common block and tile sizes), a prime,
// 2^24 (thousands of blocks of any size: far more than the GPU holds at once), and for int the
// largest the speed checks use (2^28 where memory allows). Under compute-sanitizer the prime is
// 16411 and the large size 12288 (tiles_and_a_tail, large_size).
template <typename T>
std::vector<int> array_sizes() {
  std::vector<int> sizes = {0, 1, 31, 32, 33, 1023, 1024, 1025, 4095, 4096, 4097, tiles_and_a_tail()};
  sizes.push_back(large_size(1 << 24, 2 * sizeof(T)));
  if (std::is_same<T, int>::value && !grader::under_sanitizer())
    sizes.push_back(static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 28, 3 * sizeof(T))));
  return sizes;
}

// A single-pass scan is one kernel.
testing::AssertionResult one_kernel(const grader::Trace& t) {
  const std::size_t count = t.kernels_of(grader::Origin::student).size();
  if (count == 1) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "launched " << count << " kernels of yours: the single-pass scan is one kernel, "
                                     << "each block finding its tile's offset by looking back (three launches are "
                                     << "the three-phase scan)";
}

// The int arrays past 2^24 (the speed checks' 2^28) are drawn, scanned for reference and compared on
// the GPU: drawing, copying and scanning a gigabyte on the CPU, twice, took most of a check's 10 s.
// The verdict is scan_matches' for int: every value exact (the reference is the grader's CUB
// InclusiveSum of the same ints, which is the exact scan: int sums are exact in any order), the
// never-written ones counted, and whether every wrong value is the exclusive scan.
constexpr int kLargestScannedOnTheCpu = 1 << 24;

// counts: values wrong, never written, equal to the exclusive scan; the index of the first wrong one.
__global__ void count_scan_mismatches(const int* x, const int* want, const int* got, std::size_t n,
                                      unsigned long long* counts) {
  const int poison = static_cast<int>(0x01010101u * grader::kPoisonByte);
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    if (got[i] == want[i]) continue;
    atomicAdd(&counts[0], 1ull);
    if (got[i] == poison) atomicAdd(&counts[1], 1ull);
    else if (got[i] == static_cast<int>(static_cast<unsigned>(want[i]) - static_cast<unsigned>(x[i]))) atomicAdd(&counts[2], 1ull);
    atomicMin(&counts[3], static_cast<unsigned long long>(i));
  }
}

testing::AssertionResult int_scan_matches_on_gpu(const int* x, const int* want, const int* got, std::size_t n) {
  auto counts = stepwise::DeviceBuffer<unsigned long long>::from_host({0, 0, 0, ~0ull});
  count_scan_mismatches<<<grader::grid_stride_blocks(n), 256>>>(x, want, got, n, counts.data());
  CUDA_CHECK_LAUNCH();
  const std::vector<unsigned long long> c = counts.to_host();
  if (c[0] == 0) return testing::AssertionSuccess();
  // The first few wrong values, from the first one on.
  const std::size_t first = c[3], shown = std::min<std::size_t>(n - first, 4096);
  std::vector<int> w(shown), g(shown);
  CUDA_CHECK(cudaMemcpy(w.data(), want + first, shown * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(g.data(), got + first, shown * sizeof(int), cudaMemcpyDeviceToHost));
  testing::AssertionResult failure = testing::AssertionFailure();
  failure << c[0] << " of " << n << " values differ from the CPU reference (int: exact, in any order of additions; "
          << "here the grader's CUB InclusiveSum of the same ints, compared on the GPU";
  if (c[2] == c[0])
    failure << "; every wrong value is the EXCLUSIVE scan (x[i] left out of out[i]): these functions return the "
               "inclusive scan, out[i] = x[0] + ... + x[i]";
  failure << ")";
  if (c[1] > 0) failure << "; " << c[1] << " were never written: is every element of every piece or tile written, the last partial one too?";
  failure << ". First mismatches:";
  for (std::size_t k = 0, listed = 0; k < shown && listed < 5; ++k) {
    if (g[k] == w[k]) continue;
    ++listed;
    failure << "\n    [" << first + k << "] expected " << w[k] << ", got " << g[k]
            << (grader::is_poison(g[k]) ? " (never written: still the grader's poison value)" : "");
  }
  return failure;
}

// An int array of n > kLargestScannedOnTheCpu: as expect_array_right's other sizes (a watched
// call, then the traced one), on inputs drawn on the GPU in the range scan_inputs gives.
void expect_large_int_array_right(ArrayScan<int> scan, const std::string& step, bool single_pass, int n,
                                  const CheckStream& stream) {
  const int hi = std::clamp(INT_MAX / n, 1, 1000);
  stepwise::DeviceBuffer<int> x(n), want(n);
  Output<int> out(n);
  grader::refill_random(x.data(), n, -hi, hi);
  std::size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, x.data(), want.data(), n));
  stepwise::DeviceBuffer<unsigned char> temp(temp_bytes);
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.data(), temp_bytes, x.data(), want.data(), n));
  const auto call = [&] { scan(x.data(), out.data(), n, stream.get()); };
  run_watched(call, stream.get(), step);
  EXPECT_TRUE(out.guard_intact());
  EXPECT_TRUE(int_scan_matches_on_gpu(x.data(), want.data(), out.data(), n));
  grader::Rules rules = grader::Rules::kernel_step(step, stream.get());
  if (single_pass) rules.also(one_kernel);
  out.poison();
  run_traced(call, rules);
  EXPECT_TRUE(int_scan_matches_on_gpu(x.data(), want.data(), out.data(), n));
}

template <typename T>
void expect_array_right(ArrayScan<T> scan, const std::string& step, bool single_pass) {
  const std::vector<int> sizes = array_sizes<T>();
  const CheckStream stream;
  for (int n : sizes) {
    SCOPED_TRACE(std::string(type_name<T>()) + ", n = " + std::to_string(n));
    if constexpr (std::is_same<T, int>::value) {
      if (n > kLargestScannedOnTheCpu) {  // the last size: traced there
        expect_large_int_array_right(scan, step, single_pass, n, stream);
        continue;
      }
    }
    const std::vector<T> x = scan_inputs<T>(n);
    auto d_x = grader::device(x);
    Output<T> out(n);
    const auto call = [&] { scan(d_x.data(), out.data(), n, stream.get()); };
    run_watched(call, stream.get(), step);
    EXPECT_TRUE(out.guard_intact());
    EXPECT_TRUE(scan_matches(x, out.to_host(), 1, n));
    if (n == sizes.back() && !grader::under_sanitizer()) {  // nothing is traced under compute-sanitizer
      grader::Rules rules = grader::Rules::kernel_step(step, stream.get());
      if (single_pass) rules.also(one_kernel);
      out.poison();
      run_traced(call, rules);
      EXPECT_TRUE(scan_matches(x, out.to_host(), 1, n));
    }
  }
  Output<T> out(4);
  EXPECT_THROW(scan(out.data(), out.data(), -1, stream.get()), std::invalid_argument) << "n = -1 must throw";
}

TEST(WholeScan, ThreePhaseInt) {
  expect_array_right<int>(scan_three_phase, "step 2 (scan_three_phase)", false);
}
TEST(WholeScan, ThreePhaseFloat) {
  expect_array_right<float>(scan_three_phase, "step 2 (scan_three_phase)", false);
}
TEST(WholeScan, SinglePassInt) {
  expect_array_right<int>(scan_single_pass, "step 2 (scan_single_pass)", true);
}
TEST(WholeScan, SinglePassFloat) {
  expect_array_right<float>(scan_single_pass, "step 2 (scan_single_pass)", true);
}

// Arrays that start 1 to 3 elements into an allocation (not 16-byte aligned): vector loads must
// fall back, and nothing before the start may be read into the sums.
TEST(WholeScan, UnalignedArrays) {
  const CheckStream stream;
  for (ArrayScan<int> scan : {static_cast<ArrayScan<int>>(scan_three_phase), static_cast<ArrayScan<int>>(scan_single_pass)}) {
    for (int n : {5, 4097, tiles_and_a_tail()}) {
      for (int offset : {1, 3}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", both arrays starting " + std::to_string(offset) + " ints in");
        const std::vector<int> x = scan_inputs<int>(n + offset);
        auto d_x = grader::device(x);
        Output<int> out(n + offset);
        run_watched([&] { scan(d_x.data() + offset, out.data() + offset, n, stream.get()); }, stream.get(),
                    "the whole-array scan");
        std::vector<int> got = out.to_host();
        for (int i = 0; i < offset; ++i) EXPECT_TRUE(grader::is_poison(got[i])) << "wrote before the output's start";
        EXPECT_TRUE(scan_matches(std::vector<int>(x.begin() + offset, x.end()),
                                 std::vector<int>(got.begin() + offset, got.end()), 1, n));
      }
    }
  }
}

// ---- Step 3: compaction --------------------------------------------------------------------------
template <typename T>
using Compact = std::function<void(const T*, T*, int*, int, T, cudaStream_t)>;

// Thresholds that keep everything, about half, a few, and nothing. Under compute-sanitizer the
// sizes up to 4097 (two tiles of 4096) take all four, so a tile or a whole array keeping nothing
// or almost nothing (where an index such as count - 1 turns -1) is still seen there, and larger
// ones the first two only: everything kept makes the most writes (into shared memory and the
// output, up to its last element), about half makes every warp keep a different count.
template <typename T>
std::vector<T> thresholds(int n = 0) {
  std::vector<T> all;
  if constexpr (std::is_same<T, int>::value) all = {-2000, 0, 990, 1000};
  else all = {-2.0f, 0.0f, 0.99f, 1.0f};
  if (grader::under_sanitizer() && n > 4097) all.resize(2);
  return all;
}

// int: -1000 .. 1000; float: -1 .. 1.
template <typename T>
std::vector<T> compaction_inputs(std::size_t n) {
  if constexpr (std::is_same<T, int>::value) return grader::random_ints(n, -1000, 1000);
  else return grader::random_floats(n, -1.0f, 1.0f);
}

// The kept elements, in order; the count exact; nothing at or past out[count] written.
template <typename T>
testing::AssertionResult compaction_matches(const std::vector<T>& x, T threshold, int count,
                                            const std::vector<T>& got) {
  std::vector<T> want;
  for (T v : x)
    if (v > threshold) want.push_back(v);
  if (grader::is_poison(count)) return testing::AssertionFailure() << "*count was never written";
  // Exact: the count is of comparisons v > threshold of the same values, no rounding anywhere.
  if (count != static_cast<int>(want.size()))
    return testing::AssertionFailure() << "*count is " << count << ", but " << want.size() << " of the " << x.size()
                                       << " elements are > " << threshold;
  for (std::size_t i = count; i < got.size(); ++i)
    if (!grader::is_poison(got[i]))
      return testing::AssertionFailure() << "out[" << i << "] was written, at or past the count " << count
                                         << ": nothing past the kept elements may be written";
  for (int i = 0; i < count; ++i) {
    if (got[i] == want[i]) continue;
    std::vector<T> a(want), b(got.begin(), got.begin() + count);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::ostringstream message;
    message << "out[" << i << "] is " << got[i] << ", expected " << want[i] << " (the kept elements, in input order)";
    if (a == b) message << ": the right elements, in the wrong order. Compaction keeps the input order: element i "
                        << "goes to the number of kept elements before it (a scan of the flags), not to a slot taken "
                        << "from a counter";
    return testing::AssertionFailure() << message.str();
  }
  return testing::AssertionSuccess();
}

template <typename T>
void expect_compaction_right(const Compact<T>& compact, const grader::Rules& rules, const CheckStream& stream) {
  std::vector<int> sizes = {0, 1, 31, 33, 1025, 4096, 4097, tiles_and_a_tail()};
  sizes.push_back(large_size(1 << 24, 2 * sizeof(T)));
  for (int n : sizes) {
    for (T threshold : thresholds<T>(n)) {
      SCOPED_TRACE(std::string(type_name<T>()) + ", n = " + std::to_string(n) + ", kept: > " + std::to_string(threshold));
      const std::vector<T> in = compaction_inputs<T>(n);
      auto d_x = grader::device(in);
      Output<T> out(n);
      Output<int> count(1);
      const auto call = [&] { compact(d_x.data(), out.data(), count.data(), n, threshold, stream.get()); };
      run_watched(call, stream.get(), rules.step());
      EXPECT_TRUE(out.guard_intact());
      EXPECT_TRUE(count.guard_intact());
      EXPECT_TRUE(compaction_matches(in, threshold, count.to_host()[0], out.to_host()));
      if (n == sizes.back() && threshold == T(0) && !grader::under_sanitizer()) {  // nothing is traced there
        out.poison();
        count.poison();
        run_traced(call, rules);
        EXPECT_TRUE(compaction_matches(in, threshold, count.to_host()[0], out.to_host()));
      }
    }
  }
  // An input that starts one element into its allocation (not 16-byte aligned: no vector loads, so
  // every whole tile goes through the scalar loads), and lengths of whole tiles and part of one.
  for (int n : {4097, tiles_and_a_tail()}) {
    for (T threshold : thresholds<T>(n)) {
      SCOPED_TRACE(std::string(type_name<T>()) + ", n = " + std::to_string(n) +
                   ", the input starting 1 element into its allocation, kept: > " + std::to_string(threshold));
      const std::vector<T> allocation = compaction_inputs<T>(n + 1);
      auto d_x = grader::device(allocation);
      Output<T> out(n);
      Output<int> count(1);
      run_watched([&] { compact(d_x.data() + 1, out.data(), count.data(), n, threshold, stream.get()); }, stream.get(),
                  rules.step());
      EXPECT_TRUE(out.guard_intact());
      EXPECT_TRUE(count.guard_intact());
      EXPECT_TRUE(compaction_matches(std::vector<T>(allocation.begin() + 1, allocation.end()), threshold,
                                     count.to_host()[0], out.to_host()));
    }
  }
  Output<T> out(4);
  Output<int> count(1);
  EXPECT_THROW(compact(out.data(), out.data(), count.data(), -1, T(0), stream.get()), std::invalid_argument)
      << "n = -1 must throw";
}

TEST(Compact, KeepsOrderAndCountInt) {
  const CheckStream stream;
  expect_compaction_right<int>([](const int* in, int* out, int* count, int n, int t, cudaStream_t s) {
    compact_greater(in, out, count, n, t, s);
  }, grader::Rules::kernel_step("step 3 (compact_greater)", stream.get()), stream);
}
TEST(Compact, KeepsOrderAndCountFloat) {
  const CheckStream stream;
  expect_compaction_right<float>([](const float* in, float* out, int* count, int n, float t, cudaStream_t s) {
    compact_greater(in, out, count, n, t, s);
  }, grader::Rules::kernel_step("step 3 (compact_greater)", stream.get()), stream);
}

// ---- The float steps compute in float (no GPU needed) -------------------------------------------------

// A float scan that adds in double (a double accumulator, 0.0 instead of 0.0f) gives float answers
// within the bound above, so only the machine code shows it (grader/machine_code.h). The int and
// float instantiations are both read: neither has a reason for double arithmetic.
TEST(CpuMachineCode, ScanKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic(".", [] {
    const float* none = nullptr;
    scan_rows_hillis_steele(none, nullptr, 0, 0);
    scan_rows_blelloch(none, nullptr, 0, 0);
    scan_three_phase(none, nullptr, 0);
    scan_single_pass(none, nullptr, 0);
  });
}

// ---- Step 4: CUB ------------------------------------------------------------------------------------
// CUB's kernels, on the stream given, returning at once; temp allocated by the check, once.
grader::Rules cub_rules(const std::string& step, cudaStream_t stream) {
  return grader::Rules::kernel_step(step, stream).library("CUB");
}

// racecheck and synccheck: CUB's kernels are NVIDIA's, with no shared memory or barrier of the
// student's in them, and slow under those two tools (grader::under_race_or_sync_check). A check of
// step 4 skips itself there after cub_temp_bytes, its first call (TODO while step 4 is); memcheck
// still runs it.
#define SKIP_CUB_UNDER_RACECHECK_AND_SYNCCHECK()                                                          \
  if (grader::under_race_or_sync_check())                                                                 \
  GTEST_SKIP() << "CUB's own kernels are not run under compute-sanitizer --tool " << grader::sanitizer_tool() \
               << " (memcheck runs them)"

template <typename T>
void expect_cub_scan_right() {
  (void)cub_temp_bytes(0);  // TODO while step 4 is
  SKIP_CUB_UNDER_RACECHECK_AND_SYNCCHECK();
  const CheckStream stream;
  const std::vector<int> sizes = {0, 1, 33, 1025, tiles_and_a_tail(), large_size(1 << 24, 2 * sizeof(T))};
  for (int n : sizes) {
    SCOPED_TRACE(std::string(type_name<T>()) + ", n = " + std::to_string(n));
    const std::size_t bytes = cub_temp_bytes(n);
    stepwise::DeviceBuffer<unsigned char> temp(bytes);
    const std::vector<T> x = scan_inputs<T>(n);
    auto d_x = grader::device(x);
    Output<T> out(n);
    const auto call = [&] { scan_cub(d_x.data(), out.data(), n, temp.data(), bytes, stream.get()); };
    if (n == sizes.back())
      run_traced(call, cub_rules("step 4 (scan_cub)", stream.get()));
    else
      run_watched(call, stream.get(), "scan_cub");
    EXPECT_TRUE(out.guard_intact());
    EXPECT_TRUE(scan_matches(x, out.to_host(), 1, n));
  }
}

TEST(CubScan, InclusiveSumInt) {
  expect_cub_scan_right<int>();
}
TEST(CubScan, InclusiveSumFloat) {
  expect_cub_scan_right<float>();
}

TEST(CubCompact, SelectIfInt) {
  const CheckStream stream;
  const std::size_t bytes = cub_temp_bytes(1 << 24);
  SKIP_CUB_UNDER_RACECHECK_AND_SYNCCHECK();
  stepwise::DeviceBuffer<unsigned char> temp(bytes);
  expect_compaction_right<int>([&](const int* in, int* out, int* count, int n, int t, cudaStream_t s) {
    compact_cub(in, out, count, n, t, temp.data(), bytes, s);
  }, cub_rules("step 4 (compact_cub)", stream.get()), stream);
}
TEST(CubCompact, SelectIfFloat) {
  const CheckStream stream;
  const std::size_t bytes = cub_temp_bytes(1 << 24);
  SKIP_CUB_UNDER_RACECHECK_AND_SYNCCHECK();
  stepwise::DeviceBuffer<unsigned char> temp(bytes);
  expect_compaction_right<float>([&](const float* in, float* out, int* count, int n, float t, cudaStream_t s) {
    compact_cub(in, out, count, n, t, temp.data(), bytes, s);
  }, cub_rules("step 4 (compact_cub)", stream.get()), stream);
}

// ---- Speed ------------------------------------------------------------------------------------------
// 2^28 ints (1 GiB each way; fewer where free memory is short), fresh before every timed call:
// |x| <= 7, so no prefix overflows. The grader's own CUB calls (temp allocated here, once) give the
// ceiling and the reference each timed call's output is checked against, on a random sample.
struct GreaterThan {
  int threshold;
  __host__ __device__ bool operator()(const int& x) const { return x > threshold; }
};

class ScanBench {
 public:
  ScanBench()
      : n_(static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 28, 3 * sizeof(int)))),
        in_(n_), out_(n_), reference_(n_) {
    std::size_t scan = 0, select = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan, in_.data(), reference_.data(), n_));
    CUDA_CHECK(cub::DeviceSelect::If(nullptr, select, in_.data(), reference_.data(), counts_.data(), n_, GreaterThan{0}));
    temp_bytes_ = std::max(scan, select);
    temp_ = stepwise::DeviceBuffer<unsigned char>(temp_bytes_);
  }
  int n() const { return n_; }

  double cub_scan_ms() {
    grader::refill_random(in_.data(), n_, -7, 7);
    return grader::gpu_median_ms([&] {
      std::size_t bytes = temp_bytes_;
      CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp_.data(), bytes, in_.data(), reference_.data(), n_));
    });
  }
  double cub_select_ms() {
    grader::refill_random(in_.data(), n_, -1000, 1000);
    return grader::gpu_median_ms([&] {
      std::size_t bytes = temp_bytes_;
      CUDA_CHECK(cub::DeviceSelect::If(temp_.data(), bytes, in_.data(), reference_.data(), counts_.data(), n_,
                                       GreaterThan{0}));
    });
  }

  // The student's scan on the default stream, timed as a Workload (a watched call first: a scan
  // that hangs fails instead of stopping the grader).
  double scan_ms(ArrayScan<int> scan, const std::string& step, bool single_pass) {
    grader::refill_random(in_.data(), n_, -7, 7);
    run_watched([&] { scan(in_.data(), out_.data(), n_, nullptr); }, nullptr, step);
    grader::Workload work;
    work.fresh_inputs = [&] {
      grader::refill_random(in_.data(), n_, -7, 7);
      std::size_t bytes = temp_bytes_;
      CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp_.data(), bytes, in_.data(), reference_.data(), n_));
      grader::poison(out_.data(), n_);
    };
    work.call = [&, scan] { scan(in_.data(), out_.data(), n_, nullptr); };
    work.output_is_right = [&]() -> testing::AssertionResult {
      const grader::Sample sample(n_);
      // Exact: int prefixes of values in [-7, 7] stay within 7 x 2^28 < 2^31, so every partial sum
      // is exact in any order, CUB's and the student's alike.
      return sample.matches(sample.of(reference_.data()), sample.of(out_.data()), grader::Tolerance::exact());
    };
    grader::Rules rules = grader::Rules::kernel_step(step);
    if (single_pass) rules.also(one_kernel);
    work.what_ran = rules;
    return grader::gpu_median_ms(work);
  }

  double compact_ms() {
    grader::refill_random(in_.data(), n_, -1000, 1000);
    run_watched([&] { compact_greater(in_.data(), out_.data(), counts_.data() + 1, n_, 0, nullptr); }, nullptr,
                "step 3 (compact_greater)");
    grader::Workload work;
    work.fresh_inputs = [&] {
      grader::refill_random(in_.data(), n_, -1000, 1000);
      std::size_t bytes = temp_bytes_;
      CUDA_CHECK(cub::DeviceSelect::If(temp_.data(), bytes, in_.data(), reference_.data(), counts_.data(), n_,
                                       GreaterThan{0}));
      grader::poison(out_.data(), n_);
      grader::poison(counts_.data() + 1, 1);
    };
    work.call = [&] { compact_greater(in_.data(), out_.data(), counts_.data() + 1, n_, 0, nullptr); };
    work.output_is_right = [&]() -> testing::AssertionResult {
      const std::vector<int> counts = counts_.to_host();
      if (grader::is_poison(counts[1])) return testing::AssertionFailure() << "*count was never written";
      if (counts[1] != counts[0])
        return testing::AssertionFailure() << "*count is " << counts[1] << ", CUB counts " << counts[0];
      if (counts[0] == 0) return testing::AssertionSuccess();
      // Exact: compaction copies the kept ints in order, no arithmetic on them.
      const grader::Sample sample(counts[0]);
      return sample.matches(sample.of(reference_.data()), sample.of(out_.data()), grader::Tolerance::exact());
    };
    work.what_ran = grader::Rules::kernel_step("step 3 (compact_greater)");
    return grader::gpu_median_ms(work);
  }

 private:
  int n_;
  stepwise::DeviceBuffer<int> in_, out_, reference_;
  stepwise::DeviceBuffer<int> counts_{2};  // CUB's count, the student's
  stepwise::DeviceBuffer<unsigned char> temp_;
  std::size_t temp_bytes_ = 0;
};

std::string describe(double ms, double reference_ms, const char* reference, int n, double bytes_per_element) {
  std::ostringstream how;
  how << std::fixed << std::setprecision(3) << ms << " ms vs " << reference << " " << reference_ms << " ms, " << n
      << " ints; " << std::setprecision(0) << 1e-6 * bytes_per_element * n / ms << " GB/s vs "
      << 1e-6 * bytes_per_element * n / reference_ms << " GB/s";
  return how.str();
}

// A scan reads and writes each element once: no honest scan is much faster than CUB's, which
// runs near the speed of a copy. Above 1.25 times CUB, work was skipped.
void expect_fraction_of_cub_scan(ArrayScan<int> scan, const std::string& step, bool single_pass) {
  ScanBench bench;
  const double cub_ms = bench.cub_scan_ms();
  grader::expect_speed([&] {
    const double ms = bench.scan_ms(scan, step, single_pass);
    // The ceiling 1.25: CUB's scan moves the 8 bytes per element near copy speed, and no scan moves
    // them faster than 1.1 x a copy (fraction_of_copy_bandwidth's ceiling); the rest is noise.
    return grader::Figure{cub_ms / ms, describe(ms, cub_ms, "CUB InclusiveSum", bench.n(), 8), 1.25};
  });
}

TEST(PrefixSumSpeed, SinglePassVsCub) {
  expect_fraction_of_cub_scan(scan_single_pass, "step 2 (scan_single_pass)", true);
}

TEST(PrefixSumSpeed, ThreePhaseVsCub) {
  expect_fraction_of_cub_scan(scan_three_phase, "step 2 (scan_three_phase)", false);
}

// 8 bytes per element (one read, one write) against the device-to-device copy.
TEST(PrefixSumSpeed, SinglePassVsCopy) {
  ScanBench bench;
  grader::expect_speed([&] {
    return grader::fraction_of_copy_bandwidth(8.0 * bench.n(), bench.scan_ms(scan_single_pass, "step 2 (scan_single_pass)", true));
  });
}

TEST(CompactSpeed, VsSelectIf) {
  ScanBench bench;
  const double cub_ms = bench.cub_select_ms();
  grader::expect_speed([&] {
    const double ms = bench.compact_ms();
    // The ceiling 1.25: as for the scan, with DeviceSelect::If's 6 bytes per element (a read of 4, a
    // write of 4 for the half kept, x > 0 of -1000 .. 1000) near copy speed against 1.1 x a copy at most.
    return grader::Figure{cub_ms / ms, describe(ms, cub_ms, "CUB DeviceSelect::If", bench.n(), 6), 1.25};
  });
}

}  // namespace
