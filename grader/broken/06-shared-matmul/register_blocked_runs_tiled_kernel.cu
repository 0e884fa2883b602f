// broken: the "register-blocked" multiply launches step 2's tiled kernel (through matmul_tiled): right, with shared memory, but not a kernel of its own.
// fails: RegisterBlocked.SquareSizesMatchCpu
// expect: step 4 \(matmul_register_blocked\) .*ran `tiled_kernel`, the kernel of step 2 \(matmul_tiled\)
// (The rest is the reference solution.)
#include "shared_matmul.h"
#define matmul_register_blocked reference_matmul_register_blocked
#include "solutions/06-shared-matmul/register_blocked.cu"
#undef matmul_register_blocked
#include "solutions/06-shared-matmul/shared_matmul.cu"

void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k) {
  matmul_tiled(a, b, c, m, n, k);
}
