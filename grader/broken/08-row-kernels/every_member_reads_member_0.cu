// broken: one launch of the solution's kernel per member, as seed 003 looped over its members, but each launch is given member 0's initial state (the input pointer never advances), so every member comes out as member 0: right for member 0, wrong for the others.
// fails: Ensemble.BlockPerMemberMatchesCpu
// expect: values differ from the CPU reference
// (The rest is the reference solution, row_kernels.cu included whole.)
#include "ensemble.h"
#define ensemble_block_per_member reference_ensemble_block_per_member
#include "solutions/08-row-kernels/ensemble.cu"
#undef ensemble_block_per_member

template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream) {
  check_ensemble("ensemble_block_per_member", members, model, steps, kMaxBlockMemberSize);
  for (int m = 0; m < members; ++m)  // the bug: `initial` where initial + m * model.size belongs
    reference_ensemble_block_per_member(initial, final + static_cast<std::size_t>(m) * model.size, 1, model, steps,
                                        stream);
}

template void ensemble_block_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_block_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);

#include "solutions/08-row-kernels/row_kernels.cu"
