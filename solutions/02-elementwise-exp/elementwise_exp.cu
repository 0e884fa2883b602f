// Lesson 02 reference solution: the exponential of every element, accurate (expf) and fast
// (__expf). The straightforward code for the README's steps: lesson 01's one-thread-per-element
// kernel with a math function inside. tuned/elementwise_exp_float4.cu is a faster version
// (README: "The tuned version").
#include "elementwise_exp.h"

#include "stepwise/check.h"

namespace {
constexpr int kThreadsPerBlock = 256;
}

// Step 1: thread i of the whole grid computes element i with expf, CUDA's accurate exponential
// (at most 2 ulp from the correctly rounded result).
__global__ void exp_kernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = expf(x[i]);  // the last block reaches past n: those threads do nothing
}

void exp_array(const float* x, float* out, int n) {
  if (n == 0) return;  // a grid of zero blocks is an invalid launch
  // Round up; not (n + 255) / 256, whose n + 255 overflows int for n past INT_MAX - 255.
  const int blocks = (n - 1) / kThreadsPerBlock + 1;
  exp_kernel<<<blocks, kThreadsPerBlock>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}

// Step 2: the same with __expf, the intrinsic: 2^(x * log2(e)) on the special function unit,
// two instructions instead of about ten, and less accurate as |x| grows.
__global__ void fast_exp_kernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __expf(x[i]);
}

void exp_array_fast(const float* x, float* out, int n) {
  if (n == 0) return;
  const int blocks = (n - 1) / kThreadsPerBlock + 1;
  fast_exp_kernel<<<blocks, kThreadsPerBlock>>>(x, out, n);
  CUDA_CHECK_LAUNCH();
}
