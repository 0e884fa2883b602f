// broken: the generated kernel's bounds check is `i > n`, so thread n reads and writes one past the end
// fails: Polynomial.MatchesFloatHornerBitForBit
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "polynomial.h"
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/multiply_them.cu"
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#define polynomial_source reference_polynomial_source
#define evaluate_polynomial reference_evaluate_polynomial
#include "solutions/12-runtime-compilation/polynomial.cu"
#undef polynomial_source
#undef evaluate_polynomial

std::string polynomial_source(const std::vector<float>& coefficients) {
  std::string source = reference_polynomial_source(coefficients);
  source.replace(source.find("if (i >= n)"), 11, "if (i > n)");
  return source;
}

void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n) {
  const Kernel kernel = cache.get(polynomial_source(coefficients), kPolynomialKernelName);
  if (n == 0) return;
  void* arguments[] = {&x, &out, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), dim3((n + 255) / 256), dim3(256), arguments));
}
