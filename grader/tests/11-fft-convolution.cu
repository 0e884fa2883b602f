// Grader tests for lesson 11 (FFT convolution: the 'same' convolution of an image with a small
// filter, directly and through cuFFT, checked against a double CPU reference; impulses that show
// where the filter lands; speed against the copy bandwidth and against cuFFT's own transforms).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "convolution.h"
#include "convolution_cpu.h"
#include "fft_plan.h"
#include "grader/cpu_parallel.h"
#include "grader/grader.h"
#include "grader/machine_code.h"
#include "grader/results.h"
#include "stepwise/todo.h"

namespace {

using grader::Output;

// ---- Problems and what "right" means ----------------------------------------------------------

struct Problem {
  int height = 0, width = 0, filter_height = 0, filter_width = 0;
  std::vector<float> image, filter;
  std::size_t pixels() const { return static_cast<std::size_t>(height) * width; }
  std::string describe() const {
    return std::to_string(height) + " x " + std::to_string(width) + " image, " + std::to_string(filter_height) +
           " x " + std::to_string(filter_width) + " filter";
  }
};

// Pixels in [0, 1); taps of magnitude 0.5 to 1 with random signs: no symmetry, so a filter that
// is not flipped shows, and every tap matters: a tap left out moves each output it reaches by at
// least 0.5 times a pixel, far above the direct bound below (at a 63 x 63 filter's full window, its
// largest, about 0.35) at most of them.
Problem random_problem(int height, int width, int filter_height, int filter_width) {
  const std::size_t taps = static_cast<std::size_t>(filter_height) * filter_width;
  std::vector<float> filter = grader::random_floats(taps, 0.5f, 1.0f);
  const std::vector<int> signs = grader::random_ints(taps, 0, 1);
  for (std::size_t i = 0; i < taps; ++i)
    if (signs[i] == 1) filter[i] = -filter[i];
  return {height, width, filter_height, filter_width,
          grader::random_floats(static_cast<std::size_t>(height) * width, 0.0f, 1.0f), std::move(filter)};
}

// The largest value an output pixel could take: sum |tap| * max |pixel|.
double output_bound(const std::vector<float>& image, const std::vector<float>& filter) {
  double taps = 0, pixels = 0;
  for (float t : filter) taps += std::fabs(t);
  for (float p : image) pixels = std::max(pixels, static_cast<double>(std::fabs(p)));
  return taps * pixels;
}

// The two methods, and what each output pixel of theirs may differ by from the double reference.
enum class Way { direct, fft };

// gamma(k) = k u / (1 - k u): the most k roundings in a row can add, relative (Higham, Accuracy and
// Stability of Numerical Algorithms, 3.1). u: float's 2^-24, plus the double reference's 2^-53.
double gamma(double k) {
  const double ku = k * (0x1p-24 + 0x1p-53);
  return ku >= 1 ? INFINITY : ku / (1 - ku);
}

// Direct: output (y, x) sums the products of the k taps whose pixel is inside the image. In any
// order, each product passes through at most k roundings (its own and k - 1 additions; an FMA
// saves one), so |error| <= gamma(k) * sum |tap * pixel| over those k taps (Higham 3.1). Pixels
// outside the image add nothing (0 products and sums with 0 are exact). (+ 1e-30: a product below
// float's smallest normal, 2^-126, may lose more than u of itself, but by less than 2^-149.)
double direct_bound_at(const std::vector<float>& image, int height, int width, const std::vector<float>& filter,
                       int filter_height, int filter_width, int y, int x) {
  double sum = 0;
  int k = 0;
  for_each_product_at(image, height, width, filter, filter_height, filter_width, y, x, [&](float tap, float pixel) {
    sum += std::fabs(static_cast<double>(tap) * pixel);
    ++k;
  });
  return gamma(k) * sum + 1e-30;
}

int friendly_reference(int n);

// FFT: forward transforms of the padded image and filter, a pointwise product, an inverse, over
// N = P x Q points. Each transform's log2 N butterfly levels leave it within log2(N) eta of its
// values' norm, eta = mu + gamma(4)(sqrt 2 + mu) = 6.7u for twiddles good to u (Higham 24.2); the
// product adds sqrt(5) u: with the output's scale bounded by the range (sum |tap| * max |pixel|),
// the three transforms give 20 u log2(N) of the range. Rounding errors spread over every output
// (each output mixes every value of the spectrum), so this normwise figure also bounds the error
// of single outputs: a float FFT convolution simulated on the CPU (mixed radix 2, 3, 5, 7, twiddles
// rounded from double) stayed below 0.6 u log2(N) of the range at every size of these checks,
// 4096 x 4096 included. The old bound, 1e-4 of the range, was 4 times this at 1000 x 1531 and 40
// times it at the smallest sizes.
// (+ 1e-30 as for the direct bound.)
double fft_tolerance(const std::vector<float>& image, int height, int width, const std::vector<float>& filter,
                     int filter_height, int filter_width) {
  const double n = static_cast<double>(friendly_reference(std::max(2, height + filter_height - 1))) *
                   friendly_reference(std::max(2, width + filter_width - 1));
  return 20 * 0x1p-24 * std::log2(n) * output_bound(image, filter) + 1e-30;
}

// The bound of every output pixel of `p` computed the `way` given.
std::vector<double> bounds(Way way, const Problem& p) {
  if (way == Way::fft)
    return std::vector<double>(
        p.pixels(), fft_tolerance(p.image, p.height, p.width, p.filter, p.filter_height, p.filter_width));
  std::vector<double> b(p.pixels());
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x)
      b[static_cast<std::size_t>(y) * p.width + x] =
          direct_bound_at(p.image, p.height, p.width, p.filter, p.filter_height, p.filter_width, y, x);
  return b;
}

