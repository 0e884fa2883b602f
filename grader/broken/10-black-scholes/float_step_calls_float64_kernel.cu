// broken: the float32 launcher widens its arrays to double and runs step 1's float64 kernel, then narrows the prices: right (more accurate than float), but no float arithmetic at all
// fails: BlackScholes32.EveryOptionAtEverySize
// expect: the kernel of step 1
// (The rest is the reference solution.)
#include "black_scholes.h"
#define black_scholes reference_black_scholes
#include "solutions/10-black-scholes/black_scholes.cu"
#undef black_scholes

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  reference_black_scholes(stock, strike, years, call, put, n, market, stream);
}

template <typename From, typename To>
__global__ void convert_kernel(const From* from, To* to, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) to[i] = static_cast<To>(from[i]);
}

template <typename From, typename To>
void convert(const From* from, To* to, int n, cudaStream_t stream) {
  convert_kernel<<<(n + 255) / 256, 256, 0, stream>>>(from, to, n);
  CUDA_CHECK_LAUNCH();
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  if (n == 0) return;
  stepwise::DeviceBuffer<double> wide(5 * static_cast<std::size_t>(n));
  double* s = wide.data();
  convert(stock, s, n, stream);
  convert(strike, s + n, n, stream);
  convert(years, s + 2 * n, n, stream);
  reference_black_scholes(s, s + n, s + 2 * n, s + 3 * n, s + 4 * n, n, market, stream);
  convert(s + 3 * n, call, n, stream);
  convert(s + 4 * n, put, n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));  // before `wide` is freed
}
