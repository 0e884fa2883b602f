// broken: cuBLAS is called as if the matrices were column-major (m, n, k and A before B), so it
// multiplies the transposes and C comes out wrong (transposed, for square matrices).
// fails: Cublas.OddShapesMatchCpu
// expect: values differ from the CPU reference
#include "shared_matmul.h"
#define matmul_cublas reference_matmul_cublas
#include "solutions/06-shared-matmul/shared_matmul.cu"
#undef matmul_cublas
#include "solutions/06-shared-matmul/register_blocked.cu"

void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  if (m == 0 || n == 0) return;
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b,
                           std::max(k, 1), &zero, c, m),
               "cublasSgemm");
}
