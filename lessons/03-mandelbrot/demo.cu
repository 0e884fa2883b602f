// Lesson 03 demo: render the Mandelbrot set on the GPU, time it against one CPU thread, and
// write the picture to a PNG file.
//   lesson03-demo [--size WIDTHxHEIGHT] [--iterations N] [--region MIN_X MAX_X MIN_Y MAX_Y]
//                 [--output FILE]
// Defaults: the seed's 1536x1024 image of [-2, 1] x [-1, 1], 1000 iterations, mandelbrot.png.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "mandelbrot.h"
#include "mandelbrot_cpu.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/host_timer.h"
#include "stepwise/image.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

struct Options {
  int width = 1536, height = 1024;
  int max_iterations = 1000;
  Region region;
  std::string output = "mandelbrot.png";
};

std::string help() {
  const Options o;
  const auto n = [](double value) { return stepwise::number_text(value); };
  return stepwise::help_text(
      "usage: lesson03-demo [--size WIDTHxHEIGHT] [--iterations N] [--region MIN_X MAX_X MIN_Y MAX_Y] "
      "[--output FILE]",
      {{"--size WIDTHxHEIGHT", "the picture in pixels, each side 1 to 8192",
        std::to_string(o.width) + "x" + std::to_string(o.height)},
       {"--iterations N", "the most iterations per pixel, 1 to 100000", std::to_string(o.max_iterations)},
       {"--region MIN_X MAX_X MIN_Y MAX_Y", "the part of the complex plane drawn",
        n(o.region.min_x) + " " + n(o.region.max_x) + " " + n(o.region.min_y) + " " + n(o.region.max_y)},
       {"--output FILE", "the PNG file written", o.output}});
}

float parse_coordinate(const std::string& text, const char* what) {
  const double value = stepwise::parse_number(text, what);
  if (std::fabs(value) > 1e6) throw std::invalid_argument(std::string(what) + " must lie within +-1e6, got '" + text + "'");
  return static_cast<float>(value);
}

Options parse_options(int argc, char** argv) {
  Options o;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--size")) {
      const stepwise::Size2 size = stepwise::parse_size(flags.values(1)[0], "--size", 8192);
      o.width = size.width;
      o.height = size.height;
    } else if (flags.is("--iterations")) {
      o.max_iterations = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--iterations", 1, 100000));
    } else if (flags.is("--region")) {
      const std::vector<std::string> v = flags.values(4);
      o.region = {parse_coordinate(v[0], "MIN_X"), parse_coordinate(v[1], "MAX_X"),
                  parse_coordinate(v[2], "MIN_Y"), parse_coordinate(v[3], "MAX_Y")};
      if (!(o.region.min_x < o.region.max_x && o.region.min_y < o.region.max_y))
        throw std::invalid_argument("--region needs MIN_X < MAX_X and MIN_Y < MAX_Y");
    } else if (flags.is("--output")) {
      o.output = flags.values(1)[0];
    } else {
      flags.unknown();
    }
  }
  return o;
}

std::vector<int> cpu_counts_of(const Options& o) {
  std::vector<int> counts(static_cast<std::size_t>(o.width) * o.height);
  cpu_mandelbrot(counts.data(), o.width, o.height, o.region, o.max_iterations);
  return counts;
}

// The colour of a count: black inside the set; outside, a gradient from dark blue through white
// and orange, on a log scale, since most points escape within a few iterations.
void colour(int count, int max_iterations, std::uint8_t* rgb) {
  struct Stop {
    float at, r, g, b;
  };
  static const Stop stops[] = {{0.0f, 0, 7, 100},      {0.16f, 32, 107, 203}, {0.42f, 237, 255, 255},
                               {0.6425f, 255, 170, 0}, {0.8575f, 0, 2, 0},    {1.0f, 0, 7, 100}};
  if (count >= max_iterations) {
    rgb[0] = rgb[1] = rgb[2] = 0;
    return;
  }
  const float t = std::log1p(static_cast<float>(count)) / std::log1p(static_cast<float>(max_iterations));
  int k = 0;
  while (stops[k + 1].at < t) ++k;
  const float f = (t - stops[k].at) / (stops[k + 1].at - stops[k].at);
  rgb[0] = static_cast<std::uint8_t>(stops[k].r + f * (stops[k + 1].r - stops[k].r));
  rgb[1] = static_cast<std::uint8_t>(stops[k].g + f * (stops[k + 1].g - stops[k].g));
  rgb[2] = static_cast<std::uint8_t>(stops[k].b + f * (stops[k + 1].b - stops[k].b));
}

