// Grader tests for lesson 03 (Mandelbrot: a device function, 2-D grid-stride loops, 2-D grids).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/machine_code.h"
#include "grader/results.h"
#include "mandelbrot.h"
#include "mandelbrot_cpu.h"
#include "stepwise/cuda_error.h"

namespace {

using grader::Output;
using ImageFunction = void (*)(int*, int, int, Region, int);

// ---- The CPU reference ----------------------------------------------------------------------

// The CPU reference (cpu_escape_count, cpu_mandelbrot) is lessons/03-mandelbrot/mandelbrot_cpu.h,
// shared with the demo: the reference counts, and the single-thread time the speed checks use.

// Which counts a float computation can produce for one point, and why a range is needed.
//
// Float arithmetic rounds at every step, and the GPU rounds differently from the CPU: nvcc fuses
// a * b + c into one fused multiply-add (one rounding instead of two), the host compiler on x86
// does not. Near the boundary of the set the iteration is chaotic: such a difference in the last
// bit of z grows until it changes the count. Away from the boundary it cannot. To tell the two
// apart, the reference follows z in double together with a bound `error` on how far ANY float
// computation of the same recurrence can be from it. One iteration z' = z * z + c gives
//   error' = error * (2|z| + error)         a difference in z, through z * z
//          + c_error                        c itself, computed in float from the region
//          + 12u * ((|z| + error)^2 + |c|)  this step's own roundings: a few per component, each
//                                           of a number no larger than |z|^2 + |c|
// with u = 2^-24 (float's unit roundoff) + 2^-53 (double's, so the double z counts as exact).
// While (|z| + error)^2 < 4, no float z can have escaped yet; once (|z| - error)^2 >= 4, every
// one has (4u to spare for rounding the test itself). So a float count lies in [low, high]: low
// is the first iteration at which escaping becomes possible, high the first at which it is
// certain. Where low == high the count is exact and a correct kernel must give exactly that.
// The other points are boundary points: there any count in [low, high] is a correct float
// result, and the CPU's own count is one of them. The checks below also require boundary points
// to be rare (kMaxBoundaryShare), so almost every pixel is checked exactly.
struct CountRange {
  int low = 0, high = 0;
};

constexpr double kUnit = 0x1p-24 + 0x1p-53;

CountRange float_count_range(double real, double imag, double c_error, int max_iterations) {
  const double c_size = std::sqrt(real * real + imag * imag);
  double zr = 0, zi = 0, error = 0;
  int low = -1;
  for (int i = 0; i < max_iterations; ++i) {
    const double size = std::sqrt(zr * zr + zi * zi), reach = size + error;
    error = error * (size + reach) + c_error + 12 * kUnit * (reach * reach + c_size);
    const double next_zr = zr * zr - zi * zi + real;
    zi = 2 * zr * zi + imag;
    zr = next_zr;
    const double r = std::sqrt(zr * zr + zi * zi);
    const double farthest = r + error, nearest = std::max(r - error, 0.0);
    if (low < 0 && farthest * farthest * (1 + 4 * kUnit) >= 4) low = i;
    if (nearest * nearest * (1 - 4 * kUnit) >= 4) return {low, i};
  }
  return {low < 0 ? max_iterations : low, max_iterations};
}

// The counts of a set of points on the CPU, and the range a float computation can give.
struct Reference {
  std::vector<int> cpu;
  std::vector<CountRange> range;
  std::size_t boundary = 0;                     // points where low < high
  std::function<std::string(std::size_t)> where;  // "pixel (x, y), c = ..." for messages
};

// In the test images at most 3% of the pixels are boundary pixels (1000 iterations over the
// whole set: 2.1%); a test whose image has more than this checks too little exactly and fails
// as a grader error. (A few boundary points are always allowed, for tiny inputs.)
constexpr double kMaxBoundaryShare = 0.05;

std::string complex_text(double real, double imag) {
  std::ostringstream text;
  text.precision(9);
  text << real << (imag < 0 ? " - " : " + ") << std::fabs(imag) << "i";
  return text.str();
}

void finish(Reference& ref) {
  for (std::size_t i = 0; i < ref.cpu.size(); ++i) {
    const CountRange& range = ref.range[i];
    if (range.low < range.high) ++ref.boundary;
    // The CPU is one float computation, so its count must lie in the range, or the grader is wrong.
    if (ref.cpu[i] < range.low || ref.cpu[i] > range.high)
      ADD_FAILURE() << "grader error: the CPU count " << ref.cpu[i] << " of " << ref.where(i)
                    << " lies outside [" << range.low << ", " << range.high << "]";
  }
}

Reference points_reference(const std::vector<float>& real, const std::vector<float>& imag, int max_iterations) {
  Reference ref;
  ref.cpu.resize(real.size());
  ref.range.resize(real.size());
  grader::in_parallel(real.size(), [&](std::size_t begin, std::size_t end) {  // each point on its own
    for (std::size_t i = begin; i < end; ++i) {
      ref.cpu[i] = cpu_escape_count(real[i], imag[i], max_iterations);
      ref.range[i] = float_count_range(real[i], imag[i], 0, max_iterations);  // the points are exact
    }
  }, 4096);
  ref.where = [real, imag](std::size_t i) {
    return "point " + std::to_string(i) + ", c = " + complex_text(real[i], imag[i]);
  };
  finish(ref);
  return ref;
}

// The reference for some pixels (indices y * width + x) of a width x height image of `r`.
Reference pixels_reference(int width, int height, Region r, int max_iterations, const std::vector<std::size_t>& pixels) {
  Reference ref;
  ref.cpu.resize(pixels.size());
  ref.range.resize(pixels.size());
  // The exact pixel positions, and how far a float computation of them can be off: a few
  // roundings of numbers no larger than |min| + |offset| in each direction.
  const double pixel_width = (static_cast<double>(r.max_x) - r.min_x) / width;
  const double pixel_height = (static_cast<double>(r.max_y) - r.min_y) / height;
  // Each pixel on its own: on the idle cores, a slice each (up to a million pixels of 1000 iterations).
  grader::in_parallel(pixels.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      const int x = static_cast<int>(pixels[k] % width), y = static_cast<int>(pixels[k] / width);
      ref.cpu[k] = cpu_pixel_count(x, y, width, height, r, max_iterations);
      const double dx = x * pixel_width, dy = y * pixel_height;
      const double c_error = 4 * kUnit * (std::fabs(r.min_x) + std::fabs(dx) + std::fabs(r.min_y) + std::fabs(dy));
      ref.range[k] = float_count_range(r.min_x + dx, r.min_y + dy, c_error, max_iterations);
    }
  }, 4096);
  ref.where = [pixels, width, pixel_width, pixel_height, r](std::size_t k) {
    const int x = static_cast<int>(pixels[k] % width), y = static_cast<int>(pixels[k] / width);
    return "pixel (x " + std::to_string(x) + ", y " + std::to_string(y) + "), c = " +
           complex_text(r.min_x + x * pixel_width, r.min_y + y * pixel_height);
  };
  finish(ref);
  return ref;
}

