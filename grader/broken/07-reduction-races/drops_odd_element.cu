// broken: each block's tree halves the number of elements it holds, rounding down, so when the last block holds an odd number its last element is never added (sizes not a power of two).
// fails: SumTree.MatchesReferenceAtEverySize
// expect: more than rounding can explain
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
  const int count = min(static_cast<int>(blockDim.x), n - static_cast<int>(blockIdx.x * blockDim.x));
  values[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int half = count / 2; half > 0; half /= 2) {  // 33 elements: 16 pairs, then element 32 is forgotten
    if (t < half) values[t] += values[t + half];
    __syncthreads();
  }
  if (t == 0) atomicAdd(sum, values[0]);
}

void sum_tree(const float* x, int n, float* sum) { zero_then_launch(sum_tree_kernel, x, n, sum); }
