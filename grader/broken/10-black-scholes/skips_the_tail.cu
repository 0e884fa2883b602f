// broken: the grid is n / 256 blocks, rounded down, so the last n % 256 options are never priced
// fails: BlackScholes64.EveryOptionAtEverySize
// expect: never written: are all n options covered
// (The rest is the reference solution.)
#include "black_scholes.h"
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  if (n / kThreadsPerBlock == 0) return;
  black_scholes_kernel<<<n / kThreadsPerBlock, kThreadsPerBlock, 0, stream>>>(
      stock, strike, years, call, put, n, market.riskfree, market.volatility, 1.0 / market.volatility);
  CUDA_CHECK_LAUNCH();
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
