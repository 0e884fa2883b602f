// broken: the "tree" adds each warp's values with shuffles and then one atomicAdd per warp, with nothing in shared memory: right, but not the tree in shared memory that step 3 teaches.
// fails: SumTree.MatchesReferenceAtEverySize
// expect: step 3 \(sum_tree\) kept no tree in shared memory \(`sum_tree_kernel` used 0 B for a block of 256 threads
// (The rest is the reference solution. The kernel and the function that launches it are both
// replaced: a renamed kernel alone would leave the solution's launcher calling the solution's.)
#include "reduction.h"
#define sum_tree_kernel reference_sum_tree_kernel
#define sum_tree reference_sum_tree
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_tree_kernel
#undef sum_tree

__global__ void sum_tree_kernel(const float* x, int n, float* sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float total = warp_sum(i < n ? x[i] : 0.0f);
  if (threadIdx.x % kWarpSize == 0) atomicAdd(sum, total);
}

void sum_tree(const float* x, int n, float* sum) {
  require_valid(n, "sum_tree");
  zero_then_launch(sum_tree_kernel, x, n, sum);
}
