// How many blocks of a kernel fill the GPU: for grid-stride loops that size their grid to the
// device instead of to the data.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "stepwise/check.h"

namespace stepwise {

// As many blocks of `threads_per_block` as can be resident on the current GPU at once (enough to
// keep every multiprocessor busy), but no more than `needed`.
template <typename Kernel>
int blocks_to_fill_gpu(Kernel kernel, int threads_per_block, int needed) {
  int device = 0, multiprocessors = 0, blocks_per_multiprocessor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_multiprocessor, kernel, threads_per_block, 0));
  return std::min(needed, multiprocessors * blocks_per_multiprocessor);
}

}  // namespace stepwise
