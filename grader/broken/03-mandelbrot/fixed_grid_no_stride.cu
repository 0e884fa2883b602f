// Broken on purpose: the seed's fixed grid of 32 x 16 blocks of 32 x 8 threads, but each thread
// does one pixel and no more (no grid-stride loops), so only the top-left 1024 x 128 pixels are
// ever computed. (The rest is the reference solution.)
#include "mandelbrot.h"
#define mandelbrot_kernel reference_mandelbrot_kernel
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot_kernel

__global__ void mandelbrot_kernel(int* counts, int width, int height, Region region, int max_iterations) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float real = region.min_x + x * ((region.max_x - region.min_x) / width);
  const float imag = region.min_y + y * ((region.max_y - region.min_y) / height);
  counts[y * width + x] = escape_count(real, imag, max_iterations);
}
