// broken: for large arrays, runs the reduction on a private non-blocking stream and returns
// without waiting, so a timer on the default stream sees almost nothing
// fails: SumSpeed.ShuffleVsCub
// expect: not ready when the call returned
// (The rest is the reference solution.)
#include "reduction.h"
#define sum_shuffle reference_sum_shuffle
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_shuffle

void sum_shuffle(const float* x, int n, float* sum) {
  if (n < (1 << 20)) return reference_sum_shuffle(x, n, sum);
  static cudaStream_t side = [] {
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return stream;
  }();
  CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(float), side));
  const int n4 = n / 4;  // cudaMalloc'd arrays are 16-byte aligned
  sum_shuffle_kernel<<<4 * multiprocessors(), kThreadsPerBlock, 0, side>>>(
      x, 0, reinterpret_cast<const float4*>(x), n4, x + 4 * n4, n - 4 * n4, sum);
  CUDA_CHECK_LAUNCH();
}
