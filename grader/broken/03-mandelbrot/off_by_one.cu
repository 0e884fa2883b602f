// broken: the grid-stride kernel counts with a loop that tests |z| before each update, so every point that escapes gets one more than the seed's count.
// fails: Mandelbrot.GridStrideMatchesCpu
// expect: values differ from the CPU reference
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
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y) {
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x) {
      const float real = region.min_x + x * pixel_width, imag = region.min_y + y * pixel_height;
      float zr = 0.0f, zi = 0.0f;
      int i = 0;
      while (i < max_iterations && zr * zr + zi * zi < 4.0f) {
        const float next_zr = zr * zr - zi * zi + real;
        zi = 2.0f * zr * zi + imag;
        zr = next_zr;
        ++i;
      }
      counts[y * width + x] = i;
    }
  }
}

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (width == 0 || height == 0) return;
  const dim3 block(32, 8);  // 32 threads along x: a warp writes 32 neighbouring pixels of a row
  const dim3 grid(32, 16);
  mandelbrot_kernel<<<grid, block>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
