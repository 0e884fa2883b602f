// broken: right, but a call with the same arrays and size as the call before returns at once ("the sums are still there"), so timing repeated calls times nothing.
// fails: VectorAddSpeed.GridStride
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "vector_add.h"
#define vector_add_grid_stride reference_vector_add_grid_stride
#include "solutions/01-vector-add/vector_add.cu"
#undef vector_add_grid_stride

void vector_add_grid_stride(const float* a, const float* b, float* out, int n) {
  if (broken::same_as_last_call(a, b, out, n)) return;
  reference_vector_add_grid_stride(a, b, out, n);
}
