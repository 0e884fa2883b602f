// broken: the naive kernel indexes A and B as if transposed, a[p * m + row] and b[col * k + p]:
// it computes (B A)^T, which equals A B only for symmetric inputs.
// fails: Naive.SquareSizesMatchCpu
// expect: values differ from the CPU reference
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
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[static_cast<size_t>(p) * m + row] * b[static_cast<size_t>(col) * k + p];
  c[static_cast<size_t>(row) * n + col] = sum;
}

void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
  launch_per_element(naive_kernel, a, b, c, m, n, k);  // the solution's launch, with this kernel
}
