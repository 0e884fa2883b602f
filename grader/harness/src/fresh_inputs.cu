// refill_random: fresh random inputs written by the GPU, so that every timed run can get new
// values in its buffers without a slow host draw and copy.
#include <cstdint>

#include "grader/inputs.h"
#include "stepwise/check.h"

namespace grader {
namespace {

// SplitMix64: a counter-based hash, so every element is drawn independently from (draw, index).
__device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A number in [0, 1) from the top 53 bits.
__device__ double unit(std::uint64_t bits) { return (bits >> 11) * (1.0 / 9007199254740992.0); }

template <typename T>
__global__ void fill_uniform(T* data, std::size_t n, std::uint64_t draw, double lo, double span) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    T value = static_cast<T>(lo + span * unit(mix(draw ^ mix(i))));
    // Rounding to float can land on hi itself: keep the interval half-open.
    if (value >= static_cast<T>(lo + span)) value = static_cast<T>(lo);
    data[i] = value;
  }
}

__global__ void fill_ints(int* data, std::size_t n, std::uint64_t draw, long long lo, unsigned long long count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    data[i] = static_cast<int>(lo + static_cast<long long>(mix(draw ^ mix(i)) % count));
}

std::uint64_t next_draw() {
  static std::uint64_t draws = 0;
  return seed() * 0x2545F4914F6CDD1Dull + ++draws;
}

template <typename T>
void refill(T* data, std::size_t n, double lo, double hi) {
  if (n == 0) return;
  fill_uniform<<<1024, 256>>>(data, n, next_draw(), lo, hi - lo);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void refill_random(float* data, std::size_t n, float lo, float hi) { refill(data, n, lo, hi); }
void refill_random(double* data, std::size_t n, double lo, double hi) { refill(data, n, lo, hi); }
void refill_random(int* data, std::size_t n, int lo, int hi) {
  if (n == 0) return;
  fill_ints<<<1024, 256>>>(data, n, next_draw(), lo, static_cast<unsigned long long>(static_cast<long long>(hi) - lo + 1));
  CUDA_CHECK_LAUNCH();
}

}  // namespace grader
