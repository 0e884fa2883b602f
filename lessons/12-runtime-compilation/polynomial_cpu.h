#pragma once
// Lesson 12: the polynomial on the CPU, in double, and how far a float evaluation may be from it.
// Shared by the demo and the grader.
#include <cmath>
#include <cstddef>
#include <vector>

// p(x) by Horner's rule in double: exact at float precision.
inline double polynomial_reference(const std::vector<float>& c, float x) {
  double acc = c.back();
  for (std::size_t k = c.size() - 1; k-- > 0;) acc = acc * x + c[k];
  return acc;
}

// A bound on |float Horner - exact| at x: each of the d fused multiply-adds rounds once, and an
// error made at step k is carried on multiplied by x^k, so the total stays below
//   (2d + 1) * 2^-24 * (|c[0]| + |c[1]| |x| + ... + |c[d]| |x|^d)
// (Higham, "Accuracy and Stability of Numerical Algorithms", 5.1, with a margin of 2).
inline double polynomial_error_bound(const std::vector<float>& c, float x) {
  double magnitude = std::fabs(c.back());
  for (std::size_t k = c.size() - 1; k-- > 0;) magnitude = magnitude * std::fabs(x) + std::fabs(c[k]);
  const double degree = static_cast<double>(c.size() - 1);
  return (2 * degree + 1) * std::ldexp(1.0, -24) * magnitude + 1e-30;
}
