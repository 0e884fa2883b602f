// Lesson 09, steps 1 and 2: cuRAND's host API. Read README.md first: each TODO(step N) below is
// "Step N" there. Step 3, the device API, is in device_api.cu.
#include "random_numbers.h"

#include "counting.cuh"
#include "stepwise/arguments.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

// ---- Step 1 ----------------------------------------------------------------------------------------

curandGenerator_t create_generator(Rng rng, unsigned long long seed) {
  // TODO(step 1): create a cuRAND host-API generator of the kind `rng` names (XORWOW or Philox),
  // seeded with `seed`, and have its state set up now rather than in the first fill (README.md,
  // "Step 1"). Check every call with CURAND_CHECK; if a call after the creation fails, destroy
  // the generator before the exception leaves. Return the generator. Delete the line below.
  STEPWISE_TODO(1);
}

void generate_uniform(curandGenerator_t generator, float* out, std::size_t n) {
  // TODO(step 1): return when n == 0; otherwise fill out[0 .. n) with uniform floats from
  // `generator` (the call checked). Delete the line below.
  STEPWISE_TODO(1);
}

// ---- Step 2 ----------------------------------------------------------------------------------------

__device__ inline unsigned int is_inside(float x, float y) {
  // TODO(step 2): 1 when x * x + y * y <= 1.0f, else 0. Replace the line below.
  return 0;
}

__global__ void count_hits_kernel(const float2* points, std::size_t n, unsigned long long* hits) {
  // TODO(step 2): a grid-stride loop over the n points (std::size_t indices) that adds up
  // is_inside(points[i].x, points[i].y) in a local variable; then
  // block_sum(local) (counting.cuh, called by every thread) and, in thread 0 only,
  // atomicAdd(hits, the block's sum).
}

double estimate_pi_host_api(UniformGenerator& generator, float* uniforms, std::size_t n) {
  // TODO(step 2): first stepwise::require_at_least(n, 1, "n", "estimate_pi_host_api"), which
  // throws std::invalid_argument when n == 0. generator.fill() the 2n uniforms, in pieces of at
  // most 2^30 (README.md, step 2), then return
  // pi_from_hits(count_hits_kernel, n, n, the uniforms as const float2*).
  // Delete the line below.
  STEPWISE_TODO(2);
}
