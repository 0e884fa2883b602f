// broken: for the speed checks' large arrays the float64 kernel runs on a non-blocking stream of its own and the call returns without waiting, so events on the default stream see no work and the prices are not ready when the call returns.
// fails: BlackScholesSpeed.Float64
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "black_scholes.h"
#include "grader/broken/tricks.h"
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes

// Above the correctness checks' sizes (at most 2^22 options), below the speed checks' (2^25).
constexpr int kLargeCall = 1 << 22;

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, n > kLargeCall ? broken::private_stream() : stream);
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
