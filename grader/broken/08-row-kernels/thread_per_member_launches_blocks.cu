// broken: ensemble_thread_per_member launches step 4's block-per-member kernel (one block per member), so step 5 has no kernel of its own: right values, the step skipped
// fails: Ensemble.ThreadPerMemberMatchesCpu
// expect: step 5 \(ensemble_thread_per_member\) .*ran `[^`]*block_per_member_kernel[^`]*`, the kernel of step 4
// (The rest is the reference solution, row_kernels.cu included whole.)
#include "ensemble.h"
#define ensemble_thread_per_member reference_ensemble_thread_per_member
#include "solutions/08-row-kernels/ensemble.cu"
#undef ensemble_thread_per_member

template <typename Real>
void ensemble_thread_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                                cudaStream_t stream) {
  check_ensemble("ensemble_thread_per_member", members, model, steps, kMaxThreadMemberSize);
  ensemble_block_per_member(initial, final, members, model, steps, stream);
}

template void ensemble_thread_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_thread_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);

#include "solutions/08-row-kernels/row_kernels.cu"
