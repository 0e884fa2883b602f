// broken: the float64 kernel's bounds check is i > n instead of i >= n, so thread n prices an option that does not exist and writes one past the end of both outputs
// fails: BlackScholes64.EveryOptionAtEverySize
// expect: wrote past the end of the output
#include "black_scholes.h"
#define black_scholes_kernel reference_black_scholes_kernel
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes_kernel
#undef black_scholes

__global__ void black_scholes_kernel(const double* stock, const double* strike, const double* years, double* call,
                                     double* put, int n, double r, double v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  const double s = stock[i], x = strike[i], t = years[i];
  const double sqrt_t = sqrt(t);
  const double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
  const double d2 = d1 - v * sqrt_t;
  const double discounted_strike = x * exp(-r * t);
  call[i] = s * cnd(d1) - discounted_strike * cnd(d2);
  put[i] = discounted_strike * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1));
}

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  if (n == 0) return;
  black_scholes_kernel<<<(n + 255) / 256, 256, 0, stream>>>(stock, strike, years, call, put, n, market.riskfree,
                                                            market.volatility);
  CUDA_CHECK_LAUNCH();
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
