#pragma once
// Lesson 03: the Mandelbrot set, one escape count per pixel, on a 2-D grid of 2-D blocks.
//
// The escape count of a point c = real + i*imag: start at z = 0 and repeat z = z*z + c. The
// count is the index i (from 0) of the first iteration after which |z|^2 >= 4, or
// max_iterations when that never happens within max_iterations iterations. So a count of 0
// means |c|^2 >= 4 already, and max_iterations means "probably in the set". Compute in float.
//
// Pointers are device pointers (from cudaMalloc). Each function launches its kernel on the
// default stream and returns without waiting for the GPU; a launch the GPU rejects throws
// stepwise::CudaError. An empty input (n, width or height 0) launches nothing.

// The part of the complex plane an image shows. Default: the seed's view of the whole set.
struct Region {
  float min_x = -2.0f;  // real part at the left edge
  float max_x = 1.0f;   // real part just past the right edge
  float min_y = -1.0f;  // imaginary part of row 0
  float max_y = 1.0f;   // imaginary part just past the last row
};

// Step 1: counts[i] = the escape count of real[i] + i*imag[i], for every i in [0, n), one thread
// per point.
void escape_counts(const float* real, const float* imag, int* counts, int n, int max_iterations);

// The pixel (x, y) of a width x height image, 0 <= x < width and 0 <= y < height, is stored at
// counts[y * width + x] and shows the point (as in the seed, computed in float)
//   real = min_x + x * ((max_x - min_x) / width),  imag = min_y + y * ((max_y - min_y) / height).
// width * height must be below 2^31.

// Step 2: the escape count of every pixel, by a fixed grid of 32 x 16 blocks of 32 x 8 threads
// whatever the image size: each thread strides through the image in both directions.
void mandelbrot(int* counts, int width, int height, Region region, int max_iterations);

// Step 3: the same image with one thread per pixel: a grid sized to the image.
void mandelbrot_one_thread_per_pixel(int* counts, int width, int height, Region region,
                                     int max_iterations);
