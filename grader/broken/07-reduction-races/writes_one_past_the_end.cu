// broken: the stencil's bounds check is off by one (i > n instead of i >= n), so thread n
// writes one float past the end of the output
// fails: Smooth.MatchesCpuAtEverySize
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "reduction.h"
// The kernel and the function that launches it are both replaced: a renamed kernel alone would
// leave the solution's launcher calling the solution's kernel.
#define smooth_kernel reference_smooth_kernel
#define smooth reference_smooth
#include "solutions/07-reduction-races/reduction.cu"
#undef smooth_kernel
#undef smooth

__global__ void smooth_kernel(const float* z, const float* a, float* out, int n, int s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n) return;
  const float* zi = z + i;
  float acc = a[0] * zi[2 * s] / 2;
  for (int k = 1; k < 2 * s; ++k) acc += a[k] * zi[2 * s - k];
  acc += a[2 * s] * zi[0] / 2;
  out[i] = acc;
}

void smooth(const float* z, const float* a, float* out, int n, int s) {
  require_valid(n, "smooth");
  if (s < 1) throw std::invalid_argument("smooth: the half-width s must be >= 1, got " + std::to_string(s));
  if (n == 0) return;
  smooth_kernel<<<blocks_for(n), kThreadsPerBlock>>>(z, a, out, n, s);
  CUDA_CHECK_LAUNCH();
}
