// broken: the cuBLAS handle allows TF32 tensor cores, which round every input to 10 bits of
// mantissa: several times faster, and about 1e-4 wrong.
// fails: Cublas.OneHandleInPlainFp32:Cublas.SquareSizesMatchCpu
// expect: CUBLAS_DEFAULT_MATH
#include "shared_matmul.h"
// The solution's one handle is kept and switched to TF32 on first use; matmul_cublas makes sure
// that first use comes before any product.
#define cublas_handle reference_cublas_handle
#define matmul_cublas reference_matmul_cublas
#include "solutions/06-shared-matmul/shared_matmul.cu"
#undef cublas_handle
#undef matmul_cublas
#include "solutions/06-shared-matmul/register_blocked.cu"

cublasHandle_t cublas_handle() {
  static const cublasHandle_t handle = [] {
    const cublasHandle_t h = reference_cublas_handle();
    cublas_check(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH), "cublasSetMathMode");
    return h;
  }();
  return handle;
}

void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k) {
  cublas_handle();  // from here on the solution's handle computes in TF32
  reference_matmul_cublas(a, b, c, m, n, k);
}
