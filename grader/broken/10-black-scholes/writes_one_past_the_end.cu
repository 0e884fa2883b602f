// broken: the float64 launcher tells the kernel there are n + 1 options (an off-by-one bound), so one thread prices an option that does not exist and writes one past the end of both outputs
// fails: BlackScholes64.EveryOptionAtEverySize
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "black_scholes.h"
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  if (n == 0) return;
  launch_per_option(black_scholes_kernel, stock, strike, years, call, put, n + 1, market, stream);
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
