// Broken on purpose: the kernel records blockDim.x (the block's size) where it should record
// blockIdx.x (the block's number). (The rest is the reference solution.)
#include "hello_gpu.h"
#define block_and_thread_kernel reference_block_and_thread_kernel
#include "solutions/00-hello-gpu/hello_gpu.cu"
#undef block_and_thread_kernel

__global__ void block_and_thread_kernel(int* block_of, int* thread_of, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    block_of[i] = blockDim.x;
    thread_of[i] = threadIdx.x;
  }
}
