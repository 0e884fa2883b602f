// Lesson 06: matrix multiply, steps 1 and 2 (step 3, cuBLAS, is cublas_calls.cpp; step 4
// register_blocked.cu). Read README.md first: each TODO(step N) below is "Step N" there.
#include "shared_matmul.h"

#include "matmul_helpers.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

__global__ void naive_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  // TODO(step 1): one thread per element of C (row-major, m x n): the thread's column from the x
  // direction of the grid (so a warp reads neighbouring elements of B and writes neighbouring
  // elements of C), its row from y; threads outside C do nothing. The element is the float sum
  // over p of A(row, p) * B(p, col). Compute the indices in 64 bits: a C of more than 2^31
  // elements overflows an int at row * n + col, so make one factor a size_t,
  // static_cast<size_t>(row) * n + col (the grader checks a C of 2.3 billion elements).
}

void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  // TODO(step 1): return when m or n is 0; launch naive_kernel with one thread per element of C,
  // in blocks of kTile x kTile threads (matmul_helpers.h has the grid); check the launch. Delete
  // the line below.
  STEPWISE_TODO(1);
}

__global__ void tiled_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  // TODO(step 2): the same element of C per thread as step 1, computed a kTile x kTile tile at a
  // time from shared memory (README.md, "Tiled: reuse through shared memory"): for each tile
  // along k, the block's threads load one tile of A and one of B together, each thread one
  // element of each (zero where the tile sticks out of its matrix), and then each thread adds
  // its kTile products from the tiles. No thread may read a tile before it is complete, nor
  // overwrite one that others still read. Every thread runs the whole loop, also those outside
  // C; only the final write is skipped for them. The indices into A, B and C in 64 bits, as in
  // step 1.
}

void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  // TODO(step 2): as step 1, launching tiled_kernel. Delete the line below.
  STEPWISE_TODO(2);
}
