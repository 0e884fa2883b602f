// broken: remembers the pointers and size of its last float64 call and returns at once when called again with the same ones
// fails: BlackScholesSpeed.Float64
// expect: output of the timed call is wrong
#include "black_scholes.h"
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  static const double* last_stock = nullptr;
  static double* last_call = nullptr;
  static int last_n = -1;
  if (stock == last_stock && call == last_call && n == last_n) return;  // "the same work again"
  last_stock = stock;
  last_call = call;
  last_n = n;
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
