#pragma once
// Given, not an exercise: the CPU side of lesson 07, used by the demo and by the grader. One
// loop for each computation, templated on the type it adds in: float gives the one-CPU-thread
// version the GPU races against, double and long double the references it is checked with.
#include <cmath>
#include <cstddef>

// The seed's smoothing loop (reduction.h, step 1) on one CPU thread: out[i] for i in [0, n).
template <typename Real>
void smooth_cpu(const float* z, const float* a, Real* out, int n, int s) {
  for (int i = 0; i < n; ++i) {
    const float* zi = z + i;
    Real acc = static_cast<Real>(a[0]) * zi[2 * s] / 2;
    for (int k = 1; k < 2 * s; ++k) acc += static_cast<Real>(a[k]) * zi[2 * s - k];
    acc += static_cast<Real>(a[2 * s]) * zi[0] / 2;
    out[i] = acc;
  }
}

// x[0] + ... + x[n-1], added in order. In long double (64 significant bits on x86) the sum of
// up to 2^31 floats is exact to about 2^-33 of sum |x|: nothing next to a float's 2^-24.
template <typename Real>
Real sum_cpu(const float* x, std::size_t n) {
  Real sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i];
  return sum;
}

// |x[0]| + ... + |x[n-1]|: what the rounding error of any float sum of x is measured against.
inline double sum_of_magnitudes(const float* x, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += std::fabs(static_cast<double>(x[i]));
  return sum;
}
