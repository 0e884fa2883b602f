// broken: the grid is n / 256 blocks, rounded down, so the last n % 256 elements are never computed.
// fails: VectorAdd.OneThreadPerElementMatchesCpu
// expect: values differ from the CPU reference.*never written
// (The rest is the reference solution.)
#include "vector_add.h"
#define vector_add reference_vector_add
#include "solutions/01-vector-add/vector_add.cu"
#undef vector_add

void vector_add(const float* a, const float* b, float* out, int n) {
  if (n < 256) return;
  add_kernel<<<n / 256, 256>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
