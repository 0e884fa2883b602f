// Lesson 11 demo: convolve a grey image with the seed's 5 x 5 filter (or a box blur) directly and
// through cuFFT, time both the seed's way, compare them, and write both results as PNG files.
//   lesson11-demo [--input FILE] [--box N] [--output PREFIX] [--crossover WIDTHxHEIGHT]
// Defaults: the course's assets/test-image.png (found from any working directory), the seed's
// filter, convolved-direct.png and convolved-fft.png. --help lists every option and its default.
// --crossover also times both methods for square filters of 3 to 63 taps on a random image.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "convolution.h"
#include "convolution_cpu.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/host_timer.h"
#include "stepwise/image.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

constexpr int kMaxDemoSide = 16384;  // larger images are refused
constexpr double kMaxCpuTaps = 4e9;  // larger convolutions skip the CPU reference

struct Options {
  std::string input = stepwise::course_file("assets/test-image.png");  // from any working directory
  int box = 0;  // 0: the seed's filter; N: an N x N box blur
  std::string output = "convolved";
  stepwise::Size2 crossover;  // 0 x 0: no crossover table
};

std::string help() {
  const Options o;
  return stepwise::help_text(
      "usage: lesson11-demo [--input FILE] [--box N] [--output PREFIX] [--crossover WIDTHxHEIGHT]",
      {{"--input FILE", "the image convolved (PNG, JPEG, ...; read as grey)", o.input},
       {"--box N", "an N x N box blur instead, 1 to " + std::to_string(kMaxFilterSide), "the seed's 5 x 5 filter"},
       {"--output PREFIX", "writes PREFIX-direct.png and PREFIX-fft.png", o.output},
       {"--crossover WIDTHxHEIGHT", "also time both ways on a random image this size, for 3 to 63 taps",
        "no crossover table"}});
}

Options parse_options(int argc, char** argv) {
  Options o;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--input")) o.input = flags.values(1)[0];
    else if (flags.is("--box")) o.box = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--box", 1, kMaxFilterSide));
    else if (flags.is("--output")) o.output = flags.values(1)[0];
    else if (flags.is("--crossover")) o.crossover = stepwise::parse_size(flags.values(1)[0], "--crossover", 8192);
    else flags.unknown();
  }
  return o;
}

// The image as grey floats of 0 to 255 (the seed's ndimage.imread(..., flatten=True)). A file
// that cannot be read, or is too large, is bad input: one line and the usage, exit code 2.
stepwise::Image read_grey(const std::string& path) {
  stepwise::Image image;
  try {
    image = stepwise::read_image(path, 1);  // stb converts colour to grey
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(e.what());
  }
  if (image.width > kMaxDemoSide || image.height > kMaxDemoSide)
    throw std::invalid_argument("'" + path + "' is " + std::to_string(image.width) + " x " +
                                std::to_string(image.height) + " pixels; the demo takes at most " +
                                std::to_string(kMaxDemoSide) + " on each side");
  return image;
}

// Signed results as grey: 0 is mid-grey, +-`range` and beyond white and black.
stepwise::Image to_picture(const std::vector<float>& values, int width, int height, double range) {
  stepwise::Image picture{width, height, 1, std::vector<std::uint8_t>(values.size())};
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double level = 127.5 + 127.5 * values[i] / range;
    picture.pixels[i] = static_cast<std::uint8_t>(std::clamp(level, 0.0, 255.0));
  }
  return picture;
}

