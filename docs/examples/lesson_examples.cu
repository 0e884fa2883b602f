// Examples the lesson READMEs show that are neither the solution's code nor the demo's: calls of
// a lesson's API as a reader would write them. Compiled, never run (see CMakeLists.txt).
#include <cuda_runtime.h>

#include "elementwise_exp.h"
#include "stepwise/check.h"
#include "vectorize.cuh"

// Lesson 01: one functor, two targets.
// [docs:vectorize-add]
struct Add {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};
// [docs:end]

void add_on_both_targets(const float* a, const float* b, float* out, const float* d_a,
                         const float* d_b, float* d_out, int n) {
  // [docs:vectorize-calls]
  vectorize(Target::cpu, Add{}, a, b, out, n);          // host pointers: a plain loop
  vectorize(Target::gpu, Add{}, d_a, d_b, d_out, n);    // device pointers: a grid-stride kernel
  // [docs:end]
}

// Lesson 02: the CUDA event calls behind stepwise::GpuEvent and EventTimer, written out.
float time_exp_array(const float* d_x, float* d_out, int n) {
  cudaEvent_t before, after;
  CUDA_CHECK(cudaEventCreate(&before));
  CUDA_CHECK(cudaEventCreate(&after));
  // [docs:raw-events]
  CUDA_CHECK(cudaEventRecord(before));      // a mark in the default stream's queue
  exp_array(d_x, d_out, n);                 // queued after it
  CUDA_CHECK(cudaEventRecord(after));
  CUDA_CHECK(cudaEventSynchronize(after));  // wait until the GPU has passed the second mark
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, before, after));
  // [docs:end]
  CUDA_CHECK(cudaEventDestroy(before));
  CUDA_CHECK(cudaEventDestroy(after));
  return ms;
}

// Lesson 03: 2-D grid-stride loops, on an image whose pixels each record their own index.
// [docs:grid-stride-2d]
__global__ void pixel_index_kernel(int* out, int width, int height) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x)
      out[y * width + x] = y * width + x;
}
// [docs:end]
