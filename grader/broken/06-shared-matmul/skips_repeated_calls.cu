// broken: the register-blocked multiply remembers the pointers and sizes of its last call and
// returns at once when called again with the same ones, as if C could not have changed.
// fails: MatmulSpeed.RegisterBlockedFractionOfCublas
// expect: the output of the timed call is wrong
#include "grader/broken/tricks.h"
#include "shared_matmul.h"
#define matmul_register_blocked reference_matmul_register_blocked
#include "solutions/06-shared-matmul/register_blocked.cu"
#undef matmul_register_blocked
#include "solutions/06-shared-matmul/shared_matmul.cu"

void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k) {
  if (broken::same_as_last_call(a, b, c, m, n, k)) return;
  reference_matmul_register_blocked(a, b, c, m, n, k);
}
