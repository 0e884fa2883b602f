// Lesson 08 reference solution, steps 4 and 5: an ensemble of Lorenz-96 runs, each member an RK4
// integration of its own, built from device functions: one block per member with the state in
// shared memory, and one thread per member with the state in the thread's own arrays.
#include "ensemble.h"

#include <cstddef>

#include "rk4_stages.cuh"
#include "stepwise/check.h"

// ---- The model, as device functions both kernels use --------------------------------------------

// dx[j]/dt of the state x (a ring of n variables), wherever x lives: shared memory in step 4,
// the thread's own array in step 5.
// [docs:tendency]
template <typename Real>
__device__ Real tendency(const Real* x, int j, int n, Real forcing) {
  const int next = j + 1 == n ? 0 : j + 1;
  const int prev = j == 0 ? n - 1 : j - 1;
  const int prev2 = j < 2 ? j + n - 2 : j - 2;
  return (x[next] - x[prev2]) * x[prev] - x[j] + forcing;
}
// [docs:end]

// ---- Step 4: one block per member ----------------------------------------------------------------

// Thread j owns variable j: it keeps x[j] in a register and publishes each stage's input in
// shared memory, where its neighbours read it. Two barriers per stage: after the writes (every
// input is there before anyone reads) and after the reads (nobody overwrites an input that a
// neighbour still needs).
// [docs:block-kernel]
template <typename Real>
__global__ void block_per_member_kernel(const Real* initial, Real* final, int n, Real forcing, Real dt, int steps) {
  extern __shared__ __align__(16) unsigned char stage_bytes[];
  Real* stage = reinterpret_cast<Real*>(stage_bytes);
  const int j = threadIdx.x;
  const bool mine = j < n;  // the block is rounded up to whole warps
  const std::size_t row = static_cast<std::size_t>(blockIdx.x) * n;
  Real x = mine ? initial[row + j] : Real(0);
  for (int step = 0; step < steps; ++step) {
    Real k = 0, sum = 0;
    for (int s = 0; s < 4; ++s) {
      if (mine) stage[j] = stage_input(x, k, s, dt);
      __syncthreads();
      if (mine) k = tendency(stage, j, n, forcing);
      sum += static_cast<Real>(stage_weight(s)) * k;
      __syncthreads();
    }
    x += dt / 6 * sum;
  }
  if (mine) final[row + j] = x;
}
// [docs:end]

template <typename Real>
using BlockPerMemberKernel = void (*)(const Real* initial, Real* final, int n, Real forcing, Real dt, int steps);

// One block per member, the model's variables rounded up to whole warps, the state in shared
// memory. The kernel is an argument so that the grader's broken submissions launch theirs alike.
template <typename Real>
void launch_block_per_member(BlockPerMemberKernel<Real> kernel, const Real* initial, Real* final, int members,
                             Lorenz96 model, int steps, cudaStream_t stream) {
  check_ensemble("ensemble_block_per_member", members, model, steps, kMaxBlockMemberSize);
  if (members == 0) return;
  const int threads = (model.size + 31) / 32 * 32;
  kernel<<<members, threads, model.size * sizeof(Real), stream>>>(
      initial, final, model.size, static_cast<Real>(model.forcing), static_cast<Real>(model.dt), steps);
  CUDA_CHECK_LAUNCH();
}

template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream) {
  launch_block_per_member(block_per_member_kernel<Real>, initial, final, members, model, steps, stream);
}

// ---- Step 5: one thread per member ---------------------------------------------------------------

// One RK4 step of a whole state held by one thread. stage, k and sum are the thread's scratch
// arrays; every loop runs over the n variables one after another.
// [docs:rk4-step]
template <typename Real>
__device__ void rk4_step(Real* x, Real* stage, Real* k, Real* sum, int n, Real forcing, Real dt) {
  for (int j = 0; j < n; ++j) {
    stage[j] = x[j];
    sum[j] = 0;
  }
  for (int s = 0; s < 4; ++s) {
    if (s > 0)
      for (int j = 0; j < n; ++j) stage[j] = stage_input(x[j], k[j], s, dt);
    for (int j = 0; j < n; ++j) k[j] = tendency(stage, j, n, forcing);
    for (int j = 0; j < n; ++j) sum[j] += static_cast<Real>(stage_weight(s)) * k[j];
  }
  for (int j = 0; j < n; ++j) x[j] += dt / 6 * sum[j];
}
// [docs:end]

// [docs:thread-kernel]
template <typename Real>
__global__ void thread_per_member_kernel(const Real* initial, Real* final, int members, int n, Real forcing, Real dt,
                                         int steps) {
  const int member = blockIdx.x * blockDim.x + threadIdx.x;
  if (member >= members) return;
  Real x[kMaxThreadMemberSize], stage[kMaxThreadMemberSize], k[kMaxThreadMemberSize], sum[kMaxThreadMemberSize];
  const std::size_t row = static_cast<std::size_t>(member) * n;
  for (int j = 0; j < n; ++j) x[j] = initial[row + j];
  for (int step = 0; step < steps; ++step) rk4_step(x, stage, k, sum, n, forcing, dt);
  for (int j = 0; j < n; ++j) final[row + j] = x[j];
}
// [docs:end]

template <typename Real>
void ensemble_thread_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                                cudaStream_t stream) {
  check_ensemble("ensemble_thread_per_member", members, model, steps, kMaxThreadMemberSize);
  if (members == 0) return;
  constexpr int kThreads = 64;
  // Rounded up as (members - 1) / 64 + 1: members + 63 would overflow int near INT_MAX.
  thread_per_member_kernel<<<(members - 1) / kThreads + 1, kThreads, 0, stream>>>(
      initial, final, members, model.size, static_cast<Real>(model.forcing), static_cast<Real>(model.dt), steps);
  CUDA_CHECK_LAUNCH();
}

template void ensemble_block_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_block_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);
template void ensemble_thread_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_thread_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);
