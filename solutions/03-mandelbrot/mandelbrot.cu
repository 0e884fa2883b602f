// Lesson 03 reference solution: the Mandelbrot set on 2-D grids.
#include "mandelbrot.h"

#include <algorithm>

#include "stepwise/check.h"

// Step 1: a device function. Kernels call it like any C++ function; it runs in the calling
// thread, and the compiler inlines it, so it costs no call.
__device__ int escape_count(float real, float imag, int max_iterations) {
  float zr = 0.0f, zi = 0.0f;
  float zr2 = 0.0f, zi2 = 0.0f;  // zr * zr and zi * zi: the test and the next step both use them
  for (int i = 0; i < max_iterations; ++i) {
    zi = 2.0f * zr * zi + imag;  // z = z * z + c, with (a + ib)^2 = a^2 - b^2 + 2iab
    zr = zr2 - zi2 + real;
    zr2 = zr * zr;
    zi2 = zi * zi;
    if (zr2 + zi2 >= 4.0f) return i;  // |z| >= 2: z escapes to infinity
  }
  return max_iterations;
}

// [docs:one-point-kernel]
__global__ void escape_counts_kernel(const float* real, const float* imag, int* counts, int n,
                                     int max_iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[i] = escape_count(real[i], imag[i], max_iterations);
}
// [docs:end]

void escape_counts(const float* real, const float* imag, int* counts, int n, int max_iterations) {
  if (n == 0) return;
  constexpr int kThreadsPerBlock = 256;
  const int blocks = (n - 1) / kThreadsPerBlock + 1;  // rounded up; (n + 255) / 256 overflows near INT_MAX
  escape_counts_kernel<<<blocks, kThreadsPerBlock>>>(real, imag, counts, n, max_iterations);
  CUDA_CHECK_LAUNCH();
}

// Step 2: 2-D grid-stride loops. Thread (x0, y0) of the whole grid does the pixels
// (x0 + a * grid_width, y0 + b * grid_height): any grid covers any image. x and y are long long:
// in a 1 x 2^31 - 1 image (legal by the header) a thread's last step, y + 128, passes INT_MAX.
__global__ void mandelbrot_kernel(int* counts, int width, int height, Region region,
                                  int max_iterations) {
  const long long first_x = blockIdx.x * blockDim.x + threadIdx.x;
  // A thread whose first column lies right of the image has a pixel in no row: it leaves now
  // rather than step down every row for nothing (in a 1-pixel-wide image, all but 128 threads).
  if (first_x >= width) return;
  const float pixel_width = (region.max_x - region.min_x) / width;
  const float pixel_height = (region.max_y - region.min_y) / height;
  const int grid_width = blockDim.x * gridDim.x;
  const int grid_height = blockDim.y * gridDim.y;
  for (long long y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += grid_height) {
    const float imag = region.min_y + y * pixel_height;
    for (long long x = first_x; x < width; x += grid_width) {
      const float real = region.min_x + x * pixel_width;
      counts[y * width + x] = escape_count(real, imag, max_iterations);
    }
  }
}

// [docs:fixed-grid-launch]
void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (width == 0 || height == 0) return;
  // The seed's launch: 512 blocks of 256 threads, whatever the image. On the seed's
  // 1536 x 1024 image each thread does 12 pixels; on a 1 x 1 image all but one thread idle.
  const dim3 block(32, 8);  // 32 threads along x: a warp writes 32 neighbouring pixels of a row
  const dim3 grid(32, 16);
  mandelbrot_kernel<<<grid, block>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
// [docs:end]

// Step 3: one thread per pixel. The grid is rounded up in both directions, so the threads of
// the last column and row of blocks may lie outside the image: they must not write. A grid has
// at most 65,535 blocks along y, 524,280 rows of threads: a taller image (1 x 600,000 is legal)
// has each thread loop down the rows in strides of the grid's height, as in step 2.
__global__ void mandelbrot_pixel_kernel(int* counts, int width, int height, Region region,
                                        int max_iterations) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  const float real = region.min_x + x * ((region.max_x - region.min_x) / width);
  const long long grid_height = static_cast<long long>(blockDim.y) * gridDim.y;
  for (long long y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += grid_height) {
    const float imag = region.min_y + y * ((region.max_y - region.min_y) / height);
    counts[y * width + x] = escape_count(real, imag, max_iterations);
  }
}

constexpr unsigned kMaxBlocksAlongY = 65535;  // CUDA's limit on a grid's y (2^31 - 1 along x)

void mandelbrot_one_thread_per_pixel(int* counts, int width, int height, Region region,
                                     int max_iterations) {
  if (width == 0 || height == 0) return;
  const dim3 block(32, 8);
  // Rounded up as (n - 1) / b + 1 (n > 0 here), along y at most kMaxBlocksAlongY.
  const unsigned rows_of_blocks = (height - 1) / block.y + 1;
  const dim3 grid((width - 1) / block.x + 1, std::min(rows_of_blocks, kMaxBlocksAlongY));
  mandelbrot_pixel_kernel<<<grid, block>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