std::string required(Way way, double fft_bound) {
  if (way == Way::direct) return "|error| <= gamma(k) * the sum of |tap * pixel| over the k taps inside the image";
  std::ostringstream text;
  text << "|error| <= " << std::setprecision(9) << fft_bound << ", 20 u log2(N) of the largest value an output could take";
  return text.str();
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// Compares an output with the reference, each pixel within its bound. The message is
// grader::matches' ("N of M values differ from the CPU reference (...). First mismatches: ...").
testing::AssertionResult pixels_match(const std::vector<double>& expected, const Output<float>& output,
                                      const std::vector<double>& bound, Way way) {
  const testing::AssertionResult guard = output.guard_intact();
  if (!guard) return guard;
  const std::vector<float> got = output.to_host();
  const std::string requirement = required(way, bound.empty() ? 0 : bound[0]);
  grader::MismatchReport report;
  double worst = 0, worst_error = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool unwritten = grader::is_poison(got[i]);
    const double error = std::fabs(static_cast<double>(got[i]) - expected[i]);
    if (!unwritten && error <= bound[i]) {
      if (error / bound[i] > worst) {
        worst = error / bound[i];
        worst_error = error;
      }
      continue;
    }
    if (report.add(unwritten)) report.show("[" + std::to_string(i) + "]", number(expected[i]), number(got[i]), unwritten);
  }
  if (report.count() == 0) {
    grader::note_figure(worst, "max |error| " + number(worst_error) + ", " + number(worst) + " of its bound", requirement);
    return testing::AssertionSuccess();
  }
  grader::note_figure(INFINITY, std::to_string(report.count()) + " of " + std::to_string(got.size()) + " wrong",
                      requirement);
  return report.failure(got.size(), requirement);
}

// ---- What ran (grader/trace.h) ------------------------------------------------------------------
//
// Step 1 is kernels of the student's alone (no cuFFT), on the stream given, returning at once:
// the one copy it makes is the filter's taps from host memory into constant memory (a small
// pageable copy, which the driver stages and returns from at once). Step 2 is cuFFT's two
// transforms with kernels of the student's around them (pad before, the pointwise multiply
// between, crop after), on the stream given, returning at once, on device data only: its plans
// and the filter's spectrum were made beforehand (a plan made in the call uploads its tables).
// The checks pass a non-blocking stream of their own.

using grader::CheckStream;  // a non-blocking stream the checks pass (grader/check_stream.h)

grader::Rules direct_rules(std::size_t taps, cudaStream_t stream) {
  grader::Rules rules("step 1 (convolve_direct)");
  rules.own_kernels().on_stream(stream).also([taps](const grader::Trace& t) -> testing::AssertionResult {
    if (!t.syncs.empty())
      return testing::AssertionFailure() << "called " << t.syncs.front().call << ": convolve_direct returns without "
                                         << "waiting for the GPU (the caller synchronises)";
    for (const grader::TracedCopy& c : t.copies)
      if (c.host_side && (c.direction != "host to device" || c.bytes > taps * sizeof(float) || !c.async))
        return testing::AssertionFailure() << "copied " << c.bytes << " B " << c.direction << (c.async ? "" : " (blocking)")
                                           << ": the only copy is the filter's " << taps * sizeof(float)
                                           << " B to constant memory (cudaMemcpyToSymbolAsync on the stream); the "
                                           << "image and the output are on the device already";
    return testing::AssertionSuccess();
  });
  return rules;
}

// cuFFT runs some kernels whose names do not say cuFFT (on the H100, `kernel_wrapper<unsigned
// int, &...>` beside `vector_fft` for padded sides such as 525 and 4116), which the tracer
// counts as compiled at run time. Nothing in this lesson compiles at run time, so those are
// cuFFT's; every other kernel must be the student's or named as cuFFT's. (Rules::own_kernels()
// would reject them: the FFT steps use this rule instead.)
bool cufft_kernel(const grader::TracedKernel& k) {
  if (k.origin == grader::Origin::library) return k.library == "cuFFT";
  return k.origin == grader::Origin::runtime_compiled &&
         (k.name.rfind("void kernel_wrapper<", 0) == 0 || k.name.rfind("kernel_wrapper<", 0) == 0);
}

testing::AssertionResult own_and_cufft_kernels_only(const grader::Trace& t) {
  bool own = false;
  for (const grader::TracedKernel& k : t.kernels) {
    own = own || k.origin == grader::Origin::student;
    if (k.origin == grader::Origin::student || cufft_kernel(k)) continue;
    return testing::AssertionFailure() << "ran `" << k.name.substr(0, 80) << "`"
                                       << (k.origin == grader::Origin::library ? " (" + k.library + ")" : std::string())
                                       << ", which is neither yours nor cuFFT's: the transforms are cuFFT's, "
                                       << "the rest is to be written by hand";
  }
  if (own) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "ran no kernel of yours: pad, multiply and crop are kernels of yours";
}

// Pad, multiply and crop are kernels of the student's: one before the first cuFFT kernel, one
// between two cuFFT kernels (the two transforms), one after the last.
testing::AssertionResult own_kernels_around_the_transforms(const grader::Trace& t) {
  std::uint64_t first_fft = UINT64_MAX, last_fft = 0;
  for (const grader::TracedKernel& k : t.kernels)
    if (cufft_kernel(k)) {
      first_fft = std::min(first_fft, k.start);
      last_fft = std::max(last_fft, k.end);
    }
  bool pad = false, multiply = false, crop = false;
  for (const grader::TracedKernel& k : t.kernels) {
    if (k.origin != grader::Origin::student) continue;
    pad = pad || k.end <= first_fft;
    crop = crop || k.start >= last_fft;
    if (k.start > first_fft && k.end < last_fft) {
      bool fft_before = false, fft_after = false;
      for (const grader::TracedKernel& f : t.kernels)
        if (cufft_kernel(f)) {
          fft_before = fft_before || f.end <= k.start;
          fft_after = fft_after || f.start >= k.end;
        }
      multiply = multiply || (fft_before && fft_after);
    }
  }
  if (pad && multiply && crop) return testing::AssertionSuccess();
  auto failure = testing::AssertionFailure() << "ran no kernel of yours ";
  if (!pad) return failure << "before cuFFT's forward transform: pad the image with pad_kernel";
  if (!multiply)
    return failure << "between cuFFT's forward and inverse transforms: multiply the spectra with multiply_kernel";
  return failure << "after cuFFT's inverse transform: crop the 'same' window with crop_kernel";
}

