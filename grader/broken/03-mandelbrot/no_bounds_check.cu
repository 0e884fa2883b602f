// Broken on purpose: the one-thread-per-pixel kernel has no bounds check, so the threads of the
// last column and row of blocks, outside the image, write anyway: into the next row, and past
// the end of the output. (The rest is the reference solution.)
#include "mandelbrot.h"
#define mandelbrot_pixel_kernel reference_mandelbrot_pixel_kernel
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot_pixel_kernel

__global__ void mandelbrot_pixel_kernel(int* counts, int width, int height, Region region, int max_iterations) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const float real = region.min_x + x * ((region.max_x - region.min_x) / width);
  const float imag = region.min_y + y * ((region.max_y - region.min_y) / height);
  counts[y * width + x] = escape_count(real, imag, max_iterations);
}