Reference image_reference(int width, int height, Region r, int max_iterations) {
  std::vector<std::size_t> every_pixel(static_cast<std::size_t>(width) * height);
  std::iota(every_pixel.begin(), every_pixel.end(), std::size_t{0});
  return pixels_reference(width, height, r, max_iterations, every_pixel);
}

// Every count within its range (exact away from the boundary), every value written, nothing
// written past the end.
testing::AssertionResult counts_match(const Reference& ref, const std::vector<int>& got) {
  const std::size_t n = got.size();
  // kMaxBoundaryShare of the points (above), plus 16: any input of up to 16 points may be all
  // boundary points, so tiny inputs (1 point, a 1 x 1 or 2 x 3 image) never fail on the share.
  const std::size_t allowed_boundary = static_cast<std::size_t>(kMaxBoundaryShare * n) + 16;
  if (ref.boundary > allowed_boundary)
    return testing::AssertionFailure()
           << "grader error: " << ref.boundary << " of " << n << " points are boundary points, "
           << "more than this check allows; choose a region further from the set's boundary";
  grader::MismatchReport report;
  std::size_t differ_from_cpu = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const CountRange& range = ref.range[i];
    const bool never_written = grader::is_poison(got[i]);
    if (got[i] != ref.cpu[i]) ++differ_from_cpu;
    if (!never_written && got[i] >= range.low && got[i] <= range.high) continue;
    if (!report.add(never_written)) continue;
    const std::string expected = range.low == range.high ? std::to_string(range.low)
                                                         : std::to_string(range.low) + " to " +
                                                               std::to_string(range.high) + " (a boundary point)";
    report.show(ref.where(i) + ":", expected, std::to_string(got[i]), never_written);
  }
  const double percent = n == 0 ? 0 : 100.0 * ref.boundary / n;
  std::ostringstream boundary;
  boundary.precision(2);
  boundary << std::fixed << percent;
  const std::string required = "exact but on the boundary (" + boundary.str() + "% of points)";
  if (report.count() == 0) {
    grader::note_figure(0, std::to_string(n) + " right, " + std::to_string(differ_from_cpu) +
                               " boundary points differ from the CPU", required);
    return testing::AssertionSuccess();
  }
  grader::note_figure(1e300, std::to_string(report.count()) + " of " + std::to_string(n) + " wrong", required);
  return report.failure(n, "", " (does the grid, with its loops, cover every pixel?)");
}

