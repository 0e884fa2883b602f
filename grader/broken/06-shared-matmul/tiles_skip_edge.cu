// broken: like the seed's kernel, the tiled kernel loads only elements inside the matrices and
// leaves the rest of each tile as it was: right when every size is a multiple of the tile.
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
    if (row < m && t + tx < k) tile_a[ty][tx] = a[static_cast<size_t>(row) * k + t + tx];
    if (t + ty < k && col < n) tile_b[ty][tx] = b[static_cast<size_t>(t + ty) * n + col];
    __syncthreads();
    for (int p = 0; p < kTile; ++p) sum += tile_a[ty][p] * tile_b[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<size_t>(row) * n + col] = sum;
}

void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  launch_per_element(tiled_kernel, a, b, c, m, n, k);  // the solution's launch, with this kernel
}
