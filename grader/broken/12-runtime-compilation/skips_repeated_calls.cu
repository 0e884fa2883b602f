// broken: returns at once when called again with the same coefficients, pointers and size
// fails: PolynomialSpeed.SpecialisedBeatsGeneric
// expect: output of the timed call is wrong
// (The rest is the reference solution.)
#include "polynomial.h"
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/multiply_them.cu"
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#define evaluate_polynomial reference_evaluate_polynomial
#include "solutions/12-runtime-compilation/polynomial.cu"
#undef evaluate_polynomial

void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n) {
  static std::vector<float> last_coefficients;
  static const float* last_x = nullptr;
  static float* last_out = nullptr;
  static int last_n = -1;
  if (coefficients == last_coefficients && x == last_x && out == last_out && n == last_n) return;
  last_coefficients = coefficients, last_x = x, last_out = out, last_n = n;
  reference_evaluate_polynomial(cache, coefficients, x, out, n);
}
