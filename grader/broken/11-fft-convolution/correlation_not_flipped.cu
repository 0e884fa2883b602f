// broken: the direct kernel reads image[y - ay + i][x - ax + j], plus signs: a correlation, which equals the convolution only for symmetric filters such as the seed's
// fails: Direct.ImpulseGivesTheFilterCentred:Direct.MatchesCpuReference
// expect: a correlation, not a convolution
// (The rest is the reference solution.)
#include "convolution.h"
#define convolve_direct reference_convolve_direct
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_direct

__global__ void correlate_kernel(const float* image, int height, int width, int filter_height, int filter_width,
                                 float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int ay = (filter_height - 1) / 2, ax = (filter_width - 1) / 2;
  float sum = 0.0f;
  for (int i = 0; i < filter_height; ++i)
    for (int j = 0; j < filter_width; ++j) {
      const int row = y - ay + i, column = x - ax + j;
      if (row >= 0 && row < height && column >= 0 && column < width)
        sum += c_filter[i * filter_width + j] * image[static_cast<std::size_t>(row) * width + column];
    }
  out[static_cast<std::size_t>(y) * width + x] = sum;
}

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  require_sizes(height, width, filter_height, filter_width);
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_filter, filter, sizeof(float) * filter_height * filter_width, 0,
                                     cudaMemcpyHostToDevice, stream));
  correlate_kernel<<<grid_for(height, width), block_shape(), 0, stream>>>(image, height, width, filter_height, filter_width, out);
  CUDA_CHECK_LAUNCH();
}
