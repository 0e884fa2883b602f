// Lesson 06, reference solution, step 3: matrix multiply with cuBLAS (a C++ file: only host code
// calls cuBLAS).
#include "shared_matmul.h"

#include <algorithm>

#include "cublas_helpers.h"

cublasHandle_t cublas_handle() {
  // A function-local static is created once, on the first call (thread-safely), and lives until
  // the program ends. Creating a handle allocates memory and loads kernels: far slower than a
  // small multiply, so it must not happen on every call.
  static const cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    cublas_check(cublasCreate(&h), "cublasCreate");
    // Plain FP32: the default, said explicitly. CUBLAS_TF32_TENSOR_OP_MATH would round the
    // inputs to 10-bit mantissas and run on tensor cores, several times faster and less exact.
    cublas_check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    return h;
  }();
  return handle;
}

// [docs:cublas-row-major]
void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  if (m == 0 || n == 0) return;
  // cuBLAS is column-major. Row-major C (m x n) is, read column-major, C^T (n x m), and
  // C^T = B^T * A^T, where row-major B and A read column-major are already B^T and A^T. So ask
  // for the n x m product of "B" (n x k, leading dimension n) and "A" (k x m, leading
  // dimension k): no copy, no transpose.
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a,
                           std::max(k, 1), &zero, c, n),
               "cublasSgemm");
}
// [docs:end]
