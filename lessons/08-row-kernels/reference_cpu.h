#pragma once
// Lesson 08 (given): the CPU references the grader and the demo compare with, in long double.
// They are written as plainly as possible, in the seed's own form, so that they are easy to
// trust; none of them is fast.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "ensemble.h"

// ---- The row functions of seed 004 ---------------------------------------------------------

// The seed's first function: out[k] = x + x^2 + ... + x^(k+1), for k = 0 .. cols-1.
inline std::vector<long double> power_sums_row_cpu(long double x, int cols) {
  std::vector<long double> out(cols);
  long double power = x, sum = 0;
  for (int k = 0; k < cols; ++k) {
    sum += power;
    out[k] = sum;
    power *= x;
  }
  return out;
}

// The seed's "actual function", as it wrote it: the probabilists' Hermite polynomials
// He_0 = 1, He_1 = x, He_i = x He_(i-1) - (i-1) He_(i-2), and then each divided by sqrt(i!).
// cols >= 2 (the seed's own condition). Long double holds He_i and i! for every cols the grader
// uses (127! is about 3e213).
inline std::vector<long double> hermite_row_cpu(long double x, int cols) {
  std::vector<long double> out(cols, 1.0L);
  out[1] = x;
  for (int i = 2; i < cols; ++i) out[i] = x * out[i - 1] - (i - 1) * out[i - 2];
  long double factorial = 1;
  for (int i = 2; i < cols; ++i) {
    factorial *= i;
    out[i] /= std::sqrt(factorial);
  }
  return out;
}

// ---- The ensemble (seed 003) ----------------------------------------------------------------

// The Lorenz-96 tendency of variable j: (x[j+1] - x[j-2]) x[j-1] - x[j] + F, indices around the
// ring. Real is long double for the grader's references, double for the CPU the speed checks time.
template <typename Real>
Real lorenz96_tendency_cpu(const std::vector<Real>& x, int j, Real forcing) {
  const int n = static_cast<int>(x.size());
  const Real next = x[(j + 1) % n], prev = x[(j + n - 1) % n], prev2 = x[(j + n - 2) % n];
  return (next - prev2) * prev - x[j] + forcing;
}

// One member integrated for `steps` classical RK4 steps, the state given and returned.
template <typename Real>
std::vector<Real> lorenz96_rk4_cpu(std::vector<Real> x, const Lorenz96& model, int steps) {
  const int n = static_cast<int>(x.size());
  const Real dt = static_cast<Real>(model.dt), forcing = static_cast<Real>(model.forcing);
  std::vector<Real> stage(n), k1(n), k2(n), k3(n), k4(n);
  auto tendencies = [&](const std::vector<Real>& at, std::vector<Real>& k) {
    for (int j = 0; j < n; ++j) k[j] = lorenz96_tendency_cpu(at, j, forcing);
  };
  for (int step = 0; step < steps; ++step) {
    tendencies(x, k1);
    for (int j = 0; j < n; ++j) stage[j] = x[j] + dt / 2 * k1[j];
    tendencies(stage, k2);
    for (int j = 0; j < n; ++j) stage[j] = x[j] + dt / 2 * k2[j];
    tendencies(stage, k3);
    for (int j = 0; j < n; ++j) stage[j] = x[j] + dt * k3[j];
    tendencies(stage, k4);
    for (int j = 0; j < n; ++j) x[j] += dt / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
  }
  return x;
}

// The whole ensemble, member after member, in the arithmetic of Out: member m's state is
// initial[m * model.size .. (m + 1) * model.size).
template <typename Out, typename Real>
std::vector<Out> ensemble_cpu(const std::vector<Real>& initial, int members, const Lorenz96& model, int steps) {
  const std::size_t n = static_cast<std::size_t>(model.size);
  std::vector<Out> out(members * n);
  for (int m = 0; m < members; ++m) {
    std::vector<Out> x(initial.begin() + m * n, initial.begin() + (m + 1) * n);
    x = lorenz96_rk4_cpu(x, model, steps);
    std::copy(x.begin(), x.end(), out.begin() + m * n);
  }
  return out;
}
