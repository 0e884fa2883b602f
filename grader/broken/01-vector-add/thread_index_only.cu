// broken: the grid-stride loop starts at threadIdx.x alone, so every block does the same elements, and it strides by one block: correct results, but each block repeats all the work.
// fails: VectorAddSpeed.GridStride
// expect: too slow for '01-vector-add/VectorAddSpeed.GridStride'
// (The rest is the reference solution.)
#include "vector_add.h"
#define add_grid_stride_kernel reference_add_grid_stride_kernel
#define vector_add_grid_stride reference_vector_add_grid_stride
#include "solutions/01-vector-add/vector_add.cu"
#undef add_grid_stride_kernel
#undef vector_add_grid_stride

__global__ void add_grid_stride_kernel(const float* a, const float* b, float* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = a[i] + b[i];
}

void vector_add_grid_stride(const float* a, const float* b, float* out, int n) {
  if (n == 0) return;
  add_grid_stride_kernel<<<264, 256>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
