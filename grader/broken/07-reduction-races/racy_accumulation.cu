// broken: the seed's race: every thread adds its element into *sum by hand (read, add, write), not atomically, and the threads overwrite each other's additions.
// fails: SumAtomic.MatchesReferenceAtEverySize
// expect: more than rounding can explain
// (The rest is the reference solution. The kernel and the function that launches it are both
// replaced: a renamed kernel alone would leave the solution's launcher calling the solution's.)
#include "reduction.h"
#define sum_atomic_kernel reference_sum_atomic_kernel
#define sum_atomic reference_sum_atomic
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_atomic_kernel
#undef sum_atomic

__global__ void sum_atomic_kernel(const float* x, int n, float* sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) *sum = *sum + x[i];  // read, add, write: another thread's write in between is lost
}

void sum_atomic(const float* x, int n, float* sum) { zero_then_launch(sum_atomic_kernel, x, n, sum); }
