// Lesson 06, reference solution: naive and tiled matrix multiply (cuBLAS: cublas_calls.cpp).
#include "shared_matmul.h"

#include "matmul_helpers.h"
#include "stepwise/check.h"

namespace {

using MatmulKernel = void (*)(const float* a, const float* b, float* c, int m, int n, int k);

// Steps 1 and 2 launch their kernels the same way: one thread per element of C, in blocks of
// kTile x kTile threads, nothing to launch for an empty C.
void launch_per_element(MatmulKernel kernel, const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  if (m == 0 || n == 0) return;
  kernel<<<tile_grid(m, n), dim3(kTile, kTile)>>>(a, b, c, m, n, k);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

// Thread (x, y) of the grid computes C's element in row y, column x: x follows threadIdx.x, so a
// warp reads 32 neighbouring elements of B's row p and writes 32 neighbours of C (coalesced).
// [docs:naive-kernel]
__global__ void naive_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[static_cast<size_t>(row) * k + p] * b[static_cast<size_t>(p) * n + col];
  c[static_cast<size_t>(row) * n + col] = sum;
}
// [docs:end]

void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
  launch_per_element(naive_kernel, a, b, c, m, n, k);
}

__global__ void tiled_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float tile_a[kTile][kTile];
  __shared__ float tile_b[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * kTile + tx;
  const int row = blockIdx.y * kTile + ty;

  float sum = 0.0f;
  for (int t = 0; t < k; t += kTile) {
    // Every thread loads one element of each tile, a zero where the tile sticks out of the
    // matrix, so that the products below need no bounds checks.
    tile_a[ty][tx] = (row < m && t + tx < k) ? a[static_cast<size_t>(row) * k + t + tx] : 0.0f;
    tile_b[ty][tx] = (t + ty < k && col < n) ? b[static_cast<size_t>(t + ty) * n + col] : 0.0f;
    __syncthreads();  // the tiles are complete before anyone reads them
    for (int p = 0; p < kTile; ++p) sum += tile_a[ty][p] * tile_b[p][tx];
    __syncthreads();  // everyone is done reading before the next tiles overwrite them
  }
  if (row < m && col < n) c[static_cast<size_t>(row) * n + col] = sum;
}

void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  launch_per_element(tiled_kernel, a, b, c, m, n, k);
}
