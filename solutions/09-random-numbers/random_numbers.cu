// Lesson 09 reference solution: cuRAND's host API, and a Monte Carlo estimate of pi with the
// host API and with the device API.
#include "random_numbers.h"

#include <curand_kernel.h>

#include <algorithm>
#include <stdexcept>

#include "counting.cuh"
#include "stepwise/check.h"

// ---- Step 1 ----------------------------------------------------------------------------------------

curandGenerator_t create_generator(Rng rng, unsigned long long seed) {
  curandGenerator_t generator = nullptr;
  CURAND_CHECK(curandCreateGenerator(&generator, rng == Rng::xorwow ? CURAND_RNG_PSEUDO_XORWOW
                                                                     : CURAND_RNG_PSEUDO_PHILOX4_32_10));
  try {
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(generator, seed));
    // Set up the generator's state on the GPU now (XORWOW's takes a kernel), not in the first fill.
    CURAND_CHECK(curandGenerateSeeds(generator));
  } catch (...) {
    curandDestroyGenerator(generator);
    throw;
  }
  return generator;
}

void generate_uniform(curandGenerator_t generator, float* out, std::size_t n) {
  if (n == 0) return;
  CURAND_CHECK(curandGenerateUniform(generator, out, n));
}

// ---- Step 2 ----------------------------------------------------------------------------------------

__device__ inline unsigned int is_inside(float x, float y) { return x * x + y * y <= 1.0f ? 1u : 0u; }

// Grid-stride over the points; one atomic add per block.
// [docs:block-hits]
__global__ void count_hits_kernel(const float2* points, std::size_t n, unsigned long long* hits) {
  unsigned long long inside = 0;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float2 p = points[i];
    inside += is_inside(p.x, p.y);
  }
  const unsigned long long block_hits = block_sum(inside);
  if (threadIdx.x == 0) atomicAdd(hits, block_hits);
}
// [docs:end]

double estimate_pi_host_api(UniformGenerator& generator, float* uniforms, std::size_t n) {
  if (n == 0) throw std::invalid_argument("estimate_pi_host_api: n must be at least 1 point");
  // 2n uniforms in pieces of 2^30: one curandGenerateUniform call of 2^31 values or more wrote none
  // on an H100 (CUDA 13). Each call goes on with the sequence where the last one stopped.
  constexpr std::size_t kMostPerFill = std::size_t{1} << 30;
  for (std::size_t done = 0; done < 2 * n; done += kMostPerFill)
    generator.fill(uniforms + done, std::min(kMostPerFill, 2 * n - done));
  return pi_from_hits(count_hits_kernel, n, n, reinterpret_cast<const float2*>(uniforms));
}

// ---- Step 3 ----------------------------------------------------------------------------------------

// Grid-stride over the runs of points. Run r starts Philox at subsequence r: its own stretch
// of 2^66 numbers, so no two runs share a number. Philox's curand_init only sets a counter.
__global__ void pi_device_api_kernel(unsigned long long seed, std::size_t n, unsigned long long* hits) {
  const std::size_t runs = (n + kPointsPerRun - 1) / kPointsPerRun;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  unsigned long long inside = 0;
  for (std::size_t r = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < runs; r += stride) {
    curandStatePhilox4_32_10_t state;
    curand_init(seed, r, 0, &state);
    const std::size_t first = r * kPointsPerRun;
    unsigned int run_hits = 0;
    if (n - first >= kPointsPerRun) {  // a whole run: a fixed count the compiler can unroll
#pragma unroll 4
      for (int p = 0; p < kPointsPerRun; p += 2) {
        const float4 v = curand_uniform4(&state);
        run_hits += is_inside(v.x, v.y) + is_inside(v.z, v.w);
      }
    } else {  // the last, shorter run
      const int count = static_cast<int>(n - first);
      for (int p = 0; p < count; p += 2) {
        const float4 v = curand_uniform4(&state);
        run_hits += is_inside(v.x, v.y);
        if (p + 1 < count) run_hits += is_inside(v.z, v.w);
      }
    }
    inside += run_hits;
  }
  const unsigned long long block_hits = block_sum(inside);
  if (threadIdx.x == 0) atomicAdd(hits, block_hits);
}

double estimate_pi_device_api(unsigned long long seed, std::size_t n) {
  if (n == 0) throw std::invalid_argument("estimate_pi_device_api: n must be at least 1 point");
  return pi_from_hits(pi_device_api_kernel, (n + kPointsPerRun - 1) / kPointsPerRun, n, seed);
}
