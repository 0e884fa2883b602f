// Lesson 12, step 4: a kernel written for one polynomial. Read README.md first.
#include "polynomial.h"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "stepwise/check.h"
#include "stepwise/todo.h"

std::string polynomial_source(const std::vector<float>& coefficients) {
  // TODO(step 4): throw std::invalid_argument when coefficients is empty. Write the source of
  //   extern "C" __global__ void polynomial(const float* __restrict__ x, float* __restrict__ out, int n)
  // with the index and bounds check of multiply_them, v = x[i], acc = the last coefficient, then
  // one line "acc = fmaf(acc, v, <c[k]>);" for each k from degree - 1 down to 0, and
  // out[i] = acc. Write each coefficient as a float literal that keeps every bit of it (a
  // hexadecimal one: README.md, "Specialising: constants the compiler can see" and "Hints").
  // Delete the line below.
  (void)coefficients;
  STEPWISE_TODO(4);
}

void evaluate_polynomial(KernelCache& cache, const std::vector<float>& coefficients, const float* x, float* out,
                         int n) {
  // TODO(step 4): get the kernel with cache.get(polynomial_source(coefficients),
  // kPolynomialKernelName); return when n == 0; launch it as multiply_them launches its kernel,
  // with the arguments {&x, &out, &n}. Delete the line below.
  (void)cache, (void)coefficients, (void)x, (void)out, (void)n;
  STEPWISE_TODO(4);
}
