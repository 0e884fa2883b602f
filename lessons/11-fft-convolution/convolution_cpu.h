#pragma once
// Given, not an exercise: the 'same' convolution of convolution.h on one CPU thread, in double,
// for the grader and the demo to compare with. This is what scipy.signal.convolve(image, filter,
// mode='same') computes (and fftconvolve, up to rounding).
#include <cstddef>
#include <vector>

// Calls visit(tap, pixel) for each tap over output pixel (y, x) whose pixel lies inside the image
// (the 'same' window; pixels outside count as 0): what the output pixel sums.
template <typename Visit>
inline void for_each_product_at(const std::vector<float>& image, int height, int width, const std::vector<float>& filter,
                                int filter_height, int filter_width, int y, int x, Visit visit) {
  const int ay = (filter_height - 1) / 2, ax = (filter_width - 1) / 2;
  for (int i = 0; i < filter_height; ++i) {
    const int row = y + ay - i;
    if (row < 0 || row >= height) continue;
    for (int j = 0; j < filter_width; ++j) {
      const int column = x + ax - j;
      if (column < 0 || column >= width) continue;
      visit(filter[static_cast<std::size_t>(i) * filter_width + j], image[static_cast<std::size_t>(row) * width + column]);
    }
  }
}

// One output pixel, in double.
inline double convolve_cpu_at(const std::vector<float>& image, int height, int width, const std::vector<float>& filter,
                              int filter_height, int filter_width, int y, int x) {
  double sum = 0;
  for_each_product_at(image, height, width, filter, filter_height, filter_width, y, x,
                      [&](float tap, float pixel) { sum += static_cast<double>(tap) * pixel; });
  return sum;
}

// Output rows first_row to end_row - 1, in double, into `out` (the whole output, height x width):
// the grader shares the rows of a large image out over the cores.
inline void convolve_cpu_rows(const std::vector<float>& image, int height, int width, const std::vector<float>& filter,
                              int filter_height, int filter_width, int first_row, int end_row, std::vector<double>& out) {
  for (int y = first_row; y < end_row; ++y)
    for (int x = 0; x < width; ++x)
      out[static_cast<std::size_t>(y) * width + x] =
          convolve_cpu_at(image, height, width, filter, filter_height, filter_width, y, x);
}

// The whole output, in double.
inline std::vector<double> convolve_cpu(const std::vector<float>& image, int height, int width,
                                        const std::vector<float>& filter, int filter_height, int filter_width) {
  std::vector<double> out(static_cast<std::size_t>(height) * width);
  convolve_cpu_rows(image, height, width, filter, filter_height, filter_width, 0, height, out);
  return out;
}