testing::AssertionResult counts_match(const Reference& ref, const Output<int>& out) {
  const testing::AssertionResult guard = out.guard_intact();
  if (!guard) return guard;
  return counts_match(ref, out.to_host());
}

// ---- What ran -------------------------------------------------------------------------------

std::string shape(const dim3& d) {
  return std::to_string(d.x) + " x " + std::to_string(d.y) + (d.z == 1 ? "" : " x " + std::to_string(d.z));
}

// Every step's promise (mandelbrot.h): kernels of the student's, on the default stream, no wait
// for the GPU, no copy to or from the host; and the launch the step describes: every kernel of
// the student's has a launch `fits` accepts, which `launch` describes in the student's words.
grader::Rules launch_rules(const std::string& step, const std::function<bool(const grader::TracedKernel&)>& fits,
                           const std::string& launch) {
  grader::Rules rules = grader::Rules::kernel_step(step);
  rules.also([fits, launch](const grader::Trace& t) -> testing::AssertionResult {
    for (const grader::TracedKernel* k : t.kernels_of(grader::Origin::student))
      if (!fits(*k))
        return testing::AssertionFailure() << "launched a grid of " << shape(k->grid) << " blocks of "
                                           << shape(k->block) << " threads: this step launches " << launch;
    return testing::AssertionSuccess();
  });
  return rules;
}

// Step 1: one thread per point, 1-D.
grader::Rules point_rules(int n) {
  return launch_rules("step 1 (escape_counts)", [n](const grader::TracedKernel& k) {
    const long long threads = static_cast<long long>(k.grid.x) * k.block.x;
    // n <= threads < n + block.x is exactly grid.x == ceil(n / block.x): integers, no slack.
    return k.grid.y == 1 && k.grid.z == 1 && k.block.y == 1 && k.block.z == 1 && threads >= n && threads < n + k.block.x;
  }, "one thread per point: a 1-D grid of ceil(n / threads per block) blocks (256 threads per block, as the README says)");
}

// Step 2: the seed's fixed grid, whatever the image.
grader::Rules grid_stride_rules() {
  return launch_rules("step 2 (mandelbrot)", [](const grader::TracedKernel& k) {
    return k.grid.x == 32 && k.grid.y == 16 && k.grid.z == 1 && k.block.x == 32 && k.block.y == 8 && k.block.z == 1;
  }, "the seed's fixed grid of 32 x 16 blocks of 32 x 8 threads, whatever the image size (its threads stride through the image)");
}

// Step 3: blocks of 32 x 8 threads, a grid sized to the image (along y at most 65,535 blocks,
// CUDA's limit).
grader::Rules per_pixel_rules(int width, int height) {
  const unsigned grid_x = (width - 1) / 32 + 1, grid_y = std::min((height - 1) / 8 + 1, 65535);
  return launch_rules("step 3 (mandelbrot_one_thread_per_pixel)", [=](const grader::TracedKernel& k) {
    return k.grid.x == grid_x && k.grid.y == grid_y && k.grid.z == 1 && k.block.x == 32 && k.block.y == 8 && k.block.z == 1;
  }, "one thread per pixel: blocks of 32 x 8 threads, a grid of (width + 31) / 32 x min((height + 7) / 8, 65535) = " +
         std::to_string(grid_x) + " x " + std::to_string(grid_y) + " blocks");
}

// The rules of each image step for a width x height image.
using ImageRules = grader::Rules (*)(int width, int height);
grader::Rules grid_stride_rules_for(int, int) { return grid_stride_rules(); }

// ---- Step 1: the escape count of single points -------------------------------------------

TEST(EscapeCount, KnownPoints) {
  struct Known {
    float real, imag;
    int count;
    const char* why;
  };
  constexpr int kMax = 50;
  const std::vector<Known> points = {
      {0, 0, kMax, "z stays 0: in the set, so max_iterations"},
      {-1, 0, kMax, "z = -1, 0, -1, 0, ...: in the set"},
      {0, 1, kMax, "z = i, -1 + i, -i, -1 + i, ...: in the set"},
      {0, -1, kMax, "the mirror image of c = i: in the set"},
      {0.25f, 0, kMax, "z creeps up to 0.5: in the set"},
      {-1.5f, 0, kMax, "z jumps about but stays below 1.83: in the set"},
      {2, 0, 0, "the first z is 2, and |z|^2 = 4 >= 4 escapes: count 0 (is the test >= 4?)"},
      {-2, 0, 0, "the first z is -2, and |z|^2 = 4 >= 4: count 0 (is the test >= 4?)"},
      {0, 2, 0, "the first z is 2i, and |z|^2 = 4: count 0 (is the test >= 4?)"},
      {3, 0, 0, "the first z is 3: count 0 (does the count start at 0?)"},
      {1, 0, 1, "z = 1, then 2: escapes in iteration 1 (counting from 0)"},
      {0.5f, 0, 4, "z = 0.5, 0.75, 1.0625, 1.63, 3.15: escapes in iteration 4 (counting from 0)"},
  };
  std::vector<float> real, imag;
  for (const Known& p : points) {
    real.push_back(p.real);
    imag.push_back(p.imag);
  }
  auto d_real = grader::device(real), d_imag = grader::device(imag);
  Output<int> out(points.size());
  escape_counts(d_real.data(), d_imag.data(), out.data(), static_cast<int>(points.size()), kMax);
  ASSERT_TRUE(out.guard_intact());
  const std::vector<int> got = out.to_host();
  for (std::size_t i = 0; i < points.size(); ++i)
    EXPECT_EQ(got[i], points[i].count) << "c = " << complex_text(points[i].real, points[i].imag)
                                       << ", max_iterations = " << kMax << ": " << points[i].why;
}

