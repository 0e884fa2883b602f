// Grader tests for lesson 03 (Mandelbrot: a device function, 2-D grid-stride loops, 2-D grids).
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "grader/grader.h"
#include "grader/results.h"
#include "mandelbrot.h"
#include "mandelbrot_cpu.h"

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
  for (std::size_t i = 0; i < real.size(); ++i) {
    ref.cpu[i] = cpu_escape_count(real[i], imag[i], max_iterations);
    ref.range[i] = float_count_range(real[i], imag[i], 0, max_iterations);  // the points are exact
  }
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
  for (std::size_t k = 0; k < pixels.size(); ++k) {
    const int x = static_cast<int>(pixels[k] % width), y = static_cast<int>(pixels[k] / width);
    ref.cpu[k] = cpu_pixel_count(x, y, width, height, r, max_iterations);
    const double dx = x * pixel_width, dy = y * pixel_height;
    const double c_error = 4 * kUnit * (std::fabs(r.min_x) + std::fabs(dx) + std::fabs(r.min_y) + std::fabs(dy));
    ref.range[k] = float_count_range(r.min_x + dx, r.min_y + dy, c_error, max_iterations);
  }
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

// ---- Step 1: the escape count of single points -------------------------------------------

TEST(EscapeCount, KnownPoints) {
  REQUIRE_GPU();
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
  REQUIRE_GPU();
  const int max_iterations = grader::random_ints(1, 1, 300)[0];
  for (int n : {0, 1, 31, 33, 1000, 100017}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", max_iterations = " + std::to_string(max_iterations));
    const std::vector<float> real = grader::random_floats(n, -2.5f, 1.5f), imag = grader::random_floats(n, -1.5f, 1.5f);
    const Reference ref = points_reference(real, imag, max_iterations);
    auto d_real = grader::device(real), d_imag = grader::device(imag);
    Output<int> out(n);
    escape_counts(d_real.data(), d_imag.data(), out.data(), n, max_iterations);
    EXPECT_TRUE(counts_match(ref, out));
  }
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

void expect_images_like_cpu(ImageFunction render, const std::vector<ImageCase>& cases) {
  for (ImageCase c : cases) {
    c.region = nudged(c.region, c.width, c.height);
    SCOPED_TRACE(describe(c));
    const Reference ref = image_reference(c.width, c.height, c.region, c.max_iterations);
    Output<int> out(static_cast<std::size_t>(c.width) * c.height);
    render(out.data(), c.width, c.height, c.region, c.max_iterations);
    EXPECT_TRUE(counts_match(ref, out));
  }
}

const Region kWholeSet{};                              // the seed's view, [-2, 1] x [-1, 1]
const Region kElephantValley{0.26f, 0.41f, -0.02f, 0.08f};  // a zoom, not symmetric in y
const Region kWiderView{-2.5f, 1.5f, -1.5f, 1.5f};

// The seed's image (1536 x 1024, 20 iterations), then 1000 iterations on a smaller one.
const std::vector<ImageCase> kSeedImages = {{1536, 1024, kWholeSet, 20}, {768, 512, kWholeSet, 1000}};
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
const std::vector<ImageCase> kOtherViews = {{640, 480, kElephantValley, 333}, {800, 600, kWiderView, 77}};

TEST(Mandelbrot, GridStrideMatchesCpu) {
  REQUIRE_GPU();
  expect_images_like_cpu(mandelbrot, kSeedImages);
}

TEST(Mandelbrot, GridStrideOddAndTinyImages) {
  REQUIRE_GPU();
  expect_images_like_cpu(mandelbrot, kOddImages);
}

TEST(Mandelbrot, GridStrideOtherRegionsAndIterations) {
  REQUIRE_GPU();
  expect_images_like_cpu(mandelbrot, kOtherViews);
}

TEST(Mandelbrot, OneThreadPerPixelMatchesCpu) {
  REQUIRE_GPU();
  expect_images_like_cpu(mandelbrot_one_thread_per_pixel, kSeedImages);
}

TEST(Mandelbrot, OneThreadPerPixelOddAndTinyImages) {
  REQUIRE_GPU();
  expect_images_like_cpu(mandelbrot_one_thread_per_pixel, kOddImages);
}

TEST(Mandelbrot, OneThreadPerPixelOtherRegionsAndIterations) {
  REQUIRE_GPU();
  expect_images_like_cpu(mandelbrot_one_thread_per_pixel, kOtherViews);
}

// An empty input is valid and launches nothing (a grid with 0 blocks would be an invalid launch).
TEST(Mandelbrot, EmptyInputsLaunchNothing) {
  REQUIRE_GPU();
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
// image's pixels is checked (a fraction of the CPU's time for the whole image).
void expect_faster_than_one_cpu_thread(ImageFunction render) {
  constexpr int kWidth = 768, kHeight = 512, kIterations = 1000;
  constexpr std::size_t kSampledPixels = 16384;
  std::vector<int> cpu(static_cast<std::size_t>(kWidth) * kHeight);
  Output<int> counts(cpu.size());
  // One run first: code that cannot run (an unwritten step) stops here, before the CPU's half second.
  render(counts.data(), kWidth, kHeight, kWholeSet, kIterations);
  CUDA_CHECK(cudaDeviceSynchronize());
  const double cpu_ms = grader::cpu_median_ms([&] { cpu_mandelbrot(cpu.data(), kWidth, kHeight, kWholeSet, kIterations); });
  Region view = kWholeSet;
  const grader::Workload work{[&] {
                                view = nudged(kWholeSet, kWidth, kHeight);
                                counts.poison();
                              },
                              [&] { render(counts.data(), kWidth, kHeight, view, kIterations); },
                              [&] {
                                const testing::AssertionResult guard = counts.guard_intact();
                                if (!guard) return guard;
                                const grader::Sample sample(counts.size(), kSampledPixels);
                                return counts_match(pixels_reference(kWidth, kHeight, view, kIterations, sample.indices()),
                                                    sample.of(counts.data()));
                              }};
  grader::TimingOptions options;
  options.flush_l2 = false;
  grader::expect_speed([&] { return grader::speedup(cpu_ms, grader::gpu_median_ms(work, options), "one CPU thread"); });
}

TEST(MandelbrotSpeed, GridStride) {
  REQUIRE_GPU();
  expect_faster_than_one_cpu_thread(mandelbrot);
}

TEST(MandelbrotSpeed, OneThreadPerPixel) {
  REQUIRE_GPU();
  expect_faster_than_one_cpu_thread(mandelbrot_one_thread_per_pixel);
}

}  // namespace
