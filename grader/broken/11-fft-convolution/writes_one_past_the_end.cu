// broken: the direct kernel numbers pixels 0..n with an off-by-one bound (i <= n), so one thread computes a pixel below the last row and writes one past the end of the output
// fails: Direct.MatchesCpuReference
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "convolution.h"
#define convolve_direct reference_convolve_direct
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_direct

__global__ void convolve_flat_kernel(const float* image, int height, int width, int filter_height, int filter_width,
                                     float* out) {
  const std::size_t n = static_cast<std::size_t>(height) * width;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i > n) return;  // should be i >= n
  const int y = static_cast<int>(i / width), x = static_cast<int>(i % width);
  const int ay = (filter_height - 1) / 2, ax = (filter_width - 1) / 2;
  float sum = 0.0f;
  for (int r = 0; r < filter_height; ++r)
    for (int c = 0; c < filter_width; ++c) {
      const int row = y + ay - r, column = x + ax - c;
      if (row >= 0 && row < height && column >= 0 && column < width)
        sum += c_filter[r * filter_width + c] * image[static_cast<std::size_t>(row) * width + column];
    }
  out[i] = sum;
}

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  require_sizes(height, width, filter_height, filter_width);
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_filter, filter, sizeof(float) * filter_height * filter_width, 0,
                                     cudaMemcpyHostToDevice, stream));
  const std::size_t n = static_cast<std::size_t>(height) * width;
  convolve_flat_kernel<<<static_cast<unsigned>((n + 1 + 255) / 256), 256, 0, stream>>>(image, height, width,
                                                                                      filter_height, filter_width, out);
  CUDA_CHECK_LAUNCH();
}
