#pragma once
// Lesson 12: the two polynomial kernels that nvcc compiles ahead of time, for comparison with the
// kernel you compile at run time (step 4). Included by the demo and the grader; not yours to
// change.
//   evaluate_polynomial_generic      any coefficients, read from GPU memory, any degree: the
//                                    kernel you would write without runtime compilation
//   evaluate_fixed_polynomial_aot    one polynomial known when the program is built, its
//                                    coefficients constants in the code: what the runtime-
//                                    compiled kernel should match
#include <utility>
#include <vector>

#include "stepwise/check.h"

namespace polynomial_aot {

constexpr int kThreadsPerBlock = 256;

// Rounded up, for n >= 1; not (n + 255) / 256, whose n + 255 overflows int for n past INT_MAX - 255.
inline int blocks_for(int n) { return (n - 1) / kThreadsPerBlock + 1; }

// The loop runs a number of times known only at run time, and every step loads a coefficient.
// [docs:generic-horner]
__global__ void generic_kernel(const float* __restrict__ coefficients, int degree, const float* __restrict__ x,
                               float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  float acc = coefficients[degree];
  for (int k = degree - 1; k >= 0; --k) acc = fmaf(acc, v, coefficients[k]);
  out[i] = acc;
}
// [docs:end]

// The fixed polynomial: c[k] = (-1)^k / (k + 1) up to degree kFixedDegree, the start of the
// series of ln(1 + x) / x. Coefficient<K>::value is a compile-time constant.
constexpr int kFixedDegree = 48;
template <int K>
struct Coefficient {
  static constexpr float value = (K % 2 == 0 ? 1.0f : -1.0f) / (K + 1);
};

// Horner's rule unrolled by the compiler: fmaf(acc, v, c[K]) for K = Degree - 1 down to 0.
template <int K>
__device__ __forceinline__ float horner_from(float acc, float v) {
  if constexpr (K < 0) {
    return acc;
  } else {
    return horner_from<K - 1>(fmaf(acc, v, Coefficient<K>::value), v);
  }
}

__global__ void fixed_kernel(const float* __restrict__ x, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = horner_from<kFixedDegree - 1>(Coefficient<kFixedDegree>::value, x[i]);
}

template <int... K>
std::vector<float> coefficients_of(std::integer_sequence<int, K...>) {
  return {Coefficient<K>::value...};
}

}  // namespace polynomial_aot

// The fixed polynomial's coefficients, c[0] first, as the host sees them.
inline std::vector<float> fixed_polynomial_coefficients() {
  return polynomial_aot::coefficients_of(std::make_integer_sequence<int, polynomial_aot::kFixedDegree + 1>{});
}

// out[i] = p(x[i]) with `degree + 1` coefficients in device memory; device arrays; returns
// without waiting. n == 0 launches nothing.
inline void evaluate_polynomial_generic(const float* coefficients, int degree, const float* x, float* out, int n) {
  if (n == 0) return;
  polynomial_aot::generic_kernel<<<polynomial_aot::blocks_for(n), polynomial_aot::kThreadsPerBlock>>>(
      coefficients, degree, x, out, n);
  CUDA_CHECK_LAUNCH();
}

// out[i] = p(x[i]) for the fixed polynomial; device arrays; returns without waiting.
inline void evaluate_fixed_polynomial_aot(const float* x, float* out, int n) {
  if (n == 0) return;
  polynomial_aot::fixed_kernel<<<polynomial_aot::blocks_for(n), polynomial_aot::kThreadsPerBlock>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}
