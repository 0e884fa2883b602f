// broken: no barrier after the tendencies are read, so a fast thread writes the next stage's input into shared memory while its neighbours may still be reading this stage's. The states often come out right anyway: racecheck sees the race.
// fails: Sanitizer.Racecheck
// expect: compute-sanitizer --tool racecheck found [1-9][0-9]* error
// (The rest is the reference solution, row_kernels.cu included whole. The kernel and the function
// that launches it are both replaced: a renamed kernel alone would leave the solution's
// ensemble_block_per_member calling the solution's; the new one hands this kernel to the
// solution's launch_block_per_member.)
#include "ensemble.h"
#define block_per_member_kernel reference_block_per_member_kernel
#define ensemble_block_per_member reference_ensemble_block_per_member
#include "solutions/08-row-kernels/ensemble.cu"
#undef block_per_member_kernel
#undef ensemble_block_per_member

template <typename Real>
__global__ void block_per_member_kernel(const Real* initial, Real* final, int n, Real forcing, Real dt, int steps) {
  extern __shared__ __align__(16) unsigned char stage_bytes[];
  Real* stage = reinterpret_cast<Real*>(stage_bytes);
  const int j = threadIdx.x;
  const bool mine = j < n;
  const std::size_t row = static_cast<std::size_t>(blockIdx.x) * n;
  Real x = mine ? initial[row + j] : Real(0);
  for (int step = 0; step < steps; ++step) {
    Real k = 0, sum = 0;
    for (int s = 0; s < 4; ++s) {
      if (mine) stage[j] = stage_input(x, k, s, dt);
      __syncthreads();
      if (mine) k = tendency(stage, j, n, forcing);
      sum += static_cast<Real>(stage_weight(s)) * k;  // the bug: no __syncthreads() after this
    }
    x += dt / 6 * sum;
  }
  if (mine) final[row + j] = x;
}

template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream) {
  launch_block_per_member(block_per_member_kernel<Real>, initial, final, members, model, steps, stream);
}

template void ensemble_block_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_block_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);

#include "solutions/08-row-kernels/row_kernels.cu"
