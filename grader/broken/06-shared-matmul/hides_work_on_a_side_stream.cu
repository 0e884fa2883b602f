// broken: for large products the register-blocked kernel runs on a private non-blocking stream
// and the call returns without waiting: events on the default stream see almost no work.
// fails: MatmulSpeed.RegisterBlockedFractionOfCublas
// expect: results were not ready when the call returned
#include "grader/broken/tricks.h"
#include "shared_matmul.h"
#define matmul_register_blocked reference_matmul_register_blocked
#include "solutions/06-shared-matmul/register_blocked.cu"
#undef matmul_register_blocked
#include "solutions/06-shared-matmul/shared_matmul.cu"

void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k) {
  const bool large = static_cast<double>(m) * n * k > 1e9;
  if (!large || m % kBlockM != 0 || n % kBlockN != 0 || k % kBlockK != 0 || k == 0) {
    reference_matmul_register_blocked(a, b, c, m, n, k);
    return;
  }
  const dim3 grid(n / kBlockN, m / kBlockM);
  register_blocked_kernel<false><<<grid, kThreads, 0, broken::private_stream()>>>(a, b, c, m, n, k);
  CUDA_CHECK_LAUNCH();
}
