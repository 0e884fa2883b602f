// Lesson 03: the Mandelbrot set. Read README.md first: each TODO(step N) below is "Step N" there.
#include "mandelbrot.h"

#include "stepwise/check.h"
#include "stepwise/todo.h"

__device__ int escape_count(float real, float imag, int max_iterations) {
  // TODO(step 1): return the escape count of c = real + i*imag, as README.md ("The escape
  // count") defines it: the index of the first iteration of z = z * z + c (from z = 0) after
  // which |z|^2 >= 4, or max_iterations if that never happens. Compute in float. Replace the line
  // below.
  return 0;
}

__global__ void escape_counts_kernel(const float* real, const float* imag, int* counts, int n,
                                     int max_iterations) {
  // TODO(step 1): one thread per point, as in lesson 01: the global index i, and if i < n,
  // counts[i] = escape_count(real[i], imag[i], max_iterations).
}

void escape_counts(const float* real, const float* imag, int* counts, int n, int max_iterations) {
  // TODO(step 1): return when n == 0; launch escape_counts_kernel with blocks of 256 threads and
  // enough blocks for n points (round up as (n - 1) / 256 + 1); CUDA_CHECK_LAUNCH(). Delete the
  // line below.
  STEPWISE_TODO(1);
}

__global__ void mandelbrot_kernel(int* counts, int width, int height, Region region,
                                  int max_iterations) {
  // TODO(step 2): store the escape count of every pixel of the width x height image at
  // counts[y * width + x], for the point of `region` that the pixel shows (README.md, "The escape
  // count"). The grid is fixed and may be smaller than the image, so together the threads must
  // cover every pixel, each thread several if need be (README.md, "A fixed grid"). Loop with
  // long long x and y: in a 1 x INT_MAX image, y's last step passes INT_MAX.
}

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  // TODO(step 2): return when width or height is 0. Launch mandelbrot_kernel with the seed's
  // fixed shape, dim3 grid(32, 16) of dim3 block(32, 8), whatever the image size; then
  // CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(2);
}

__global__ void mandelbrot_pixel_kernel(int* counts, int width, int height, Region region,
                                        int max_iterations) {
  // TODO(step 3): one thread per pixel: the thread at (x, y) of the whole grid stores pixel
  // (x, y)'s count, computed as in step 2. The grid is rounded up to whole blocks, so some
  // threads lie outside the image: they must not write. A grid has at most 65,535 blocks along
  // y, so loop over y (a long long) in strides of the grid's height, for taller images.
}

void mandelbrot_one_thread_per_pixel(int* counts, int width, int height, Region region,
                                     int max_iterations) {
  // TODO(step 3): return when width or height is 0. Blocks of dim3(32, 8); a grid with enough
  // blocks along x for width and along y for height (round each up as (n - 1) / b + 1), but at
  // most 65,535 along y; launch mandelbrot_pixel_kernel and CUDA_CHECK_LAUNCH(). Delete the line
  // below.
  STEPWISE_TODO(3);
}
