// broken: evaluate_polynomial launches a kernel that nvcc built ahead of time (the coefficients passed as an argument) instead of the one compiled at run time: the results are right bit for bit, but nothing is specialised at run time
// fails: Polynomial.MatchesFloatHornerBitForBit
// expect: which nvcc built from your files
// (The rest is the reference solution.)
#include "polynomial.h"
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/multiply_them.cu"
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#define evaluate_polynomial reference_evaluate_polynomial
#include "solutions/12-runtime-compilation/polynomial.cu"
#undef evaluate_polynomial

struct Coefficients {
  float c[64];
  int count;
};

__global__ void nvcc_polynomial(Coefficients k, const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  float acc = k.c[k.count - 1];
  for (int j = k.count - 2; j >= 0; --j) acc = fmaf(acc, v, k.c[j]);
  out[i] = acc;
}

void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n) {
  if (coefficients.empty() || coefficients.size() > 64) {
    reference_evaluate_polynomial(cache, coefficients, x, out, n);
    return;
  }
  cache.get(polynomial_source(coefficients), kPolynomialKernelName);  // compiled, and left unused
  if (n == 0) return;
  Coefficients k{};
  std::copy(coefficients.begin(), coefficients.end(), k.c);
  k.count = static_cast<int>(coefficients.size());
  nvcc_polynomial<<<(n + 255) / 256, 256>>>(k, x, out, n);
  CUDA_CHECK_LAUNCH();
}
