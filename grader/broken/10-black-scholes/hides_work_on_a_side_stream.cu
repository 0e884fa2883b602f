// broken: for large inputs the float64 launcher runs the kernel on a private non-blocking stream and returns without waiting, so a timing on the default stream sees none of it
// fails: BlackScholesSpeed.Float64
// expect: not ready when the call returned
#include "black_scholes.h"
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  static cudaStream_t side = [] {
    cudaStream_t s = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  reference_black_scholes(stock, strike, years, call, put, n, market, n >= (1 << 20) ? side : stream);
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}
