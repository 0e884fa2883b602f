// Broken on purpose: the kernel has no bounds check, so the threads of the last block that lie
// past n write past the end of the output. (The rest is the reference solution.)
#include "hello_gpu.h"
#define global_index_kernel reference_global_index_kernel
#include "solutions/00-hello-gpu/hello_gpu.cu"
#undef global_index_kernel

__global__ void global_index_kernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
}
