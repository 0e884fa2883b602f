// broken: the "register-blocked" multiply is cublasSgemm (through matmul_cublas): right, and as fast as the library, but no kernel of the student's runs.
// fails: RegisterBlocked.SquareSizesMatchCpu
// expect: step 4 \(matmul_register_blocked\) ran `[^`]*` \(cuBLAS\) and no kernel of yours
// (The rest is the reference solution.)
#include "shared_matmul.h"
#define matmul_register_blocked reference_matmul_register_blocked
#include "solutions/06-shared-matmul/register_blocked.cu"
#undef matmul_register_blocked
#include "solutions/06-shared-matmul/shared_matmul.cu"

void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k) {
  matmul_cublas(a, b, c, m, n, k);
}
