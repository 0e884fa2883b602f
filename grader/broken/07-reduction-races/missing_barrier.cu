// broken: the tree starts adding without a barrier after the load, so a thread may read a value another warp has not written yet. The sum often comes out right anyway: racecheck sees the race.
// fails: Sanitizer.Racecheck
// expect: compute-sanitizer --tool racecheck found [1-9][0-9]* error
// (The rest is the reference solution. The kernel and the function that launches it are both
// replaced: a renamed kernel alone would leave the solution's launcher calling the solution's.)
#include "reduction.h"
#define sum_tree_kernel reference_sum_tree_kernel
#define sum_tree reference_sum_tree
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_tree_kernel
#undef sum_tree

__global__ void sum_tree_kernel(const float* x, int n, float* sum) {
  __shared__ float values[kThreadsPerBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  values[t] = i < n ? x[i] : 0.0f;
  // the __syncthreads() that belongs here is missing
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) values[t] += values[t + half];
    __syncthreads();
  }
  if (t == 0) atomicAdd(sum, values[0]);
}

void sum_tree(const float* x, int n, float* sum) { zero_then_launch(sum_tree_kernel, x, n, sum); }