TEST(EscapeCount, RandomPointsMatchCpu) {
  const int max_iterations = grader::random_ints(1, 1, 300)[0];
  for (int n : {0, 1, 31, 33, 1000, 100017}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", max_iterations = " + std::to_string(max_iterations));
    const std::vector<float> real = grader::random_floats(n, -2.5f, 1.5f), imag = grader::random_floats(n, -1.5f, 1.5f);
    const Reference ref = points_reference(real, imag, max_iterations);
    auto d_real = grader::device(real), d_imag = grader::device(imag);
    Output<int> out(n);
    const auto call = [&] { escape_counts(d_real.data(), d_imag.data(), out.data(), n, max_iterations); };
    if (n == 100017)  // the largest size is traced
      grader::expect_ran(call, point_rules(n));
    else
      call();
    EXPECT_TRUE(counts_match(ref, out));
  }
}

// n = INT_MAX (2^31 - 1), the largest n the API's `int n` takes: a grid rounded up as
// (n + 255) / 256 overflows int past INT_MAX - 255 (a launch of a negative number of blocks),
// which no smaller size shows. real, imag and the counts take 25.8 GB: on a GPU where that is
// more than 3/4 of its memory the check is SKIPPED, saying so (grader::allocate_if_it_fits). The
// points are drawn on the GPU, at most 50 iterations (about 0.1 s for 2^31 points on an H100);
// 4096 random points are compared with the CPU's counts (a call that got 1/1000 of them wrong
// escapes with 0.999^4096 = 1.7%; the overflow fails every point).
TEST(EscapeCount, AtIntMax) {
  escape_counts(nullptr, nullptr, nullptr, 0, 1);  // a step not written yet is TODO, on any GPU
  constexpr int n = std::numeric_limits<int>::max();
  std::optional<stepwise::DeviceBuffer<float>> real, imag;
  std::optional<Output<int>> counts;
  const auto allocate = [&] {
    real.emplace(n);
    imag.emplace(n);
    counts.emplace(n);
  };
  grader::check_at_int_max("n = INT_MAX", (2 * sizeof(float) + sizeof(int)) * std::size_t{n}, allocate, [&] {
    const int max_iterations = grader::random_ints(1, 1, 50)[0];
    SCOPED_TRACE("max_iterations = " + std::to_string(max_iterations));
    grader::refill_random(real->data(), n, -2.5f, 1.5f);
    grader::refill_random(imag->data(), n, -1.5f, 1.5f);
    grader::expect_ran([&] { escape_counts(real->data(), imag->data(), counts->data(), n, max_iterations); },
                       point_rules(n));
    const grader::Sample sample(n, 4096);
    const Reference ref = points_reference(sample.of(real->data()), sample.of(imag->data()), max_iterations);
    EXPECT_TRUE(counts_match(ref, sample.of(counts->data()))) << grader::kIntMaxHint;
  });
}

// ---- Steps 2 and 3: whole images ----------------------------------------------------------

struct ImageCase {
  int width, height;
  Region region;
  int max_iterations;
};

std::string describe(const ImageCase& c) {
  return std::to_string(c.width) + " x " + std::to_string(c.height) + " image of [" +
         std::to_string(c.region.min_x) + ", " + std::to_string(c.region.max_x) + "] x [" +
         std::to_string(c.region.min_y) + ", " + std::to_string(c.region.max_y) + "], " +
         std::to_string(c.max_iterations) + " iterations";
}

// The same view moved by a random part of a pixel, so each run samples new points.
Region nudged(Region r, int width, int height) {
  const std::vector<float> shift = grader::random_floats(2, -0.5f, 0.5f);
  const float dx = shift[0] * (r.max_x - r.min_x) / width, dy = shift[1] * (r.max_y - r.min_y) / height;
  return {r.min_x + dx, r.max_x + dx, r.min_y + dy, r.max_y + dy};
}

