// broken: the ensembles of the speed checks' 4096 members do their work only on the calls whose output the grader checks: the grader times 2 warm-up calls and 15 timed ones with the same buffers, checks the output of the last, then makes one more call (traced, checked), so the 3rd to 16th call of each 18 return at once with nothing done. The median timed call is empty: an impossible figure, caught only by the float64 ceiling (without one it read as a great speedup).
// fails: EnsembleSpeed.BlockPerMemberVsOneCpuThread:EnsembleSpeed.ThreadPerMemberVsOneCpuThread
// expect: impossible figure for '08-row-kernels/EnsembleSpeed\.(BlockPerMember|ThreadPerMember)VsOneCpuThread'
// (The rest is the reference solution, row_kernels.cu included whole.)
#include <tuple>

#include "ensemble.h"
#define ensemble_block_per_member reference_ensemble_block_per_member
#define ensemble_thread_per_member reference_ensemble_thread_per_member
#include "solutions/08-row-kernels/ensemble.cu"
#undef ensemble_block_per_member
#undef ensemble_thread_per_member

namespace {

// Whether to skip this call: the 3rd to 16th of each 18 calls in a row with the same arguments,
// for the speed checks' ensembles only (4096 members; the correctness checks use at most 333).
// Kind tells the two steps' counts apart.
template <int Kind, typename... Args>
bool unchecked_call(int members, Args... args) {
  static std::tuple<int, Args...> last;
  static int count = 0;
  const std::tuple<int, Args...> now(members, args...);
  count = count > 0 && now == last ? count + 1 : 1;
  last = now;
  const int place = (count - 1) % 18 + 1;
  return members >= 4096 && place >= 3 && place <= 16;
}

}  // namespace

template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream) {
  if (unchecked_call<0>(members, initial, final, model.size, steps, stream)) return;
  reference_ensemble_block_per_member(initial, final, members, model, steps, stream);
}

template <typename Real>
void ensemble_thread_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                                cudaStream_t stream) {
  if (unchecked_call<1>(members, initial, final, model.size, steps, stream)) return;
  reference_ensemble_thread_per_member(initial, final, members, model, steps, stream);
}

template void ensemble_block_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_block_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);
template void ensemble_thread_per_member<float>(const float*, float*, int, Lorenz96, int, cudaStream_t);
template void ensemble_thread_per_member<double>(const double*, double*, int, Lorenz96, int, cudaStream_t);

#include "solutions/08-row-kernels/row_kernels.cu"
