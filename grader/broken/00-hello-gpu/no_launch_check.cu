// broken: the launch is not checked, so a launch the GPU rejects (too many threads per block) returns as if all went well.
// fails: LaunchErrors.TooManyThreadsPerBlockThrows
// expect: check the launch with CUDA_CHECK_LAUNCH.. on the line after
// (The rest is the reference solution.)
#include "hello_gpu.h"
#define write_global_index reference_write_global_index
#include "solutions/00-hello-gpu/hello_gpu.cu"
#undef write_global_index

void write_global_index(int* out, int n, int threads_per_block) {
  if (n == 0) return;
  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  global_index_kernel<<<blocks, threads_per_block>>>(out, n);
}
