// broken: the kernel's index is threadIdx.x alone, so every block computes the same first 256 elements and the rest of the output is never written.
// fails: ExpArray.MatchesCpuAtEverySize
// expect: values differ from the CPU reference.*never written
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#define exp_array reference_exp_array
#include "solutions/02-elementwise-exp/elementwise_exp.cu"
#undef exp_array
#include "solutions/02-elementwise-exp/exp_timed.cu"

__global__ void thread_index_only_exp_kernel(const float* x, float* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = expf(x[i]);
}

void exp_array(const float* x, float* out, int n) {
  if (n == 0) return;
  thread_index_only_exp_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}
