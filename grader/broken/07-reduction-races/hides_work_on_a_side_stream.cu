// broken: for the speed check's large array the reduction runs on a non-blocking stream of its own and the call returns without waiting, so events on the default stream see no work and the sum is not ready when the call returns.
// fails: SumSpeed.ShuffleVsCub
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "reduction.h"
#define sum_shuffle reference_sum_shuffle
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_shuffle

void sum_shuffle(const float* x, int n, float* sum) {
  if (n <= broken::kSpeedCheckSize) return reference_sum_shuffle(x, n, sum);
  const cudaStream_t side = broken::private_stream();
  CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(float), side));
  const int n4 = n / 4;  // cudaMalloc'd arrays start on a 16-byte boundary
  sum_shuffle_kernel<<<4 * multiprocessors(), kThreadsPerBlock, 0, side>>>(
      x, 0, reinterpret_cast<const float4*>(x), n4, x + 4 * n4, n - 4 * n4, sum);
  CUDA_CHECK_LAUNCH();
}
