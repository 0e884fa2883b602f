#pragma once
// The CPU reference of lesson 06: C = A * B in double, for float inputs, on one CPU thread. It is
// given, not an exercise: the demo and the grader check the GPU's results against it.
//
// Computed in double, its own rounding error (about k * 1e-16 of each sum) is far below float's,
// so any difference it shows is the GPU's. It is blocked for the cache: a textbook triple loop
// runs at a few hundred MFLOP/s once B no longer fits in cache, this at a few GFLOP/s, so the
// seed's 1600 x 1600 product takes a second or two rather than half a minute.
#include <algorithm>
#include <cstddef>
#include <vector>

// Rows first_row .. first_row + row_count - 1 of A * B (A m x k, B k x n, row-major), returned
// row-major as row_count x n doubles.
inline std::vector<double> cpu_matmul_rows(const std::vector<float>& a, const std::vector<float>& b, int n,
                                           int k, int first_row, int row_count) {
  // A block of B (kDepth rows x kWidth columns, 256 KB) stays in cache while every row of A
  // uses it; four rows of B at a time make each load and store of C's row serve four products.
  constexpr int kDepth = 128, kWidth = 512;
  std::vector<double> c(static_cast<std::size_t>(row_count) * n, 0.0);
  for (int j0 = 0; j0 < n; j0 += kWidth) {
    const int j1 = std::min(j0 + kWidth, n);
    for (int p0 = 0; p0 < k; p0 += kDepth) {
      const int p1 = std::min(p0 + kDepth, k);
      for (int i = 0; i < row_count; ++i) {
        double* c_row = &c[static_cast<std::size_t>(i) * n];
        const float* a_row = &a[static_cast<std::size_t>(first_row + i) * k];
        int p = p0;
        for (; p + 4 <= p1; p += 4) {
          const double a0 = a_row[p], a1 = a_row[p + 1], a2 = a_row[p + 2], a3 = a_row[p + 3];
          const float* b0 = &b[static_cast<std::size_t>(p) * n];
          const float* b1 = b0 + n;
          const float* b2 = b1 + n;
          const float* b3 = b2 + n;
          for (int j = j0; j < j1; ++j)  // vectorised by the compiler
            c_row[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
        }
        for (; p < p1; ++p) {
          const double a_ip = a_row[p];
          const float* b_row = &b[static_cast<std::size_t>(p) * n];
          for (int j = j0; j < j1; ++j) c_row[j] += a_ip * b_row[j];
        }
      }
    }
  }
  return c;
}

// All of A * B: m x n doubles, row-major.
inline std::vector<double> cpu_matmul(const std::vector<float>& a, const std::vector<float>& b, int m, int n,
                                      int k) {
  return cpu_matmul_rows(a, b, n, k, 0, m);
}
