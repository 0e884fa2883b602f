// broken: exp_array_fast calls exp_array, the accurate expf, instead of the fast intrinsic __expf: within __expf's error bound, so only the check that the step runs the intrinsic itself tells them apart.
// fails: ExpArrayFast.IsTheFastIntrinsic
// expect: does the step call expf \(or exp_array\) instead of the fast intrinsic __expf
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#define exp_array_fast reference_exp_array_fast
#include "solutions/02-elementwise-exp/elementwise_exp.cu"
#undef exp_array_fast
#include "solutions/02-elementwise-exp/exp_timed.cu"

void exp_array_fast(const float* x, float* out, int n) { exp_array(x, out, n); }