grader::Rules fft_rules(cudaStream_t stream) {
  grader::Rules rules("step 2 (convolve_fft)");
  rules.also(own_and_cufft_kernels_only)
      .library("cuFFT")
      .on_stream(stream)
      .returns_at_once()
      .no_host_copies()
      .also(own_kernels_around_the_transforms);
  return rules;
}

// How a check calls one of the two methods on device arrays.
using Method = std::function<void(const Problem&, const float* image, float* out)>;

void direct_method(const Problem& p, const float* image, float* out) {
  convolve_direct(image, p.height, p.width, p.filter.data(), p.filter_height, p.filter_width, out);
}
// Step 1 on a stream of the check's own, traced.
void traced_direct_method(const Problem& p, const float* image, float* out) {
  const CheckStream stream;
  grader::expect_ran([&] {
    convolve_direct(image, p.height, p.width, p.filter.data(), p.filter_height, p.filter_width, out, stream.get());
  }, direct_rules(p.filter.size(), stream.get()));
  stream.finish();
}
void fft_method(const Problem& p, const float* image, float* out) {
  FftConvolution fft = make_fft_convolution(p.height, p.width, p.filter.data(), p.filter_height, p.filter_width);
  convolve_fft(fft, image, out);
  CUDA_CHECK(cudaDeviceSynchronize());  // `fft`'s buffers are freed at the end of this scope
}

// convolve_cpu's output for `p`, its rows on the idle cores (a direct convolution in double: seconds
// on one thread for the large images and filters).
std::vector<double> expected_output(const Problem& p) {
  std::vector<double> out(static_cast<std::size_t>(p.height) * p.width);
  grader::in_parallel(static_cast<std::size_t>(p.height), [&](std::size_t begin, std::size_t end) {
    convolve_cpu_rows(p.image, p.height, p.width, p.filter, p.filter_height, p.filter_width, static_cast<int>(begin),
                      static_cast<int>(end), out);
  }, 8);
  return out;
}

// The method's output for `p`, in a poisoned output with a guard past its end.
testing::AssertionResult run_and_compare(const Method& method, const Problem& p, Way way) {
  const auto image = grader::device(p.image);
  Output<float> out(p.pixels());
  method(p, image.data(), out.data());
  return pixels_match(expected_output(p), out, bounds(way, p), way);
}

// Image sizes that catch indexing bugs: 1 x 1, single rows and columns, either side of a warp,
// a prime, non-square, and the seed's 512 x 512 and a large one (not under the sanitizer).
std::vector<std::pair<int, int>> image_sizes() {
  std::vector<std::pair<int, int>> sizes = {{1, 1},   {1, 37},  {29, 1},  {2, 2},   {31, 33},
                                            {32, 32}, {33, 31}, {64, 48}, {97, 131}};
  if (!grader::under_sanitizer()) {
    sizes.push_back({512, 512});
    sizes.push_back({1000, 1531});
  }
  return sizes;
}
// Filter sizes: 1 x 1, odd, even, non-square, and the largest.
const std::vector<std::pair<int, int>> kFilterSizes = {{1, 1}, {3, 3}, {5, 5}, {4, 4}, {2, 6}, {7, 3}, {15, 15}, {63, 63}};

// Under compute-sanitizer every cuFFT plan loads and instruments cuFFT's kernels for its size,
// which takes long: the FFT checks use fewer sizes there.
const std::vector<std::pair<int, int>> kFewImageSizes = {{1, 1}, {33, 31}, {97, 131}};
const std::vector<std::pair<int, int>> kFewFilterSizes = {{1, 1}, {5, 5}, {2, 6}};

// With `traced`, the largest image with the 15 x 15 filter runs through it instead of `method`.
void matches_cpu_reference(const Method& method, Way way, bool fewer_under_sanitizer, const Method* traced = nullptr) {
  const bool few = fewer_under_sanitizer && grader::under_sanitizer();
  const auto images = few ? kFewImageSizes : image_sizes();
  for (const auto& [height, width] : images)
    for (const auto& [filter_height, filter_width] : few ? kFewFilterSizes : kFilterSizes) {
      // 63 x 63 only on small images (the CPU reference's time), and not under the sanitizer.
      if (filter_height == 63 && (height * width > 20000 || grader::under_sanitizer())) continue;
      const Problem p = random_problem(height, width, filter_height, filter_width);
      SCOPED_TRACE(p.describe());
      const bool trace_this = traced != nullptr && std::make_pair(height, width) == images.back() && filter_height == 15;
      EXPECT_TRUE(run_and_compare(trace_this ? *traced : method, p, way));
    }
}

// ---- Impulses: where the filter lands ---------------------------------------------------------
//
// A single 1 in a black image gives back the filter, flipped (a convolution), centred on the
// impulse: output (py - ay + i, px - ax + j) holds tap (i, j). What a wrong response looks like
// says what went wrong, and the failure says it in words.

// The output for an image that is 0 but for a 1 at (py, px).
std::vector<double> impulse_response(const Problem& p, const std::vector<float>& filter) {
  return convolve_cpu(p.image, p.height, p.width, filter, p.filter_height, p.filter_width);
}

// Largest |got - expected| when `expected` is moved by (dy, dx); pixels it does not cover count
// as 0.
double error_when_shifted(const std::vector<float>& got, const std::vector<double>& expected, int height, int width,
                          int dy, int dx) {
  double worst = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int sy = y - dy, sx = x - dx;
      const double e = (sy >= 0 && sy < height && sx >= 0 && sx < width) ? expected[sy * width + sx] : 0.0;
      worst = std::max(worst, std::fabs(got[y * width + x] - e));
    }
  return worst;
}