// With `rules`, the first image's call is traced and must follow them.
void expect_images_like_cpu(ImageFunction render, const std::vector<ImageCase>& cases, ImageRules rules = nullptr) {
  bool first = true;
  for (ImageCase c : cases) {
    c.region = nudged(c.region, c.width, c.height);
    SCOPED_TRACE(describe(c));
    const Reference ref = image_reference(c.width, c.height, c.region, c.max_iterations);
    Output<int> out(static_cast<std::size_t>(c.width) * c.height);
    const auto call = [&] { render(out.data(), c.width, c.height, c.region, c.max_iterations); };
    const bool traced = rules != nullptr && first;
    first = false;
    if (traced)
      grader::expect_ran(call, rules(c.width, c.height));
    else
      call();
    EXPECT_TRUE(counts_match(ref, out));
  }
}

const Region kWholeSet{};                              // the seed's view, [-2, 1] x [-1, 1]
const Region kElephantValley{0.26f, 0.41f, -0.02f, 0.08f};  // a zoom, not symmetric in y
const Region kWiderView{-2.5f, 1.5f, -1.5f, 1.5f};

// The seed's image (1536 x 1024, 20 iterations), then 1000 iterations on a smaller one.
// Under compute-sanitizer (memcheck: lesson 03 keeps no shared memory) smaller: 1100 x 140 still makes
// every thread of step 2's fixed grid (1024 x 128 threads) stride in x and in y, and step 3's grid
// end in partial blocks both ways; 1000 iterations on 150 x 100. The CPU's counts of the full
// images (768 x 512 at 1000 iterations alone is about a second) were most of the run.
std::vector<ImageCase> seed_images() {
  if (grader::under_sanitizer()) return {{1100, 140, kWholeSet, 20}, {150, 100, kWholeSet, 1000}};
  return {{1536, 1024, kWholeSet, 20}, {768, 512, kWholeSet, 1000}};
}
// A single pixel, single rows and columns, sizes just past one block, and odd sizes.
// A one-pixel row or column lies where the view's centre line is, moved by up to half the view:
// through the whole set that can be the chaotic real axis. These lie just outside the set, where
// the counts still change from pixel to pixel but no point is a boundary point.
const Region kRowAboveTheSet{-2.0f, 1.0f, 1.2f, 1.3f};
const Region kColumnRightOfTheSet{0.55f, 0.65f, -1.0f, 1.0f};
const std::vector<ImageCase> kOddImages = {{1, 1, kWholeSet, 200},   {2, 3, kWholeSet, 200},
                                           {1000, 1, kRowAboveTheSet, 200}, {1, 1000, kColumnRightOfTheSet, 200},
                                           {33, 9, kWholeSet, 200},   {31, 33, kWholeSet, 200},
                                           {1000, 777, kWholeSet, 200}};
// Under compute-sanitizer a quarter of each side: the same views and iterations, whose accesses differ
// from the seed images' in nothing but the size.
std::vector<ImageCase> other_views() {
  if (grader::under_sanitizer()) return {{160, 120, kElephantValley, 333}, {200, 150, kWiderView, 77}};
  return {{640, 480, kElephantValley, 333}, {800, 600, kWiderView, 77}};
}

TEST(Mandelbrot, GridStrideMatchesCpu) {
  expect_images_like_cpu(mandelbrot, seed_images(), grid_stride_rules_for);
}

TEST(Mandelbrot, GridStrideOddAndTinyImages) {
  expect_images_like_cpu(mandelbrot, kOddImages);
}

TEST(Mandelbrot, GridStrideOtherRegionsAndIterations) {
  expect_images_like_cpu(mandelbrot, other_views());
}

TEST(Mandelbrot, OneThreadPerPixelMatchesCpu) {
  expect_images_like_cpu(mandelbrot_one_thread_per_pixel, seed_images(), per_pixel_rules);
}

TEST(Mandelbrot, OneThreadPerPixelOddAndTinyImages) {
  expect_images_like_cpu(mandelbrot_one_thread_per_pixel, kOddImages);
}

TEST(Mandelbrot, OneThreadPerPixelOtherRegionsAndIterations) {
  expect_images_like_cpu(mandelbrot_one_thread_per_pixel, other_views());
}

