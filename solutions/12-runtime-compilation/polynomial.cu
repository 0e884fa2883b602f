// Lesson 12 reference solution, step 4: source written for one polynomial, compiled once.
#include "polynomial.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "stepwise/check.h"

namespace {

// A float as a hexadecimal literal, e.g. -0x1.555556p-2f: exact, unlike a decimal with too
// few digits.
std::string float_literal(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%af", static_cast<double>(value));
  return text;
}

}  // namespace

std::string polynomial_source(const std::vector<float>& coefficients) {
  if (coefficients.empty()) throw std::invalid_argument("polynomial_source: a polynomial needs a coefficient");
  const int degree = static_cast<int>(coefficients.size()) - 1;
  std::string source =
      "extern \"C\" __global__ void polynomial(const float* __restrict__ x, float* __restrict__ out, int n) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n"
      "  const float v = x[i];\n"
      "  float acc = " + float_literal(coefficients[degree]) + ";\n";
  for (int k = degree - 1; k >= 0; --k) source += "  acc = fmaf(acc, v, " + float_literal(coefficients[k]) + ");\n";
  source += "  out[i] = acc;\n}\n";
  return source;
}

void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n) {
  // Compiled on the first call with these coefficients, found in the cache afterwards.
  const Kernel kernel = cache.get(polynomial_source(coefficients), kPolynomialKernelName);
  if (n == 0) return;
  constexpr int kThreadsPerBlock = 256;
  const dim3 grid((n - 1) / kThreadsPerBlock + 1);  // rounded up; n + 255 would overflow int near INT_MAX
  void* arguments[] = {&x, &out, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), grid, dim3(kThreadsPerBlock), arguments));
}