std::string describe_impulse_error(const Problem& p, const std::vector<float>& got, int py, int px, double tolerance) {
  std::ostringstream why;
  // The size first: without the 1/N everything is N times too large, the rounding noise far from
  // the impulse too, which the wrap test below would take for a wrap. An impulse of 1 gives back
  // the taps, so no value exceeds the largest tap (near an edge some taps are cut off: the largest
  // tap, not the largest expected value, is the yardstick).
  double largest_tap = 0, largest_got = 0;
  for (float tap : p.filter) largest_tap = std::max(largest_tap, static_cast<double>(std::fabs(tap)));
  for (float value : got) largest_got = std::max(largest_got, static_cast<double>(std::fabs(value)));
  if (largest_got > 1.5 * largest_tap + tolerance)
    return " The response is about " + std::to_string(largest_got / largest_tap) +
           " times the filter's taps: scale by 1 / N after the inverse transform (cuFFT leaves it out; N is the "
           "padded height times the padded width).";
  const int reach = std::max(p.filter_height, p.filter_width);
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x)
      if (std::max(std::abs(y - py), std::abs(x - px)) > reach && !(std::fabs(got[y * p.width + x]) <= tolerance)) {
        why << " Values appear far from the impulse, e.g. " << got[y * p.width + x] << " at (" << y << ", " << x
            << "): the convolution wrapped around the image's edges, as a circular convolution does. Zero-pad the "
               "image and the filter to at least (H + kh - 1) x (W + kw - 1) before the transforms.";
        return why.str();
      }
  std::vector<float> rotated(p.filter.rbegin(), p.filter.rend());
  const std::vector<double> expected = impulse_response(p, p.filter), unflipped = impulse_response(p, rotated);
  for (int dy = -3; dy <= 3; ++dy)
    for (int dx = -3; dx <= 3; ++dx) {
      if (error_when_shifted(got, unflipped, p.height, p.width, dy, dx) <= tolerance)
        return " The response is the filter not flipped: a correlation, not a convolution (the image index is y + "
               "ay - i, with a minus).";
      if ((dy != 0 || dx != 0) && error_when_shifted(got, expected, p.height, p.width, dy, dx) <= tolerance) {
        why << " The response is the right filter, shifted by " << dy << " rows and " << dx
            << " columns from where 'same' mode puts it: the anchor is ((kh - 1) / 2, (kw - 1) / 2), the 'same' "
               "window starts there in the full convolution.";
        return why.str();
      }
    }
  return "";
}

void impulse_gives_the_filter_centred(const Method& method, Way way) {
  const int height = 40, width = 56;
  for (const auto& [filter_height, filter_width] : std::vector<std::pair<int, int>>{{5, 5}, {4, 6}, {3, 7}}) {
    Problem p = random_problem(height, width, filter_height, filter_width);
    std::vector<std::pair<int, int>> impulses = {{height / 2, width / 2}, {1, 1}, {height - 2, width - 2}};
    // Under compute-sanitizer one impulse a filter: where the 1 lies changes values, not one access
    // (each FFT call also makes plans the tool instruments again).
    if (grader::under_sanitizer()) impulses.resize(1);
    for (const auto& [py, px] : impulses) {
      std::fill(p.image.begin(), p.image.end(), 0.0f);
      p.image[py * width + px] = 1.0f;
      const std::vector<double> bound = bounds(way, p);
      const double tol = *std::max_element(bound.begin(), bound.end());  // what the descriptions below allow
      const auto image = grader::device(p.image);
      Output<float> out(p.pixels());
      method(p, image.data(), out.data());
      const testing::AssertionResult same = pixels_match(impulse_response(p, p.filter), out, bound, way);
      if (same) continue;
      ADD_FAILURE() << "An impulse at (" << py << ", " << px << ") in a " << p.describe()
                    << " should give the filter flipped and centred on it." << describe_impulse_error(p, out.to_host(), py, px, tol)
                    << "\n" << same.message();
    }
  }
}

// Bad sizes throw std::invalid_argument and write nothing. `call` runs the method on a problem
// of the given sizes into `out`.
void rejects_bad_sizes(const std::function<void(int, int, int, int, float*)>& call) {
  Output<float> out(64);
  call(8, 8, 3, 3, out.data());  // a good call works (and says TODO while the step is not written)
  out.poison();
  for (const auto& [h, w, fh, fw] : std::vector<std::tuple<int, int, int, int>>{
           {0, 8, 3, 3}, {8, 0, 3, 3}, {-1, 8, 3, 3}, {8, 8, 0, 3}, {8, 8, 3, 0}, {8, 8, 64, 3}, {8, 8, 3, 64}, {8, 8, -5, 5}})
    EXPECT_THROW(call(h, w, fh, fw, out.data()), std::invalid_argument)
        << "image " << h << " x " << w << ", filter " << fh << " x " << fw;
  const std::vector<float> values = out.to_host();
  for (std::size_t i = 0; i < values.size(); ++i)
    ASSERT_TRUE(grader::is_poison(values[i])) << "a rejected call wrote output pixel " << i;
}

// ---- Step 1: direct convolution ---------------------------------------------------------------

// The largest image with a 15 x 15 filter is traced.
TEST(Direct, MatchesCpuReference) {
  const Method traced = traced_direct_method;
  matches_cpu_reference(direct_method, Way::direct, false, &traced);
}

// The seed's picture: 512 x 512 pixels of 0 to 255 and its 5 x 5 filter (traced: a width that is
// a multiple of 4 and a small square filter, where a fast path may take over).
TEST(Direct, SeedFilterOnSeedImage) {
  Problem p{512, 512, kSeedFilterSide, kSeedFilterSide, grader::random_floats(512 * 512, 0.0f, 255.0f),
            std::vector<float>(kSeedFilter, kSeedFilter + kSeedFilterSide * kSeedFilterSide)};
  EXPECT_TRUE(run_and_compare(traced_direct_method, p, Way::direct));
}

