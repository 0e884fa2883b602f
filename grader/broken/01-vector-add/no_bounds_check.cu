// broken: the kernel has no bounds check, so the threads of the last block that lie past n write past the end of the output.
// fails: VectorAdd.OneThreadPerElementMatchesCpu
// expect: wrote past the end of the output: element [0-9]+
// (The rest is the reference solution.)
#include "vector_add.h"
#define add_kernel reference_add_kernel
#define vector_add reference_vector_add
#include "solutions/01-vector-add/vector_add.cu"
#undef add_kernel
#undef vector_add

__global__ void add_kernel(const float* a, const float* b, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + b[i];
}

void vector_add(const float* a, const float* b, float* out, int n) {
  if (n == 0) return;
  add_kernel<<<(n + 255) / 256, 256>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
