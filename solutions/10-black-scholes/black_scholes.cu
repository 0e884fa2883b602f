// Lesson 10 reference solution: the seed's Black-Scholes kernel in float64 and float32, and its
// whole run (copies in, iterations, copies back) timed part by part.
#include "black_scholes.h"

#include <cstddef>

#include "owned_stream.h"
#include "stepwise/arguments.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"

namespace {

constexpr int kThreadsPerBlock = 256;

// Rounded up, for n >= 1; not (n + 255) / 256, whose n + 255 overflows int for n past INT_MAX - 255.
int blocks_for(int n) { return (n - 1) / kThreadsPerBlock + 1; }

template <typename Real>
using PricingKernel = void (*)(const Real* stock, const Real* strike, const Real* years, Real* call, Real* put, int n,
                               Real r, Real v, Real inv_v);

// Steps 1 and 2 launch their kernels the same way: one thread per option, on the caller's stream,
// with the market converted to Real once, on the host (1 / v too).
template <typename Real>
void launch_per_option(PricingKernel<Real> kernel, const Real* stock, const Real* strike, const Real* years,
                       Real* call, Real* put, int n, Market market, cudaStream_t stream) {
  if (n == 0) return;
  kernel<<<blocks_for(n), kThreadsPerBlock, 0, stream>>>(stock, strike, years, call, put, n,
                                                         static_cast<Real>(market.riskfree),
                                                         static_cast<Real>(market.volatility),
                                                         static_cast<Real>(1.0 / market.volatility));
  CUDA_CHECK_LAUNCH();
}

}  // namespace

// ---- Step 1: float64 -------------------------------------------------------------------------

// The seed's cnd_cuda. The polynomial gives the lower tail for d <= 0; for d > 0 the upper tail
// is the same by symmetry, so N(d) = 1 - tail.
__device__ double cnd(double d) {
  const double k = 1.0 / (1.0 + kCndK * fabs(d));
  const double tail = kRsqrt2Pi * exp(-0.5 * d * d) * (k * (kA1 + k * (kA2 + k * (kA3 + k * (kA4 + k * kA5)))));
  return d > 0.0 ? 1.0 - tail : tail;
}

// One thread per option. The kernel is memory-bound on an H100 only if its float64 arithmetic
// keeps up with 40 bytes per option, so it spends none it can avoid: rsqrt(T) gives both sqrt(T)
// (= T * rsqrt(T)) and 1 / sqrt(T) in one go, and 1 / v comes from the host, which leaves d1 one
// division (S / X) instead of two and a square root. Each option's inputs are read exactly once.
__global__ void black_scholes_kernel(const double* stock, const double* strike, const double* years, double* call,
                                     double* put, int n, double r, double v, double inv_v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double s = stock[i], x = strike[i], t = years[i];
  const double rsqrt_t = rsqrt(t);
  const double v_sqrt_t = v * t * rsqrt_t;
  const double d1 = (log(s / x) + (r + 0.5 * v * v) * t) * inv_v * rsqrt_t;
  const double d2 = d1 - v_sqrt_t;
  const double n1 = cnd(d1), n2 = cnd(d2);
  const double discounted_strike = x * exp(-r * t);
  call[i] = s * n1 - discounted_strike * n2;
  put[i] = discounted_strike * (1.0 - n2) - s * (1.0 - n1);
}

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  launch_per_option(black_scholes_kernel, stock, strike, years, call, put, n, market, stream);
}

// ---- Step 2: float32 -------------------------------------------------------------------------