TEST(Direct, ImpulseGivesTheFilterCentred) {
  impulse_gives_the_filter_centred(direct_method, Way::direct);
}

// 3 x 3 and 5 x 5 filters on images whose rows are whole float4s (width a multiple of 4): the shape
// on which the tuned version's small-filter kernel takes over (a thread: 4 columns x 4 rows, loaded
// as float4s; a block: 32 x 8 threads, 32 rows). The widths of image_sizes() that are multiples of
// 4 (32, 48, 512) come with heights of whole blocks of rows only; here heights that are no
// multiple of 4 (a partial tile of rows), a single row, and widths past one warp of float4s (132:
// the second warp partial). Random filters and pixels, no symmetry, against the CPU reference.
TEST(Direct, SmallFiltersOnRowsOfFloat4s) {
  for (const auto& [height, width] : std::vector<std::pair<int, int>>{{1, 4}, {3, 36}, {37, 64}, {131, 132}, {1001, 256}})
    for (int side : {3, 5}) {
      const Problem p = random_problem(height, width, side, side);
      SCOPED_TRACE(p.describe());
      EXPECT_TRUE(run_and_compare(direct_method, p, Way::direct));
    }
}

TEST(Direct, RejectsBadSizes) {
  const std::vector<float> filter(64 * 64, 0.5f);
  auto image = grader::device(std::vector<float>(64, 1.0f));
  rejects_bad_sizes([&](int h, int w, int fh, int fw, float* out) {
    convolve_direct(image.data(), h, w, filter.data(), fh, fw, out);
    CUDA_CHECK(cudaDeviceSynchronize());
  });
}

// ---- Step 2: FFT convolution ------------------------------------------------------------------

int friendly_reference(int n) {
  for (int m = n;; ++m) {
    int rest = m;
    for (int p : {2, 3, 5, 7})
      while (rest % p == 0) rest /= p;
    if (rest == 1) return m;
  }
}

TEST(CpuFftSize, SmallestFriendlySize) {
  for (int n = 1; n <= 5000; ++n) ASSERT_EQ(fft_friendly_size(n), friendly_reference(n)) << "n = " << n;
  for (int n : {65537, 1000003, 1 << 30}) EXPECT_EQ(fft_friendly_size(n), friendly_reference(n)) << "n = " << n;
  for (int n : {0, -1, (1 << 30) + 1}) EXPECT_THROW(fft_friendly_size(n), std::invalid_argument) << "n = " << n;
}

TEST(Fft, MatchesCpuReference) {
  matches_cpu_reference(fft_method, Way::fft, true);
}

TEST(Fft, ImpulseGivesTheFilterCentred) {
  impulse_gives_the_filter_centred(fft_method, Way::fft);
}

// Padded far enough that the circular convolution holds the linear one, to sizes cuFFT likes.
TEST(Fft, PadsToAFriendlySizeLargeEnough) {
  for (const auto& [h, w, fh, fw] : std::vector<std::tuple<int, int, int, int>>{{512, 512, 5, 5}, {97, 131, 4, 6}, {1, 1, 63, 1}}) {
    const std::vector<float> filter(fh * fw, 1.0f);
    const FftConvolution fft = make_fft_convolution(h, w, filter.data(), fh, fw);
    SCOPED_TRACE(std::to_string(h) + " x " + std::to_string(w) + " image, " + std::to_string(fh) + " x " +
                 std::to_string(fw) + " filter: padded to " + std::to_string(fft.padded_height) + " x " +
                 std::to_string(fft.padded_width));
    // A linear convolution of h and fh samples has h + fh - 1 of them; a cyclic one of fewer wraps.
    EXPECT_GE(fft.padded_height, h + fh - 1) << "too little padding: the convolution wraps around the image's edges";
    EXPECT_GE(fft.padded_width, w + fw - 1) << "too little padding: the convolution wraps around the image's edges";
    EXPECT_EQ(fft.padded_height, friendly_reference(std::max(2, h + fh - 1))) << "round up with fft_friendly_size";
    EXPECT_EQ(fft.padded_width, friendly_reference(std::max(2, w + fw - 1))) << "round up with fft_friendly_size";
  }
}

// One FftConvolution serves many images: nothing of the last image may leak into the next (the
// inverse transform overwrites the padded buffer, padding included). The third image goes on a
// stream of the check's own and is traced, with a small square filter and with a non-square one.
TEST(Fft, ManyImagesOneConvolution) {
  for (const auto& [filter_height, filter_width] : std::vector<std::pair<int, int>>{{5, 5}, {4, 6}}) {
    Problem p = random_problem(61, 77, filter_height, filter_width);
    FftConvolution fft = make_fft_convolution(p.height, p.width, p.filter.data(), p.filter_height, p.filter_width);
    for (int image = 0; image < 3; ++image) {
      SCOPED_TRACE("image " + std::to_string(image + 1) + " of 3 through the same FftConvolution, " + p.describe());
      p.image = grader::random_floats(p.pixels(), 0.0f, 1.0f);
      const auto d_image = grader::device(p.image);
      Output<float> out(p.pixels());
      if (image == 2) {
        const CheckStream stream;
        grader::expect_ran([&] { convolve_fft(fft, d_image.data(), out.data(), stream.get()); }, fft_rules(stream.get()));
        stream.finish();
      } else {
        convolve_fft(fft, d_image.data(), out.data());
      }
      EXPECT_TRUE(pixels_match(expected_output(p), out, bounds(Way::fft, p), Way::fft));
    }
    CUDA_CHECK(cudaDeviceSynchronize());  // `fft`'s buffers are freed at the end of this scope
  }
}

TEST(Fft, RejectsBadSizes) {
  const std::vector<float> filter(64 * 64, 0.5f);
  auto image = grader::device(std::vector<float>(64, 1.0f));
  rejects_bad_sizes([&](int h, int w, int fh, int fw, float* out) {
    FftConvolution fft = make_fft_convolution(h, w, filter.data(), fh, fw);
    convolve_fft(fft, image.data(), out);
    CUDA_CHECK(cudaDeviceSynchronize());
  });
}

