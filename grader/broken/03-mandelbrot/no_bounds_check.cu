// broken: the one-thread-per-pixel kernel has no bounds check, so the threads of the last column and row of blocks, outside the image, write anyway: into the next row, and past the end of the output.
// fails: Mandelbrot.OneThreadPerPixelOddAndTinyImages
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "mandelbrot.h"
// Both the kernel and the function that launches it are replaced: a renamed kernel alone would
// leave the solution's launcher calling the solution's kernel.
#define mandelbrot_pixel_kernel reference_mandelbrot_pixel_kernel
#define mandelbrot_one_thread_per_pixel reference_mandelbrot_one_thread_per_pixel
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot_pixel_kernel
#undef mandelbrot_one_thread_per_pixel

__global__ void mandelbrot_pixel_kernel(int* counts, int width, int height, Region region, int max_iterations) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const float real = region.min_x + x * ((region.max_x - region.min_x) / width);
  const float imag = region.min_y + y * ((region.max_y - region.min_y) / height);
  counts[y * width + x] = escape_count(real, imag, max_iterations);
}

void mandelbrot_one_thread_per_pixel(int* counts, int width, int height, Region region,
                                     int max_iterations) {
  if (width == 0 || height == 0) return;
  const dim3 block(32, 8);
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  mandelbrot_pixel_kernel<<<grid, block>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
