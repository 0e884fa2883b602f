// broken: the kernel's loop runs while `i <= n`, so it writes the element just past the end of the output.
// fails: ExpArray.MatchesCpuAtEverySize
// expect: wrote past the end of the output: element [0-9]+
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#define exp_array reference_exp_array
#include "solutions/02-elementwise-exp/elementwise_exp.cu"
#undef exp_array
#include "solutions/02-elementwise-exp/exp_timed.cu"

__global__ void exp_one_past_kernel(const float* x, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += gridDim.x * blockDim.x) out[i] = expf(x[i]);
}

void exp_array(const float* x, float* out, int n) {
  if (n == 0) return;
  exp_one_past_kernel<<<(n + kThreadsPerBlock) / kThreadsPerBlock, kThreadsPerBlock>>>(x, out, n);  // n + 1 elements
  CUDA_CHECK_LAUNCH();
}
