// broken: the "tiled" kernel reads its row of A and column of B straight from global memory, like the naive one, with no tile in shared memory: right, and fast enough on a GPU whose L1 cache catches the reuse.
// fails: Tiled.SquareSizesMatchCpu
// expect: step 2 \(matmul_tiled\) .*no kernel of yours used shared memory \(`tiled_kernel` used 0 B
// (The rest is the reference solution. The kernel and the function that launches it are both
// replaced: a renamed kernel alone would leave the solution's launcher calling the solution's.)
#include "shared_matmul.h"
#define tiled_kernel reference_tiled_kernel
#define matmul_tiled reference_matmul_tiled
#include "solutions/06-shared-matmul/shared_matmul.cu"
#undef tiled_kernel
#undef matmul_tiled
#include "solutions/06-shared-matmul/register_blocked.cu"

__global__ void tiled_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  const int col = blockIdx.x * kTile + threadIdx.x, row = blockIdx.y * kTile + threadIdx.y;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[static_cast<size_t>(row) * k + p] * b[static_cast<size_t>(p) * n + col];
  c[static_cast<size_t>(row) * n + col] = sum;
}

void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  launch_per_element(tiled_kernel, a, b, c, m, n, k);
}
