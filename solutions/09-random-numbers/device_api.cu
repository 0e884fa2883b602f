// Lesson 09 reference solution, step 3: a Monte Carlo estimate of pi with cuRAND's device API. A
// file of its own because curand_kernel.h takes over half a second to compile: kept here, it is not
// compiled again when random_numbers.cu (steps 1 and 2) is saved.
#include "random_numbers.h"

#include <curand_kernel.h>

#include "counting.cuh"
#include "stepwise/arguments.h"

// ---- Step 3 ----------------------------------------------------------------------------------------

// A __device__ function is compiled only into the file that defines it: this is step 2's hit test
// again, for this file's kernel.
__device__ inline unsigned int is_inside(float x, float y) { return x * x + y * y <= 1.0f ? 1u : 0u; }

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
  stepwise::require_at_least(n, 1, "n", "estimate_pi_device_api");
  return pi_from_hits(pi_device_api_kernel, (n + kPointsPerRun - 1) / kPointsPerRun, n, seed);
}
