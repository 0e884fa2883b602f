// broken: for the speed checks' large arrays the kernel runs on a non-blocking stream of its own and the call returns without waiting, so events on the default stream see no work and the sums are not ready when the call returns.
// fails: VectorAddSpeed.GridStride
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "vector_add.h"
#define vector_add_grid_stride reference_vector_add_grid_stride
#include "solutions/01-vector-add/vector_add.cu"
#undef vector_add_grid_stride

void vector_add_grid_stride(const float* a, const float* b, float* out, int n) {
  if (n <= broken::kSpeedCheckSize) return reference_vector_add_grid_stride(a, b, out, n);
  add_grid_stride_kernel<<<1024, kThreadsPerBlock, 0, broken::private_stream()>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