// A grid holds at most 65,535 blocks along y (2^31 - 1 along x): with blocks of 8 rows, one
// thread per row covers at most 524,280 rows. Images of 1 to 3 columns and 600,000 to 800,000
// rows (9.6 MB at most, legal by the header): a grid of one thread per row is a launch CUDA
// refuses, and a grid capped without a loop over y leaves the rows past 524,280 (at least 12% of
// the pixels) unwritten. 4096 random pixels are compared (such a grid misses all of them with
// probability 0.87^4096, about 10^-240) and the output's guard region checked. Just right of the
// set, as the one-pixel columns above, so that few pixels are boundary pixels. Each call is
// traced under step 3's rules, so tall images drawn on the host or on another stream fail too.
TEST(Mandelbrot, OneThreadPerPixelTallImages) {
  const char* const hint =
      "a grid holds at most 65,535 blocks along y (2^31 - 1 along x): with blocks of 8 rows, an image of more than "
      "524,280 rows needs more. Cap the grid's y at 65,535 blocks and have each thread step down the rows "
      "(y += blockDim.y * gridDim.y), as step 2's loops do";
  // Under compute-sanitizer, whose cost grows with every access, one column once: it reaches the loop.
  const int rounds = grader::under_sanitizer() ? 1 : 2, most_columns = grader::under_sanitizer() ? 1 : 3;
  for (int round = 0; round < rounds; ++round) {
    ImageCase c{grader::random_ints(1, 1, most_columns)[0], grader::random_ints(1, 600000, 800000)[0], kColumnRightOfTheSet, 200};
    c.region = nudged(c.region, c.width, c.height);
    SCOPED_TRACE(describe(c));
    Output<int> out(static_cast<std::size_t>(c.width) * c.height);
    try {
      grader::expect_ran([&] { mandelbrot_one_thread_per_pixel(out.data(), c.width, c.height, c.region, c.max_iterations); },
                         per_pixel_rules(c.width, c.height));
      ASSERT_TRUE(out.guard_intact());
      const grader::Sample sample(out.size(), 4096);
      const Reference ref = pixels_reference(c.width, c.height, c.region, c.max_iterations, sample.indices());
      EXPECT_TRUE(counts_match(ref, sample.of(out.data()))) << hint;
    } catch (const stepwise::CudaError& e) {
      ADD_FAILURE() << e.what() << "\n  " << hint;
    }
  }
}

// Images of 2^31 - 1 pixels, the most the header allows: one column (1 x INT_MAX) and one row
// (INT_MAX x 1). In step 2's fixed grid a thread's last step down the column, y + 128, passes
// INT_MAX, and along the row x + 1024 does: an int index wraps negative and the loop goes on,
// writing gigabytes before the output (or, with the wrap optimised away, anywhere). Step 3 loops
// down the rows in strides of 524,280, so an int y wraps there too. No smaller image reaches
// either: the overflow needs a side within 524,280 of INT_MAX. Each call is traced under its
// step's rules; 4096 random pixels and the first and last 512 are compared with the CPU's counts,
// and the guard region past the output checked (the wrapped loop writes 2^31 pixels before the
// output: an illegal address, or memory the check cannot see, so that a run that gets that far
// also takes twice the time; what the H100 showed: grader/broken/03-mandelbrot/grid_stride_index_in_int). The counts take 8.6 GB: on a GPU where that is more
// than 3/4 of its memory the check is SKIPPED, saying so. Far outside the set: a pixel escapes in
// its first or second iteration (count 0 where |c| >= 2, at both ends of the line, else 1), where
// the regions of the rows and columns above took 2 to 4; step 2's column is 2^31 pixels done by
// the 128 threads of its fixed grid's first column, one after another, so that is most of the time.
// The counts still change along the line, and no point lies near the set's boundary.
const Region kColumnFarRightOfTheSet{1.2f, 1.3f, -2.0f, 2.0f};
const Region kRowFarAboveTheSet{-2.5f, 1.5f, 1.5f, 1.6f};

void expect_int_max_images(ImageFunction render, ImageRules rules) {
  render(nullptr, 0, 0, kWholeSet, 1);  // a step not written yet is TODO, on any GPU
  constexpr int kMost = std::numeric_limits<int>::max();
  std::optional<Output<int>> out;
  grader::check_at_int_max("a 1 x INT_MAX image", sizeof(int) * std::size_t{kMost}, [&] { out.emplace(kMost); }, [&] {
    for (ImageCase c : {ImageCase{1, kMost, kColumnFarRightOfTheSet, 200}, ImageCase{kMost, 1, kRowFarAboveTheSet, 200}}) {
      c.region = nudged(c.region, c.width, c.height);
      SCOPED_TRACE(describe(c));
      out->poison();
      grader::expect_ran([&] { render(out->data(), c.width, c.height, c.region, c.max_iterations); },
                         rules(c.width, c.height));
      ASSERT_TRUE(out->guard_intact());
      const grader::Sample sample(out->size(), 4096, 512);
      const Reference ref = pixels_reference(c.width, c.height, c.region, c.max_iterations, sample.indices());
      EXPECT_TRUE(counts_match(ref, sample.of(out->data()))) << grader::kIntMaxHint;
    }
  });
}

