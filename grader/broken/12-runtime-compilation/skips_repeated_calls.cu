// broken: returns at once when called again with the same coefficients, pointers and size
// fails: PolynomialSpeed.SpecialisedBeatsGeneric
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "polynomial.h"
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/multiply_them.cu"
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#define evaluate_polynomial reference_evaluate_polynomial
#include "solutions/12-runtime-compilation/polynomial.cu"
#undef evaluate_polynomial

void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n) {
  if (broken::same_as_last_call(coefficients, x, out, n)) return;
  reference_evaluate_polynomial(cache, coefficients, x, out, n);
}
