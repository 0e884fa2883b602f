// broken: write_global_index launches a fixed grid of 128 blocks whose threads stride through the array: every out[i] is right, but it is not the launch the step asks for (ceil(n / threads_per_block) blocks, one thread per element).
// fails: GlobalIndex.EveryThreadWritesItsIndex
// expect: step 2 \(write_global_index\) launched a grid of 128x1x1 blocks
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
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = i;
}

void write_global_index(int* out, int n, int threads_per_block) {
  if (n == 0) return;
  global_index_kernel<<<128, threads_per_block>>>(out, n);
  CUDA_CHECK_LAUNCH();
}
