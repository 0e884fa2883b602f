// Lesson 06, step 3: cuBLAS. Read README.md first: each TODO(step 3) below is "Step 3" there. A
// C++ file, not CUDA: only host code calls cuBLAS, and g++ alone compiles it in a fraction of
// nvcc's time.
#include "shared_matmul.h"

#include <algorithm>

#include "cublas_helpers.h"
#include "stepwise/todo.h"

cublasHandle_t cublas_handle() {
  // TODO(step 3): return one cuBLAS handle for the whole program, created on the first call
  // only (not on every call: creating one is slow), with its math mode set to plain FP32 (no
  // TF32 tensor-core math; README.md, "cuBLAS"). Check each cuBLAS call with cublas_check.
  // Delete the line below.
  STEPWISE_TODO(3);
}

void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  // TODO(step 3): return when m or n is 0. Then one cuBLAS single-precision matrix multiply
  // through cublas_handle(), its status checked with cublas_check. cuBLAS reads matrices
  // column-major: a row-major matrix is its transpose there, so ask for the product that, read
  // column-major, is C^T (= B^T * A^T), and work out from that which matrix goes first, the
  // sizes and the leading dimensions (never 0). Delete the line below.
  STEPWISE_TODO(3);
}
