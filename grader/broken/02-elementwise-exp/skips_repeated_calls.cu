// broken: right, but a call with the same arrays and size as the call before returns at once, so timing repeated calls times nothing.
// fails: ExpSpeed.AccurateNearCopyBandwidth
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#include "grader/broken/tricks.h"
#define exp_array reference_exp_array
#include "solutions/02-elementwise-exp/elementwise_exp.cu"
#undef exp_array
#include "solutions/02-elementwise-exp/exp_timed.cu"

void exp_array(const float* x, float* out, int n) {
  if (broken::same_as_last_call(x, out, n)) return;
  reference_exp_array(x, out, n);
}
