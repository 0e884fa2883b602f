// broken: every call creates its own cuBLAS handle and destroys it afterwards, so each call pays
// the library's setup: right, and slow for all but the largest products.
// fails: CublasSpeed.SmallProductKeepsSetupOut
// expect: too slow for '06-shared-matmul/CublasSpeed.SmallProductKeepsSetupOut'
#include "shared_matmul.h"
#define matmul_cublas reference_matmul_cublas
#include "solutions/06-shared-matmul/shared_matmul.cu"
#undef matmul_cublas
#include "solutions/06-shared-matmul/register_blocked.cu"

void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  if (m == 0 || n == 0) return;
  cublasHandle_t handle = nullptr;
  cublas_check(cublasCreate(&handle), "cublasCreate");
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, std::max(k, 1), &zero, c, n),
               "cublasSgemm");
  cublas_check(cublasDestroy(handle), "cublasDestroy");
}
