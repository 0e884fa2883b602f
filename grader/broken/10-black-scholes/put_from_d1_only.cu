// broken: the put reuses the call's N(d1) for both terms, X e^(-rT) (1 - N(d1)) - S (1 - N(d1)), instead of 1 - N(d2) for the strike
// fails: BlackScholes64.EveryOptionAtEverySize
// expect: break put-call parity
// (The rest is the reference solution.)
#include "black_scholes.h"
#define black_scholes_kernel reference_black_scholes_kernel
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes_kernel
#undef black_scholes

__global__ void black_scholes_kernel(const double* stock, const double* strike, const double* years, double* call,
                                     double* put, int n, double r, double v, double /*inv_v*/) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double s = stock[i], x = strike[i], t = years[i];
  const double sqrt_t = sqrt(t);
  const double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
  const double d2 = d1 - v * sqrt_t;
  const double n1 = cnd(d1), n2 = cnd(d2);
  const double discounted_strike = x * exp(-r * t);
  call[i] = s * n1 - discounted_strike * n2;
  put[i] = discounted_strike * (1.0 - n1) - s * (1.0 - n1);
}

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  launch_per_option(black_scholes_kernel, stock, strike, years, call, put, n, market, stream);  // with this kernel
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