TEST(Mandelbrot, GridStrideAtIntMaxPixels) {
  expect_int_max_images(mandelbrot, grid_stride_rules_for);
}

TEST(Mandelbrot, OneThreadPerPixelAtIntMaxPixels) {
  expect_int_max_images(mandelbrot_one_thread_per_pixel, per_pixel_rules);
}

// An empty input is valid and launches nothing (a grid with 0 blocks would be an invalid launch).
TEST(Mandelbrot, EmptyInputsLaunchNothing) {
  Output<int> out(0);
  escape_counts(nullptr, nullptr, out.data(), 0, 100);
  for (ImageFunction render : {mandelbrot, mandelbrot_one_thread_per_pixel}) {
    render(out.data(), 0, 0, kWholeSet, 100);
    render(out.data(), 0, 7, kWholeSet, 100);
    render(out.data(), 7, 0, kWholeSet, 100);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(out.guard_intact());
}

// ---- Speed ----------------------------------------------------------------------------------

// Half the seed's image in each direction, at 1000 iterations: about half a second on one CPU
// thread. The work is arithmetic, not memory traffic, so the L2 cache is not flushed. Each timed
// run renders a view moved by a random part of a pixel, and after timing a random sample of the
// image's pixels is checked (a fraction of the CPU's time for the whole image); one more call
// is traced and must follow the step's rules.
constexpr int kWidth = 768, kHeight = 512, kIterations = 1000;
// 16384 of the 393216 pixels: a fault on a share f of the pixels escapes with probability
// (1 - f)^16384, e^-32 for one wrong row of 768 (f = 1/512), e^-0.04 for a single wrong pixel.
constexpr std::size_t kSampledPixels = 16384;

struct SpeedSetup {
  Output<int> counts{static_cast<std::size_t>(kWidth) * kHeight};
  Region view = kWholeSet;

  // A fresh random sample of `pixels` pixels of the last image, against the reference.
  testing::AssertionResult sample_right(std::size_t pixels) {
    const testing::AssertionResult guard = counts.guard_intact();
    if (!guard) return guard;
    const grader::Sample sample(counts.size(), pixels);
    return counts_match(pixels_reference(kWidth, kHeight, view, kIterations, sample.indices()), sample.of(counts.data()));
  }

  grader::Workload rendering_with(ImageFunction render, ImageRules rules) {
    grader::Workload work{[this] {
                            view = nudged(kWholeSet, kWidth, kHeight);
                            counts.poison();
                          },
                          [this, render] { render(counts.data(), kWidth, kHeight, view, kIterations); },
                          [this] { return sample_right(kSampledPixels); }};
    // Every call's image, not only the last timed one's: no ceiling tells an empty call from a
    // fast one here (see ceiling() below), so a call that renders only when its image is checked
    // must be caught another way. A skipped call leaves poison everywhere: 64 random pixels find
    // it (and a call that renders a share f of the image escapes with (1 - f)^64 per call).
    work.every_run_is_right = [this] { return sample_right(kPixelsEveryRun); };
    work.what_ran = rules(kWidth, kHeight);
    return work;
  }
  static constexpr std::size_t kPixelsEveryRun = 64;

  double gpu_ms(ImageFunction render, ImageRules rules) {
    grader::TimingOptions options;
    options.flush_l2 = false;
    return grader::gpu_median_ms(rendering_with(render, rules), options);
  }

  // A ceiling for a figure `reference_ms` / (the student's time): no kernel can write the image's
  // 4 bytes per pixel faster than 1.1 x the device's copy bandwidth (the bound
  // fraction_of_copy_bandwidth uses), whatever it computes: 1.6 MB, about 0.5 us on an H100.
  // Why no tighter one, from the arithmetic (iterations counted on the CPU for this image, the view
  // not nudged): of the 1.0e8 iterations the grader's kernel does, 9.9e7 are those of the 99133
  // pixels inside the set (1000 each), and a right kernel may skip nearly all of them (a test for
  // the main cardioid and the period-2 bulb covers 90053 of those pixels, cycle detection the
  // rest). What no kernel can skip is the 2.4e6 iterations of the escaping pixels: about 0.5 us
  // of float instructions on an H100, and as a chain of at most 1000 dependent iterations of ~8
  // cycles, about 4 us: no more than an empty call takes. So no ceiling tells an empty call from a
  // fast one; every_run_is_right above catches calls that skip their work instead (broken
  // submission works_only_on_checked_calls), and this ceiling only figures beyond any GPU.
  static double ceiling(double reference_ms) {
    return reference_ms / grader::fastest_ms_to_move(4.0 * kWidth * kHeight);
  }
};

void expect_faster_than_one_cpu_thread(ImageFunction render, ImageRules rules) {
  SpeedSetup s;
  // One run first: code that cannot run (an unwritten step) stops here, before the CPU's half second.
  render(s.counts.data(), kWidth, kHeight, kWholeSet, kIterations);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> cpu(s.counts.size());
  const double cpu_ms = grader::cpu_median_ms([&] { cpu_mandelbrot(cpu.data(), kWidth, kHeight, kWholeSet, kIterations); });
  grader::expect_speed([&] {
    grader::Figure figure = grader::speedup(cpu_ms, s.gpu_ms(render, rules), "one CPU thread");
    figure.ceiling = SpeedSetup::ceiling(cpu_ms);
    return figure;
  });
}

TEST(MandelbrotSpeed, GridStride) {
  expect_faster_than_one_cpu_thread(mandelbrot, grid_stride_rules_for);
}

TEST(MandelbrotSpeed, OneThreadPerPixel) {
  expect_faster_than_one_cpu_thread(mandelbrot_one_thread_per_pixel, per_pixel_rules);
}

// ---- Speed against the grader's own kernels --------------------------------------------------

// One CPU thread is a low bar: a kernel doing 8 times the work it needs (a grid-stride loop in y
// that steps by gridDim.y instead of blockDim.y * gridDim.y visits each row 8 times) still beats
// it 100 times over. So each image step is also held against the grader's kernel for the same
// launch, on the same GPU, on the same image: wasted work shows on any GPU.
__device__ int grader_escape_count(float real, float imag, int max_iterations) {
  float zr = 0.0f, zi = 0.0f, zr2 = 0.0f, zi2 = 0.0f;
  for (int i = 0; i < max_iterations; ++i) {
    zi = 2.0f * zr * zi + imag;
    zr = zr2 - zi2 + real;
    zr2 = zr * zr;
    zi2 = zi * zi;
    if (zr2 + zi2 >= 4.0f) return i;
  }
  return max_iterations;
}

__global__ void grader_grid_stride_kernel(int* counts, int width, int height, Region r, int max_iterations) {
  const float pixel_width = (r.max_x - r.min_x) / width, pixel_height = (r.max_y - r.min_y) / height;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x)
      counts[y * width + x] = grader_escape_count(r.min_x + x * pixel_width, r.min_y + y * pixel_height, max_iterations);
}

