// broken: for the speed checks' large arrays the kernel runs on a non-blocking stream of its own and the call returns without waiting: the timer sees no work, and the results are not ready when the call returns.
// fails: ExpSpeed.AccurateNearCopyBandwidth
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#include "grader/broken/tricks.h"
#define exp_array reference_exp_array
#include "solutions/02-elementwise-exp/elementwise_exp.cu"
#undef exp_array
#include "solutions/02-elementwise-exp/exp_timed.cu"

void exp_array(const float* x, float* out, int n) {
  if (n <= broken::kSpeedCheckSize) return reference_exp_array(x, out, n);
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  exp_kernel<<<blocks, kThreadsPerBlock, 0, broken::private_stream()>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}
