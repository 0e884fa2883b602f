// broken: for large inputs launches on a private non-blocking stream and returns without waiting
// fails: PolynomialSpeed.SpecialisedBeatsGeneric
// expect: results were not ready when the call returned
// Events on the default stream then time nothing. (The rest is the reference solution.)
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
  if (n <= broken::kSpeedCheckSize) return reference_evaluate_polynomial(cache, coefficients, x, out, n);
  const Kernel kernel = cache.get(polynomial_source(coefficients), kPolynomialKernelName);
  void* arguments[] = {&x, &out, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), dim3((n + 255) / 256), dim3(256), arguments, 0, broken::private_stream()));
}