// The same in float, with the fast intrinsics: __expf and __logf are one or two special-function
// instructions each, against a dozen for expf and logf, and their extra error (a few 1e-7 of the
// result) is far below what the polynomial itself misses the true normal distribution by (up to
// 7.5e-8 of N, which is 1e-5 of a price). The f suffix on every literal keeps the arithmetic in
// float: 0.5 alone is a double and would turn the expression into float64.
__device__ float cnd(float d) {
  const float k = __frcp_rn(1.0f + static_cast<float>(kCndK) * fabsf(d));
  const float poly = k * (static_cast<float>(kA1) +
                          k * (static_cast<float>(kA2) +
                               k * (static_cast<float>(kA3) + k * (static_cast<float>(kA4) + k * static_cast<float>(kA5)))));
  const float tail = static_cast<float>(kRsqrt2Pi) * __expf(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - tail : tail;
}

__global__ void black_scholes_float_kernel(const float* stock, const float* strike, const float* years, float* call,
                                           float* put, int n, float r, float v, float inv_v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float s = stock[i], x = strike[i], t = years[i];
  const float rsqrt_t = rsqrtf(t);
  const float v_sqrt_t = v * t * rsqrt_t;
  const float d1 = (__logf(__fdividef(s, x)) + (r + 0.5f * v * v) * t) * inv_v * rsqrt_t;
  const float d2 = d1 - v_sqrt_t;
  const float n1 = cnd(d1), n2 = cnd(d2);
  const float discounted_strike = x * __expf(-r * t);
  call[i] = s * n1 - discounted_strike * n2;
  put[i] = discounted_strike * (1.0f - n2) - s * (1.0f - n1);
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  launch_per_option(black_scholes_float_kernel, stock, strike, years, call, put, n, market, stream);
}

// ---- Step 3: the seed's whole run --------------------------------------------------------------

// Everything goes into one stream, in order, with an event between the parts: the GPU notes the
// time at each mark as it reaches it, so the host queues the whole run and waits once at the end.
// cudaMemcpyAsync from ordinary (pageable) host memory, as the seed's NumPy arrays are, returns
// only when the host array has been read, but it still runs in the stream's order.
template <typename Real>
RunTimings price_on_gpu(const Real* stock, const Real* strike, const Real* years, Real* call, Real* put, int n,
                        int iterations, Market market) {
  stepwise::require_at_least(n, 0, "n", "price_on_gpu");
  stepwise::require_at_least(iterations, 1, "iterations", "price_on_gpu");
  RunTimings timings;
  timings.iterations = iterations;
  if (n == 0) return timings;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(Real);
  stepwise::DeviceBuffer<Real> d_stock(n), d_strike(n), d_years(n), d_call(n), d_put(n);
  OwnedStream stream;
  stepwise::GpuEvent start, copied_in, computed, copied_out;

  start.record(stream.get());
  CUDA_CHECK(cudaMemcpyAsync(d_stock.data(), stock, bytes, cudaMemcpyHostToDevice, stream.get()));
  CUDA_CHECK(cudaMemcpyAsync(d_strike.data(), strike, bytes, cudaMemcpyHostToDevice, stream.get()));
  CUDA_CHECK(cudaMemcpyAsync(d_years.data(), years, bytes, cudaMemcpyHostToDevice, stream.get()));
  copied_in.record(stream.get());
  for (int i = 0; i < iterations; ++i)
    black_scholes(d_stock.data(), d_strike.data(), d_years.data(), d_call.data(), d_put.data(), n, market,
                  stream.get());
  computed.record(stream.get());
  CUDA_CHECK(cudaMemcpyAsync(call, d_call.data(), bytes, cudaMemcpyDeviceToHost, stream.get()));
  CUDA_CHECK(cudaMemcpyAsync(put, d_put.data(), bytes, cudaMemcpyDeviceToHost, stream.get()));
  copied_out.record(stream.get());
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));

  timings.copy_in_ms = stepwise::elapsed_ms(start, copied_in);
  timings.kernel_ms = stepwise::elapsed_ms(copied_in, computed);
  timings.copy_out_ms = stepwise::elapsed_ms(computed, copied_out);
  return timings;
}

template RunTimings price_on_gpu<double>(const double*, const double*, const double*, double*, double*, int, int, Market);
template RunTimings price_on_gpu<float>(const float*, const float*, const float*, float*, float*, int, int, Market);
