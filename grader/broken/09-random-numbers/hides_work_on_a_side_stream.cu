// broken: for the speed checks' large fills, cuRAND runs on a non-blocking stream of the submission's own and the call returns without waiting, so events on the default stream see no work and the numbers are not ready when the call returns.
// fails: RandomSpeed.PhiloxFillNearCurand
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "random_numbers.h"
#define generate_uniform reference_generate_uniform
#include "solutions/09-random-numbers/random_numbers.cu"
#undef generate_uniform

void generate_uniform(curandGenerator_t generator, float* out, std::size_t n) {
  const bool large = n > static_cast<std::size_t>(broken::kSpeedCheckSize);
  CURAND_CHECK(curandSetStream(generator, large ? broken::private_stream() : nullptr));
  reference_generate_uniform(generator, out, n);
}
