// broken: right, but a call with the same array, size and output as the call before returns at once ("the sum is still there"), so timing repeated calls times nothing.
// fails: SumSpeed.ShuffleVsCub
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "reduction.h"
#define sum_shuffle reference_sum_shuffle
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_shuffle

void sum_shuffle(const float* x, int n, float* sum) {
  if (broken::same_as_last_call(x, n, sum)) return;
  reference_sum_shuffle(x, n, sum);
}
