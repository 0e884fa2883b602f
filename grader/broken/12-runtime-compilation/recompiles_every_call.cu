// broken: evaluate_polynomial compiles its kernel on every call instead of asking the cache
// fails: PolynomialSpeed.SpecialisedBeatsGeneric
// expect: too slow
// Every result is right; every call spends tens of milliseconds in NVRTC. (The rest is the
// reference solution.)
#include "polynomial.h"
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/multiply_them.cu"
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#define evaluate_polynomial reference_evaluate_polynomial
#include "solutions/12-runtime-compilation/polynomial.cu"
#undef evaluate_polynomial

void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n) {
  const Kernel kernel = compile_kernel(polynomial_source(coefficients), kPolynomialKernelName);
  if (n == 0) return;
  void* arguments[] = {&x, &out, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), dim3((n + 255) / 256), dim3(256), arguments));
}
