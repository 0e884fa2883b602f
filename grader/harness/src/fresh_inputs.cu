// refill_random: fresh random inputs written by the GPU, so that every timed run can get new
// values in its buffers without a slow host draw and copy.
#include <algorithm>
#include <cstdint>

#include "grader/inputs.h"
#include "grader/splitmix.h"
#include "stepwise/check.h"

namespace grader {
namespace {

template <typename T>
__global__ void fill_uniform(T* data, std::size_t n, std::uint64_t draw, double lo, double span) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    data[i] = uniform_value<T>(draw_bits(draw, i), lo, span);
  }
}

__global__ void fill_ints(int* data, std::size_t n, std::uint64_t draw, long long lo, unsigned long long count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    data[i] = uniform_int(draw_bits(draw, i), lo, count);
}

template <typename T>
void refill(T* data, std::size_t n, double lo, double hi) {
  if (n == 0) return;
  fill_uniform<<<grid_stride_blocks(n), 256>>>(data, n, next_draw(), lo, hi - lo);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

unsigned grid_stride_blocks(std::size_t n, unsigned threads_per_block) {
  const std::size_t needed = (n + threads_per_block - 1) / threads_per_block;
  return static_cast<unsigned>(std::clamp<std::size_t>(needed, 1, 1024));
}

void refill_random(float* data, std::size_t n, float lo, float hi) { refill(data, n, lo, hi); }
void refill_random(double* data, std::size_t n, double lo, double hi) { refill(data, n, lo, hi); }
void refill_random(int* data, std::size_t n, int lo, int hi) {
  if (n == 0) return;
  fill_ints<<<grid_stride_blocks(n), 256>>>(data, n, next_draw(), lo, static_cast<unsigned long long>(static_cast<long long>(hi) - lo + 1));
  CUDA_CHECK_LAUNCH();
}

}  // namespace grader
