// Lesson 01: vector add. Read README.md first: each TODO(step N) below is "Step N" there.
#include "vector_add.h"

#include "stepwise/check.h"
#include "stepwise/todo.h"

__global__ void add_kernel(const float* a, const float* b, float* out, int n) {
  // TODO(step 1): compute this thread's global index from blockIdx.x, blockDim.x and
  // threadIdx.x; if it is inside the array (< n), write the sum of a and b there.
}

void vector_add(const float* a, const float* b, float* out, int n) {
  // TODO(step 1): return early when n == 0; launch add_kernel with blocks of 256 threads and
  // enough blocks to cover all n elements (round up), then check the launch with
  // CUDA_CHECK_LAUNCH(). Delete the line below when you are done.
  STEPWISE_TODO(1);
}

__global__ void add_grid_stride_kernel(const float* a, const float* b, float* out, int n) {
  // TODO(step 2): start at this thread's global index and step by the number of threads in
  // the whole grid (blockDim.x * gridDim.x) while the index is < n.
}

void vector_add_grid_stride(const float* a, const float* b, float* out, int n) {
  // TODO(step 2): launch add_grid_stride_kernel with a grid sized to fill the GPU (e.g. a few
  // blocks per multiprocessor; cudaDeviceGetAttribute gives cudaDevAttrMultiProcessorCount),
  // never more blocks than n needs, then CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(2);
}
