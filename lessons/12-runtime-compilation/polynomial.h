#pragma once
// Lesson 12, step 4: a kernel specialised at run time. The polynomial
//   p(x) = c[0] + c[1] x + c[2] x^2 + ... + c[d] x^d      (d = coefficients.size() - 1)
// evaluated at every element by Horner's rule in float,
//   acc = c[d];  acc = fmaf(acc, x, c[k]) for k = d - 1 down to 0,
// with the coefficients written into the kernel's source as constants, so that the compiler
// sees them as it sees a literal 2.0f.
#include <string>
#include <vector>

#include "runtime_compilation.h"

// The name of the kernel polynomial_source defines.
constexpr const char* kPolynomialKernelName = "polynomial";

// Step 4: CUDA C++ source of
//   extern "C" __global__ void polynomial(const float* x, float* out, int n)
// setting out[i] = p(x[i]) for every i in [0, n), the coefficients written as exact float
// literals (every bit kept), the loop over k unrolled in the text. Needs at least one coefficient.
std::string polynomial_source(const std::vector<float>& coefficients);

// Step 4: out[i] = p(x[i]) on device arrays: the kernel for these coefficients from `cache`
// (compiled on the first call with these coefficients only), launched on the default stream
// for any n; returns without waiting. n == 0 launches nothing.
void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n);
