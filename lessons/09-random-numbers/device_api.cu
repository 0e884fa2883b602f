// Lesson 09, step 3: pi with cuRAND's device API. Read README.md first: each TODO(step 3) below is
// "Step 3" there. A file of its own because the device API's header, curand_kernel.h, takes over
// half a second to compile: kept here, it is not compiled again when random_numbers.cu (steps 1
// and 2) is saved.
#include "random_numbers.h"

#include <curand_kernel.h>

#include "counting.cuh"
#include "stepwise/arguments.h"
#include "stepwise/todo.h"

// ---- Step 3 ----------------------------------------------------------------------------------------

// A __device__ function is compiled only into the file that defines it, so this file needs its own
// hit test, the same as step 2's is_inside in random_numbers.cu.
__device__ inline unsigned int is_inside(float x, float y) {
  // TODO(step 3): as in step 2: 1 when x * x + y * y <= 1.0f, else 0. Replace the line below.
  return 0;
}

__global__ void pi_device_api_kernel(unsigned long long seed, std::size_t n, unsigned long long* hits) {
  // TODO(step 3): a grid-stride loop over the runs r in [0, (n + kPointsPerRun - 1) /
  // kPointsPerRun). Each run has its own Philox device-API state, started from `seed` at
  // subsequence r (README.md, "Every thread needs its own subsequence"), and draws its points
  // from it (kPointsPerRun of them, fewer in the last run), two points per four uniforms,
  // counting is_inside in a local variable. Then block_sum and one atomicAdd per block, as in
  // step 2.
}

double estimate_pi_device_api(unsigned long long seed, std::size_t n) {
  // TODO(step 3): first stepwise::require_at_least(n, 1, "n", "estimate_pi_device_api"), which
  // throws std::invalid_argument when n == 0; return
  // pi_from_hits(pi_device_api_kernel, the number of runs, n, seed). Delete the line below.
  STEPWISE_TODO(3);
}