double max_abs_difference(const std::vector<float>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

void print_crossover(stepwise::Size2 size) {
  const std::vector<int> sides = {3, 5, 7, 9, 11, 15, 21, 31, 41, 51, 63};
  const std::vector<CrossoverPoint> points = measure_crossover(size.height, size.width, sides);
  std::printf("\nCrossover on a random %d x %d image (median of 5 runs each, plans made beforehand):\n",
              size.width, size.height);
  std::printf("  filter    direct ms       FFT ms   direct / FFT\n");
  for (const CrossoverPoint& p : points)
    std::printf("  %2d x %-2d %11.3f %12.3f %14.2f\n", p.filter_side, p.filter_side, p.direct_ms, p.fft_ms,
                p.direct_ms / p.fft_ms);
  const int from = fft_wins_from(points);
  if (from > 0) std::printf("On this GPU the FFT wins from %d x %d taps on.\n", from, from);
  else std::printf("On this GPU the FFT does not win up to %d x %d taps.\n", sides.back(), sides.back());
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    const Options o = parse_options(argc, argv);
    const std::string direct_path = o.output + "-direct.png", fft_path = o.output + "-fft.png";
    stepwise::require_writable(direct_path);  // checked, not created: a failed run leaves no file
    stepwise::require_writable(fft_path);
    const stepwise::Image grey = read_grey(o.input);
    const int height = grey.height, width = grey.width;
    const std::vector<float> image(grey.pixels.begin(), grey.pixels.end());
    const int side = o.box > 0 ? o.box : kSeedFilterSide;
    const std::vector<float> filter = o.box > 0 ? std::vector<float>(side * side, 1.0f / (side * side))
                                                : std::vector<float>(kSeedFilter, kSeedFilter + side * side);
    std::printf("Image %s: %d x %d pixels; filter: %s (%d x %d taps)\n", o.input.c_str(), width, height,
                o.box > 0 ? "box blur" : "the seed's Laplacian-like", side, side);

    // The CPU reference, unless it would take more than a few seconds (about 1e9 taps a second).
    const bool with_cpu = static_cast<double>(image.size()) * side * side <= kMaxCpuTaps;
    std::vector<double> reference;
    const double cpu_ms = with_cpu ? stepwise::host_ms([&] { reference = convolve_cpu(image, height, width, filter, side, side); }) : 0;

    const std::size_t pixels = image.size();
    const auto d_image = stepwise::DeviceBuffer<float>::from_host(image);
    stepwise::DeviceBuffer<float> d_out(pixels);
    auto direct = [&] { convolve_direct(d_image.data(), height, width, filter.data(), side, side, d_out.data()); };
    direct();  // the first launch also loads the kernel
    const float direct_ms = stepwise::time_gpu_ms(direct);
    const std::vector<float> direct_result = d_out.to_host();
    if (!with_cpu) reference.assign(direct_result.begin(), direct_result.end());  // the range from the GPU
    double range = 0;
    for (double v : reference) range = std::max(range, std::fabs(v));
    if (range == 0) range = 1;  // a flat image gives 0 everywhere with the seed's filter
    // The pictures show a quarter of the range from black to white, so that faint edges show. They
    // are written at the end, when everything has run: a run that fails writes none.
    std::vector<std::pair<std::string, stepwise::Image>> pictures = {
        {direct_path, to_picture(direct_result, width, height, range / 4)}};

    if (with_cpu) {
      std::printf("  CPU, one thread, direct in double      %10.3f ms\n", cpu_ms);
      std::printf("  GPU, direct (one thread per pixel)      %10.3f ms   max |GPU - CPU| %.2e (%.1e of the range)\n",
                  direct_ms, max_abs_difference(direct_result, reference),
                  max_abs_difference(direct_result, reference) / range);
    } else {
      std::printf("  CPU: skipped (%.0e taps would take too long)\n", static_cast<double>(pixels) * side * side);
      std::printf("  GPU, direct (one thread per pixel)      %10.3f ms\n", direct_ms);
    }
    try {
      FftConvolution fft;
      const double plan_ms =
          stepwise::host_ms([&] { fft = make_fft_convolution(height, width, filter.data(), side, side); });
      convolve_fft(fft, d_image.data(), d_out.data());
      const float fft_ms = stepwise::time_gpu_ms([&] { convolve_fft(fft, d_image.data(), d_out.data()); });
      // The seed's GPU time: the image copied in, convolved, the result copied back.
      std::vector<float> fft_result;
      const double seed_style_ms = stepwise::host_ms([&] {
        stepwise::DeviceBuffer<float> d_in = stepwise::DeviceBuffer<float>::from_host(image);
        convolve_fft(fft, d_in.data(), d_out.data());
        fft_result = d_out.to_host();
      });
      double fft_vs_direct = 0;
      for (std::size_t i = 0; i < pixels; ++i)
        fft_vs_direct = std::max(fft_vs_direct, static_cast<double>(std::fabs(fft_result[i] - direct_result[i])));
      std::printf("  GPU, FFT (padded to %d x %d)          %10.3f ms   plans and filter spectrum made once: %.3f ms\n",
                  fft.padded_width, fft.padded_height, fft_ms, plan_ms);
      std::printf("  GPU, FFT with the copies (seed-style)   %10.3f ms\n", seed_style_ms);
      std::printf("  max |FFT - direct| %.2e (%.1e of the output's range %.1f)\n", fft_vs_direct,
                  fft_vs_direct / range, range);
      pictures.emplace_back(fft_path, to_picture(fft_result, width, height, range / 4));
    } catch (const stepwise::NotImplemented& e) {
      std::printf("  GPU, FFT: %s\n", e.what());
    }
    if (o.crossover.width > 0) {
      try {
        print_crossover(o.crossover);
      } catch (const stepwise::NotImplemented& e) {
        std::printf("\nCrossover: %s\n", e.what());
      }
    }
    for (const auto& [path, picture] : pictures) {
      stepwise::write_png(path, picture);
      std::printf("wrote %s\n", path.c_str());
    }
  });
}
