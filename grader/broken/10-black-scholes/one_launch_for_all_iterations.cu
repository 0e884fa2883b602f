// broken: the whole run launches the kernel once, however many iterations it was asked for
// fails: WholeRun.TimesEachPart
// expect: less than the GPU's memory needs
// (The rest is the reference solution.)
#include "black_scholes.h"
#define price_on_gpu reference_price_on_gpu
#include "solutions/10-black-scholes/black_scholes.cu"
#undef price_on_gpu

template <typename Real>
RunTimings price_on_gpu(const Real* stock, const Real* strike, const Real* years, Real* call, Real* put, int n,
                        int iterations, Market market) {
  RunTimings timings = reference_price_on_gpu(stock, strike, years, call, put, n, 1, market);
  timings.iterations = iterations;
  return timings;
}

template RunTimings price_on_gpu<double>(const double*, const double*, const double*, double*, double*, int, int, Market);
template RunTimings price_on_gpu<float>(const float*, const float*, const float*, float*, float*, int, int, Market);
