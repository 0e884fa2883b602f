// broken: the one-thread-per-pixel kernel checks `x <= width`, so the last thread of each row writes one pixel too far: into the next row, and past the end of the image on the last row.
// fails: Mandelbrot.OneThreadPerPixelOddAndTinyImages
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "mandelbrot.h"
#define mandelbrot_one_thread_per_pixel reference_mandelbrot_one_thread_per_pixel
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot_one_thread_per_pixel

__global__ void one_past_kernel(int* counts, int width, int height, Region region, int max_iterations) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > width || y >= height) return;
  const float real = region.min_x + x * ((region.max_x - region.min_x) / width);
  const float imag = region.min_y + y * ((region.max_y - region.min_y) / height);
  counts[y * width + x] = escape_count(real, imag, max_iterations);
}

void mandelbrot_one_thread_per_pixel(int* counts, int width, int height, Region region, int max_iterations) {
  if (width == 0 || height == 0) return;
  const dim3 block(32, 8);
  const dim3 grid(width / block.x + 1, (height + block.y - 1) / block.y);
  one_past_kernel<<<grid, block>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
