// broken: correct, but the whole array goes through one block of 256 threads, so one multiprocessor does all the work while the others idle.
// fails: ExpSpeed.AccurateNearCopyBandwidth
// expect: too slow for '02-elementwise-exp/ExpSpeed.AccurateNearCopyBandwidth'
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#define exp_array reference_exp_array
#include "solutions/02-elementwise-exp/elementwise_exp.cu"
#undef exp_array
#include "solutions/02-elementwise-exp/exp_timed.cu"

__global__ void one_block_exp_kernel(const float* x, float* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = expf(x[i]);
}

void exp_array(const float* x, float* out, int n) {
  if (n == 0) return;
  one_block_exp_kernel<<<1, 256>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}
