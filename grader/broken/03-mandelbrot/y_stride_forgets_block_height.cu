// broken: the grid-stride loop in y steps by gridDim.y (16) instead of blockDim.y * gridDim.y (128), so every row is computed by 8 threads: the image is right, the work 8 times what it needs, and it still beats one CPU thread 100 times over.
// fails: MandelbrotSpeed.GridStrideNearGraderKernel
// expect: too slow for '03-mandelbrot/MandelbrotSpeed.GridStrideNearGraderKernel'
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
  const float pixel_width = (region.max_x - region.min_x) / width;
  const float pixel_height = (region.max_y - region.min_y) / height;
  const int grid_width = blockDim.x * gridDim.x;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y) {  // the mistake
    const float imag = region.min_y + y * pixel_height;
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += grid_width)
      counts[y * width + x] = escape_count(region.min_x + x * pixel_width, imag, max_iterations);
  }
}

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (width == 0 || height == 0) return;
  const dim3 block(32, 8);
  const dim3 grid(32, 16);
  mandelbrot_kernel<<<grid, block>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
