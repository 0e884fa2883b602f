// broken: the tiled kernel's products and both barriers sit inside `if (row < m && col < n)`,
// so the threads outside C skip __syncthreads() and race ahead, overwriting tiles the others
// still need (on Volta and newer the barrier then waits only until they exit; synccheck there
// does not report it, the edge blocks' results are wrong).
// fails: Tiled.OddShapesMatchCpu
// expect: values differ from the CPU reference
#include "shared_matmul.h"
#define tiled_kernel reference_tiled_kernel
#define matmul_tiled reference_matmul_tiled
#include "solutions/06-shared-matmul/shared_matmul.cu"
#undef tiled_kernel
#undef matmul_tiled
#include "solutions/06-shared-matmul/register_blocked.cu"

__global__ void tiled_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float tile_a[kTile][kTile];
  __shared__ float tile_b[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * kTile + tx, row = blockIdx.y * kTile + ty;
  float sum = 0.0f;
  for (int t = 0; t < k; t += kTile) {
    tile_a[ty][tx] = (row < m && t + tx < k) ? a[static_cast<size_t>(row) * k + t + tx] : 0.0f;
    tile_b[ty][tx] = (t + ty < k && col < n) ? b[static_cast<size_t>(t + ty) * n + col] : 0.0f;
    if (row < m && col < n) {
      __syncthreads();
      for (int p = 0; p < kTile; ++p) sum += tile_a[ty][p] * tile_b[p][tx];
      __syncthreads();
    }
  }
  if (row < m && col < n) c[static_cast<size_t>(row) * n + col] = sum;
}

void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  launch_per_element(tiled_kernel, a, b, c, m, n, k);  // the solution's launch, with this kernel
}
