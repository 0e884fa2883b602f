// Lesson 08, steps 4 and 5: an ensemble of Lorenz-96 runs. Read README.md first: each
// TODO(step N) below is "Step N" there.
#include "ensemble.h"

#include <cstddef>

#include "rk4_stages.cuh"
#include "stepwise/check.h"
#include "stepwise/todo.h"

// ---- The model, as device functions both kernels use --------------------------------------------

// dx[j]/dt of the state x (a ring of n variables), wherever x lives.
template <typename Real>
__device__ Real tendency(const Real* x, int j, int n, Real forcing) {
  // TODO(step 4): (x[j+1] - x[j-2]) * x[j-1] - x[j] + forcing, the indices wrapped around the
  // ring (j + 1 == n is 0; j - 1 and j - 2 below 0 add n). Replace the line below.
  return 0;
}

// ---- Step 4: one block per member ----------------------------------------------------------------

template <typename Real>
__global__ void block_per_member_kernel(const Real* initial, Real* final, int n, Real forcing, Real dt, int steps) {
  // TODO(step 4): block m integrates member m; thread j < n owns variable j (README, step 4).
  //   extern __shared__ __align__(16) unsigned char stage_bytes[];
  //   Real* stage = reinterpret_cast<Real*>(stage_bytes);
  // Read x = initial[m * n + j] into a register. For each step: k = 0, sum = 0, and for each
  // stage s: stage[j] = stage_input(x, k, s, dt); barrier; k = tendency(stage, j, n, forcing);
  // sum += stage_weight(s) * k; barrier. Then x += dt / 6 * sum. At the end final[m * n + j] = x.
  // Threads j >= n (the block is whole warps) skip the reads and writes but not the barriers.
}

template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream) {
  check_ensemble("ensemble_block_per_member", members, model, steps, kMaxBlockMemberSize);
  // TODO(step 4): return for members == 0; launch members blocks of model.size threads rounded
  // up to a multiple of 32, with model.size * sizeof(Real) bytes of shared memory, on `stream`,
  // forcing and dt converted to Real; then CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(4);
}

// ---- Step 5: one thread per member ---------------------------------------------------------------

// One RK4 step of a whole state held by one thread, with the scratch arrays stage, k and sum.
template <typename Real>
__device__ void rk4_step(Real* x, Real* stage, Real* k, Real* sum, int n, Real forcing, Real dt) {
  // TODO(step 5): stage = x and sum = 0; for each stage s: (for s > 0) stage[j] = stage_input(x[j],
  // k[j], s, dt) for every j; then k[j] = tendency(stage, j, n, forcing) for every j; then
  // sum[j] += stage_weight(s) * k[j]. Finally x[j] += dt / 6 * sum[j].
}

template <typename Real>
__global__ void thread_per_member_kernel(const Real* initial, Real* final, int members, int n, Real forcing, Real dt,
                                         int steps) {
  // TODO(step 5): member = the global thread index, return if >= members. Four arrays of
  // kMaxThreadMemberSize Reals (x, stage, k, sum); x from the member's row of initial; steps
  // calls of rk4_step; x to the member's row of final.
}

template <typename Real>
void ensemble_thread_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                                cudaStream_t stream) {
  check_ensemble("ensemble_thread_per_member", members, model, steps, kMaxThreadMemberSize);
  // TODO(step 5): return for members == 0; launch blocks of 64 threads, enough for the members,
  // on `stream`; CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(5);
}

template void ensemble_block_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_block_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);
template void ensemble_thread_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_thread_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);