// The kernels of the float steps compute in float (grader/machine_code.h): step 1's direct
// convolution and step 2's spectrum multiply (pad and crop only move values). No size of
// convolution.h is empty (every side is 1 or more, 0 is rejected), so the steps run on the least
// there is: step 2's host part on n = 1, then step 1 on one pixel and one tap (device buffers
// where there is a GPU; without one, an exercise's step 1 not written yet still throws before it
// touches the GPU). Step 2 goes first: it needs no GPU, so its TODO is seen on any machine.
TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
  grader::expect_float_arithmetic("convolve_\\w*kernel|multiply_\\w*kernel", [] {
    fft_friendly_size(1);
    const float tap = 1.0f;
    stepwise::DeviceBuffer<float> pixel, result;
    if (grader::gpu().present) {
      pixel = grader::device(std::vector<float>{0.0f});
      result = stepwise::DeviceBuffer<float>(1);
    }
    convolve_direct(pixel.data(), 1, 1, &tap, 1, 1, result.data());
    CUDA_CHECK(cudaDeviceSynchronize());
  });
}

// ---- Step 3: the crossover --------------------------------------------------------------------

TEST(CpuCrossover, FindsWhereFftStartsToWin) {
  auto points = [](const std::vector<float>& fft_ms) {
    std::vector<CrossoverPoint> p;
    const int sides[] = {3, 5, 7, 9, 11};
    for (std::size_t i = 0; i < fft_ms.size(); ++i) p.push_back({sides[i], 1.0f, fft_ms[i]});
    return p;
  };
  EXPECT_EQ(fft_wins_from(points({2, 2, 0.5f, 0.5f, 0.5f})), 7);
  EXPECT_EQ(fft_wins_from(points({0.5f, 0.5f, 0.5f, 0.5f, 0.5f})), 3);
  EXPECT_EQ(fft_wins_from(points({2, 2, 2, 2, 2})), 0) << "the FFT never wins: 0";
  EXPECT_EQ(fft_wins_from(points({0.5f, 2, 0.5f, 2, 0.5f})), 11) << "a win at a small size followed by losses is noise";
  EXPECT_EQ(fft_wins_from(points({0.5f, 0.5f, 0.5f, 0.5f, 2})), 0) << "the FFT loses at the largest size";
  EXPECT_EQ(fft_wins_from({}), 0);
}

// What the GPU did in a traced call: the durations of its kernels, copies and memsets added up
// (busy_ms), and how many there were.
struct GpuWork {
  double busy_ms = 0;
  std::size_t operations = 0;
};

GpuWork gpu_work(const grader::Trace& t) {
  std::uint64_t ns = 0;
  for (const auto& k : t.kernels) ns += k.end - k.start;
  for (const auto& c : t.copies) ns += c.end - c.start;
  for (const auto& m : t.memsets) ns += m.end - m.start;
  return {ns / 1e6, t.kernels.size() + t.copies.size() + t.memsets.size()};
}

// The median of three traced calls by busy time (busy_ms 0 where the trace is not available).
GpuWork median_gpu_work(const std::function<void()>& call) {
  std::vector<GpuWork> runs;
  for (int run = 0; run < 3; ++run) {
    const grader::Trace t = grader::trace(call);
    if (!t.available) return {};
    runs.push_back(gpu_work(t));
  }
  std::sort(runs.begin(), runs.end(), [](const GpuWork& a, const GpuWork& b) { return a.busy_ms < b.busy_ms; });
  return runs[1];
}

// A reported time against the GPU work of the same call, traced separately. Two calls of the
// same work differ by a few percent (clocks, L2): 10% and 0.01 ms below. Events around a call
// also time the gaps between its launches, which the busy time leaves out: a call of many
// short kernels (cuFFT's) is bound by the host's launches, up to about 10 us each on an H100,
// so above it 10%, 0.05 ms and 0.01 ms per kernel or copy. A plan or buffer made between the
// marks adds milliseconds.
testing::AssertionResult reported_time_fits(double reported_ms, const GpuWork& traced, const std::string& what) {
  const double low = 0.9 * traced.busy_ms - 0.01,
               high = 1.1 * traced.busy_ms + 0.05 + 0.01 * static_cast<double>(traced.operations);
  if (reported_ms >= low && reported_ms <= high) return testing::AssertionSuccess();
  return testing::AssertionFailure() << what << " says " << reported_ms << " ms; the trace of the same call shows the "
                                     << "GPU busy " << traced.busy_ms << " ms in " << traced.operations
                                     << " kernels and copies (allowed: " << std::max(0.0, low) << " to " << high
                                     << " ms): record the events right before and right after what they time";
}

// Step 3's times against the trace: each reported time against the GPU time of the same work,
// the student's own convolve_direct and convolve_fft on an image of the same size with a filter
// of the same side, traced. A time that is shorter timed less than the work, one much longer
// timed more (a plan or a buffer made inside the marks).
void expect_times_match_the_trace(int side, const std::vector<CrossoverPoint>& points) {
  if (grader::under_sanitizer()) return;  // nothing is traced there
  const std::vector<float> pixels = grader::random_floats(static_cast<std::size_t>(side) * side, 0.0f, 1.0f);
  const auto image = grader::device(pixels);
  stepwise::DeviceBuffer<float> out(pixels.size());
  for (const CrossoverPoint& point : points) {
    const int s = point.filter_side;
    const std::vector<float> filter = grader::random_floats(static_cast<std::size_t>(s) * s, -1.0f, 1.0f);
    FftConvolution fft = make_fft_convolution(side, side, filter.data(), s, s);
    const GpuWork direct =
        median_gpu_work([&] { convolve_direct(image.data(), side, side, filter.data(), s, s, out.data()); });
    const GpuWork through_fft = median_gpu_work([&] { convolve_fft(fft, image.data(), out.data()); });
    if (direct.busy_ms == 0 || through_fft.busy_ms == 0) return;  // not traced
    const std::string at = " at " + std::to_string(s) + " x " + std::to_string(s);
    EXPECT_TRUE(reported_time_fits(point.direct_ms, direct, "your direct_ms" + at));
    EXPECT_TRUE(reported_time_fits(point.fft_ms, through_fft,
                                   "your fft_ms" + at + " (the FftConvolution is made before the marks)"));
    CUDA_CHECK(cudaDeviceSynchronize());  // `fft`'s buffers are freed at the end of this scope
  }
}

