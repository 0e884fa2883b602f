// broken: generate_uniform asks cuRAND for n + 1 numbers, one more than the output holds.
// fails: Uniform.EverySizeFilledWithinZeroToOne
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "random_numbers.h"
#define generate_uniform reference_generate_uniform
#include "solutions/09-random-numbers/random_numbers.cu"
#undef generate_uniform

void generate_uniform(curandGenerator_t generator, float* out, std::size_t n) {
  CURAND_CHECK(curandGenerateUniform(generator, out, n + 1));
}
