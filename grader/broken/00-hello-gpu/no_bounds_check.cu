// broken: the kernel has no bounds check, so the threads of the last block that lie past n write past the end of the output.
// fails: GlobalIndex.EveryThreadWritesItsIndex
// expect: wrote past the end of the output: element [0-9]+
// (The rest is the reference solution.)
#include "hello_gpu.h"
// Both the kernel and the function that launches it are replaced: a renamed kernel alone would
// leave the solution's launcher calling the solution's kernel.
#define global_index_kernel reference_global_index_kernel
#define write_global_index reference_write_global_index
#include "solutions/00-hello-gpu/hello_gpu.cu"
#undef global_index_kernel
#undef write_global_index

__global__ void global_index_kernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
}

void write_global_index(int* out, int n, int threads_per_block) {
  if (n == 0) return;
  global_index_kernel<<<blocks_for(n, threads_per_block), threads_per_block>>>(out, n);
  CUDA_CHECK_LAUNCH();
}