// Step 3 runs both methods, the student's kernels and cuFFT's, and returns with all of it done.
grader::Rules crossover_rules() {
  grader::Rules rules("step 3 (measure_crossover)");
  rules.also(own_and_cufft_kernels_only).library("cuFFT").done_when_returned();
  return rules;
}

TEST(Crossover, MeasuresEverySide) {
  grader::hold_the_gpu_alone();  // it compares times
  // 1024: at 512 x 512 the reference's 31 x 31 pass once took under twice its 1-tap pass (in 1 of
  // 8 runs of the solutions' checks on the H100): both take microseconds there, where noise counts.
  // Four times the pixels give the 961 taps four times the work.
  const int side = grader::under_sanitizer() ? 48 : 1024;
  const std::vector<int> filter_sides = {1, 4, 31};
  std::vector<CrossoverPoint> points;
  grader::expect_ran([&] { points = measure_crossover(side, side, filter_sides); }, crossover_rules());
  ASSERT_EQ(points.size(), filter_sides.size()) << "one point per filter side";
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].filter_side, filter_sides[i]) << "the points in the order of the sides given";
    EXPECT_TRUE(points[i].direct_ms > 0 && std::isfinite(points[i].direct_ms)) << "direct_ms " << points[i].direct_ms;
    EXPECT_TRUE(points[i].fft_ms > 0 && std::isfinite(points[i].fft_ms)) << "fft_ms " << points[i].fft_ms;
  }
  if (!grader::under_sanitizer())
    // 2: the 31 x 31 pass does 961 x the multiply-adds of 1 tap (1.0e9 at 1024 x 1024, tens of us
    // at any GPU's float peak) on the same bytes, while the 1-tap pass is a launch and 8 MB (a few us).
    EXPECT_GT(points[2].direct_ms, 2 * points[0].direct_ms)
        << "961 taps per pixel took less than twice the time of 1 tap (direct_ms " << points[2].direct_ms
        << " against " << points[0].direct_ms << "): are both methods timed with the filter of each side, after "
        << "the work was queued?";
  for (int bad : {0, 64})
    EXPECT_THROW(measure_crossover(side, side, {3, bad}), std::invalid_argument) << "filter side " << bad;
  if (points.size() == filter_sides.size()) expect_times_match_the_trace(side, points);
}

// ---- Speed --------------------------------------------------------------------------------------

// One method on a large random image, as the grader times it: fresh pixels before every run, the
// output poisoned, and after the run a sample of the output (random pixels, new for every check,
// the first and the last among them, and the other two corners) checked against the CPU reference.
class TimedConvolution {
 public:
  TimedConvolution(int side, std::vector<float> filter, int filter_side)
      : side_(side), filter_side_(filter_side), filter_(std::move(filter)), image_(pixels()), out_(pixels()) {}

  int side() const { return side_; }
  std::size_t pixels() const { return static_cast<std::size_t>(side_) * side_; }
  const float* image() const { return image_.data(); }
  float* out() { return out_.data(); }
  const std::vector<float>& filter() const { return filter_; }

  grader::Workload workload(std::function<void()> call, Way way, grader::Rules what_ran) {
    grader::Workload work{[this] {
                            grader::refill_random(image_.data(), pixels(), 0.0f, 1.0f);
                            grader::poison(out_.data(), pixels());
                          },
                          std::move(call), [this, way] { return sample_is_right(way); }};
    work.what_ran = std::move(what_ran);
    return work;
  }

 private:
  testing::AssertionResult sample_is_right(Way way) const {
    const std::vector<float> image = image_.to_host(), out = out_.to_host();
    const double fft_tol = fft_tolerance(image, side_, side_, filter_, filter_side_, filter_side_);
    const std::size_t n = pixels();
    std::vector<std::size_t> sample = grader::Sample(n, 4093).indices();
    for (std::size_t i : {std::size_t(side_ - 1), n - side_}) sample.push_back(i);
    grader::MismatchReport report;
    for (std::size_t i : sample) {
      const int y = static_cast<int>(i / side_), x = static_cast<int>(i % side_);
      const double expected = convolve_cpu_at(image, side_, side_, filter_, filter_side_, filter_side_, y, x);
      const double tol =
          way == Way::fft ? fft_tol : direct_bound_at(image, side_, side_, filter_, filter_side_, filter_side_, y, x);
      const bool never_written = grader::is_poison(out[i]);
      if (!never_written && std::fabs(out[i] - expected) <= tol) continue;
      if (report.add(never_written))
        report.show("pixel (" + std::to_string(y) + ", " + std::to_string(x) + "):", std::to_string(expected),
                    std::to_string(out[i]), never_written);
    }
    if (report.count() == 0) return testing::AssertionSuccess();
    return report.failure(sample.size(), required(way, fft_tol));
  }

  int side_, filter_side_;
  std::vector<float> filter_;
  stepwise::DeviceBuffer<float> image_, out_;
};

std::vector<float> seed_filter() { return std::vector<float>(kSeedFilter, kSeedFilter + kSeedFilterSide * kSeedFilterSide); }

// A square image side whose pixels (input, output and `extra` more floats per pixel) fit.
int speed_side(int wanted, std::size_t floats_per_pixel) {
  const std::size_t n = grader::fit_in_device_memory(static_cast<std::size_t>(wanted) * wanted, floats_per_pixel * sizeof(float));
  return static_cast<int>(std::sqrt(static_cast<double>(n)));
}

