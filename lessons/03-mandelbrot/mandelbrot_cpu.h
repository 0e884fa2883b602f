#pragma once
// The CPU reference of lesson 03: the seed's loop on one CPU thread, in float like the kernels.
// It is given, not an exercise: the demo compares the GPU with it, and the grader checks your
// kernels against it and times it for the speed checks.
#include <cstddef>

#include "mandelbrot.h"

// The escape count of the point real + i * imag: the first iteration at which |z| >= 2, or
// max_iterations if it never escapes.
inline int cpu_escape_count(float real, float imag, int max_iterations) {
  float zr = 0.0f, zi = 0.0f;
  for (int i = 0; i < max_iterations; ++i) {
    const float next_zr = zr * zr - zi * zi + real;
    zi = 2.0f * zr * zi + imag;
    zr = next_zr;
    if (zr * zr + zi * zi >= 4.0f) return i;
  }
  return max_iterations;
}

// The count of pixel (x, y) of a width x height image of `r`, with the same pixel coordinates as
// the kernels.
inline int cpu_pixel_count(int x, int y, int width, int height, Region r, int max_iterations) {
  const float pixel_width = (r.max_x - r.min_x) / width, pixel_height = (r.max_y - r.min_y) / height;
  return cpu_escape_count(r.min_x + x * pixel_width, r.min_y + y * pixel_height, max_iterations);
}

// The counts of a width x height image of `r`, row after row (counts[y * width + x]).
inline void cpu_mandelbrot(int* counts, int width, int height, Region r, int max_iterations) {
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      counts[static_cast<std::size_t>(y) * width + x] = cpu_pixel_count(x, y, width, height, r, max_iterations);
}
