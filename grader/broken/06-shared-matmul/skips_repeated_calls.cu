// broken: the register-blocked multiply remembers the pointers and sizes of its last call and
// returns at once when called again with the same ones, as if C could not have changed.
// fails: MatmulSpeed.RegisterBlockedFractionOfCublas
// expect: the output of the timed call is wrong
#include "shared_matmul.h"
#define matmul_register_blocked reference_matmul_register_blocked
#include "solutions/06-shared-matmul/register_blocked.cu"
#undef matmul_register_blocked
#include "solutions/06-shared-matmul/shared_matmul.cu"

void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k) {
  static const float *last_a = nullptr, *last_b = nullptr;
  static float* last_c = nullptr;
  static int last_m = -1, last_n = -1, last_k = -1;
  if (a == last_a && b == last_b && c == last_c && m == last_m && n == last_n && k == last_k) return;
  last_a = a, last_b = b, last_c = c, last_m = m, last_n = n, last_k = k;
  reference_matmul_register_blocked(a, b, c, m, n, k);
}
