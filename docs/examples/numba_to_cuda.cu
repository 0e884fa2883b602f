// The examples of docs/numba-pycuda-to-cuda-cpp.md, each beside its Numba form there. Compiled,
// never run: the guide shows the marked regions, and lint/docs-code checks they are shown as is.
#include <cuda_runtime.h>

#include <vector>

#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"

// [docs:scale-kernel]
__global__ void scale(const float* x, float factor, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * factor;
}
// [docs:end]

// [docs:launch]
void launch(const float* d_x, float* d_out, int n) {
  if (n == 0) return;
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;  // n / threads, rounded up
  scale<<<blocks, threads>>>(d_x, 2.0f, d_out, n);
  CUDA_CHECK_LAUNCH();
}
// [docs:end]

// [docs:runtime-copies]
std::vector<float> scale_with_runtime_calls(const std::vector<float>& x) {
  const int n = static_cast<int>(x.size());
  const int threads = 256, blocks = (n + threads - 1) / threads;
  std::vector<float> out(n);
  float *d_x, *d_out;                                        // plain CUDA runtime
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<blocks, threads>>>(d_x, 2.0f, d_out, n);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_out));
  return out;
}
// [docs:end]

// [docs:buffer-copies]
std::vector<float> scale_with_buffers(const std::vector<float>& x) {
  const int n = static_cast<int>(x.size());
  const int threads = 256, blocks = (n + threads - 1) / threads;
  auto d_x = stepwise::DeviceBuffer<float>::from_host(x);   // the course's buffers
  stepwise::DeviceBuffer<float> d_out(n);
  scale<<<blocks, threads>>>(d_x.data(), 2.0f, d_out.data(), n);
  CUDA_CHECK_LAUNCH();
  std::vector<float> out = d_out.to_host();                  // freed automatically at end of scope
  return out;
}
// [docs:end]

// [docs:row-kernel]
__global__ void row_recurrence(const float* in, float* out, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float value = 0.0f;
  for (int c = 0; c < cols; ++c) {
    value = value * in[row * cols + c] + 1.0f;    // any per-row recurrence
    out[row * cols + c] = value;
  }
}
// [docs:end]

// [docs:shared-tile]
__global__ void reverse_each_block(const float* in, float* out) {   // blocks of 256 threads
  __shared__ float tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();                       // wait until every thread of the block has written
  out[i] = tile[blockDim.x - 1 - threadIdx.x];
}
// [docs:end]

// [docs:atomic-histogram]
__global__ void histogram(const int* values, int* counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[values[i]], 1);   // many threads may add to the same bin
}
// [docs:end]

// [docs:event-timer]
float time_scale(const float* d_x, float* d_out, int n) {
  const int threads = 256, blocks = (n + threads - 1) / threads;
  scale<<<blocks, threads>>>(d_x, 2.0f, d_out, n);   // warm-up: module loading, clocks
  CUDA_CHECK_LAUNCH();
  stepwise::EventTimer timer;
  timer.start();
  scale<<<blocks, threads>>>(d_x, 2.0f, d_out, n);
  CUDA_CHECK_LAUNCH();
  const float ms = timer.stop();                      // waits for the GPU, returns milliseconds
  return ms;
}
// [docs:end]
