#pragma once
// Given, not an exercise: the seed's mistake, kept so that the demo can show what it does.
// Several threads read the same value, each adds its own term, and each writes its result
// back; the writes overwrite one another, and every term but the last one written is lost.
// Nothing crashes and no error is reported: the answer is just wrong, and often differently
// wrong from one run to the next. compute-sanitizer --tool racecheck reports these kernels
// only where the racing threads share shared memory; for global memory, as here, the wrong
// answer is the only sign.
#include "stepwise/check.h"

// The seed's first GPU version of the stencil: one block per output, one thread per term, all
// threads of the block adding into out[i] at once. out must hold zeros before the launch.
// [docs:racy-smooth]
__global__ void racy_smooth_kernel(const float* z, const float* a, float* out, int s) {
  const int i = blockIdx.x;
  const int k = threadIdx.x;  // this thread's term, 0 .. 2s
  float term = a[k] * z[i + 2 * s - k];
  if (k == 0 || k == 2 * s) term /= 2;
  out[i] = out[i] + term;  // read, add, write: another thread's write in between is lost
}
// [docs:end]

inline void racy_smooth(const float* z, const float* a, float* out, int n, int s) {
  if (n == 0) return;
  CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float) * n));
  racy_smooth_kernel<<<n, 2 * s + 1>>>(z, a, out, s);
  CUDA_CHECK_LAUNCH();
}

// The same mistake in a whole-array sum: every thread adds its element into *sum by hand.
__global__ void racy_sum_kernel(const float* x, int n, float* sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) *sum = *sum + x[i];
}

inline void racy_sum(const float* x, int n, float* sum) {
  CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(float)));
  if (n == 0) return;
  racy_sum_kernel<<<(n + 255) / 256, 256>>>(x, n, sum);
  CUDA_CHECK_LAUNCH();
}
