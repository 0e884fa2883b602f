// broken: the kernel records blockDim.x (the block's size) where it should record blockIdx.x (the block's number).
// fails: BlockAndThread.EachElementKnowsItsBlockAndThread
// expect: block_of.i. must be blockIdx.x, which is i / threads_per_block
// (The rest is the reference solution.)
#include "hello_gpu.h"
// Both the kernel and the function that launches it are replaced: a renamed kernel alone would
// leave the solution's launcher calling the solution's kernel.
#define block_and_thread_kernel reference_block_and_thread_kernel
#define write_block_and_thread reference_write_block_and_thread
#include "solutions/00-hello-gpu/hello_gpu.cu"
#undef block_and_thread_kernel
#undef write_block_and_thread

__global__ void block_and_thread_kernel(int* block_of, int* thread_of, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    block_of[i] = blockDim.x;
    thread_of[i] = threadIdx.x;
  }
}

void write_block_and_thread(int* block_of, int* thread_of, int n, int threads_per_block) {
  if (n == 0) return;
  block_and_thread_kernel<<<blocks_for(n, threads_per_block), threads_per_block>>>(block_of, thread_of, n);
  CUDA_CHECK_LAUNCH();
}
