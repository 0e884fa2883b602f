// Broken on purpose: the kernel uses threadIdx.x alone as its index (as in a one-block PyCUDA
// example), so every block writes the first blockDim.x elements and the rest are never
// written. (The rest is the reference solution.)
#include "hello_gpu.h"
#define global_index_kernel reference_global_index_kernel
#include "solutions/00-hello-gpu/hello_gpu.cu"
#undef global_index_kernel

__global__ void global_index_kernel(int* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = i;
}
