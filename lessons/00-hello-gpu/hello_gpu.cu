// Lesson 00: hello, GPU. Read README.md first: each TODO(step N) below is "Step N" there.
#include "hello_gpu.h"

#include "stepwise/check.h"
#include "stepwise/todo.h"

DeviceSummary query_device(int device) {
  // TODO(step 1): declare a cudaDeviceProp, fill it with cudaGetDeviceProperties(&properties,
  // device) wrapped in CUDA_CHECK(...), and return a DeviceSummary made of its fields name,
  // major, minor, multiProcessorCount, totalGlobalMem, maxThreadsPerBlock, warpSize and
  // l2CacheSize. Delete the line below when you are done.
  STEPWISE_TODO(1);
}

__global__ void global_index_kernel(int* out, int n) {
  // TODO(step 2): compute this thread's global index i = blockIdx.x * blockDim.x + threadIdx.x;
  // if i < n, write out[i] = i. (The last block can reach past n: those threads do nothing.)
}

void write_global_index(int* out, int n, int threads_per_block) {
  // TODO(step 2): return early when n == 0; compute the number of blocks, n / threads_per_block
  // rounded up; launch global_index_kernel<<<blocks, threads_per_block>>>(out, n) and check
  // the launch with CUDA_CHECK_LAUNCH() on the next line. Delete the line below when done.
  STEPWISE_TODO(2);
}

__global__ void block_and_thread_kernel(int* block_of, int* thread_of, int n) {
  // TODO(step 3): the same global index and bounds check as in step 2; write blockIdx.x to
  // block_of[i] and threadIdx.x to thread_of[i].
}

void write_block_and_thread(int* block_of, int* thread_of, int n, int threads_per_block) {
  // TODO(step 3): the same launch as in step 2, with block_and_thread_kernel, checked with
  // CUDA_CHECK_LAUNCH(). Delete the line below when you are done.
  STEPWISE_TODO(3);
}
