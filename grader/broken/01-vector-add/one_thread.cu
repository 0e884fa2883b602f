// broken: correct, but one GPU thread does all the work, so it is far slower than the hardware allows.
// fails: VectorAddSpeed.OneThreadPerElement
// expect: too slow for '01-vector-add/VectorAddSpeed.OneThreadPerElement'
// (The rest is the reference solution.)
#include "vector_add.h"
#define add_kernel reference_add_kernel
#define vector_add reference_vector_add
#include "solutions/01-vector-add/vector_add.cu"
#undef add_kernel
#undef vector_add

__global__ void add_kernel(const float* a, const float* b, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

void vector_add(const float* a, const float* b, float* out, int n) {
  if (n == 0) return;
  add_kernel<<<1, 1>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