// The seed's 5 x 5 filter on a 16384 x 16384 image (1 GiB each way): one read and one write per
// pixel if the neighbours come from the caches, so a copy of the image is the ceiling. The image
// is large so that what each call costs besides (the launch, the filter's upload: tens of
// microseconds) is a few percent of its time, not the speed being measured.
TEST(DirectSpeed, FiveByFiveNearCopyBandwidth) {
  TimedConvolution t(speed_side(16384, 2), seed_filter(), kSeedFilterSide);
  const grader::Workload work = t.workload(
      [&] { convolve_direct(t.image(), t.side(), t.side(), t.filter().data(), kSeedFilterSide, kSeedFilterSide, t.out()); },
      Way::direct, direct_rules(t.filter().size(), nullptr));
  grader::expect_speed([&] { return grader::fraction_of_copy_bandwidth(8.0 * t.pixels(), grader::gpu_median_ms(work)); });
}

// The floor of an FFT convolution: its forward and inverse transforms alone, with plans of the
// padded size the lesson asks for, made by the grader, and their buffers.
class TransformsFloor {
 public:
  TransformsFloor(int height, int width, int filter_side)
      : rows_(friendly_reference(std::max(2, height + filter_side - 1))),
        columns_(friendly_reference(std::max(2, width + filter_side - 1))),
        real_(static_cast<std::size_t>(rows_) * columns_),
        spectrum_(static_cast<std::size_t>(rows_) * (columns_ / 2 + 1)),
        forward_(rows_, columns_, CUFFT_R2C),
        inverse_(rows_, columns_, CUFFT_C2R) {
    grader::refill_random(real_.data(), real_.size(), 0.0f, 1.0f);
  }
  double ms() {
    return grader::gpu_median_ms([&] {
      CUFFT_CHECK(cufftExecR2C(forward_.get(), real_.data(), spectrum_.data()));
      CUFFT_CHECK(cufftExecC2R(inverse_.get(), spectrum_.data(), real_.data()));
    });
  }
  std::string describe() const { return std::to_string(rows_) + " x " + std::to_string(columns_); }

 private:
  int rows_, columns_;
  stepwise::DeviceBuffer<float> real_;
  stepwise::DeviceBuffer<cufftComplex> spectrum_;
  FftPlan forward_, inverse_;
};

// The student's whole FFT convolution against its two transforms timed alone: 1 would be padding,
// multiply and crop for free. Faster than the transforms alone by much is impossible.
void expect_fft_near_its_transforms(int side) {
  TimedConvolution t(side, seed_filter(), kSeedFilterSide);
  FftConvolution fft = make_fft_convolution(side, side, t.filter().data(), kSeedFilterSide, kSeedFilterSide);
  TransformsFloor floor(side, side, kSeedFilterSide);
  const grader::Workload work = t.workload([&] { convolve_fft(fft, t.image(), t.out()); }, Way::fft, fft_rules(nullptr));
  grader::expect_speed([&] {
    const double ms = grader::gpu_median_ms(work), floor_ms = floor.ms();
    std::ostringstream how;
    how.precision(3);
    how << ms << " ms against " << floor_ms << " ms for the two transforms of " << floor.describe() << " alone";
    // The ceiling 1.5: the call runs at least these two transforms (the same padded size), so it is
    // no faster than them alone; 1.5 allows a student's plan of other friendly sizes and timing noise.
    return grader::Figure{floor_ms / ms, how.str(), 1.5};
  });
}

// 4096 x 4096 pixels: the transforms take a fraction of a millisecond, the extra passes over the
// padded arrays (pad, multiply, crop) are what the figure measures.
TEST(FftSpeed, NearItsTransforms) {
  expect_fft_near_its_transforms(speed_side(4096, 12));
}

// The seed's 512 x 512: each transform takes microseconds, so a plan (or a buffer) made inside
// the call costs many times the whole convolution.
TEST(FftSpeed, SeedImageKeepsPlansOut) {
  expect_fft_near_its_transforms(512);
}

// The crossover on the GPU: at 63 x 63 taps the direct method does 3969 multiply-adds per pixel,
// the FFT the same work as at 5 x 5. Both of the student's methods, timed by the grader.
TEST(CrossoverSpeed, FftWinsAt63Taps) {
  const int side = speed_side(2048, 12);
  TimedConvolution t(side, grader::random_floats(63 * 63, -1.0f, 1.0f), 63);
  FftConvolution fft = make_fft_convolution(side, side, t.filter().data(), 63, 63);
  const grader::Workload direct = t.workload(
      [&] { convolve_direct(t.image(), side, side, t.filter().data(), 63, 63, t.out()); }, Way::direct,
      direct_rules(t.filter().size(), nullptr));
  const grader::Workload through_fft =
      t.workload([&] { convolve_fft(fft, t.image(), t.out()); }, Way::fft, fft_rules(nullptr));
  TransformsFloor floor(side, side, 63);
  grader::expect_speed([&] {
    const double direct_ms = grader::gpu_median_ms(direct);
    grader::Figure figure =
        grader::speedup(direct_ms, grader::gpu_median_ms(through_fft), "the direct method at 63 x 63 taps");
    // The ceiling: the FFT path runs at least a forward and an inverse transform of the image padded
    // to side + 62 or more, which the grader's own plans of the friendly size take (TransformsFloor,
    // timed in this run), less a factor 1.5 as in FftSpeed (another friendly size, timing noise): a
    // call faster than floor_ms / 1.5 skipped work. It replaces the 8 bytes per pixel at 1.1 x the
    // copy bandwidth (0.010 ms on an H100), which let a call pass at a tenth of its transforms' time
    // (about 0.14 ms for 2160 x 2160: the README's 0.521 ms at 4116 x 4116, scaled by the points).
    figure.ceiling = 1.5 * direct_ms / floor.ms();
    return figure;
  });
}

}  // namespace
