#pragma once
// Given helpers for this lesson's hit-counting kernels: a block's sum (lesson 07 builds it step by
// step), a grid size for grid-stride loops, and the launch that turns hits into an estimate of pi.
// Only small headers: every file of the lesson includes this one, and <algorithm> and
// stepwise/buffers.h (<vector>) added a fifth of a second to each of its compiles.
#include <cuda_runtime.h>

#include <cstddef>

#include "stepwise/check.h"

constexpr int kThreadsPerBlock = 256;

// The sum of `value` over the calling block; thread 0 gets the total, the other threads get
// part sums. Every thread of the block must call it (it waits at __syncthreads), and only once
// per kernel (a second call would reuse its shared memory without a barrier). First each warp
// adds its 32 values by shuffles, then warp 0 adds the warps' sums from shared memory.
__device__ inline unsigned long long block_sum(unsigned long long value) {
  __shared__ unsigned long long warp_sums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = (blockDim.x + 31) / 32;
    value = lane < warps ? warp_sums[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

// As many blocks of kThreadsPerBlock as the GPU can run at once (enough to keep every
// multiprocessor busy), but no more than `needed`. For grid-stride kernels.
template <typename Kernel>
int blocks_to_fill_gpu(Kernel kernel, std::size_t needed) {
  int device = 0, multiprocessors = 0, blocks_per_multiprocessor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_multiprocessor, kernel, kThreadsPerBlock, 0));
  const std::size_t resident = static_cast<std::size_t>(multiprocessors) * blocks_per_multiprocessor;
  const std::size_t blocks = needed < resident ? needed : resident;
  return blocks > 0 ? static_cast<int>(blocks) : 1;
}

// The hit counter of pi_from_hits: one number in GPU memory, freed when it goes out of scope, also
// when an exception leaves early.
class HitCounter {
 public:
  HitCounter() { CUDA_CHECK(cudaMalloc(&count_, sizeof(unsigned long long))); }
  ~HitCounter() { cudaFree(count_); }
  HitCounter(const HitCounter&) = delete;
  HitCounter& operator=(const HitCounter&) = delete;
  unsigned long long* data() { return count_; }

 private:
  unsigned long long* count_ = nullptr;
};

// Monte Carlo pi from a hit-counting kernel whose last two arguments are n and the counter:
// launches `kernel` on enough blocks for `threads_needed` grid-stride threads (args first),
// with the counter zeroed, and returns 4 * hits / n once the GPU is done.
template <typename Kernel, typename... Args>
double pi_from_hits(Kernel kernel, std::size_t threads_needed, std::size_t n, Args... args) {
  HitCounter hits;
  CUDA_CHECK(cudaMemset(hits.data(), 0, sizeof(unsigned long long)));
  const int blocks = blocks_to_fill_gpu(kernel, (threads_needed + kThreadsPerBlock - 1) / kThreadsPerBlock);
  kernel<<<blocks, kThreadsPerBlock>>>(args..., n, hits.data());
  CUDA_CHECK_LAUNCH();
  unsigned long long count = 0;
  CUDA_CHECK(cudaMemcpy(&count, hits.data(), sizeof(count), cudaMemcpyDeviceToHost));  // waits for the kernel
  return 4.0 * static_cast<double>(count) / static_cast<double>(n);
}
