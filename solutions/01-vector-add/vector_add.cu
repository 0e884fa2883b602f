// Lesson 01 reference solution: vector add. The straightforward code for the README's steps;
// tuned/vector_add_float4.cu is a faster grid-stride version (README: "The tuned version").
#include "vector_add.h"

#include <algorithm>

#include "stepwise/check.h"

namespace {
constexpr int kThreadsPerBlock = 256;
}

// Step 1: thread i of the whole grid adds element i.
__global__ void add_kernel(const float* a, const float* b, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];  // the last block reaches past n: those threads do nothing
}

void vector_add(const float* a, const float* b, float* out, int n) {
  if (n == 0) return;  // a grid of zero blocks is an invalid launch
  // Round up; not (n + 255) / 256, whose n + 255 overflows int for n past INT_MAX - 255.
  const int blocks = (n - 1) / kThreadsPerBlock + 1;
  add_kernel<<<blocks, kThreadsPerBlock>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}

// Step 2: a grid-stride loop. Each thread starts at its global index and jumps by the number of
// threads in the grid, so any grid size covers any n.
// [docs:grid-stride-kernel]
__global__ void add_grid_stride_kernel(const float* a, const float* b, float* out, int n) {
  // 64 bits: near n = INT_MAX a thread's last step, i + stride, passes INT_MAX (an int wraps).
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = a[i] + b[i];
}
// [docs:end]

void vector_add_grid_stride(const float* a, const float* b, float* out, int n) {
  if (n == 0) return;  // a grid of zero blocks is an invalid launch
  int device = 0, multiprocessors = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  // 8 blocks of 256 threads per multiprocessor (2048 threads: all an H100 multiprocessor holds at
  // once): a grid sized to the GPU, each thread striding through many elements, and never more
  // blocks than n needs.
  const int needed = (n - 1) / kThreadsPerBlock + 1;  // rounded up, as in vector_add
  const int blocks = std::min(needed, 8 * multiprocessors);
  add_grid_stride_kernel<<<blocks, kThreadsPerBlock>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
