// Lesson 03: the Mandelbrot set. Read README.md first: each TODO(step N) below is "Step N" there.
#include "mandelbrot.h"

#include "stepwise/check.h"
#include "stepwise/todo.h"

__device__ int escape_count(float real, float imag, int max_iterations) {
  // TODO(step 1): start with z = 0 (two floats, zr and zi). Repeat max_iterations times:
  // z = z * z + c, that is zr' = zr*zr - zi*zi + real and zi' = 2*zr*zi + imag (compute both
  // from the old zr and zi); then, if zr*zr + zi*zi >= 4, return the iteration's index i. After
  // the loop, return max_iterations. Replace the line below.
  return 0;
}

__global__ void escape_counts_kernel(const float* real, const float* imag, int* counts, int n,
                                     int max_iterations) {
  // TODO(step 1): one thread per point, as in lesson 01: the global index i, and if i < n,
  // counts[i] = escape_count(real[i], imag[i], max_iterations).
}

void escape_counts(const float* real, const float* imag, int* counts, int n, int max_iterations) {
  // TODO(step 1): return when n == 0; launch escape_counts_kernel with blocks of 256 threads and
  // enough blocks for n points (round up); CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(1);
}

__global__ void mandelbrot_kernel(int* counts, int width, int height, Region region,
                                  int max_iterations) {
  // TODO(step 2): the size of a pixel, pixel_width = (region.max_x - region.min_x) / width and
  // pixel_height likewise. Then two nested grid-stride loops: y from
  // blockIdx.y * blockDim.y + threadIdx.y while y < height, in steps of blockDim.y * gridDim.y;
  // inside it x the same way with the .x fields and width. For each pixel, real =
  // region.min_x + x * pixel_width, imag = region.min_y + y * pixel_height, and
  // counts[y * width + x] = escape_count(real, imag, max_iterations).
}

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  // TODO(step 2): return when width or height is 0. Launch mandelbrot_kernel with the seed's
  // fixed shape, dim3 grid(32, 16) of dim3 block(32, 8), whatever the image size; then
  // CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(2);
}

__global__ void mandelbrot_pixel_kernel(int* counts, int width, int height, Region region,
                                        int max_iterations) {
  // TODO(step 3): no loops: this thread's pixel is x = blockIdx.x * blockDim.x + threadIdx.x and
  // y likewise with .y. If it lies outside the image (x >= width or y >= height), return;
  // otherwise compute its count exactly as in step 2.
}

void mandelbrot_one_thread_per_pixel(int* counts, int width, int height, Region region,
                                     int max_iterations) {
  // TODO(step 3): return when width or height is 0. Blocks of dim3(32, 8); a grid with enough
  // blocks along x for width and along y for height (round each up); launch
  // mandelbrot_pixel_kernel and CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(3);
}
