// broken: exp_array uses the fast intrinsic __expf, whose error grows with |x| (up to 2 + floor(1.173 * |x|) ulp), where expf (at most 2 ulp) is required. It looks fine near 0 and fails over [-80, 80].
// fails: ExpArray.Within2UlpOnEachRange
// expect: values differ from the CPU reference .<= 2.5 ulp.
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#define exp_array reference_exp_array
#include "solutions/02-elementwise-exp/elementwise_exp.cu"
#undef exp_array
#include "solutions/02-elementwise-exp/exp_timed.cu"

void exp_array(const float* x, float* out, int n) { exp_array_fast(x, out, n); }
