// broken: the seed's fixed grid of 32 x 16 blocks of 32 x 8 threads, but each thread does one pixel and no more (no grid-stride loops), so only the top-left 1024 x 128 pixels are ever computed.
// fails: Mandelbrot.GridStrideMatchesCpu
// expect: values differ from the CPU reference.*never written
// (The rest is the reference solution.)
#include "mandelbrot.h"
// Both the kernel and the function that launches it are replaced: a renamed kernel alone would
// leave the solution's launcher calling the solution's kernel.
#define mandelbrot_kernel reference_mandelbrot_kernel
#define mandelbrot reference_mandelbrot
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot_kernel
#undef mandelbrot

__global__ void mandelbrot_kernel(int* counts, int width, int height, Region region, int max_iterations) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float real = region.min_x + x * ((region.max_x - region.min_x) / width);
  const float imag = region.min_y + y * ((region.max_y - region.min_y) / height);
  counts[y * width + x] = escape_count(real, imag, max_iterations);
}

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (width == 0 || height == 0) return;
  const dim3 block(32, 8);  // 32 threads along x: a warp writes 32 neighbouring pixels of a row
  const dim3 grid(32, 16);
  mandelbrot_kernel<<<grid, block>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
