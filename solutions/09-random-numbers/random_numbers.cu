// Lesson 09 reference solution, steps 1 and 2: cuRAND's host API, and a Monte Carlo estimate of
// pi with it. Step 3, the device API, is in device_api.cu.
#include "random_numbers.h"

#include <algorithm>

#include "counting.cuh"
#include "stepwise/arguments.h"
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
  stepwise::require_at_least(n, 1, "n", "estimate_pi_host_api");
  // 2n uniforms in pieces of 2^30: one curandGenerateUniform call of 2^31 values or more wrote none
  // on an H100 (CUDA 13). Each call goes on with the sequence where the last one stopped.
  constexpr std::size_t kMostPerFill = std::size_t{1} << 30;
  for (std::size_t done = 0; done < 2 * n; done += kMostPerFill)
    generator.fill(uniforms + done, std::min(kMostPerFill, 2 * n - done));
  return pi_from_hits(count_hits_kernel, n, n, reinterpret_cast<const float2*>(uniforms));
}
