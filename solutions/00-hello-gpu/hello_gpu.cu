// Lesson 00 reference solution: device query, a first kernel, thread indexing, launch checks.
#include "hello_gpu.h"

#include "stepwise/check.h"

// Step 1: one call fills a cudaDeviceProp with everything the runtime knows about the GPU;
// we keep the few fields the course uses.
DeviceSummary query_device(int device) {
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));  // throws for a GPU that does not exist
  DeviceSummary summary;
  summary.name = properties.name;
  summary.major = properties.major;
  summary.minor = properties.minor;
  summary.multiprocessors = properties.multiProcessorCount;
  summary.global_memory_bytes = properties.totalGlobalMem;
  summary.max_threads_per_block = properties.maxThreadsPerBlock;
  summary.warp_size = properties.warpSize;
  summary.l2_cache_bytes = properties.l2CacheSize;
  return summary;
}

namespace {
// Enough blocks of threads_per_block threads to cover n >= 1 elements: n / threads_per_block,
// rounded up, so the last, partly filled block is not forgotten. Not (n + threads_per_block - 1)
// / threads_per_block, whose sum overflows int for n near INT_MAX.
int blocks_for(int n, int threads_per_block) { return (n - 1) / threads_per_block + 1; }
}  // namespace

// Step 2: every thread of the grid finds its own element from where it sits in the grid.
// [docs:global-index]
__global__ void global_index_kernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // Numba calls this cuda.grid(1)
  if (i < n) out[i] = i;  // the last block can reach past n: those threads do nothing
}

void write_global_index(int* out, int n, int threads_per_block) {
  if (n == 0) return;  // a grid of zero blocks is an invalid launch
  global_index_kernel<<<blocks_for(n, threads_per_block), threads_per_block>>>(out, n);
  CUDA_CHECK_LAUNCH();  // a rejected launch (e.g. 2048 threads per block) throws here
}
// [docs:end]

// Step 3: the same grid; each thread records its block and its place in the block.
__global__ void block_and_thread_kernel(int* block_of, int* thread_of, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    block_of[i] = blockIdx.x;
    thread_of[i] = threadIdx.x;
  }
}

void write_block_and_thread(int* block_of, int* thread_of, int n, int threads_per_block) {
  if (n == 0) return;
  block_and_thread_kernel<<<blocks_for(n, threads_per_block), threads_per_block>>>(block_of, thread_of, n);
  CUDA_CHECK_LAUNCH();
}
