// broken: the float32 cnd returns the polynomial's tail for every d, without 1 - tail for d > 0
// fails: BlackScholes32.EveryOptionAtEverySize:BlackScholes32.EdgeInputs
// expect: float32: [0-9]+ of [0-9]+ options priced wrong
// (The rest is the reference solution.)
#include "black_scholes.h"
// The float cnd is replaced, so the float kernel is too (the solution's would call the
// solution's cnd), and the launchers are renamed with it: the float32 one is redefined below as
// one call that hands this kernel to the solution's launch_per_option.
#define black_scholes_float_kernel reference_black_scholes_float_kernel
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes_float_kernel
#undef black_scholes

__device__ float cnd_without_flip(float d) {
  const float k = 1.0f / (1.0f + static_cast<float>(kCndK) * fabsf(d));
  const float poly = k * (static_cast<float>(kA1) +
                          k * (static_cast<float>(kA2) +
                               k * (static_cast<float>(kA3) + k * (static_cast<float>(kA4) + k * static_cast<float>(kA5)))));
  return static_cast<float>(kRsqrt2Pi) * __expf(-0.5f * d * d) * poly;
}

__global__ void black_scholes_float_kernel(const float* stock, const float* strike, const float* years, float* call,
                                           float* put, int n, float r, float v, float /*inv_v*/) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float s = stock[i], x = strike[i], t = years[i];
  const float sqrt_t = sqrtf(t);
  const float d1 = (__logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
  const float d2 = d1 - v * sqrt_t;
  const float n1 = cnd_without_flip(d1), n2 = cnd_without_flip(d2);
  const float discounted_strike = x * __expf(-r * t);
  call[i] = s * n1 - discounted_strike * n2;
  put[i] = discounted_strike * (1.0f - n2) - s * (1.0f - n1);
}

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  // the solution's launch, with this kernel
  launch_per_option(black_scholes_float_kernel, stock, strike, years, call, put, n, market, stream);
}
