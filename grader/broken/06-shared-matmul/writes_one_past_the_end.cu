// broken: the naive kernel's bounds check lets one thread too many through: the thread just
// past the last element of C writes there.
// fails: Naive.OddShapesMatchCpu
// expect: wrote past the end of the output
#include "shared_matmul.h"
#define naive_kernel reference_naive_kernel
#define matmul_naive reference_matmul_naive
#include "solutions/06-shared-matmul/shared_matmul.cu"
#undef naive_kernel
#undef matmul_naive
#include "solutions/06-shared-matmul/register_blocked.cu"

__global__ void naive_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row == m - 1 && col == n) {  // one past the end of the last row: c[m * n]
    c[static_cast<size_t>(m) * n] = 0.0f;
    return;
  }
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[static_cast<size_t>(row) * k + p] * b[static_cast<size_t>(p) * n + col];
  c[static_cast<size_t>(row) * n + col] = sum;
}

void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
  launch_per_element(naive_kernel, a, b, c, m, n, k);  // the solution's launch, with this kernel
}
