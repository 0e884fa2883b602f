// broken: the cuBLAS handle allows TF32 tensor cores, which round every input to 10 bits of
// mantissa: several times faster, and about 1e-4 wrong.
// fails: Cublas.OneHandleInPlainFp32:Cublas.SquareSizesMatchCpu
// expect: CUBLAS_DEFAULT_MATH
#include "shared_matmul.h"
#define cublas_handle reference_cublas_handle
#define matmul_cublas reference_matmul_cublas
#include "solutions/06-shared-matmul/shared_matmul.cu"
#undef cublas_handle
#undef matmul_cublas
#include "solutions/06-shared-matmul/register_blocked.cu"

cublasHandle_t cublas_handle() {
  static const cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    cublas_check(cublasCreate(&h), "cublasCreate");
    cublas_check(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH), "cublasSetMathMode");
    return h;
  }();
  return handle;
}

void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  if (m == 0 || n == 0) return;
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, std::max(k, 1), &zero, c, n),
               "cublasSgemm");
}
