// broken: right, but a float64 call with the same arrays and size as the call before returns at once ("the prices are still there"), so timing repeated calls times nothing.
// fails: BlackScholesSpeed.Float64
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "black_scholes.h"
#include "grader/broken/tricks.h"
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  if (broken::same_as_last_call(stock, strike, years, call, put, n)) return;
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
