#pragma once
// For the broken submissions that replace block_per_member_kernel: the launcher, as the
// solution's, calling the replacement (define block_per_member_kernel before including this).
template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream) {
  check_ensemble("ensemble_block_per_member", members, model, steps, kMaxBlockMemberSize);
  if (members == 0) return;
  const int threads = (model.size + 31) / 32 * 32;
  block_per_member_kernel<<<members, threads, model.size * sizeof(Real), stream>>>(
      initial, final, model.size, static_cast<Real>(model.forcing), static_cast<Real>(model.dt), steps);
  CUDA_CHECK_LAUNCH();
}

template void ensemble_block_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_block_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);
