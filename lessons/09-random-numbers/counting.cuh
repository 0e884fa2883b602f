#pragma once
// Given helpers for this lesson's counting kernels (lesson 07 builds the same sum step by step).
#include <cuda_runtime.h>

#include <algorithm>

#include "stepwise/check.h"

constexpr int kThreadsPerBlock = 256;

// The sum of `value` over the calling block; thread 0 gets the total, the other threads get
// part sums. Every thread of the block must call it (it waits at __syncthreads). First each
// warp adds its 32 values by shuffles, then warp 0 adds the warps' sums from shared memory.
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
  return static_cast<int>(std::max<std::size_t>(1, std::min(needed, resident)));
}
