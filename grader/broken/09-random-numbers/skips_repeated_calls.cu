// broken: generate_uniform returns at once when called again with the same generator, output and size ("the numbers are still there"), so timing repeated fills times nothing.
// fails: RandomSpeed.PhiloxFillNearCurand
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "random_numbers.h"
#define generate_uniform reference_generate_uniform
#include "solutions/09-random-numbers/random_numbers.cu"
#undef generate_uniform

void generate_uniform(curandGenerator_t generator, float* out, std::size_t n) {
  if (broken::same_as_last_call(generator, out, n)) return;
  reference_generate_uniform(generator, out, n);
}
