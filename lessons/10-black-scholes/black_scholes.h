#pragma once
// Lesson 10: European call and put prices by the Black-Scholes formula for many options at once,
// in float64 and in float32 (seed 000, the Black-Scholes example of NumbaPro).
//
// For an option on a stock of price S, with strike X, T years to expiry, a risk-free rate r and
// a volatility v (both per year):
//   d1   = (log(S / X) + (r + v^2 / 2) * T) / (v * sqrt(T))
//   d2   = d1 - v * sqrt(T)
//   call = S * N(d1) - X * exp(-r * T) * N(d2)
//   put  = X * exp(-r * T) * (1 - N(d2)) - S * (1 - N(d1))
// where N is the cumulative normal distribution, computed by the seed's polynomial
// (Abramowitz and Stegun 26.2.17, good to 7.5e-8):
//   k    = 1 / (1 + kCndK * |d|)
//   N(d) = kRsqrt2Pi * exp(-d^2 / 2) * k * (kA1 + k * (kA2 + k * (kA3 + k * (kA4 + k * kA5))))
//          for d <= 0, and 1 minus that for d > 0.
// Every S, X and T must be positive and finite.
#include <cuda_runtime.h>

constexpr double kCndK = 0.2316419;
constexpr double kA1 = 0.31938153;
constexpr double kA2 = -0.356563782;
constexpr double kA3 = 1.781477937;
constexpr double kA4 = -1.821255978;
constexpr double kA5 = 1.330274429;
constexpr double kRsqrt2Pi = 0.39894228040143267793994605993438;  // 1 / sqrt(2 pi)

// The market every option of one call shares: the seed's RISKFREE and VOLATILITY.
struct Market {
  double riskfree = 0.02;
  double volatility = 0.30;
};

// The launchers take device pointers (from cudaMalloc), launch one kernel on `stream` and return
// without waiting for the GPU. They do nothing for n == 0 and throw stepwise::CudaError when CUDA
// fails. Options are independent: element i of call and put is the price of option i.

// Step 1: the prices of n options in float64.
void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market = {}, cudaStream_t stream = nullptr);

// Step 2: the same in float32 (market converted to float once).
void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put,
                   int n, Market market = {}, cudaStream_t stream = nullptr);

// Where the time of one whole run went, from CUDA events on the run's stream.
struct RunTimings {
  int iterations = 0;
  float copy_in_ms = 0;   // the three input arrays to the GPU, once
  float kernel_ms = 0;    // all `iterations` launches together
  float copy_out_ms = 0;  // call and put back to the host, once
  float total_ms() const { return copy_in_ms + kernel_ms + copy_out_ms; }
  // What the seed printed as "time per iteration": it timed the copies in once but counted them
  // once per iteration, and divided the kernels and the copy back by the iterations.
  float seed_style_ms() const { return iterations ? copy_in_ms + (kernel_ms + copy_out_ms) / iterations : 0; }
};

// Step 3: the seed's whole run from host arrays of n options: the inputs copied to the GPU once
// on a stream of its own, the kernel launched `iterations` times (at least 1) on that stream, the
// prices copied back into the host arrays call and put. Waits for the GPU and returns the
// timings of the three parts. Real is double (step 1's kernel) or float (step 2's).
template <typename Real>
RunTimings price_on_gpu(const Real* stock, const Real* strike, const Real* years, Real* call, Real* put, int n,
                        int iterations, Market market = {});
