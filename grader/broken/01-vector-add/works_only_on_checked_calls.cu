// broken: vector_add does its work only on the calls whose sums the grader checks: for the speed checks' large arrays the 3rd to 16th of each 18 calls in a row (2 warm-up calls, 15 timed, one traced) return at once with nothing done, so every checked output is right and the median timed call is empty. An impossible figure: caught by the ceiling of VectorAddSpeed.FasterThanOneCpuThread (the bytes the add must move at 1.1 x copy bandwidth, without which it read as a great speedup over one CPU thread) and by fraction_of_copy_bandwidth's in VectorAddSpeed.OneThreadPerElement.
// fails: VectorAddSpeed.FasterThanOneCpuThread:VectorAddSpeed.OneThreadPerElement
// expect: impossible figure for '01-vector-add/VectorAddSpeed\.(FasterThanOneCpuThread|OneThreadPerElement)'
// (The rest is the reference solution.)
#include "grader/broken/checked_calls.h"
#include "grader/broken/tricks.h"
#include "vector_add.h"
#define vector_add reference_vector_add
#include "solutions/01-vector-add/vector_add.cu"
#undef vector_add

void vector_add(const float* a, const float* b, float* out, int n) {
  if (n > broken::kSpeedCheckSize && broken::unchecked_call<0>(18, a, b, out, n)) return;
  reference_vector_add(a, b, out, n);
}
