// Lesson 02: the exponential of every element. Read README.md first: each TODO(step N) below is
// "Step N" there.
#include "elementwise_exp.h"

#include "stepwise/check.h"
#include "stepwise/todo.h"

__global__ void exp_kernel(const float* x, float* out, int n) {
  // TODO(step 1): as in lesson 01: compute this thread's global index i from blockIdx.x,
  // blockDim.x and threadIdx.x; if i < n, store expf(x[i]) in out[i].
}

void exp_array(const float* x, float* out, int n) {
  // TODO(step 1): return early when n == 0; launch exp_kernel with blocks of 256 threads and
  // enough blocks to cover all n elements (round up), then check the launch with
  // CUDA_CHECK_LAUNCH(). Delete the line below when you are done.
  STEPWISE_TODO(1);
}

__global__ void fast_exp_kernel(const float* x, float* out, int n) {
  // TODO(step 2): the same as exp_kernel, but store __expf(x[i]), the fast intrinsic.
}

void exp_array_fast(const float* x, float* out, int n) {
  // TODO(step 2): launch fast_exp_kernel as exp_array launches exp_kernel (n == 0 launches
  // nothing), then CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(2);
}