__global__ void grader_pixel_kernel(int* counts, int width, int height, Region r, int max_iterations) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  counts[y * width + x] = grader_escape_count(r.min_x + x * ((r.max_x - r.min_x) / width),
                                              r.min_y + y * ((r.max_y - r.min_y) / height), max_iterations);
}

void expect_near_grader_kernel(ImageFunction render, ImageRules rules, bool grid_stride) {
  SpeedSetup s;
  render(s.counts.data(), kWidth, kHeight, kWholeSet, kIterations);  // an unwritten step stops here
  CUDA_CHECK(cudaDeviceSynchronize());
  stepwise::DeviceBuffer<int> grader_counts(s.counts.size());
  const dim3 block(32, 8);
  const dim3 grid = grid_stride ? dim3(32, 16) : dim3((kWidth + 31) / 32, (kHeight + 7) / 8);
  grader::TimingOptions options;
  options.flush_l2 = false;
  grader::expect_speed([&] {
    const double grader_ms = grader::gpu_median_ms([&] {
      if (grid_stride)
        grader_grid_stride_kernel<<<grid, block>>>(grader_counts.data(), kWidth, kHeight, kWholeSet, kIterations);
      else
        grader_pixel_kernel<<<grid, block>>>(grader_counts.data(), kWidth, kHeight, kWholeSet, kIterations);
    }, options);
    grader::Figure figure = grader::speedup(grader_ms, s.gpu_ms(render, rules), "the grader's kernel");
    figure.ceiling = SpeedSetup::ceiling(grader_ms);
    return figure;
  });
}

TEST(MandelbrotSpeed, GridStrideNearGraderKernel) {
  expect_near_grader_kernel(mandelbrot, grid_stride_rules_for, true);
}

TEST(MandelbrotSpeed, OneThreadPerPixelNearGraderKernel) {
  expect_near_grader_kernel(mandelbrot_one_thread_per_pixel, per_pixel_rules, false);
}

// ---- The float steps compute in float (no GPU needed) ----------------------------------------

// The seed iterates in float. An iteration in double changes only the counts near the set's
// boundary, which the image checks allow, so only the machine code shows it (grader/machine_code.h).
TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic(".", [] {
    escape_counts(nullptr, nullptr, nullptr, 0, 1);
    mandelbrot(nullptr, 0, 0, Region{}, 1);
    mandelbrot_one_thread_per_pixel(nullptr, 0, 0, Region{}, 1);
  });
}

}  // namespace
