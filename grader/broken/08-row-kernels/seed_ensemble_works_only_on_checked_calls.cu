// broken: the seed's ensemble of 40 members (100 steps, the speed check's) is integrated only on the calls whose output the grader used to check: of each 18 calls in a row the 3rd to 16th return at once with nothing done (a timing makes 2 warm-up calls, 15 timed, one traced, and checked the output of the last timed and the traced). The median timed call is empty, and at 40 members the float64 ceiling (a chain of 800 dependent instructions, about 0.01 ms) is too close to an empty call's time to catch it, so the grader checks a few random members after every call: the first skipped call leaves poison there.
// fails: EnsembleSpeed.SeedFortyMembersVsOneCpuThread
// expect: the output of a call the grader timed is wrong \(run [0-9]+
// (The rest is the reference solution, row_kernels.cu included whole.)
#include "ensemble.h"
#include "grader/broken/checked_calls.h"
#define ensemble_block_per_member reference_ensemble_block_per_member
#include "solutions/08-row-kernels/ensemble.cu"
#undef ensemble_block_per_member

template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream) {
  if (members == 40 && steps == 100 && broken::unchecked_call<0>(18, initial, final, model.size, steps, stream)) return;
  reference_ensemble_block_per_member(initial, final, members, model, steps, stream);
}

template void ensemble_block_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_block_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);

#include "solutions/08-row-kernels/row_kernels.cu"