stepwise::Image picture(const std::vector<int>& counts, const Options& o) {
  stepwise::Image image{o.width, o.height, 3, {}};
  image.pixels.resize(static_cast<std::size_t>(o.width) * o.height * 3);
  // Row y of the counts shows imaginary part min_y + y * pixel_height, so row 0 is the bottom
  // of the picture; a PNG starts at the top, so the rows go in reverse order.
  for (int row = 0; row < o.height; ++row)
    for (int x = 0; x < o.width; ++x)
      colour(counts[static_cast<std::size_t>(o.height - 1 - row) * o.width + x], o.max_iterations,
             &image.pixels[(static_cast<std::size_t>(row) * o.width + x) * 3]);
  return image;
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    const Options o = parse_options(argc, argv);
    stepwise::require_writable(o.output);  // checked, not created: a failed run leaves no file
    const std::size_t pixels = static_cast<std::size_t>(o.width) * o.height;
    stepwise::DeviceBuffer<int> counts(pixels);
    const Region& r = o.region;
    auto fixed_grid = [&] { mandelbrot(counts.data(), o.width, o.height, r, o.max_iterations); };
    auto per_pixel = [&] { mandelbrot_one_thread_per_pixel(counts.data(), o.width, o.height, r, o.max_iterations); };

    // The first launch of a kernel also loads it onto the GPU: run each once before timing.
    // The demo works from step 2 on; step 3's kernel is timed once it is written.
    float per_pixel_ms = 0;
    std::string per_pixel_missing;
    try {
      per_pixel();
      per_pixel_ms = stepwise::time_gpu_ms(per_pixel);
    } catch (const stepwise::NotImplemented& e) {
      per_pixel_missing = e.what();
    }
    fixed_grid();
    const float fixed_grid_ms = stepwise::time_gpu_ms(fixed_grid);
    std::vector<int> gpu_counts;
    const float copy_ms = stepwise::time_gpu_ms([&] { gpu_counts = counts.to_host(); });

    std::vector<int> cpu_counts;
    const double cpu_ms = stepwise::host_ms([&] { cpu_counts = cpu_counts_of(o); });
    std::size_t differ = 0;
    for (std::size_t i = 0; i < pixels; ++i) differ += gpu_counts[i] != cpu_counts[i];

    stepwise::write_png(o.output, picture(gpu_counts, o));

    std::printf("Mandelbrot set: %d x %d pixels of [%g, %g] x [%g, %g], at most %d iterations\n", o.width,
                o.height, r.min_x, r.max_x, r.min_y, r.max_y, o.max_iterations);
    std::printf("  GPU, fixed grid of 32x16 blocks (grid-stride)  %10.3f ms  %8.0fx one CPU thread\n",
                fixed_grid_ms, cpu_ms / fixed_grid_ms);
    if (per_pixel_missing.empty())
      std::printf("  GPU, one thread per pixel                      %10.3f ms  %8.0fx one CPU thread\n",
                  per_pixel_ms, cpu_ms / per_pixel_ms);
    else
      std::printf("  GPU, one thread per pixel: %s\n", per_pixel_missing.c_str());
    std::printf("  copy the counts back to the CPU                %10.3f ms\n", copy_ms);
    std::printf("  CPU, one thread, the same float loop           %10.3f ms\n", cpu_ms);
    const float fastest_ms = per_pixel_missing.empty() ? std::min(fixed_grid_ms, per_pixel_ms) : fixed_grid_ms;
    std::printf("Counting the copy, the GPU is %.0fx faster than one CPU thread.\n", cpu_ms / (fastest_ms + copy_ms));
    if (differ == 0)
      std::printf("GPU and CPU counts agree on every pixel.\n");
    else
      std::printf("GPU and CPU counts differ at %zu of %zu pixels (%.3f%%): rounding near the set's boundary,\n"
                  "where the GPU's fused multiply-adds round differently from the CPU (see the README).\n",
                  differ, pixels, 100.0 * differ / pixels);
    std::printf("wrote %s\n", o.output.c_str());
  });
}
