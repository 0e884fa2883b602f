// Lesson 10: Black-Scholes. Read README.md first: each TODO(step N) below is "Step N" there.
#include "black_scholes.h"

#include <cstddef>

#include "owned_stream.h"
#include "stepwise/arguments.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "stepwise/todo.h"

// ---- Step 1: float64 -------------------------------------------------------------------------

__device__ double cnd(double d) {
  // TODO(step 1): the cumulative normal distribution N(d), in double, by the seed's polynomial
  // as black_scholes.h writes it (the constants are there too), including the case d > 0.
  // Replace the line below.
  return 0.0;
}

__global__ void black_scholes_kernel(const double* stock, const double* strike, const double* years, double* call,
                                     double* put, int n, double r, double v) {
  // TODO(step 1): one thread per option: the global index i, return if i >= n. Read stock[i],
  // strike[i] and years[i] once each, compute d1, d2, cnd(d1), cnd(d2) and exp(-r * t) by the
  // formulas in black_scholes.h, and write call[i] and put[i].
}

void black_scholes(const double* stock, const double* strike, const double* years, double* call, double* put,
                   int n, Market market, cudaStream_t stream) {
  // TODO(step 1): return when n == 0; launch black_scholes_kernel on `stream` with blocks of 256
  // threads and enough blocks for n options (round up as (n - 1) / 256 + 1: n + 255 overflows int
  // near INT_MAX), for the market's risk-free rate and volatility; check the launch. Delete the
  // line below.
  STEPWISE_TODO(1);
}

// ---- Step 2: float32 -------------------------------------------------------------------------

__device__ float cnd(float d) {
  // TODO(step 2): step 1's cnd in float: fabsf, __expf, float constants (static_cast<float>(kA1)),
  // and an f on every literal (0.5f, 1.0f). Replace the line below.
  return 0.0f;
}

__global__ void black_scholes_float_kernel(const float* stock, const float* strike, const float* years, float* call,
                                           float* put, int n, float r, float v) {
  // TODO(step 2): step 1's kernel in float: sqrtf, __logf, __expf and the float cnd above.
}

void black_scholes(const float* stock, const float* strike, const float* years, float* call, float* put, int n,
                   Market market, cudaStream_t stream) {
  // TODO(step 2): as step 1, launching black_scholes_float_kernel with the market's rate and
  // volatility converted to float. Delete the line below.
  STEPWISE_TODO(2);
}

// ---- Step 3: the seed's whole run --------------------------------------------------------------

template <typename Real>
RunTimings price_on_gpu(const Real* stock, const Real* strike, const Real* years, Real* call, Real* put, int n,
                        int iterations, Market market) {
  // TODO(step 3): first the arguments, before anything else happens: n >= 0 and iterations >= 1
  // (stepwise::require_at_least throws std::invalid_argument naming the argument). Return
  // RunTimings{iterations} when n == 0. Allocate the device arrays before anything is timed
  // (allocation is not part of the run). Then run the seed's whole run on one stream of your own (an
  // OwnedStream): the three inputs copied to the GPU, black_scholes `iterations` times with
  // `market`, call and put copied back, with a GPU event marking each boundary, so that the
  // RunTimings can say how long the copies in, the kernels and the copies out took (README.md, "Step
  // 3"). Wait for the stream once, at the end. Check every call. Delete the line below.
  STEPWISE_TODO(3);
}

// The two versions the grader and the demo call (the template's code is made here, once for each).
template RunTimings price_on_gpu<double>(const double*, const double*, const double*, double*, double*, int, int, Market);
template RunTimings price_on_gpu<float>(const float*, const float*, const float*, float*, float*, int, int, Market);
