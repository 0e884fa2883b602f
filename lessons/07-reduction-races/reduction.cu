// Lesson 07: reductions and races. Read README.md first: each TODO(step N) below is "Step N"
// there.
#include "reduction.h"

#include <algorithm>
#include <cstdint>

#include "stepwise/arguments.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

namespace {

// Helpers for your steps ([[maybe_unused]]: no warning while a step does not use them yet).
constexpr int kThreadsPerBlock = 256;
[[maybe_unused]] constexpr int kWarpSize = 32;
[[maybe_unused]] constexpr unsigned kFullMask = 0xffffffffu;  // every lane of the warp takes part in a shuffle

void require_valid(int n, const char* function) { stepwise::require_at_least(n, 0, "n", function); }

// In long long: n + 255 passes INT_MAX for n near it (the largest arrays an int n allows).
[[maybe_unused]] int blocks_for(int n) {
  return static_cast<int>((static_cast<long long>(n) + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

[[maybe_unused]] int multiprocessors() {
  int device = 0, count = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

}  // namespace

// ---- Step 1: the stencil, one thread per output ------------------------------------------
__global__ void smooth_kernel(const float* z, const float* a, float* out, int n, int s) {
  // TODO(step 1): thread i (global index) computes out[i] when i < n: start a float running
  // sum with a[0] * z[i + 2s] / 2, add a[k] * z[i + 2s - k] for k = 1 .. 2s-1, add
  // a[2s] * z[i] / 2, then store it. The sum lives in a register of this one thread.
}

void smooth(const float* z, const float* a, float* out, int n, int s) {
  require_valid(n, "smooth");
  // TODO(step 1): stepwise::require_at_least(s, 1, "the half-width s", "smooth") (it throws
  // std::invalid_argument when s < 1); return when n == 0; launch smooth_kernel with
  // blocks_for(n) blocks of kThreadsPerBlock threads; CUDA_CHECK_LAUNCH().
  // Delete the line below when you are done.
  STEPWISE_TODO(1);
}

// ---- Step 2: one atomicAdd per element ---------------------------------------------------
__global__ void sum_atomic_kernel(const float* x, int n, float* sum) {
  // TODO(step 2): thread i adds x[i] into *sum with atomicAdd when i < n.
}

void sum_atomic(const float* x, int n, float* sum) {
  require_valid(n, "sum_atomic");
  // TODO(step 2): set *sum to 0 on the device first (CUDA_CHECK(cudaMemsetAsync(...)): the
  // grader fills it with garbage), also when n == 0; then, for n > 0, launch sum_atomic_kernel
  // over all n elements and check the launch. Delete the line below.
  STEPWISE_TODO(2);
}

// ---- Step 3: a tree in shared memory -------------------------------------------------------
__global__ void sum_tree_kernel(const float* x, int n, float* sum) {
  // TODO(step 3): a __shared__ float array of kThreadsPerBlock values. Each thread stores its
  // element there (0 when its index is >= n), then __syncthreads(). Then for half =
  // blockDim.x / 2, blockDim.x / 4, ..., 1: threads t < half add value t + half to value t, and
  // every thread of the block meets at __syncthreads() after each step. Finally thread 0 adds
  // value 0, the block's sum, into *sum with atomicAdd.
}

void sum_tree(const float* x, int n, float* sum) {
  require_valid(n, "sum_tree");
  // TODO(step 3): as in step 2, zero *sum, then launch sum_tree_kernel over all n elements
  // with kThreadsPerBlock threads per block (a power of two: the tree halves it). Delete the
  // line below.
  STEPWISE_TODO(3);
}

// ---- Step 4: grid-stride loop, then warp shuffles --------------------------------------------
// The sum of the 32 values `v` of a warp's lanes, in lane 0.
__device__ float warp_sum(float v) {
  // TODO(step 4): return the sum of v over the 32 lanes of this warp (lane 0 must hold it; the
  // others may hold partial sums), reading the other lanes' registers with warp shuffles, no
  // shared memory (README, "Warp shuffles and a grid-stride loop"). Every lane of the warp calls this.
  return v;
}

// The sum of `v` over the whole block, in thread 0.
__device__ float block_sum(float v) {
  // TODO(step 4): v = warp_sum(v); lane 0 of each warp writes it to a __shared__ array of
  // kThreadsPerBlock / kWarpSize floats; __syncthreads(); then the first warp loads those
  // values (0 for lanes past the number of warps) and sums them with warp_sum.
  return v;
}

__global__ void sum_shuffle_kernel(const float* x, int n, float* sum) {
  // TODO(step 4): a grid-stride loop in which each thread adds its elements into its own
  // float running sums in registers (for speed: float4 loads, several independent sums, see
  // the README's hints); then block_sum() of that; thread 0 adds the result into *sum with
  // atomicAdd.
}

void sum_shuffle(const float* x, int n, float* sum) {
  require_valid(n, "sum_shuffle");
  // TODO(step 4): zero *sum; for n > 0 launch sum_shuffle_kernel with a grid that fills the
  // GPU once (a few blocks per multiprocessor, see multiprocessors(), and never more blocks
  // than n needs), then check the launch. Delete the line below.
  STEPWISE_TODO(4);
}
