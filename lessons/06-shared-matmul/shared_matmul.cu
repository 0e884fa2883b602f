// Lesson 06: matrix multiply. Read README.md first: each TODO(step N) below is "Step N" there.
#include "shared_matmul.h"

#include <algorithm>

#include "matmul_helpers.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

__global__ void naive_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  // TODO(step 1): col = blockIdx.x * blockDim.x + threadIdx.x (x follows the columns, so a
  // warp reads neighbouring elements of B and writes neighbouring elements of C) and row
  // likewise with .y; return if row >= m or col >= n. Sum a[row * k + p] * b[p * n + col] over
  // p in a float, and write it to c[row * n + col]. Use size_t for the index products.
}

void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  // TODO(step 1): return when m or n is 0; launch naive_kernel on tile_grid(m, n) with
  // dim3(kTile, kTile) threads per block; CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(1);
}

__global__ void tiled_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  // TODO(step 2): two __shared__ float arrays [kTile][kTile], one for a tile of A, one for B.
  // tx, ty = threadIdx.x, .y; col = blockIdx.x * kTile + tx; row = blockIdx.y * kTile + ty.
  // For each tile t = 0, kTile, 2 * kTile, ... below k:
  //   - every thread stores A(row, t + tx) into tile_a[ty][tx] and B(t + ty, col) into
  //     tile_b[ty][tx], or 0.0f when that element is outside its matrix;
  //   - __syncthreads();
  //   - sum += tile_a[ty][p] * tile_b[p][tx] for p in [0, kTile);
  //   - __syncthreads();
  // Every thread runs the loop and both barriers, also those outside C. Only the write at the
  // end is guarded: if (row < m && col < n) c[row * n + col] = sum.
}

void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  // TODO(step 2): as step 1, launching tiled_kernel. Delete the line below.
  STEPWISE_TODO(2);
}

cublasHandle_t cublas_handle() {
  // TODO(step 3): a function-local static handle, made by a lambda that calls
  // cublas_check(cublasCreate(&h), ...) and sets CUBLAS_DEFAULT_MATH with cublasSetMathMode,
  // then returns h; return the static. It is created on the first call only. Delete the line
  // below.
  STEPWISE_TODO(3);
}

void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  // TODO(step 3): return when m or n is 0. Then one cublasSgemm through cublas_handle(), its
  // status checked with cublas_check(...). cuBLAS reads matrices column-major: a row-major
  // matrix is its transpose there, so ask for the product that, read column-major, is C^T
  // (= B^T * A^T), and work out from that which matrix goes first, the sizes and the leading
  // dimensions (never 0). Delete the line below.
  STEPWISE_TODO(3);
}
